//===- Verify.cpp - The cake-verify pass ----------------------------------===//
//
// The whole-kernel rules of the registry (cake/Verify/Rules.def): the
// protocol between roles (pipe roles, balanced hand-offs, trip counts, tile
// sequences, a bounded deadlock search, proxy fences), resources (threads,
// registers, shared memory, fragments), dataflow (who may touch which ring
// stage) and hardware features. Op-local contracts are the ops' verifiers.
// Every diagnostic leads with its rule id; notes point at the other ops
// that take part, and a "hint:" note says how to repair where one is known.
//
//===----------------------------------------------------------------------===//

#include "cake/Target/TargetInfo.h"
#include "cake/Transforms/Passes.h"
#include "cake/Verify/Rules.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

#include <map>
#include <optional>
#include <string>

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_VERIFY
#include "cake/Transforms/Passes.h.inc"
} // namespace cake
} // namespace mlir

using namespace mlir;
using namespace mlir::cake;

LogicalResult mlir::cake::verifyWgmmaOperands(MmaOp op) {
  RingType a = op.getA().getType(), b = op.getB().getType();
  for (RingType t : {a, b}) {
    int64_t rowBytes = t.getShape()[1] * getElementBytes(t.getElementType());
    if (t.getSwizzle() == 0 || rowBytes != t.getSwizzle())
      return emitRuleError(op, RuleId::HwMmaSmemDescriptor)
             << "wgmma operands must be K-major rows that span exactly the "
                "swizzle width; got "
             << rowBytes << "-byte rows with swizzle " << t.getSwizzle();
  }
  if (a.getSwizzle() != b.getSwizzle())
    return emitRuleError(op, RuleId::HwMmaSmemDescriptor)
           << "A and B must share a swizzle, got " << a.getSwizzle() << " and "
           << b.getSwizzle();
  return success();
}

SmallVector<std::pair<MmaOp, MmaOp>>
mlir::cake::warpgroupTurnChains(RoleOp role) {
  SmallVector<std::pair<MmaOp, MmaOp>> chains;
  if (!role.getWarpgroups() || role.getNumWarps() / 4 < 2)
    return chains;
  role.walk([&](MmaOp mma) {
    if (mma.getKind() != MmaKind::wgmma ||
        !mma.getAcc().getDefiningOp<FragZeroOp>())
      return;
    MmaOp last = mma;
    while (last.getResult().hasOneUse()) {
      auto next = dyn_cast<MmaOp>(*last.getResult().getUsers().begin());
      if (!next || next.getAcc() != last.getResult() ||
          next->getBlock() != mma->getBlock())
        break;
      last = next;
    }
    if (llvm::any_of(last.getResult().getUsers(),
                     [](Operation *u) { return isa<MmaOp>(u); }))
      return; // the chain goes on in another block: not ordered
    chains.push_back({mma, last});
  });
  return chains;
}

/// A turn deadlocks when the warpgroup holding it waits on a pipe stage
/// whose refill needs the other warpgroups to release a stage of this same
/// iteration: they release only after their own turns. With S stages and
/// the iteration's w waits on the pipe (counted from the block's first),
/// a wait under the turn is safe only if w <= S and the pipe holds no
/// stage waited outside this block (k-means run 16: the D = 256 kernel,
/// four waits on a two-stage ring, hung). Reports the first such wait.
LogicalResult mlir::cake::verifyWarpgroupTurns(RoleOp role) {
  for (auto [first, last] : warpgroupTurnChains(role)) {
    Block *block = first->getBlock();
    bool underTurn = false;
    for (Operation &op : *block) {
      if (&op == first.getOperation())
        underTurn = true;
      if (&op == last.getOperation())
        break;
      auto wait = dyn_cast<PipeWaitOp>(&op);
      if (!underTurn || !wait)
        continue;
      Value pipe = wait.getPipe();
      int64_t stages = cast<PipeType>(pipe.getType()).getStages();
      int64_t waits = 0;
      for (Operation &o : *block) {
        if (&o == last.getOperation())
          break;
        if (auto w = dyn_cast<PipeWaitOp>(&o); w && w.getPipe() == pipe)
          ++waits;
      }
      bool heldOutside = false;
      role.walk([&](PipeWaitOp w) {
        if (w.getPipe() == pipe && w->getBlock() != block)
          heldOutside = true;
      });
      if (waits <= stages && !heldOutside)
        continue;
      InFlightDiagnostic diag = emitRuleError(wait, RuleId::SyncWarpgroupTurn)
                                << "role \"" << role.getName()
                                << "\" would deadlock when its warpgroups "
                                   "take turns (wg-order): this wait is "
                                   "inside a turn, but ";
      if (heldOutside)
        diag << "the pipe holds stages waited outside the chain's block";
      else
        diag << "the chain waits " << waits << " times on a pipe of "
             << stages << " stages";
      diag << ", which the other warpgroups release only in their own turns";
      diag.attachNote(first.getLoc()) << "the turn starts at this wgmma";
      if (heldOutside)
        diag.attachNote(first.getLoc())
            << "hint: wait on the pipe in the chain's block only, or lower "
               "without wg-order";
      else
        diag.attachNote(first.getLoc())
            << "hint: give the pipe at least " << waits
            << " stages, or lower without wg-order";
      return failure();
    }
  }
  return success();
}

