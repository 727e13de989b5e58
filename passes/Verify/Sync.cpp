// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Sync.cpp - The sync rules: the protocol between roles --------------===//
//
// Pipe roles, balanced hand-offs, expect-tx bytes, tile sequences, proxy
// fences, named barriers and warpgroup turns. Trip counts and the deadlock
// search have their own files (TripCount.cpp, Deadlock.cpp).
//
//===----------------------------------------------------------------------===//

#include "RuleChecks.h"
#include "cake/Analysis/Handoffs.h"
#include "cake/Analysis/IndexExpr.h"
#include "cake/Analysis/MmaChains.h"
#include "cake/Verify/Checks.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

/// A turn deadlocks when the warpgroup holding it waits on a pipe stage
/// whose refill needs the other warpgroups to release a stage of this same
/// iteration: they release only after their own turns. With S stages and
/// the iteration's w waits on the pipe (counted from the block's first),
/// a wait under the turn is safe only if w <= S and no stage of the pipe
/// is held across the chain's block, waited before the op that holds the
/// block and released after it (k-means run 16: the D = 256 kernel, four
/// waits on a two-stage ring, hung). The turn spans what
/// warpgroupTurnEnd says: the chain, or under retire-late the step's
/// wgmmas up to the first op that reads one. Reports the first such wait.
LogicalResult mlir::cake::verifyWarpgroupTurns(RoleOp role, bool retireLate) {
  // A stage of `pipe` waited in a block enclosing `block`, before the op
  // that holds `block`, and released after that op.
  auto heldAcross = [](Value pipe, Block *block) {
    for (Operation *holder = block->getParentOp(); holder;
         holder = holder->getParentOp()) {
      if (isa<RoleOp>(holder))
        return false;
      for (Operation *op = holder->getPrevNode(); op; op = op->getPrevNode()) {
        auto wait = dyn_cast<PipeWaitOp>(op);
        if (!wait || wait.getPipe() != pipe)
          continue;
        for (Operation *user : wait.getResult().getUsers())
          if (auto release = dyn_cast<PipeReleaseOp>(user);
              release && release->getBlock() == holder->getBlock() &&
              holder->isBeforeInBlock(release))
            return true;
      }
    }
    return false;
  };
  for (auto [first, last] : warpgroupTurnChains(role)) {
    Block *block = first->getBlock();
    Operation *end = warpgroupTurnEnd(first, last, retireLate);
    bool underTurn = false;
    for (Operation &op : *block) {
      if (&op == end)
        break;
      if (&op == first.getOperation())
        underTurn = true;
      auto wait = dyn_cast<PipeWaitOp>(&op);
      if (!underTurn || !wait)
        continue;
      Value pipe = wait.getPipe();
      int64_t stages = cast<PipeType>(pipe.getType()).getStages();
      int64_t waits = 0;
      for (Operation &o : *block) {
        if (&o == end)
          break;
        if (auto w = dyn_cast<PipeWaitOp>(&o); w && w.getPipe() == pipe)
          ++waits;
      }
      bool heldOutside = heldAcross(pipe, block);
      if (waits <= stages && !heldOutside)
        continue;
      InFlightDiagnostic diag = emitRuleError(wait, RuleId::SyncWarpgroupTurn)
                                << DiagRole{role.getName()}
                                << " would deadlock when its warpgroups "
                                   "take turns (wg-order): this wait is "
                                   "inside a turn, but ";
      if (heldOutside)
        diag << "the pipe holds a stage across the chain's block";
      else
        diag << "the turn waits " << waits << " times on a pipe of " << stages
             << " stages";
      diag << ", which the other warpgroups release only in their own turns";
      diag.attachNote(first.getLoc()) << "the turn starts at this wgmma";
      if (heldOutside)
        diag.attachNote(first.getLoc())
            << "hint: release the pipe's stages before the chain's block, "
               "or lower without wg-order";
      else
        diag.attachNote(first.getLoc())
            << "hint: give the pipe at least " << waits
            << " stages, or lower without wg-order";
      return failure();
    }
  }
  return success();
}

