// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- SharedCode.h - Roles that run one copy of code -----------*- C++ -*-===//
//
// A role marked shares_code_with("h0") runs the body of role "h0": the two
// bodies are equal op for op but for their constants and the pipes and
// rings they use. The rule dataflow.shared-code checks the match and the
// lowering emits the body once, selecting what differs by the warp's role.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ANALYSIS_SHAREDCODE_H
#define CAKE_ANALYSIS_SHAREDCODE_H

#include "cake/Dialect/CakeDialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir {
namespace cake {

/// What a role that shares another's code uses in place of that role's:
/// the constants whose values differ (the leader's arith.constant op to
/// the follower's), the kernel-level pipes and rings (the leader's to the
/// follower's; only those that differ), and every op (the leader's to the
/// follower's at the same place: cake-derive gives each role its own
/// scratch and named barrier, which the `derived` attributes record and
/// the comparison leaves out).
struct SharedCodeMatch {
  llvm::DenseMap<Operation *, Operation *> constants;
  llvm::DenseMap<Value, Value> resources;
  llvm::DenseMap<Operation *, Operation *> ops;
};

/// The role of `role`'s kernel named by its shares_code_with, or null
/// (none named, or no role of that name).
RoleOp sharedCodeLeader(RoleOp role);

/// The roles whose shares_code_with names `leader`, in kernel order.
SmallVector<RoleOp> sharedCodeFollowers(RoleOp leader);

/// Compares `follower`'s body with `leader`'s. On a difference returns
/// failure with `where` set to the follower's op that differs (or the
/// role) and `why` to what differs.
FailureOr<SharedCodeMatch> matchSharedCode(RoleOp leader, RoleOp follower,
                                           Operation *&where, std::string &why);

} // namespace cake
} // namespace mlir

#endif // CAKE_ANALYSIS_SHAREDCODE_H
