// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- RoleTurns.cpp - sync.role-turn: roles that take turns --------------===//
//
// Roles named by cake.role_turns issue their tiles' main loops one at a
// time (cake/Analysis/RoleTurns.h). The turns are named barriers the
// deadlock search does not model, so this rule keeps every wait inside a
// turn independent of the other turns: what a turn waits on must be filled
// by a role that never waits on another turn role.
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/RoleTurns.h"
#include "RuleChecks.h"
#include "cake/Analysis/Handoffs.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

/// The pipes whose hand-offs `root` (a role, or an op inside one) takes part
/// in.
static llvm::SetVector<Value> pipesUsedBy(Operation *root) {
  llvm::SetVector<Value> pipes;
  root->walk([&](Operation *op) {
    if (isa<PipeAcquireOp, PipeCommitOp, PipeWaitOp, PipeReleaseOp>(op))
      pipes.insert(op->getOperand(0));
  });
  return pipes;
}

bool verify::checkRoleTurns(KernelFacts &f) {
  std::string error;
  FailureOr<RoleTurns> parsed = getRoleTurns(f.kernel, error);
  if (failed(parsed)) {
    emitRuleError(f.kernel, RuleId::SyncRoleTurn) << error;
    return false;
  }
  const RoleTurns &turns = *parsed;
  if (turns.empty())
    return true;
  int64_t n = turns.roles.size();
  auto turnRoleOf = [&](Value pipe) {
    SmallVector<RoleOp> sides;
    if (auto p = pipe.getDefiningOp<PipeOp>()) {
      auto [producer, consumer] = pipeRoles(p);
      for (RoleOp r : {producer, consumer})
        if (r && turns.indexOf(r) >= 0 && !llvm::is_contained(sides, r))
          sides.push_back(r);
    }
    return sides;
  };

  // No pipe between two turn roles: each would wait for the other. (A
  // dealt pipe's consumers take its stages in turn order: sync.dealt-pipe.)
  for (auto p : f.kernel.getBody().getOps<PipeOp>()) {
    if (dealtPipe(p))
      continue;
    SmallVector<RoleOp> sides = turnRoleOf(p.getResult());
    if (sides.size() < 2)
      continue;
    emitRuleError(p, RuleId::SyncRoleTurn)
        << DiagPipe{f.pipeIndex.lookup(p.getResult())} << " connects "
        << DiagRole{sides[0].getName()} << " and "
        << DiagRole{sides[1].getName()}
        << ", which take turns (cake.role_turns): one would wait on a stage "
           "the other hands over only in its own turn";
    return false;
  }

  bool ok = true;
  for (int64_t i = 0; i < n; ++i) {
    RoleOp role = turns.roles[i];
    SmallVector<TilesOp> loops;
    role.walk([&](TilesOp t) { loops.push_back(t); });
    if (loops.size() != 1) {
      emitRuleError(role, RuleId::SyncRoleTurn)
          << DiagRole{role.getName()}
          << " takes turns (cake.role_turns) but has " << loops.size()
          << " tile loops; a turn is taken once per tile of "
             "its one tile loop";
      ok = false;
      continue;
    }
    TilesOp tiles = loops.front();
    auto [k, of] = tiles.getSliceOrWhole();
    if (k != i || of != n) {
      InFlightDiagnostic d =
          emitRuleError(tiles, RuleId::SyncRoleTurn)
          << DiagRole{role.getName()} << " is turn " << i << " of " << n
          << " (cake.role_turns) but its tile loop takes slice " << k << " of "
          << of
          << ": the turns alternate over the CTA's tiles only if turn i "
             "takes their slice i";
      d.attachNote(tiles.getLoc()) << "hint: slice " << i << " of " << n;
      ok = false;
      continue;
    }
    auto [first, last] = roleTurnSpan(tiles);
    if (!first) {
      emitRuleError(tiles, RuleId::SyncRoleTurn)
          << DiagRole{role.getName()}
          << " takes turns (cake.role_turns) but its tile loop issues no "
             "cake.mma to take them over";
      ok = false;
      continue;
    }
    // Every wait inside the turn: its filling role must not also hand off
    // with another turn role, or it may block on that role's stages while
    // that role waits for this turn to end.
    for (Operation *op = first;; op = op->getNextNode()) {
      bool stop = false;
      op->walk([&](PipeWaitOp wait) {
        if (stop)
          return;
        auto [producer, consumer] =
            pipeRoles(wait.getPipe().getDefiningOp<PipeOp>());
        if (!producer || producer == role)
          return;
        for (Value other : pipesUsedBy(producer)) {
          // The stages of a dealt pipe come in the turns' order: the
          // producer fills this turn's before the next one's.
          if (auto p = other.getDefiningOp<PipeOp>(); p && dealtPipe(p))
            continue;
          for (RoleOp r : turnRoleOf(other)) {
            if (r == role)
              continue;
            InFlightDiagnostic d =
                emitRuleError(wait, RuleId::SyncRoleTurn)
                << DiagRole{role.getName()} << " waits on "
                << DiagPipe{f.pipeIndex.lookup(wait.getPipe())}
                << " inside its turn (cake.role_turns), filled by "
                << DiagRole{producer.getName()} << ", which also hands off "
                << DiagPipe{f.pipeIndex.lookup(other)} << " with "
                << DiagRole{r.getName()} << ": it can block on that pipe while "
                << DiagRole{r.getName()}
                << " waits for this turn to end, and the CTA hangs";
            d.attachNote(producer.getLoc())
                << "hint: give each turn role its own filling role (a warp "
                   "each is enough for TMA copies)";
            stop = true;
            return;
          }
        }
      });
      // A named barrier the turn passes with another turn role, which
      // reaches it only in its own turn.
      op->walk([&](BarrierSyncOp bar) {
        if (stop)
          return;
        for (RoleOp r : turns.roles) {
          if (r == role)
            continue;
          r.walk([&](BarrierSyncOp other) {
            if (stop || other.getId() != bar.getId())
              return;
            emitRuleError(bar, RuleId::SyncRoleTurn)
                << DiagRole{role.getName()} << " passes named barrier "
                << bar.getId() << " inside its turn (cake.role_turns) with "
                << DiagRole{r.getName()}
                << ", which reaches it only in its own turn";
            stop = true;
          });
        }
      });
      if (stop) {
        ok = false;
        break;
      }
      if (op == last)
        break;
    }
  }
  if (!ok)
    return false;

  int64_t lastId = turns.barrierBase + n - 1;
  if (f.target && lastId >= f.target->namedBarriers) {
    emitRuleError(f.kernel, RuleId::SyncRoleTurn)
        << "the " << n << " role turns (cake.role_turns) need named barriers "
        << turns.barrierBase << ".." << lastId << ", past the "
        << f.target->namedBarriers << " of a CTA on " << f.target->arch;
    return false;
  }
  return true;
}