/// sync.named-barrier: the roles that pass a named barrier are the ones
/// its thread count counts, and they pass it equally often.
bool verify::checkNamedBarriers(KernelFacts &f) {
  bool ok = true;
  std::map<int64_t, SmallVector<BarrierSyncOp>> byId;
  f.kernel.walk([&](BarrierSyncOp op) { byId[op.getId()].push_back(op); });
  for (auto &[id, ops] : byId) {
    SmallVector<RoleOp> roles;
    for (BarrierSyncOp op : ops) {
      auto role = op->getParentOfType<RoleOp>();
      if (role && !llvm::is_contained(roles, role))
        roles.push_back(role);
    }
    int64_t threads = 0;
    for (RoleOp role : roles)
      threads += role.getNumWarps() * 32;
    for (BarrierSyncOp op : ops)
      if (int64_t(op.getThreads()) != threads) {
        InFlightDiagnostic d =
            emitRuleError(op, RuleId::SyncNamedBarrier)
            << "named barrier " << id << " counts " << op.getThreads()
            << " threads but the roles that pass it have " << threads;
        for (RoleOp role : roles)
          d.attachNote(role.getLoc())
              << DiagRole{role.getName()} << " passes it with "
              << role.getNumWarps() * 32 << " threads";
        d.attachNote(op.getLoc())
            << "hint: threads(" << threads
            << "), or move the barrier into the roles it should order";
        ok = false;
        break;
      }
    // Every participant passes the barrier equally often, or the last
    // passes of the busier role wait forever.
    Operation *unprovenAt = nullptr;
    ConditionSites sites;
    std::optional<Count> first;
    RoleOp firstRole;
    for (RoleOp role : roles) {
      Count c = countOps(
          role.getBody().front(),
          [&](Operation *op) {
            auto b = dyn_cast<BarrierSyncOp>(op);
            return b && int64_t(b.getId()) == id;
          },
          f.kernel, unprovenAt, &sites);
      if (!first) {
        first = c;
        firstRole = role;
        continue;
      }
      CountComparison cmp = compareCounts(c, *first, sites);
      if (unprovenAt || !cmp.proven) {
        ok &= reportUnprovenCount(
            f.kernel, role, RuleId::SyncNamedBarrier,
            [&](Diagnostic &d) {
              d << DiagRole{role.getName()} << " passes named barrier " << id
                << " as often as " << DiagRole{firstRole.getName()};
            },
            unprovenAt);
        break;
      }
      if (!cmp.equal) {
        InFlightDiagnostic d = emitRuleError(role, RuleId::SyncNamedBarrier)
                               << DiagRole{role.getName()}
                               << " passes named barrier " << id << " "
                               << countStr(cmp.lhsOnPath) << " times but "
                               << DiagRole{firstRole.getName()} << " passes it "
                               << countStr(cmp.rhsOnPath) << " times";
        if (!cmp.path.empty())
          d << " on the path where " << cmp.path;
        d.attachNote(firstRole.getLoc()) << "the other role";
        ok = false;
      }
    }
  }
  // The ids derived for ops with a scratch (frag.row, frag.scan down,
  // frag.tril_inverse, smem.reduce, shared top-k lists) and topk.admits
  // come after the explicit ones.
  DerivedBarriers derived = computeDerivedBarriers(f.kernel);
  if (!derived.roleIds.empty() && derived.last >= f.target->namedBarriers) {
    Operation *first = nullptr;
    f.kernel.walk([&](Operation *op) {
      if (!first && needsRoleBarrier(op))
        first = op;
    });
    emitRuleError(first, RuleId::SyncNamedBarrier)
        << "'" << first->getName()
        << "' needs a named barrier for its role: with the kernel's "
           "cake.barrier.sync ids that reaches id "
        << derived.last << ", past the " << f.target->namedBarriers - 1
        << " a CTA of " << f.target->arch << " has";
    ok = false;
  }
  return ok;
}

