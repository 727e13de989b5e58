// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- MmaChains.cpp - Which wgmma groups stay in flight ------------------===//
//
// The wgmma chain and loop forms of cake/Analysis/MmaChains.h.
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/MmaChains.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::cake;

/// Whether `next` follows `last` in its block with nothing but frag.zero
/// between them.
static bool backToBack(MmaOp last, MmaOp next) {
  if (last->getBlock() != next->getBlock() || !last->isBeforeInBlock(next))
    return false;
  for (Operation *op = last->getNextNode(); op && op != next.getOperation();
       op = op->getNextNode())
    if (!isa<FragZeroOp>(op))
      return false;
  return true;
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
  // Chains issued back to back are one turn: a turn boundary between them
  // would make each warpgroup wait for the others between two products
  // of the same step.
  SmallVector<std::pair<MmaOp, MmaOp>> turns;
  for (auto chain : chains) {
    if (!turns.empty() && backToBack(turns.back().second, chain.first)) {
      turns.back().second = chain.second;
      continue;
    }
    turns.push_back(chain);
  }
  return turns;
}

bool mlir::cake::mayIssueBesideWgmmaGroups(Operation &op) {
  // A scan down the columns across warps meets the role's threads on a
  // named barrier.
  if (auto scan = dyn_cast<FragScanOp>(op); scan && scan.crossesWarps())
    return false;
  if (isa<LoadOp, StoreOp, ScalarLoadOp, DimOp, PipeWaitOp, PipeReleaseOp,
          MmaOp, FragZeroOp, FragIotaOp, FragSplatOp, FragConvertOp, FragMapOp,
          FragReduceOp, FragScanOp, FragArgminOp, TopKInitOp>(op))
    return true;
  // Scalar ops of other dialects (arith, math) without regions.
  return op.getNumRegions() == 0 && isPure(&op) &&
         !op.hasTrait<OpTrait::IsTerminator>() &&
         op.getDialect()->getNamespace() != "cake" &&
         llvm::all_of(op.getResultTypes(),
                      [](Type t) { return t.isIntOrIndexOrFloat(); });
}

Operation *mlir::cake::warpgroupTurnEnd(MmaOp first, MmaOp last,
                                        bool retireLate) {
  if (!retireLate)
    return last->getNextNode();
  llvm::SmallPtrSet<Operation *, 8> issued;
  auto readsIssued = [&](Operation &op) {
    bool reads = false;
    op.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (Operation *def = v.getDefiningOp(); def && issued.contains(def)) {
          // A wgmma accumulating onto an issued one needs no wait.
          auto mma = dyn_cast<MmaOp>(inner);
          if (!mma || mma.getAcc() != v)
            reads = true;
        }
    });
    return reads;
  };
  for (Operation *op = first; op; op = op->getNextNode()) {
    if (isa<MmaOp>(op)) {
      issued.insert(op);
      continue;
    }
    if (readsIssued(*op) || !mayIssueBesideWgmmaGroups(*op))
      return op;
  }
  return nullptr;
}

bool mlir::cake::chainsIntoNextMma(MmaOp mma) {
  if (mma.getKind() != MmaKind::wgmma || !mma.getResult().hasOneUse())
    return false;
  auto next = dyn_cast<MmaOp>(*mma.getResult().getUsers().begin());
  if (!next || next.getKind() != MmaKind::wgmma ||
      next->getBlock() != mma->getBlock() || next.getAcc() != mma.getResult())
    return false;
  // Releases are held back by (pipe, stage): both stages must name theirs.
  if ((mma.getAStage() && !mma.getAStage().getDefiningOp<PipeWaitOp>()) ||
      !mma.getBStage().getDefiningOp<PipeWaitOp>())
    return false;
  for (Operation *op = mma->getNextNode(); op != next; op = op->getNextNode()) {
    if (isa<PipeReleaseOp>(op))
      continue;
    if (auto wait = dyn_cast<PipeWaitOp>(op)) {
      if (cast<PipeType>(wait.getPipe().getType()).getStages() < 2)
        return false;
      continue;
    }
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
      return false;
  }
  return true;
}