namespace {

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
  static bool pipeHolds(Value pipe, Value ring) {
    auto p = pipe.getDefiningOp<PipeOp>();
    return p && llvm::is_contained(p.getRings(), ring);
  }
};

//===----------------------------------------------------------------------===//
// Canonical keys for index values: equal keys mean equal values in every
// role (constants, kernel arguments, cake.dim of them, scalar loads from
// tensors the kernel never writes, arithmetic of keys).
//===----------------------------------------------------------------------===//

std::optional<std::string> keyOf(Value v, KernelOp kernel) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() == &kernel.getBody().front())
      return "arg" + std::to_string(arg.getArgNumber());
    if (isa<TilesOp>(arg.getOwner()->getParentOp()))
      return "tile" + std::to_string(arg.getArgNumber());
    return std::nullopt;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto c = dyn_cast<arith::ConstantOp>(def))
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return "c" + std::to_string(i.getInt());
  if (auto d = dyn_cast<DimOp>(def)) {
    auto t = keyOf(d.getTensor(), kernel);
    if (!t)
      return std::nullopt;
    return "dim(" + *t + "," + std::to_string(d.getDim()) + ")";
  }
  if (auto ld = dyn_cast<ScalarLoadOp>(def)) {
    // Equal in every role only if nothing in the kernel writes the tensor.
    Value src = ld.getSrc();
    bool written = false;
    kernel.walk([&](Operation *op) {
      if (auto s = dyn_cast<StoreOp>(op))
        written |= s.getDst() == src;
      else if (auto t = dyn_cast<TmaStoreOp>(op))
        written |= t.getDst() == src;
    });
    auto t = keyOf(src, kernel);
    if (written || !t)
      return std::nullopt;
    std::string key = "ld(" + *t;
    for (Value c : ld.getCoords()) {
      auto k = keyOf(c, kernel);
      if (!k)
        return std::nullopt;
      key += "," + *k;
    }
    return key + ")";
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp,
          arith::CeilDivUIOp, arith::MinUIOp, arith::MaxUIOp>(def)) {
    auto l = keyOf(def->getOperand(0), kernel);
    auto r = keyOf(def->getOperand(1), kernel);
    if (!l || !r)
      return std::nullopt;
    return def->getName().stripDialect().str() + "(" + *l + "," + *r + ")";
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Hand-off counting: per role and pipe, a polynomial in loop trip counts.
//===----------------------------------------------------------------------===//

/// monomial (sorted trip keys joined by '*') -> coefficient
using Count = std::map<std::string, int64_t>;

std::string countStr(const Count &c) {
  if (c.empty())
    return "0";
  std::string s;
  for (auto &[mono, coef] : c) {
    if (!s.empty())
      s += " + ";
    if (mono.empty())
      s += std::to_string(coef);
    else
      s += (coef == 1 ? "" : std::to_string(coef) + "*") + mono;
  }
  return s;
}

/// Counts the ops `match` accepts in `block`, as a polynomial in loop trip
/// counts. Sets `unproven` where a trip count has no canonical key or
/// control flow is not a loop.
Count countOps(Block &block, llvm::function_ref<bool(Operation *)> match,
               KernelOp kernel, bool &unproven) {
  Count total;
  for (Operation &op : block) {
    if (match(&op)) {
      total[""] += 1;
      continue;
    }
    if (op.getNumRegions() == 0)
      continue;
    std::string factor;
    if (auto f = dyn_cast<scf::ForOp>(op)) {
      auto lb = keyOf(f.getLowerBound(), kernel);
      auto ub = keyOf(f.getUpperBound(), kernel);
      auto st = keyOf(f.getStep(), kernel);
      if (!lb || !ub || !st)
        unproven = true;
      else
        factor = "trip(" + *lb + ".." + *ub + " by " + *st + ")";
    } else if (auto t = dyn_cast<TilesOp>(op)) {
      // Slices of the CTA's tiles run different counts of tiles (3 tiles:
      // 2 and 1 for slices of 2), so each is its own factor.
      factor = "tiles";
      if (auto [k, n] = t.getSliceOrWhole(); n > 1)
        factor += "[" + std::to_string(k) + "/" + std::to_string(n) + "]";
    } else if (!isa<FragMapOp>(op)) {
      // scf.if and friends: the count depends on a condition.
      bool any = false;
      op.walk([&](Operation *inner) { any |= match(inner); });
      if (any)
        unproven = true;
      continue;
    }
    for (Region &r : op.getRegions())
      for (Block &b : r) {
        Count inner = countOps(b, match, kernel, unproven);
        for (auto &[mono, coef] : inner) {
          std::string m = factor;
          if (!mono.empty())
            m = m.empty() ? mono : (mono < m ? mono + "*" + m : m + "*" + mono);
          total[m] += coef;
        }
      }
  }
  return total;
}

/// Counts the hand-offs of `kind` on `pipe` in `block`.
template <typename HandoffOp>
Count countHandoffs(Block &block, Value pipe, KernelOp kernel, bool &unproven) {
  return countOps(
      block,
      [&](Operation *op) {
        auto h = dyn_cast<HandoffOp>(op);
        return h && h.getPipe() == pipe;
      },
      kernel, unproven);
}

//===----------------------------------------------------------------------===//
// The rules
//===----------------------------------------------------------------------===//

/// sync.named-barrier: the roles that pass a named barrier are the ones
/// its thread count counts, and they pass it equally often.
bool checkNamedBarriers(KernelFacts &f) {
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
              << "role \"" << role.getName() << "\" passes it with "
              << role.getNumWarps() * 32 << " threads";
        d.attachNote(op.getLoc())
            << "hint: threads(" << threads
            << "), or move the barrier into the roles it should order";
        ok = false;
        break;
      }
    // Every participant passes the barrier equally often, or the last
    // passes of the busier role wait forever.
    bool unproven = false;
    std::optional<Count> first;
    RoleOp firstRole;
    for (RoleOp role : roles) {
      Count c = countOps(
          role.getBody().front(),
          [&](Operation *op) {
            auto b = dyn_cast<BarrierSyncOp>(op);
            return b && int64_t(b.getId()) == id;
          },
          f.kernel, unproven);
      if (!first) {
        first = c;
        firstRole = role;
      } else if (!unproven && c != *first) {
        InFlightDiagnostic d =
            emitRuleError(role, RuleId::SyncNamedBarrier)
            << "role \"" << role.getName() << "\" passes named barrier " << id
            << " " << countStr(c) << " times but role \""
            << firstRole.getName() << "\" passes it " << countStr(*first)
            << " times";
        d.attachNote(firstRole.getLoc()) << "the other role";
        ok = false;
      }
    }
  }
  return ok;
}

