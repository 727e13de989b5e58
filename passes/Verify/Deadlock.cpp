// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Deadlock.cpp - sync.deadlock ---------------------------------------===//
//
// A bounded simulation of every role's hand-offs and named barriers: each
// loop unrolled a few times (a loop of constant bounds its trip count), the
// roles advanced while any can, and the cycle of waits reported where none can.
//
//===----------------------------------------------------------------------===//

#include "RuleChecks.h"
#include "cake/Analysis/IndexExpr.h"

#include "cake/Analysis/Handoffs.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <deque>

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

namespace {
/// sync.deadlock: a bounded simulation of every role's hand-offs.
struct Event {
  enum Kind { Acquire, Commit, Wait, Release, Barrier } kind;
  unsigned pipe; ///< the pipe's index, or the named barrier's id
  Operation *op;
  int tile = -1;    ///< the iteration of the role's tile loop it runs in
  int64_t pos = -1; ///< a dealt pipe's wait: the position it waits for
};

/// How often the simulation runs a loop's body: a loop of constant bounds
/// its trip count (up to 16, past any pipe's depth), others `unroll` times.
int timesRun(Operation &op, int unroll) {
  if (std::optional<int64_t> trips = constantTripCount(&op))
    return static_cast<int>(std::min<int64_t>(*trips, 16));
  return unroll;
}

/// The value of each first-iteration flag (cake/Analysis/IndexExpr.h) in
/// the iteration being flattened, and of each loop's flag after it ran.
using FlagValues = llvm::DenseMap<Value, bool>;

/// Sets the flags of `loop` for iteration `i` (the init in the first), or
/// after its `n` iterations (`i` == n).
void setFlags(Operation &loop, int i, int n, FlagValues &flags) {
  for (auto [k, arg] : llvm::enumerate(loopIterArgs(&loop))) {
    std::optional<bool> init = firstFlagInit(&loop, k);
    if (!init)
      continue;
    if (i < n)
      flags[arg] = i == 0 ? *init : !*init;
    else
      flags[loop.getResult(k)] = n == 0 ? *init : !*init;
  }
}

/// How the flattening walks tile loops: a loop over all of the CTA's tiles
/// runs `wholeTiles` times, one over a slice `unroll` times, so that a
/// dealt pipe's producer fills every slice's tiles its consumers take.
struct TileWalk {
  int wholeTiles = 3;
  int tile = -1; ///< the iteration being flattened
};

void flatten(Block &block, KernelFacts &f, SmallVectorImpl<Event> &out,
             int unroll, size_t cap, FlagValues &flags, TileWalk &walk) {
  for (Operation &op : block) {
    if (out.size() > cap)
      return;
    size_t before = out.size();
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
    else if (auto tiles = dyn_cast<TilesOp>(op)) {
      int n = tiles.getSliceOrWhole().second == 1 ? walk.wholeTiles : unroll;
      for (int i = 0; i < n; ++i) {
        setFlags(op, i, n, flags);
        walk.tile = i;
        flatten(op.getRegion(0).front(), f, out, unroll, cap, flags, walk);
      }
      walk.tile = -1;
      setFlags(op, n, n, flags);
    } else if (isa<scf::ForOp>(op)) {
      int n = timesRun(op, unroll);
      for (int i = 0; i < n; ++i) {
        setFlags(op, i, n, flags);
        flatten(op.getRegion(0).front(), f, out, unroll, cap, flags, walk);
      }
      setFlags(op, n, n, flags);
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      // A constant condition runs one branch, and so does a first-iteration
      // flag's (its value known in each unrolled iteration); other scf.if
      // are not followed (sync.trip-count-mismatch compares them path by
      // path).
      std::optional<bool> value;
      if (auto use = asFirstFlag(branch.getCondition())) {
        if (auto it = flags.find(use->flag); it != flags.end())
          value = it->second != use->negated;
      } else if (auto key = conditionKey(branch.getCondition(), f.kernel);
                 key && key->first == "true") {
        value = !key->second;
      }
      if (value)
        if (Block *taken = *value ? branch.thenBlock() : branch.elseBlock())
          flatten(*taken, f, out, unroll, cap, flags, walk);
    }
    if (out.size() == before + 1 && out.back().op == &op)
      out.back().tile = walk.tile;
  }
}

/// A dealt pipe in the simulation: the producer fills positions in order,
/// and consumer k of n waits, in iteration j of its tile loop, for the
/// positions of the CTA's tile j n + k.
struct DealtState {
  int64_t stages = 0, perTile = 0, acquired = 0, committed = 0;
  SmallVector<size_t> consumers; ///< role indices, by slice
  std::vector<bool> released;
  /// Per role, the positions it waited for and has not released yet.
  llvm::DenseMap<size_t, std::deque<int64_t>> held;
};
} // namespace