/// sync.pipe-roles
bool verify::checkPipeRoles(KernelFacts &f) {
  bool ok = true;
  for (auto pipe : f.kernel.getBody().getOps<PipeOp>()) {
    unsigned index = f.pipeIndex.lookup(pipe);
    llvm::SetVector<RoleOp> producers, consumers;
    f.kernel.walk([&](Operation *user) {
      if (user->getNumOperands() == 0 || user->getOperand(0) != pipe)
        return;
      auto role = user->getParentOfType<RoleOp>();
      if (!role)
        return;
      if (isa<PipeAcquireOp, PipeCommitOp>(user))
        producers.insert(role);
      else if (isa<PipeWaitOp, PipeReleaseOp>(user))
        consumers.insert(role);
    });
    auto describe = [&](const char *side, llvm::SetVector<RoleOp> &roles) {
      InFlightDiagnostic d = emitRuleError(pipe, RuleId::SyncPipeRoles)
                             << DiagPipe{index} << " has " << roles.size()
                             << " " << side << " roles, expected exactly one";
      for (RoleOp r : f.roles)
        if (roles.contains(r))
          d.attachNote(r.getLoc()) << side << " " << DiagRole{r.getName()};
      ok = false;
    };
    if (producers.size() != 1)
      describe("producer", producers);
    // Several consumers deal the stages by tiles (sync.dealt-pipe checks
    // how).
    if (consumers.empty())
      describe("consumer", consumers);
    // One role may fill and drain its own pipe: by TMA (a kernel that is
    // not warp specialized: its leader issues the copies, every thread
    // waits for the bytes) or by its own stores (a fragment staged as an
    // MMA operand: each warp arrives on the full barrier after its lanes
    // converged, so the wait is a barrier among the role's own warps, and
    // sync.proxy-fence asks for the fence the tensor cores need). Whether
    // the role's order can make progress is sync.deadlock's question.
  }
  return ok;
}

/// sync.unbalanced-pipe and sync.use-after-handoff
bool verify::checkHandoffBalance(KernelFacts &f) {
  bool ok = true;
  auto check = [&](Operation *take, Value stage, bool producer) {
    RoleOp role = take->getParentOfType<RoleOp>();
    StringRef roleName = role ? role.getName() : StringRef("?");
    unsigned pipe = f.pipeIndex.lookup(take->getOperand(0));
    SmallVector<Operation *> closes;
    for (Operation *user : stage.getUsers())
      if (producer ? isa<PipeCommitOp>(user) : isa<PipeReleaseOp>(user))
        closes.push_back(user);
    const char *closeName = producer ? "commit" : "release";
    if (closes.size() != 1) {
      InFlightDiagnostic d = emitRuleError(take, RuleId::SyncUnbalancedPipe)
                             << DiagRole{roleName} << ": the stage of "
                             << DiagPipe{pipe} << " taken here is "
                             << (closes.empty() ? "never " : "more than once ")
                             << (producer ? "committed" : "released");
      for (Operation *c : closes)
        d.attachNote(c->getLoc()) << closeName << " here";
      d.attachNote(take->getLoc())
          << "hint: " << closeName << " each stage exactly once, in the block "
          << "that " << (producer ? "acquired" : "waited for") << " it";
      ok = false;
      return;
    }
    Operation *close = closes.front();
    if (close->getBlock() != take->getBlock()) {
      InFlightDiagnostic d = emitRuleError(close, RuleId::SyncUnbalancedPipe)
                             << DiagRole{roleName} << ": the " << closeName
                             << " of a stage of " << DiagPipe{pipe}
                             << " is not in the block that took it, so it "
                                "may not run exactly once per hand-off";
      d.attachNote(take->getLoc()) << "stage taken here";
      ok = false;
      return;
    }
    if (close->getParentOp() && take->isBeforeInBlock(close) == false) {
      emitRuleError(close, RuleId::SyncUnbalancedPipe)
          << DiagRole{roleName} << ": " << closeName
          << " comes before the stage was taken";
      ok = false;
      return;
    }
    // Nothing touches the stage after it was handed back.
    for (Operation *user : stage.getUsers()) {
      if (user == close)
        continue;
      Operation *anc = close->getBlock()->findAncestorOpInBlock(*user);
      if (anc && close->isBeforeInBlock(anc)) {
        InFlightDiagnostic d =
            emitRuleError(user, RuleId::SyncUseAfterHandoff)
            << DiagRole{roleName} << " uses a stage of " << DiagPipe{pipe}
            << " after its " << closeName << "; the other side may already be "
            << (producer ? "reading" : "overwriting") << " it";
        d.attachNote(close->getLoc()) << closeName << " here";
        ok = false;
      }
    }
  };
  f.kernel.walk([&](PipeAcquireOp op) { check(op, op.getStage(), true); });
  f.kernel.walk([&](PipeWaitOp op) { check(op, op.getStage(), false); });
  f.kernel.walk([&](Operation *op) {
    if (!isa<PipeCommitOp, PipeReleaseOp>(op))
      return;
    Value stage = op->getOperand(1);
    Operation *def = stage.getDefiningOp();
    bool producer = isa<PipeCommitOp>(op);
    bool good = producer ? isa_and_nonnull<PipeAcquireOp>(def)
                         : isa_and_nonnull<PipeWaitOp>(def);
    if (!good || def->getOperand(0) != op->getOperand(0)) {
      emitRuleError(op, RuleId::SyncUnbalancedPipe)
          << (producer ? "commit" : "release") << " of a stage not taken with "
          << (producer ? "pipe.acquire" : "pipe.wait") << " on the same pipe";
      ok = false;
    }
  });
  return ok;
}

