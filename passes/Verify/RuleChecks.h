// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- RuleChecks.h - The checks of cake-verify (private) -------*- C++ -*-===//
//
// What the rule files of passes/Verify/ share: the facts of one kernel and
// one check function per rule (or group of rules that read the same walk).
// Each check reports through emitRuleError and returns false on a
// violation. The pass (VerifyPass.cpp) runs them in a fixed order.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_PASSES_VERIFY_RULECHECKS_H
#define CAKE_PASSES_VERIFY_RULECHECKS_H

#include "cake/Analysis/KernelLayout.h"
#include "cake/Dialect/CakeDialect.h"
#include "cake/Target/TargetInfo.h"
#include "cake/Verify/Rules.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <optional>
#include <string>

namespace mlir {
namespace cake {
namespace verify {

/// The kernel-level facts rules share: pipe and ring numbering, targets.
struct KernelFacts {
  KernelOp kernel;
  const TargetInfo *target = nullptr;
  llvm::DenseMap<Value, unsigned> pipeIndex, ringIndex;
  SmallVector<RoleOp> roles;
  /// Warps as launched: warpgroup roles start at a multiple of 4, and the
  /// padding warps in between hold registers too (cake-derive's count).
  int64_t launchWarps = 0;

  explicit KernelFacts(KernelOp k) : kernel(k) {
    target = lookupTarget(k.getTarget().getArch());
    for (auto p : k.getBody().getOps<PipeOp>())
      pipeIndex[p.getResult()] = pipeIndex.size();
    for (auto r : k.getBody().getOps<RingOp>())
      ringIndex[r.getResult()] = ringIndex.size();
    roles.assign(k.getBody().getOps<RoleOp>().begin(),
                 k.getBody().getOps<RoleOp>().end());
    launchWarps = computeRoleWarps(k).totalWarps;
  }
  /// Whether `pipe` holds `buffer` (a ring or tensor memory).
  static bool pipeHolds(Value pipe, Value buffer) {
    auto p = pipe.getDefiningOp<PipeOp>();
    return p && llvm::is_contained(p.getBuffers(), buffer);
  }
};

//===----------------------------------------------------------------------===//
// Hand-off counting (TripCount.cpp): per role, a polynomial in loop trip
// counts.
//===----------------------------------------------------------------------===//

/// monomial (sorted trip keys joined by '*') -> coefficient
using Count = std::map<std::string, int64_t>;

/// The polynomial as text: "2*trip(c0..arg1 by c64)*tiles + 1".
std::string countStr(const Count &c);

/// " at line N" for an op with a file location, "" otherwise: names the
/// branch or loop of a path in a diagnostic.
std::string where(Operation *op);

/// The trip count of an scf.for of constant bounds and positive step, or
/// nothing (other loops, and counts past 2^30, which no pipe's counting
/// needs and whose products could overflow).
std::optional<int64_t> constantTripCount(Operation *op);

/// Where each condition of a Count was met: the first scf.if on it, and
/// whether that scf.if's condition is the key's negation.
using ConditionSites = std::map<std::string, std::pair<Operation *, bool>>;

/// Counts the ops `match` accepts in `block`, as a polynomial in loop trip
/// counts and conditions: an scf.if whose condition has a key
/// (cake/Analysis/IndexExpr.h conditionKey) contributes [c]·then +
/// (1 − [c])·else, with [c] a factor "[key]" (idempotent). Sets
/// `unprovenAt` (if still null) to the first op whose trip count or
/// condition has no canonical key, or whose control flow is neither a loop
/// nor an scf.if. `sites` (if given) learns where each condition is tested.
Count countOps(Block &block, llvm::function_ref<bool(Operation *)> match,
               KernelOp kernel, Operation *&unprovenAt,
               ConditionSites *sites = nullptr);

/// The kernel attribute (a unit) by which a kernel's author accepts counts
/// the verifier cannot prove on every path (hand-offs or barrier passes
/// under scf.while, or under loops and conditions only one role can see):
/// sync.trip-count-mismatch and sync.named-barrier then warn instead of
/// rejecting the kernel.
inline constexpr llvm::StringLiteral kTrustCountsAttrName = "cake.trust_counts";

/// A count that countOps could not key or compareCounts could not prove
/// (scf.while, a loop bound or an scf.if condition that only one role can
/// see): an error of `rule` on `anchor` naming `unprovenAt` (null: the
/// roles test different conditions), or, in a kernel marked
/// `cake.trust_counts`, a warning. `what` streams the counts' subject
/// ("role "a" waits on pipe #0 as often as role "b" commits"). Returns
/// false for the error.
bool reportUnprovenCount(KernelOp kernel, Operation *anchor, RuleId rule,
                         llvm::function_ref<void(Diagnostic &)> what,
                         Operation *unprovenAt);

/// Two counts compared path by path. `equal` if they agree on every path;
/// otherwise `proven` when the conditions of one are among the other's (a
/// difference then shows on some path: `path` names its branches at
/// `sites`, and `lhsOnPath`, `rhsOnPath` are the counts there), not proven
/// when each side tests conditions the other does not (they may be equal
/// conditions written differently).
struct CountComparison {
  bool equal = true, proven = true;
  std::string path;
  Count lhsOnPath, rhsOnPath;
};
CountComparison compareCounts(const Count &lhs, const Count &rhs,
                              const ConditionSites &sites);

//===----------------------------------------------------------------------===//
// The checks, by rule family
//===----------------------------------------------------------------------===//

// sync (Sync.cpp, TripCount.cpp, Deadlock.cpp)
bool checkPipeRoles(KernelFacts &f);      ///< sync.pipe-roles
/// sync.unbalanced-pipe, sync.use-after-handoff
bool checkHandoffBalance(KernelFacts &f);
bool checkExpectTx(KernelFacts &f);       ///< sync.expect-tx-balance
bool checkTiles(KernelFacts &f);          ///< sync.tiles-mismatch
bool checkProxyFence(KernelFacts &f);     ///< sync.proxy-fence
bool checkFillKind(KernelFacts &f);       ///< sync.fill-kind
bool checkNamedBarriers(KernelFacts &f);  ///< sync.named-barrier
bool checkRoleTurns(KernelFacts &f);      ///< sync.role-turn
bool checkDealtPipes(KernelFacts &f);     ///< sync.dealt-pipe
bool checkTripCounts(KernelFacts &f);     ///< sync.trip-count-mismatch
bool checkDeadlock(KernelFacts &f);       ///< sync.deadlock
bool checkMulticastUniform(KernelFacts &f); ///< sync.multicast-uniform

// resource (Resource.cpp)
/// resource.threads, resource.register-budget, hw.arch-feature (setmaxnreg)
bool checkRoleResources(KernelFacts &f);
bool checkSharedMemory(KernelFacts &f);      ///< resource.smem-capacity
bool checkTensorMemory(KernelFacts &f);      ///< resource.tmem-capacity
bool checkTcgen05Issuer(KernelFacts &f);     ///< sync.tcgen05-issuer
bool checkFragmentRegisters(KernelFacts &f); ///< resource.fragment-registers

// dataflow (Dataflow.cpp)
/// dataflow.read-outside-wait, dataflow.write-outside-acquire
bool checkStageAccess(KernelFacts &f);
bool checkRoleScoping(KernelFacts &f);   ///< dataflow.handoff-outside-role
bool checkTileCoverage(KernelFacts &f);  ///< dataflow.tile-coverage
bool checkStoreCoverage(KernelFacts &f); ///< dataflow.store-coverage
bool checkFragmentLayout(KernelFacts &f); ///< dataflow.fragment-layout
bool checkTopKLinear(KernelFacts &f);     ///< dataflow.topk-linear
// SharedCode.cpp
bool checkSharedCode(KernelFacts &f); ///< dataflow.shared-code

// hw (Hardware.cpp)
/// hw.arch-feature, hw.warpgroup-alignment, hw.mma-smem-descriptor
bool checkHardwareFeatures(KernelFacts &f);
/// hw.arch-feature: the target has a lowering (for a kernel nothing else
/// rejects).
bool checkTargetLowered(KernelFacts &f);
bool checkTmaStrides(KernelFacts &f); ///< hw.tma-alignment (static shapes)

} // namespace verify
} // namespace cake
} // namespace mlir

#endif // CAKE_PASSES_VERIFY_RULECHECKS_H