bool verify::checkDeadlock(KernelFacts &f) {
  const int unroll = 3;
  const size_t cap = 200000;
  TileWalk walk;
  f.kernel.walk([&](TilesOp t) {
    walk.wholeTiles = std::max<int>(walk.wholeTiles,
                                    unroll * int(t.getSliceOrWhole().second));
  });
  SmallVector<SmallVector<Event>> seqs;
  for (RoleOp role : f.roles) {
    seqs.emplace_back();
    FlagValues flags;
    flatten(role.getBody().front(), f, seqs.back(), unroll, cap, flags, walk);
    if (seqs.back().size() > cap)
      return true; // too large to search: not reported
  }
  SmallVector<int64_t> freeSlots, full;
  llvm::DenseMap<unsigned, DealtState> dealt;
  for (auto p : f.kernel.getBody().getOps<PipeOp>()) {
    freeSlots.push_back(p.getType().getStages());
    full.push_back(0);
    std::optional<DealtPipe> d = dealtPipe(p);
    if (!d || !d->producer)
      continue;
    unsigned index = f.pipeIndex.lookup(p);
    DealtState &st = dealt[index];
    st.stages = p.getType().getStages();
    auto roleIndex = [&](RoleOp r) {
      return size_t(llvm::find(f.roles, r) - f.roles.begin());
    };
    for (RoleOp c : d->consumers)
      st.consumers.push_back(roleIndex(c));
    for (const Event &e : seqs[roleIndex(d->producer)])
      st.perTile += e.kind == Event::Commit && e.pipe == index && e.tile == 0;
    int64_t n = st.consumers.size();
    for (auto [k, r] : llvm::enumerate(st.consumers)) {
      int lastTile = -1;
      int64_t inTile = 0;
      for (Event &e : seqs[r]) {
        if (e.kind != Event::Wait || e.pipe != index)
          continue;
        inTile = e.tile == lastTile ? inTile + 1 : 0;
        lastTile = e.tile;
        e.pos = (int64_t(e.tile) * n + int64_t(k)) * st.perTile + inTile;
      }
    }
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
    if (auto it = dealt.find(e.pipe);
        it != dealt.end() && e.kind != Event::Barrier) {
      DealtState &st = it->second;
      if (e.kind == Event::Acquire)
        return st.acquired < st.stages ||
               (size_t(st.acquired - st.stages) < st.released.size() &&
                st.released[st.acquired - st.stages]);
      if (e.kind == Event::Wait)
        return e.pos >= 0 && e.pos < st.committed;
      return true;
    }
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
        if (auto it = dealt.find(e.pipe);
            it != dealt.end() && e.kind != Event::Barrier) {
          DealtState &st = it->second;
          if (e.kind == Event::Acquire) {
            ++st.acquired;
          } else if (e.kind == Event::Commit) {
            ++st.committed;
          } else if (e.kind == Event::Wait) {
            st.held[r].push_back(e.pos);
          } else if (!st.held[r].empty()) {
            int64_t pos = st.held[r].front();
            st.held[r].pop_front();
            if (size_t(pos) >= st.released.size())
              st.released.resize(pos + 1, false);
            st.released[pos] = true;
          }
          continue;
        }
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
          << DiagRole{f.roles[r].getName()} << " waits here at named "
          << "barrier " << e.pipe << " for the other roles that pass it";
      continue;
    }
    bool acq = e.kind == Event::Acquire;
    d.attachNote(e.op->getLoc())
        << DiagRole{f.roles[r].getName()} << " waits here for "
        << (acq ? "a free stage" : "a full stage") << " of " << DiagPipe{e.pipe}
        << (acq ? " (all stages held by its consumer)"
                : " (its producer has committed nothing new)");
  }
  d.attachNote(f.kernel.getLoc())
      << "hint: release stages before waiting on more than the pipe holds, "
         "and do not make a producer wait on its own consumer";
  return false;
}