namespace {
/// The copies into one ring that a stage receives between its acquire and
/// the end of the acquire's block, over every path through it: the fewest
/// and the most (`unbounded`: a loop of unknown trip count holds one), and
/// for each the branch choices that lead there.
struct CopyCount {
  int64_t least = 0, most = 0;
  bool unbounded = false;
  std::string leastPath, mostPath;
  Operation *loop = nullptr; ///< the loop that makes it unbounded
};
using CopyCounts = llvm::MapVector<Value, CopyCount>; // ring -> count

std::string join(StringRef a, StringRef b) {
  if (a.empty())
    return b.str();
  if (b.empty())
    return a.str();
  return (a + ", " + b).str();
}

std::optional<int64_t> constantTrips(scf::ForOp loop) {
  auto lb = getConstantIntValue(loop.getLowerBound());
  auto ub = getConstantIntValue(loop.getUpperBound());
  auto st = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !st || *st <= 0)
    return std::nullopt;
  return *ub > *lb ? (*ub - *lb + *st - 1) / *st : 0;
}

void countCopies(Block &block, Value stage, CopyCounts &out);

/// Adds the counts of a region run `times` times (nullopt: unknown) after
/// what `out` holds.
void addLoop(Operation *loop, Region &body, Value stage,
             std::optional<int64_t> times, CopyCounts &out) {
  CopyCounts inner;
  for (Block &b : body)
    countCopies(b, stage, inner);
  for (auto &[ring, c] : inner) {
    CopyCount &o = out[ring];
    if (!times) {
      o.unbounded = true;
      o.loop = loop;
      o.leastPath =
          join(o.leastPath, "the loop" + where(loop) + " runs no trip");
      continue;
    }
    o.least += c.least * *times;
    o.most += c.most * *times;
    o.unbounded |= c.unbounded;
    if (c.unbounded && !o.loop)
      o.loop = c.loop;
  }
}

void countCopies(Block &block, Value stage, CopyCounts &out) {
  for (Operation &op : block) {
    if (auto t = dyn_cast<TmaLoadOp>(op)) {
      if (t.getStage() == stage) {
        CopyCount &c = out[t.getDst()];
        ++c.least;
        ++c.most;
      }
      continue;
    }
    if (op.getNumRegions() == 0)
      continue;
    bool holds = false;
    op.walk([&](TmaLoadOp t) { holds |= t.getStage() == stage; });
    if (!holds)
      continue;
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      CopyCounts then, other;
      countCopies(*branch.thenBlock(), stage, then);
      if (branch.elseBlock())
        countCopies(*branch.elseBlock(), stage, other);
      llvm::SetVector<Value> rings;
      for (auto &entry : then)
        rings.insert(entry.first);
      for (auto &entry : other)
        rings.insert(entry.first);
      std::string at = "the scf.if" + where(&op);
      for (Value ring : rings) {
        CopyCount a = then.lookup(ring), b = other.lookup(ring);
        CopyCount &o = out[ring];
        bool thenLeast = a.least <= b.least;
        o.leastPath =
            join(o.leastPath, join(at + (thenLeast ? " takes its then branch"
                                                   : " takes its else branch"),
                                   thenLeast ? a.leastPath : b.leastPath));
        o.least += std::min(a.least, b.least);
        bool thenMost = a.most >= b.most;
        o.mostPath =
            join(o.mostPath, join(at + (thenMost ? " takes its then branch"
                                                 : " takes its else branch"),
                                  thenMost ? a.mostPath : b.mostPath));
        o.most += std::max(a.most, b.most);
        if (a.unbounded || b.unbounded) {
          o.unbounded = true;
          o.loop = a.unbounded ? a.loop : b.loop;
        }
      }
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      addLoop(&op, loop.getRegion(), stage, constantTrips(loop), out);
      continue;
    }
    // Any other region (scf.while, ...): trips unknown.
    for (Region &r : op.getRegions())
      addLoop(&op, r, stage, std::nullopt, out);
  }
}
} // namespace

