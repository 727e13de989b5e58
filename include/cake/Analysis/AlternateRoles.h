// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- AlternateRoles.h - Consumer roles on alternate tiles -----*- C++ -*-===//
//
// What the cost model charges when two or more consumer roles take
// alternate tiles of a CTA (`cake.tiles ... slice k of n`: the ping-pong
// GEMMs). How those roles line up decides the tile's time, beyond the
// tensor-core work they share:
//  - with turns (cake.role_turns) one role's main loop runs at a time, at
//    the full mma rate, fed by its own pipes alone, while the others run
//    their epilogues;
//  - without turns the roles run in phase: their main loops share the
//    tensor cores and their epilogues coincide, so the tensor cores idle
//    through them.
// Fitted to GEMM run 16 (docs/benchmarks/gemm.md; docs/cost-model.md says
// which revision saw which data).
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ANALYSIS_ALTERNATEROLES_H
#define CAKE_ANALYSIS_ALTERNATEROLES_H

#include "cake/Dialect/CakeDialect.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace mlir {
namespace cake {

/// A consumer role as the bound sees it, per tile of the CTA's sequence
/// (the role's share of it, as every per-tile figure of the model).
struct AlternateRole {
  RoleOp role;
  int64_t slices = 1;    ///< n of its tiles' `slice k of n`
  double mmaNs = 0;      ///< its mma issue
  double mainNs = 0;     ///< its main loops: mma issue and hand-offs
  double epilogueNs = 0; ///< the rest of its tile: ALU work and stores
  /// Its pipes feeding its main loop alone at the mma's rate: the stages
  /// filled ahead at once, then a stage a round trip over the stages in
  /// flight (0 when it reads no pipe).
  double feedNs = 0;
  /// Its main loop reads a dealt pipe: one ring shared with the other
  /// consumer roles, every stage ahead of the role in its turn.
  bool dealtFeed = false;
};

/// The per-tile time such roles impose, and which form decided it.
struct AlternateBound {
  double ns = 0;
  std::string term;   ///< "role-turns" or "in-phase-epilogues"; empty: none
  std::string detail; ///< for the report
};

/// The bound of the kernel's roles on alternate tiles among `roles`
/// (those with slices >= 2 that issue mma); none with fewer than two.
AlternateBound alternateRolesBound(KernelOp kernel,
                                   llvm::ArrayRef<AlternateRole> roles);

/// What one pipe's feed of a turn costs, per tile of the CTA's sequence:
/// `steps` stage steps of the role's share (a role on slice k of n runs
/// whole tiles, n times as many steps, once every n tiles), each held
/// `holdNs`, a stage's round trip `roundTripNs`, `inFlight` stages filled
/// ahead while the other roles took their turns.
double turnFeedNs(double steps, int64_t slices, double holdNs,
                  double roundTripNs, int64_t inFlight);

} // namespace cake
} // namespace mlir

#endif // CAKE_ANALYSIS_ALTERNATEROLES_H