/// sync.pipe-roles
bool checkPipeRoles(KernelFacts &f) {
  bool ok = true;
  for (auto pipe : f.kernel.getBody().getOps<PipeOp>()) {
    unsigned index = f.pipeIndex.lookup(pipe);
    llvm::SetVector<RoleOp> producers, consumers;
    Operation *firstProducerUse = nullptr, *firstConsumerUse = nullptr;
    // Walk in program order so notes point at the first use of each side.
    f.kernel.walk([&](Operation *user) {
      if (user->getNumOperands() == 0 || user->getOperand(0) != pipe)
        return;
      auto role = user->getParentOfType<RoleOp>();
      if (!role)
        return;
      if (isa<PipeAcquireOp, PipeCommitOp>(user)) {
        producers.insert(role);
        if (!firstProducerUse)
          firstProducerUse = user;
      } else if (isa<PipeWaitOp, PipeReleaseOp>(user)) {
        consumers.insert(role);
        if (!firstConsumerUse)
          firstConsumerUse = user;
      }
    });
    auto describe = [&](const char *side, llvm::SetVector<RoleOp> &roles) {
      InFlightDiagnostic d = emitRuleError(pipe, RuleId::SyncPipeRoles)
                             << "pipe #" << index << " has " << roles.size()
                             << " " << side << " roles, expected exactly one";
      for (RoleOp r : f.roles)
        if (roles.contains(r))
          d.attachNote(r.getLoc()) << side << " role \"" << r.getName() << "\"";
      ok = false;
    };
    if (producers.size() != 1)
      describe("producer", producers);
    if (consumers.size() != 1)
      describe("consumer", consumers);
    // One role may fill and drain its own pipe (a kernel that is not warp
    // specialized) when TMA fills every stage: its leader thread issues the
    // copies and the whole role waits for them. Stages written by ordinary
    // stores would need a barrier among the role's own threads, which the
    // lowering does not emit. Whether the role's order can make progress
    // is sync.deadlock's question.
    if (producers.size() == 1 && consumers.size() == 1 &&
        producers.front() == consumers.front()) {
      Operation *unfilled = nullptr;
      f.kernel.walk([&](PipeAcquireOp a) {
        if (a.getPipe() == pipe.getResult() && !unfilled &&
            !isFilledByTma(a))
          unfilled = a;
      });
      if (unfilled) {
        InFlightDiagnostic d = emitRuleError(pipe, RuleId::SyncPipeRoles)
                               << "pipe #" << index
                               << " is both produced and consumed by role \""
                               << RoleOp(producers.front()).getName()
                               << "\", which fills a stage without TMA";
        d.attachNote(unfilled->getLoc()) << "stage acquired here";
        d.attachNote(firstConsumerUse->getLoc()) << "consumed here";
        d.attachNote(pipe.getLoc())
            << "hint: fill the stage with cake.tma.load, or move the "
               "producing side into its own role (cake-warp-specialize)";
        ok = false;
      }
    }
  }
  return ok;
}