/// sync.expect-tx-balance: a stage filled by TMA receives exactly one copy
/// into every ring of its pipe on every path from its acquire (the commit
/// is in the acquire's block: sync.unbalanced-pipe), since its full
/// barrier expects the bytes of all of them whatever the path. (A stage
/// with no copy at all is a pure signal.)
bool verify::checkExpectTx(KernelFacts &f) {
  bool ok = true;
  f.kernel.walk([&](PipeAcquireOp acquire) {
    auto pipe = acquire.getPipe().getDefiningOp<PipeOp>();
    if (!pipe)
      return;
    llvm::DenseMap<Value, SmallVector<Operation *>> fills;
    bool anyTma = false;
    bool threads = false;
    for (Operation *user : acquire.getStage().getUsers()) {
      if (auto t = dyn_cast<TmaLoadOp>(user)) {
        fills[t.getDst()].push_back(user);
        anyTma = true;
      }
      threads |= isa<GatherOp, CpAsyncLoadOp>(user);
    }
    // TMA beside cp.async copies in one stage is sync.fill-kind's.
    if (!anyTma || threads)
      return;
    CopyCounts counts;
    countCopies(*acquire->getBlock(), acquire.getStage(), counts);
    for (Value ring : pipe.getRings()) {
      CopyCount c = counts.lookup(ring);
      if (c.least == 1 && c.most == 1 && !c.unbounded)
        continue;
      auto type = cast<RingType>(ring.getType());
      // The path to report: the one with too few copies first (a hang).
      bool few = c.least != 1;
      int64_t n = few ? c.least : c.most;
      StringRef path = few ? c.leastPath : c.mostPath;
      InFlightDiagnostic d = emitRuleError(acquire, RuleId::SyncExpectTxBalance)
                             << "the stage of "
                             << DiagPipe{f.pipeIndex.lookup(pipe.getResult())}
                             << " acquired here gets ";
      if (!few && c.unbounded)
        d << "a copy into " << DiagRing{f.ringIndex.lookup(ring)}
          << " on every trip of the loop" << where(c.loop)
          << ", whose trip count is not known, but its full barrier expects "
          << type.getTileBytes() << " bytes from exactly one copy";
      else
        d << n << " copies into " << DiagRing{f.ringIndex.lookup(ring)}
          << (path.empty() ? "" : " on the path where " + path.str())
          << ", but its full barrier expects " << type.getTileBytes()
          << " bytes from exactly one: the phase would "
          << (n == 0 ? "never complete (hang)" : "complete early (race)");
      for (Operation *c : fills.lookup(ring))
        d.attachNote(c->getLoc()) << "copy here";
      d.attachNote(acquire.getLoc())
          << "hint: load every ring of the pipe once per stage, on every "
             "path from the acquire to its commit";
      ok = false;
    }
  });
  return ok;
}

/// sync.tiles-mismatch
bool verify::checkTiles(KernelFacts &f) {
  bool ok = true;
  std::optional<std::string> first;
  TilesOp firstTiles;
  for (RoleOp role : f.roles) {
    TilesOp tiles;
    role.walk([&](TilesOp t) {
      if (!tiles)
        tiles = t;
    });
    if (!tiles)
      continue;
    std::string key;
    bool known = true;
    for (Value e : tiles.getExtents()) {
      auto k = indexKey(e, f.kernel);
      known &= k.has_value();
      key += (k ? *k : "?") + ";";
    }
    if (!known)
      continue;
    if (!first) {
      first = key;
      firstTiles = tiles;
    } else if (key != *first) {
      InFlightDiagnostic d =
          emitRuleError(tiles, RuleId::SyncTilesMismatch)
          << DiagRole{role.getName()}
          << " iterates different tiles than role \""
          << firstTiles->getParentOfType<RoleOp>().getName()
          << "\"; pipes would pair stages of different tiles";
      d.attachNote(firstTiles.getLoc()) << "the other tile loop";
      ok = false;
    }
  }
  // Roles that hand stages over a pipe must walk the same slice of the
  // CTA's tiles (ping-pong pairs each keep to their own pipes).
  auto sliceOf = [](RoleOp role) -> std::pair<int64_t, int64_t> {
    std::pair<int64_t, int64_t> slice = {0, 1};
    role.walk([&](TilesOp t) { slice = t.getSliceOrWhole(); });
    return slice;
  };
  for (PipeOp pipeOp : f.kernel.getBody().getOps<PipeOp>()) {
    // A dealt pipe's consumers take their own slices of its producer's
    // tiles (sync.dealt-pipe checks every pipe of several consumers).
    if (pipeConsumers(pipeOp).size() > 1)
      continue;
    Value pipe = pipeOp.getResult();
    unsigned index = f.pipeIndex.lookup(pipe);
    RoleOp first;
    for (RoleOp role : f.roles) {
      bool uses = false;
      role.walk([&](Operation *op) {
        uses |= llvm::is_contained(op->getOperands(), pipe);
      });
      if (!uses)
        continue;
      if (!first) {
        first = role;
        continue;
      }
      auto a = sliceOf(first), b = sliceOf(role);
      if (a == b)
        continue;
      emitRuleError(role, RuleId::SyncTilesMismatch)
          << DiagRole{role.getName()} << " takes slice " << b.first << " of "
          << b.second << " of the CTA's tiles and " << DiagRole{first.getName()}
          << " slice " << a.first << " of " << a.second << ", but both use "
          << DiagPipe{index} << ": its stages would pair different tiles";
      ok = false;
    }
  }
  return ok;
}

