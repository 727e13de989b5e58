// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CostDiff.h - Why one candidate is predicted faster -------*- C++ -*-===//
//
// Attribution for agents: two cost reports of the same problem, compared
// term by term. The time terms (the resources' times, each role's per-tile
// times, the pipes' bounds, the tile) are ordered by how much they moved;
// the decisions behind them (stages, CTAs per SM, tiles per CTA, bytes
// moved) are listed beside; the resource term that moved most among the
// two bottlenecks is named as the one that decided.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ANALYSIS_COSTDIFF_H
#define CAKE_ANALYSIS_COSTDIFF_H

#include "cake/Analysis/CostModel.h"

#include <string>
#include <vector>

namespace mlir {
namespace cake {

/// One term of two reports: its name ("resources.tensor-core.ns",
/// "roles.mma.per_tile_ns.alu", "pipes.pipe #0.stages", ...) and values.
struct CostTermDelta {
  std::string term;
  double a = 0, b = 0;
};

struct CostDiff {
  std::string kernelA, kernelB;
  double predictedA = 0, predictedB = 0;
  std::string bottleneckA, bottleneckB;
  /// Time terms (ns) that differ, the largest |b - a| first.
  std::vector<CostTermDelta> times;
  /// Other terms that differ (counts, bytes), in report order.
  std::vector<CostTermDelta> decisions;
  /// The resource term that moved most among the two bottlenecks (empty
  /// when the predictions are equal).
  std::string decidedBy;
};

/// Compares `a` and `b` (reports of the same problem).
CostDiff diffCostReports(const CostReport &a, const CostReport &b);

/// The comparison as one JSON object (cJSON).
std::string costDiffToJson(const CostDiff &diff);

} // namespace cake
} // namespace mlir

#endif // CAKE_ANALYSIS_COSTDIFF_H