/// sync.unbalanced-pipe and sync.use-after-handoff
bool checkHandoffBalance(KernelFacts &f) {
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
                             << "role \"" << roleName
                             << "\": the stage of pipe #" << pipe
                             << " taken here is "
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
                             << "role \"" << roleName << "\": the " << closeName
                             << " of a stage of pipe #" << pipe
                             << " is not in the block that took it, so it "
                                "may not run exactly once per hand-off";
      d.attachNote(take->getLoc()) << "stage taken here";
      ok = false;
      return;
    }
    if (close->getParentOp() && take->isBeforeInBlock(close) == false) {
      emitRuleError(close, RuleId::SyncUnbalancedPipe)
          << "role \"" << roleName << "\": " << closeName
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
            << "role \"" << roleName << "\" uses a stage of pipe #" << pipe
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

/// sync.expect-tx-balance: a stage filled by TMA receives exactly one copy
/// into every ring of its pipe, since its full barrier expects the bytes of
/// all of them. (A stage with no copy at all is a pure signal.)
bool checkExpectTx(KernelFacts &f) {
  bool ok = true;
  f.kernel.walk([&](PipeAcquireOp acquire) {
    auto pipe = acquire.getPipe().getDefiningOp<PipeOp>();
    if (!pipe)
      return;
    llvm::DenseMap<Value, SmallVector<Operation *>> fills;
    bool anyTma = false;
    for (Operation *user : acquire.getStage().getUsers()) {
      if (auto t = dyn_cast<TmaLoadOp>(user)) {
        fills[t.getDst()].push_back(user);
        anyTma = true;
      }
    }
    if (!anyTma)
      return;
    for (Value ring : pipe.getRings()) {
      size_t n = fills.lookup(ring).size();
      if (n == 1)
        continue;
      auto type = cast<RingType>(ring.getType());
      InFlightDiagnostic d =
          emitRuleError(acquire, RuleId::SyncExpectTxBalance)
          << "the stage of pipe #" << f.pipeIndex.lookup(pipe)
          << " acquired here gets " << n << " copies into ring #"
          << f.ringIndex.lookup(ring) << ", but its full barrier expects "
          << type.getTileBytes() << " bytes from exactly one: the phase would "
          << (n == 0 ? "never complete (hang)" : "complete early (race)");
      for (Operation *c : fills.lookup(ring))
        d.attachNote(c->getLoc()) << "copy here";
      d.attachNote(acquire.getLoc())
          << "hint: load every ring of the pipe once per stage";
      ok = false;
    }
  });
  return ok;
}

/// sync.trip-count-mismatch
bool checkTripCounts(KernelFacts &f) {
  bool ok = true;
  for (auto pipe : f.kernel.getBody().getOps<PipeOp>()) {
    unsigned index = f.pipeIndex.lookup(pipe);
    auto [producer, consumer] = pipeRoles(pipe);
    if (!producer || !consumer)
      continue; // sync.pipe-roles reports these
    bool unproven = false;
    Count made = countHandoffs<PipeAcquireOp>(producer.getBody().front(), pipe,
                                              f.kernel, unproven);
    Count taken = countHandoffs<PipeWaitOp>(consumer.getBody().front(), pipe,
                                            f.kernel, unproven);
    if (unproven) {
      emitWarning(pipe.getLoc())
          << "[" << getRuleInfo(RuleId::SyncTripCountMismatch).id
          << "] unproven: the hand-offs on pipe #" << index
          << " depend on values or conditions Cake cannot compare across "
             "roles";
      continue;
    }
    if (made != taken) {
      InFlightDiagnostic d = emitRuleError(pipe, RuleId::SyncTripCountMismatch)
                             << "role \"" << consumer.getName() << "\" waits "
                             << countStr(taken) << " times on pipe #" << index
                             << " but role \"" << producer.getName()
                             << "\" commits " << countStr(made) << " times";
      d.attachNote(producer.getLoc())
          << "producer role \"" << producer.getName() << "\"";
      d.attachNote(consumer.getLoc())
          << "consumer role \"" << consumer.getName() << "\"";
      d.attachNote(pipe.getLoc())
          << "hint: both roles must run the same loops around their "
             "hand-offs on this pipe";
      ok = false;
    }
  }
  return ok;
}

/// sync.tiles-mismatch
bool checkTiles(KernelFacts &f) {
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
      auto k = keyOf(e, f.kernel);
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
          << "role \"" << role.getName()
          << "\" iterates different tiles than role \""
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
              << "role \"" << role.getName() << "\" takes slice " << b.first
              << " of " << b.second << " of the CTA's tiles and role \""
              << first.getName() << "\" slice " << a.first << " of "
              << a.second << ", but both use pipe #" << index
              << ": its stages would pair different tiles";
      ok = false;
    }
  }
  return ok;
}

/// dataflow.tile-coverage: a TMA copy whose coordinate is a tile coordinate
/// (a block argument of cake.tiles) moves a box of the tile's extent in that
/// dimension. The box is the ring's tile over the tensor's innermost
/// dimensions; outer dimensions move one element.
bool checkTileCoverage(KernelFacts &f) {
  ArrayRef<int64_t> tile = f.kernel.getTileShape();
  bool ok = true;
  f.kernel.walk([&](Operation *op) {
    Value ringValue;
    OperandRange coords = op->getOperands();
    if (auto load = dyn_cast<TmaLoadOp>(op)) {
      ringValue = load.getDst();
      coords = load.getCoords();
    } else if (auto store = dyn_cast<TmaStoreOp>(op)) {
      ringValue = store.getSrc();
      coords = store.getCoords();
    } else {
      return;
    }
    ArrayRef<int64_t> box = cast<RingType>(ringValue.getType()).getShape();
    int64_t rank = coords.size(), outer = rank - int64_t(box.size());
    for (int64_t i = 0; i < rank; ++i) {
      auto arg = dyn_cast<BlockArgument>(coords[i]);
      if (!arg || !isa<TilesOp>(arg.getOwner()->getParentOp()) ||
          arg.getArgNumber() >= tile.size())
        continue;
      int64_t extent = i < outer ? 1 : box[i - outer];
      int64_t want = tile[arg.getArgNumber()];
      if (extent == want)
        continue;
      emitRuleError(op, RuleId::DataflowTileCoverage)
          << "coordinate " << i << " is tile coordinate #"
          << arg.getArgNumber() << ", whose tiles are " << want
          << " wide, but the box moves " << extent << ": "
          << (extent < want ? "part of every tile is never moved"
                            : "each box runs into the next tile");
      ok = false;
    }
  });
  return ok;
}