/// sync.fill-kind: a pipe's stages complete one way. TMA copies complete
/// with their bytes after one armed arrival, cp.async copies with one
/// arrival a producer thread, stores with one a producer warp: the derived
/// full count serves one of them, so a stage filled by TMA and by threads,
/// or a pipe whose stages are filled by threads in one place and another
/// way in another, would never (or too early) complete; a pipe filled by
/// TMA and by stores would too, or hand the stores over unordered.
bool verify::checkFillKind(KernelFacts &f) {
  bool ok = true;
  f.kernel.walk([&](PipeOp pipe) {
    Operation *threads = nullptr, *other = nullptr;
    Operation *tmaFill = nullptr, *storeFill = nullptr;
    for (Operation *user : pipe->getUsers()) {
      auto acquire = dyn_cast<PipeAcquireOp>(user);
      if (!acquire)
        continue;
      Operation *tma = nullptr, *copy = nullptr, *store = nullptr;
      for (Operation *u : acquire.getStage().getUsers()) {
        if (isa<TmaLoadOp>(u))
          tma = u;
        else if (isa<GatherOp, CpAsyncLoadOp>(u))
          copy = u;
        else if (isa<SmemWriteOp>(u))
          store = u;
      }
      if (tma && !tmaFill)
        tmaFill = tma;
      if (store && !storeFill)
        storeFill = store;
      if (copy && !threads)
        threads = copy;
      if (!copy && !other)
        other = tma ? tma : user;
      if (tma && copy) {
        InFlightDiagnostic d =
            emitRuleError(copy, RuleId::SyncFillKind)
            << DiagPipe{f.pipeIndex.lookup(pipe.getResult())}
            << ": a stage is filled by TMA and by cp.async copies; they "
               "complete on the full barrier in different ways";
        d.attachNote(tma->getLoc()) << "TMA copy into the same stage here";
        ok = false;
        return;
      }
    }
    if (tmaFill && storeFill) {
      // The phase completes one way: on the copies' bytes after one armed
      // arrival, or on an arrival a producer warp after its stores; in a
      // stage filled both ways nothing orders the stores before the reads.
      InFlightDiagnostic d =
          emitRuleError(storeFill, RuleId::SyncFillKind)
          << DiagPipe{f.pipeIndex.lookup(pipe.getResult())}
          << "'s stages are filled by stores here and by TMA copies (in "
             "this stage or another): the full barrier completes on the "
             "copies' bytes or on the producer's arrivals, not both";
      d.attachNote(tmaFill->getLoc()) << "TMA copy into the pipe here";
      d.attachNote(storeFill->getLoc())
          << "hint: give the stored tiles a pipe of their own";
      ok = false;
      return;
    }
    if (threads && other) {
      InFlightDiagnostic d =
          emitRuleError(threads, RuleId::SyncFillKind)
          << DiagPipe{f.pipeIndex.lookup(pipe.getResult())}
          << "'s stages are filled by cp.async copies here and otherwise "
             "elsewhere: the full barrier's count is derived for one way";
      d.attachNote(other->getLoc()) << "stage filled otherwise here";
      ok = false;
    }
  });
  return ok;
}

