// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- RoleTurns.h - Roles taking turns over main loops ---------*- C++ -*-===//
//
// Ping-pong between roles (CUTLASS's ping-pong GEMM): consumer roles on
// alternate tiles (`cake.tiles ... slice i of n`) issue their tiles' main
// loops one role at a time, in the order the kernel names them, so that
// one role's epilogue runs while the next one's wgmmas hold the tensor
// cores. The decision is the kernel attribute; the named barriers, their
// ids and thread counts, and where a turn starts and ends are derived here,
// for the rule (sync.role-turn) and the lowering alike.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ANALYSIS_ROLETURNS_H
#define CAKE_ANALYSIS_ROLETURNS_H

#include "cake/Dialect/CakeDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <string>
#include <utility>

namespace mlir {
namespace cake {

/// The kernel attribute (an array of role names) by which a kernel's author
/// makes those roles take turns over their tiles' main loops, in that
/// order: `cake.role_turns = ["mma", "mma_1"]`.
inline constexpr llvm::StringLiteral kRoleTurnsAttrName = "cake.role_turns";

struct RoleTurns {
  /// The roles in turn order; empty when the kernel has no turns.
  llvm::SmallVector<RoleOp> roles;
  /// Role i waits for its turn on named barrier `barrierBase + i`; the role
  /// before it (cyclically) arrives there when its turn ends.
  int64_t barrierBase = 0;

  bool empty() const { return roles.empty(); }
  /// The index of `role` in the turn order, or -1.
  int indexOf(RoleOp role) const;
  /// The threads that pass barrier `barrierBase + i`: role i's, which wait
  /// on it, and the previous role's, which arrive.
  int64_t barrierThreads(unsigned i) const;
};

/// The kernel's role turns (none without the attribute). Fails, with the
/// reason in `error`, when the attribute is not an array of two or more
/// distinct names of the kernel's roles.
FailureOr<RoleTurns> getRoleTurns(KernelOp kernel, std::string &error);

/// Where a turn spans in a tile loop's body: from the first op of the
/// body's block that is or holds a cake.mma to the last one (both null
/// when the body has none). The role waits for its turn before the first
/// and hands it on once the last is issued.
std::pair<Operation *, Operation *> roleTurnSpan(TilesOp tiles);

} // namespace cake
} // namespace mlir

#endif // CAKE_ANALYSIS_ROLETURNS_H