bool mlir::cake::isPipelinedMmaLoop(scf::ForOp forOp) {
  PipeWaitOp wait;
  MmaOp mma;
  PipeReleaseOp release;
  for (Operation &op : forOp.getBody()->without_terminator()) {
    if (auto w = dyn_cast<PipeWaitOp>(op)) {
      if (wait)
        return false;
      wait = w;
    } else if (auto m = dyn_cast<MmaOp>(op)) {
      if (mma || !wait || m.getKind() != MmaKind::wgmma)
        return false;
      mma = m;
    } else if (auto r = dyn_cast<PipeReleaseOp>(op)) {
      if (release || !mma)
        return false;
      release = r;
    } else if (op.getNumRegions() != 0 || isa<PipeAcquireOp>(op)) {
      return false;
    }
  }
  if (!wait || !mma || !release)
    return false;
  auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
  return (!mma.getAStage() || mma.getAStage() == wait.getStage()) &&
         mma.getBStage() == wait.getStage() &&
         release.getStage() == wait.getStage() &&
         release.getPipe() == wait.getPipe() && yield.getNumOperands() == 1 &&
         yield.getOperand(0) == mma.getResult();
}

std::optional<OverlappedEpilogueLoop>
mlir::cake::matchOverlappedEpilogueLoop(scf::ForOp forOp) {
  OverlappedEpilogueLoop loop;
  Block *body = forOp.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  unsigned position = 0, chainEnd = 0;
  llvm::DenseMap<Operation *, unsigned> order;
  for (Operation &op : body->without_terminator()) {
    order[&op] = position++;
    if (isa<PipeAcquireOp, scf::ForOp, scf::WhileOp>(op))
      return std::nullopt;
    // A guarded epilogue (scf.if) may follow the chain; it holds no
    // hand-offs and no mma of its own.
    if (isa<scf::IfOp>(op)) {
      bool plain = !loop.releases.empty();
      op.walk([&](Operation *inner) {
        if (isa<PipeWaitOp, PipeReleaseOp, PipeAcquireOp, MmaOp, scf::ForOp>(
                inner))
          plain = false;
      });
      if (!plain)
        return std::nullopt;
      continue;
    }
    if (auto w = dyn_cast<PipeWaitOp>(op)) {
      if (loop.pipe && w.getPipe() != loop.pipe)
        return std::nullopt;
      loop.pipe = w.getPipe();
    } else if (auto m = dyn_cast<MmaOp>(op)) {
      if (m.getKind() != MmaKind::wgmma)
        return std::nullopt;
      Value acc = m.getAcc();
      bool chained = loop.mmas.empty()
                         ? isa_and_nonnull<FragZeroOp>(acc.getDefiningOp()) &&
                               acc.getDefiningOp()->getBlock() == body
                         : acc == loop.mmas.back().getResult();
      auto wait = m.getBStage().getDefiningOp<PipeWaitOp>();
      if (!chained || !wait || wait->getBlock() != body ||
          !m.getResult().hasOneUse())
        return std::nullopt;
      loop.mmas.push_back(m);
    } else if (auto r = dyn_cast<PipeReleaseOp>(op)) {
      auto wait = r.getStage().getDefiningOp<PipeWaitOp>();
      if (r.getPipe() != loop.pipe || !wait || wait->getBlock() != body ||
          loop.mmas.empty())
        return std::nullopt;
      loop.releases.push_back(r);
      chainEnd = position;
    }
  }
  if (loop.mmas.empty() || loop.releases.size() != loop.mmas.size())
    return std::nullopt;
  Value last = loop.mmas.back().getResult();
  unsigned index = 0;
  for (; index < yield.getNumOperands(); ++index)
    if (yield.getOperand(index) == last)
      break;
  if (index == yield.getNumOperands() ||
      *last.getUsers().begin() != yield.getOperation())
    return std::nullopt;
  // Every use of the carried accumulator comes after the chain.
  Value carried = forOp.getRegionIterArg(index);
  for (OpOperand &use : carried.getUses()) {
    Operation *user = body->findAncestorOpInBlock(*use.getOwner());
    if (!user || isa<scf::YieldOp>(user) || order.lookup(user) < chainEnd)
      return std::nullopt;
    if (!loop.firstUse || order.lookup(user) < order.lookup(loop.firstUse))
      loop.firstUse = user;
  }
  if (!loop.firstUse)
    return std::nullopt;
  return loop;
}

bool mlir::cake::isOverlappedEpilogueLoop(scf::ForOp forOp) {
  return matchOverlappedEpilogueLoop(forOp).has_value();
}