/// sync.deadlock: a bounded simulation of every role's hand-offs.
struct Event {
  enum Kind { Acquire, Commit, Wait, Release, Barrier } kind;
  unsigned pipe; ///< the pipe's index, or the named barrier's id
  Operation *op;
};

void flatten(Block &block, KernelFacts &f, SmallVectorImpl<Event> &out,
             int unroll, size_t cap) {
  for (Operation &op : block) {
    if (out.size() > cap)
      return;
    if (auto a = dyn_cast<PipeAcquireOp>(op))
      out.push_back({Event::Acquire, f.pipeIndex.lookup(a.getPipe()), &op});
    else if (auto c = dyn_cast<PipeCommitOp>(op))
      out.push_back({Event::Commit, f.pipeIndex.lookup(c.getPipe()), &op});
    else if (auto w = dyn_cast<PipeWaitOp>(op))
      out.push_back({Event::Wait, f.pipeIndex.lookup(w.getPipe()), &op});
    else if (auto r = dyn_cast<PipeReleaseOp>(op))
      out.push_back({Event::Release, f.pipeIndex.lookup(r.getPipe()), &op});
    else if (auto bar = dyn_cast<BarrierSyncOp>(op))
      out.push_back({Event::Barrier, unsigned(bar.getId()), &op});
    else if (isa<scf::ForOp, TilesOp>(op))
      for (int i = 0; i < unroll; ++i)
        for (Region &r : op.getRegions())
          for (Block &b : r)
            flatten(b, f, out, unroll, cap);
  }
}

bool checkDeadlock(KernelFacts &f) {
  const int unroll = 3;
  const size_t cap = 200000;
  SmallVector<SmallVector<Event>> seqs;
  for (RoleOp role : f.roles) {
    seqs.emplace_back();
    flatten(role.getBody().front(), f, seqs.back(), unroll, cap);
    if (seqs.back().size() > cap)
      return true; // too large to search: not reported
  }
  SmallVector<int64_t> freeSlots, full;
  for (auto p : f.kernel.getBody().getOps<PipeOp>()) {
    freeSlots.push_back(p.getType().getStages());
    full.push_back(0);
  }
  // The roles that pass each named barrier: it opens when all of them
  // stand at it.
  llvm::DenseMap<unsigned, SmallVector<size_t>> participants;
  for (size_t r = 0; r < seqs.size(); ++r) {
    llvm::SmallDenseSet<unsigned> ids;
    for (const Event &e : seqs[r])
      if (e.kind == Event::Barrier && ids.insert(e.pipe).second)
        participants[e.pipe].push_back(r);
  }
  SmallVector<size_t> pc(seqs.size(), 0);
  auto atBarrier = [&](size_t r, unsigned id) {
    return pc[r] < seqs[r].size() && seqs[r][pc[r]].kind == Event::Barrier &&
           seqs[r][pc[r]].pipe == id;
  };
  auto enabled = [&](const Event &e) {
    switch (e.kind) {
    case Event::Acquire:
      return freeSlots[e.pipe] > 0;
    case Event::Wait:
      return full[e.pipe] > 0;
    case Event::Barrier:
      return llvm::all_of(participants[e.pipe],
                          [&](size_t p) { return atBarrier(p, e.pipe); });
    default:
      return true;
    }
  };
  for (;;) {
    bool progress = false, done = true;
    for (size_t r = 0; r < seqs.size(); ++r) {
      while (pc[r] < seqs[r].size() && enabled(seqs[r][pc[r]])) {
        const Event &e = seqs[r][pc[r]++];
        progress = true;
        switch (e.kind) {
        case Event::Acquire:
          --freeSlots[e.pipe];
          break;
        case Event::Commit:
          ++full[e.pipe];
          break;
        case Event::Wait:
          --full[e.pipe];
          break;
        case Event::Release:
          ++freeSlots[e.pipe];
          break;
        case Event::Barrier:
          // Everyone else at the barrier passes it with this role.
          for (size_t p : participants[e.pipe])
            if (p != r)
              ++pc[p];
          break;
        }
      }
      done &= pc[r] == seqs[r].size();
    }
    if (done)
      return true;
    if (!progress)
      break;
  }
  // Every unfinished role waits: report the cycle of waits.
  InFlightDiagnostic d = emitRuleError(f.kernel, RuleId::SyncDeadlock)
                         << "the roles can deadlock (found with every loop "
                            "unrolled "
                         << unroll << " times): every unfinished role waits";
  for (size_t r = 0; r < seqs.size(); ++r) {
    if (pc[r] == seqs[r].size())
      continue;
    const Event &e = seqs[r][pc[r]];
    if (e.kind == Event::Barrier) {
      d.attachNote(e.op->getLoc())
          << "role \"" << f.roles[r].getName() << "\" waits here at named "
          << "barrier " << e.pipe << " for the other roles that pass it";
      continue;
    }
    bool acq = e.kind == Event::Acquire;
    d.attachNote(e.op->getLoc())
        << "role \"" << f.roles[r].getName() << "\" waits here for "
        << (acq ? "a free stage" : "a full stage") << " of pipe #" << e.pipe
        << (acq ? " (all stages held by its consumer)"
                : " (its producer has committed nothing new)");
  }
  d.attachNote(f.kernel.getLoc())
      << "hint: release stages before waiting on more than the pipe holds, "
         "and do not make a producer wait on its own consumer";
  return false;
}