/// The rings `op` reads through the async proxy: a TMA store's source, a
/// wgmma's or tcgen05.mma's operands in shared memory.
static SmallVector<Value, 2> asyncReadsOf(Operation *op) {
  SmallVector<Value, 2> rings;
  if (auto s = dyn_cast<TmaStoreOp>(op))
    rings.push_back(s.getSrc());
  if (auto m = dyn_cast<MmaOp>(op)) {
    if (m.getARing())
      rings.push_back(m.getA());
    rings.push_back(m.getB());
  }
  if (auto m = dyn_cast<TmemMmaOp>(op)) {
    if (isa<RingType>(m.getA().getType())) // not A in tensor memory
      rings.push_back(m.getA());
    rings.push_back(m.getB());
  }
  return rings;
}

/// sync.proxy-fence: smem.write then an async read of the same ring in a
/// block without fence.proxy_async between them. A commit hands the stage
/// to its readers: it needs the fence when some op reads the ring through
/// the async proxy (a ring only smem.read reads stays in the generic proxy,
/// ordered by the pipe's barriers). A release hands the stage back to a
/// producer that may refill it by TMA: it always needs the fence.
bool verify::checkProxyFence(KernelFacts &f) {
  bool ok = true;
  llvm::DenseSet<Value> asyncRead;
  f.kernel.walk([&](Operation *op) {
    for (Value r : asyncReadsOf(op))
      asyncRead.insert(r);
  });
  f.kernel.walk([&](Block *block) {
    llvm::DenseMap<Value, Operation *> pending; // ring -> unfenced write
    for (Operation &op : *block) {
      if (auto w = dyn_cast<SmemWriteOp>(op)) {
        pending[w.getDst()] = &op;
      } else if (isa<FenceProxyAsyncOp>(op)) {
        pending.clear();
      } else if (isa<PipeCommitOp, PipeReleaseOp>(op)) {
        // Handing the stage over publishes it to readers that may be the
        // copy engine or the tensor cores: the writer fences first.
        auto pipe = op.getOperand(0).getDefiningOp<PipeOp>();
        SmallVector<Value> rings;
        if (pipe)
          rings = pipe.getRings();
        bool commit = isa<PipeCommitOp>(op);
        for (Value r : rings)
          if (Operation *w = pending.lookup(r)) {
            if (commit && !asyncRead.contains(r))
              continue;
            InFlightDiagnostic d =
                emitRuleError(&op, RuleId::SyncProxyFence)
                << DiagRing{f.ringIndex.lookup(r)}
                << " is handed over after ordinary stores without a proxy "
                   "fence; a TMA store or mma reading it may see stale data";
            d.attachNote(w->getLoc()) << "generic-proxy write here";
            d.attachNote(op.getLoc())
                << "hint: put cake.fence.proxy_async after the writes";
            ok = false;
            pending.erase(r);
          }
      } else {
        for (Value r : asyncReadsOf(&op))
          if (Operation *w = pending.lookup(r)) {
            InFlightDiagnostic d =
                emitRuleError(&op, RuleId::SyncProxyFence)
                << DiagRing{f.ringIndex.lookup(r)}
                << " is read by the async proxy after ordinary stores "
                   "without a proxy fence";
            d.attachNote(w->getLoc()) << "generic-proxy write here";
            d.attachNote(op.getLoc())
                << "hint: put cake.fence.proxy_async between them";
            ok = false;
            pending.erase(r);
          }
      }
    }
  });
  return ok;
}

/// sync.tcgen05-issuer: tcgen05.commit tracks the MMAs of the thread that
/// executes it, so the role issuing them runs on one thread (a copy role).
bool verify::checkTcgen05Issuer(KernelFacts &f) {
  bool ok = true;
  for (RoleOp role : f.roles) {
    Operation *mma = nullptr;
    role.walk([&](TmemMmaOp op) {
      if (!mma)
        mma = op;
    });
    Operation *allLanes = mma ? firstAllLanesOp(role) : nullptr;
    if (!allLanes)
      continue;
    InFlightDiagnostic d =
        emitRuleError(mma, RuleId::SyncTcgen05Issuer)
        << "cake.tmem.mma in " << DiagRole{role.getName()}
        << ", whose every thread runs: one thread issues the MMAs and the "
           "tcgen05.commit that releases their stages";
    d.attachNote(allLanes->getLoc())
        << "'" << allLanes->getName() << "' runs on every thread of the role";
    d.attachNote(role.getLoc())
        << "hint: move the register work to a role of its own";
    ok = false;
  }
  return ok;
}