/// sync.proxy-fence: smem.write then an async read of the same ring in a
/// block without fence.proxy_async between them.
bool checkProxyFence(KernelFacts &f) {
  bool ok = true;
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
        for (Value r : pipe ? pipe.getRings() : ValueRange{})
          if (Operation *w = pending.lookup(r)) {
            InFlightDiagnostic d =
                emitRuleError(&op, RuleId::SyncProxyFence)
                << "ring #" << f.ringIndex.lookup(r)
                << " is handed over after ordinary stores without a proxy "
                   "fence; a TMA store or mma reading it may see stale data";
            d.attachNote(w->getLoc()) << "generic-proxy write here";
            d.attachNote(op.getLoc())
                << "hint: put cake.fence.proxy_async after the writes";
            ok = false;
            pending.erase(r);
          }
      } else {
        SmallVector<Value> reads;
        if (auto s = dyn_cast<TmaStoreOp>(op))
          reads.push_back(s.getSrc());
        if (auto m = dyn_cast<MmaOp>(op)) {
          reads.push_back(m.getA());
          reads.push_back(m.getB());
        }
        for (Value r : reads)
          if (Operation *w = pending.lookup(r)) {
            InFlightDiagnostic d =
                emitRuleError(&op, RuleId::SyncProxyFence)
                << "ring #" << f.ringIndex.lookup(r)
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

/// resource.threads, resource.register-budget, hw.arch-feature (setmaxnreg)
bool checkRoleResources(KernelFacts &f) {
  const TargetInfo *target = f.target;
  bool ok = true;
  int64_t warps = f.launchWarps;
  for (RoleOp role : f.roles) {
    if (role.getRegs() && !target->hasSetmaxnreg) {
      emitRuleError(role, RuleId::HwArchFeature)
          << "role \"" << role.getName() << "\" asks for regs("
          << *role.getRegs() << ") but " << target->arch
          << " has no setmaxnreg";
      ok = false;
    }
    if (role.getRegs() && !role.getWarpgroups()) {
      emitRuleError(role, RuleId::HwWarpgroupAlignment)
          << "role \"" << role.getName()
          << "\" asks for regs() but is not a warpgroups(n) role: setmaxnreg "
             "applies to whole warpgroups";
      ok = false;
    }
  }
  int64_t threads = warps * 32;
  if (threads > target->maxThreadsPerBlock) {
    emitRuleError(f.kernel, RuleId::ResourceThreads)
        << "the roles need " << threads << " threads, more than the "
        << target->maxThreadsPerBlock << " a CTA of " << target->arch
        << " can have";
    return false;
  }
  if (threads == 0)
    return ok;
  // setmaxnreg moves registers between warpgroups of one CTA through a
  // per-CTA pool (PTX ISA, setmaxnreg): a role that asks for more only gets
  // what others gave back. The CTA is launched with `threads` x the launch
  // baseline registers (ptxas is held to the baseline), and every warp not
  // asking keeps the baseline, so the sum at the budgets must fit that
  // allocation, not just the register file, or setmaxnreg.inc waits forever.
  int64_t baseline = launchBaselineRegisters(*target, threads);
  int64_t allocation = threads * baseline;
  bool anyRegs = false;
  int64_t budgeted = 0, registers = 0;
  for (RoleOp role : f.roles) {
    if (!role.getRegs())
      continue;
    anyRegs = true;
    budgeted += role.getNumWarps();
    registers += role.getNumWarps() * 32 * int64_t(*role.getRegs());
  }
  int64_t others = warps - budgeted;
  registers += others * 32 * baseline;
  if (anyRegs && registers > allocation) {
    InFlightDiagnostic d =
        emitRuleError(f.kernel, RuleId::ResourceRegisterBudget)
        << "the roles' register budgets add up to " << registers
        << " registers, more than the " << allocation
        << " the CTA is launched with (" << threads
        << " threads at the launch baseline of " << baseline << "; " << others
        << " warps without regs() keep the baseline): setmaxnreg.inc would "
           "wait forever";
    for (RoleOp role : f.roles)
      if (!role.getRegs())
        d.attachNote(role.getLoc())
            << "role \"" << role.getName() << "\" keeps " << baseline
            << " registers per thread";
    d.attachNote(f.kernel.getLoc())
        << "hint: give the roles that need few registers a small regs() "
           "(e.g. a copy warpgroup regs(40)), or lower the others' budgets";
    ok = false;
  }
  return ok;
}

/// resource.smem-capacity
bool checkSharedMemory(KernelFacts &f) {
  int64_t bytes = computeSharedMemoryLayout(f.kernel).totalBytes;
  if (bytes <= f.target->smemPerBlockOptIn)
    return true;
  InFlightDiagnostic d = emitRuleError(f.kernel, RuleId::ResourceSmemCapacity)
                         << "barriers and rings need " << bytes
                         << " bytes of shared memory (with alignment), more "
                            "than the "
                         << f.target->smemPerBlockOptIn << " a CTA of "
                         << f.target->arch << " can have";
  for (auto ring : f.kernel.getBody().getOps<RingOp>())
    d.attachNote(ring.getLoc())
        << "ring #" << f.ringIndex.lookup(ring) << " of "
        << ring.getType().getRingBytes() << " bytes";
  d.attachNote(f.kernel.getLoc()) << "hint: fewer stages or smaller tiles";
  return false;
}

/// resource.fragment-registers: per loop, the fragments carried across it
/// plus the largest one defined in its body (mma results accumulate in
/// place and are not counted twice).
bool checkFragmentRegisters(KernelFacts &f) {
  bool ok = true;
  int64_t allThreads = f.launchWarps * 32;
  int64_t baseline = launchBaselineRegisters(*f.target, allThreads);
  for (RoleOp role : f.roles) {
    int64_t threads = role.getNumWarps() * 32;
    // ptxas refuses an instruction that needs more registers than the
    // launch baseline, after setmaxnreg.inc too (C7602): a wgmma needs its
    // whole accumulator at once, so a larger regs() does not make it fit.
    int64_t budget = role.getRegs()
                         ? std::min<int64_t>(*role.getRegs(), baseline)
                         : baseline;
    role.walk([&](scf::ForOp loop) {
      auto [carried, largest] = loopFragmentRegisters(loop, threads);
      // 16 registers stay for addresses, indices and the loop itself.
      int64_t need = carried + largest + 16;
      if (carried > 0 && need > budget) {
        InFlightDiagnostic d =
            emitRuleError(loop, RuleId::ResourceFragmentRegisters)
            << "role \"" << role.getName() << "\" keeps " << carried
            << " registers of fragments across this loop and up to " << largest
            << " more in its body (+16 for addresses): " << need
            << " > its budget of " << budget << " per thread";
        if (role.getRegs() && int64_t(*role.getRegs()) > baseline)
          d.attachNote(role.getLoc())
              << "regs(" << *role.getRegs() << ") does not raise it: ptxas "
              << "refuses an instruction that needs more than the launch "
              << "baseline of " << baseline << " (" << allThreads
              << " threads), after setmaxnreg.inc too";
        ok = false;
      }
    });
  }
  return ok;
}

/// dataflow.read-outside-wait, dataflow.write-outside-acquire
bool checkStageAccess(KernelFacts &f) {
  bool ok = true;
  auto check = [&](Operation *op, Value ring, Value stage, bool write) {
    Operation *def = stage.getDefiningOp();
    RuleId rule = write ? RuleId::DataflowWriteOutsideAcquire
                        : RuleId::DataflowReadOutsideWait;
    bool rightKind = write ? isa_and_nonnull<PipeAcquireOp>(def)
                           : isa_and_nonnull<PipeWaitOp>(def);
    if (!rightKind) {
      InFlightDiagnostic d = emitRuleError(op, rule)
                             << (write ? "writes" : "reads") << " ring #"
                             << f.ringIndex.lookup(ring)
                             << " through a stage not taken with "
                             << (write ? "pipe.acquire" : "pipe.wait");
      if (def)
        d.attachNote(def->getLoc()) << "stage taken here";
      ok = false;
      return;
    }
    Value pipe = def->getOperand(0);
    if (!KernelFacts::pipeHolds(pipe, ring)) {
      InFlightDiagnostic d =
          emitRuleError(op, rule)
          << (write ? "writes" : "reads") << " ring #"
          << f.ringIndex.lookup(ring) << " through a stage of pipe #"
          << f.pipeIndex.lookup(pipe) << ", which does not hold that ring";
      d.attachNote(def->getLoc()) << "stage taken here";
      ok = false;
    }
  };
  f.kernel.walk([&](Operation *op) {
    if (auto t = dyn_cast<TmaLoadOp>(op))
      check(op, t.getDst(), t.getStage(), true);
    else if (auto w = dyn_cast<SmemWriteOp>(op))
      check(op, w.getDst(), w.getStage(), true);
    else if (auto s = dyn_cast<TmaStoreOp>(op))
      check(op, s.getSrc(), s.getStage(), false);
    else if (auto m = dyn_cast<MmaOp>(op)) {
      check(op, m.getA(), m.getAStage(), false);
      check(op, m.getB(), m.getBStage(), false);
    }
  });
  return ok;
}

/// dataflow.handoff-outside-role (dataflow.cross-role holds by SSA
/// dominance: a role's values are invisible to its siblings)
bool checkRoleScoping(KernelFacts &f) {
  bool ok = true;
  for (Operation &op : f.kernel.getBody().front())
    if (!isa<RoleOp, RingOp, PipeOp>(op) && op.getDialect() &&
        op.getDialect()->getNamespace() == "cake") {
      emitRuleError(&op, RuleId::DataflowHandoffOutsideRole)
          << "'" << op.getName() << "' is outside every role; it would run on "
          << "every warp of the CTA";
      ok = false;
    }
  return ok;
}

/// hw.arch-feature, hw.warpgroup-alignment, dataflow.fragment-layout,
/// hw.mma-smem-descriptor, hw.tma-alignment (static shapes)
bool checkHardware(KernelFacts &f) {
  bool ok = true;
  const TargetInfo *t = f.target;
  f.kernel.walk([&](Operation *op) {
    if (isa<TmaLoadOp, TmaStoreOp>(op) && !t->hasTma) {
      emitRuleError(op, RuleId::HwArchFeature)
          << "TMA copies need sm_90a or newer; the kernel targets " << t->arch;
      ok = false;
    }
    auto mma = dyn_cast<MmaOp>(op);
    if (!mma)
      return;
    bool has = mma.getKind() == MmaKind::wgmma     ? t->hasWgmma
               : mma.getKind() == MmaKind::tcgen05 ? t->hasTcgen05
                                                   : t->hasMmaSync;
    if (!has) {
      emitRuleError(op, RuleId::HwArchFeature)
          << stringifyMmaKind(mma.getKind()) << " is not available on "
          << t->arch;
      ok = false;
      return;
    }
    if (mma.getKind() != MmaKind::wgmma)
      return;
    auto role = op->getParentOfType<RoleOp>();
    if (role && !role.getWarpgroups()) {
      emitRuleError(op, RuleId::HwWarpgroupAlignment)
          << "wgmma in role \"" << role.getName()
          << "\", which is not a warpgroups(n) role";
      ok = false;
      return;
    }
    ok &= succeeded(verifyWgmmaOperands(mma));
  });
  // Register fragments live in the wgmma accumulator layout: one 64-row
  // slab per warpgroup of the role (M x N), a value per row (M x 1) or a
  // value per column (1 x N); the lowering has no other distribution.
  // Reported once per role and fragment type, at its first definition.
  llvm::DenseSet<std::pair<Operation *, Type>> reported;
  f.kernel.walk([&](Operation *op) {
    auto role = op->getParentOfType<RoleOp>();
    if (!role)
      return;
    for (Value v : op->getResults()) {
      auto frag = dyn_cast<FragType>(v.getType());
      if (!frag || frag.getRank() != 2 || reported.contains({role, frag}))
        continue;
      int64_t m = frag.getShape()[0], n = frag.getShape()[1];
      if (!role.getWarpgroups()) {
        bool mma = false;
        role.walk([&](MmaOp) { mma = true; });
        if (mma)
          return; // hw.warpgroup-alignment reports the role
        emitRuleError(op, RuleId::DataflowFragmentLayout)
            << "fragment " << m << "x" << n << " in role \"" << role.getName()
            << "\", which is not a warpgroups(n) role; fragments live in the "
               "wgmma accumulator layout";
        reported.insert({role, frag});
        ok = false;
        return;
      }
      int64_t rows = 64 * (role.getNumWarps() / 4);
      bool laidOut = (m == 1 && n % 8 == 0) || (m == rows && n == 1) ||
                     (m == rows && n % 8 == 0);
      if (!laidOut) {
        InFlightDiagnostic d =
            emitRuleError(op, RuleId::DataflowFragmentLayout)
            << "fragment " << m << "x" << n << " has no register layout in "
            << "role \"" << role.getName() << "\" of "
            << role.getNumWarps() / 4 << " warpgroups: expected " << rows
            << "xN (one 64-row slab per warpgroup), " << rows
            << "x1 or 1xN, N a multiple of 8";
        d.attachNote(role.getLoc())
            << "hint: give the role " << m / 64
            << " warpgroups, or tile the fragment to " << rows << " rows";
        reported.insert({role, frag});
        ok = false;
        return;
      }
    }
  });
  // Static row strides of TMA tensors.
  f.kernel.walk([&](Operation *op) {
    Value g;
    if (auto l = dyn_cast<TmaLoadOp>(op))
      g = l.getSrc();
    else if (auto s = dyn_cast<TmaStoreOp>(op))
      g = s.getDst();
    else
      return;
    auto type = cast<GlobalType>(g.getType());
    int64_t stride = getElementBytes(type.getElementType());
    for (int64_t d = type.getRank() - 1; d > 0; --d) {
      if (type.isDynamicDim(d))
        return; // checked at launch
      stride *= type.getShape()[d];
      if (stride % 16 != 0) {
        emitRuleError(op, RuleId::HwTmaAlignment)
            << "the rows of " << type << " are " << stride
            << " bytes apart, not a multiple of 16: the copy engine cannot "
               "address them";
        ok = false;
        return;
      }
    }
  });
  return ok;
}

struct VerifyPass : public mlir::cake::impl::VerifyBase<VerifyPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](KernelOp kernel) {
      if (failed(mlir::verify(kernel))) {
        ok = false;
        return;
      }
      KernelFacts f(kernel);
      if (!f.target) {
        ok = false;
        return;
      }
      // Hand-offs outside roles make every protocol rule below noise.
      if (!checkRoleScoping(f)) {
        ok = false;
        return;
      }
      ok &= checkPipeRoles(f);
      ok &= checkHardware(f);
      ok &= checkRoleResources(f);
      ok &= checkSharedMemory(f);
      ok &= checkFragmentRegisters(f);
      ok &= checkStageAccess(f);
      ok &= checkProxyFence(f);
      bool barriers = checkNamedBarriers(f);
      ok &= barriers;
      ok &= checkExpectTx(f);
      bool balanced = checkHandoffBalance(f);
      ok &= balanced;
      ok &= checkTiles(f);
      ok &= checkTileCoverage(f);
      bool counts = checkTripCounts(f);
      ok &= counts;
      // A deadlock search over unbalanced hand-offs or barriers only
      // repeats them.
      if (balanced && counts && barriers)
        ok &= checkDeadlock(f);
      // Turns taken by named barriers the deadlock search does not model.
      if (auto order = kernel->getAttrOfType<BoolAttr>(kWgOrderAttrName);
          order && order.getValue())
        kernel.walk([&](RoleOp role) {
          ok &= succeeded(verifyWarpgroupTurns(role));
        });
      // Rules registered at run time (e.g. written in C).
      for (const ExternalRule &rule : getExternalRules())
        ok &= succeeded(rule.check(kernel));
    });
    if (!ok)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
