// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Pipes.cpp - Pipes, named barriers and proxy fences -----------------===//
//
// Pipes become full/empty mbarrier arrays with a per-role hand-off counter
// n: stage n mod S, parity (n / S) mod 2. A TMA-filled stage arms its full
// barrier with the derived bytes; a stage filled by stores, or released,
// gets one arrival per warp. Releases of stages an unretired wgmma still
// reads are held back (Wgmma.cpp decides which). A role that issues
// tcgen05.mma hands off with tcgen05.commit, which arrives once its MMAs
// retire; a role that fills a tensor-memory stage with tcgen05.st arrives
// once a warp. The two sides of a tensor-memory pipe fence their tcgen05
// work around the hand-off.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "cake/Analysis/Handoffs.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

std::optional<LogicalResult> KernelEmitter::emitPipeOp(Operation &op) {
  if (auto a = dyn_cast<PipeAcquireOp>(op))
    return emitHandoff(a, a.getPipe(), /*producer=*/true);
  if (auto w = dyn_cast<PipeWaitOp>(op))
    return emitHandoff(w, w.getPipe(), /*producer=*/false);
  if (auto c = dyn_cast<PipeCommitOp>(op))
    return emitCommit(c);
  if (auto r = dyn_cast<PipeReleaseOp>(op))
    return emitRelease(r);
  if (isa<FenceProxyAsyncOp>(op)) {
    // Order this thread's generic-proxy shared-memory writes before
    // the async proxy (TMA, wgmma) reads them. A target without one
    // (sm_80) reads them through the generic proxy: nothing to order.
    if (!hasAsyncProxy)
      return success();
    NVVM::FenceProxyOp::create(
        b, loc(),
        NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    return success();
  }
  if (auto bar = dyn_cast<BarrierSyncOp>(op)) {
    // bar.sync id, threads (barrier 0 stays the CTA-wide one).
    Value id = i32c(bar.getId()), threads = i32c(bar.getThreads());
    NVVM::BarrierOp::create(b, loc(), Type(), id, threads,
                            NVVM::BarrierReductionAttr(), Value());
    return success();
  }
  return std::nullopt;
}

LogicalResult KernelEmitter::emitHandoff(Operation *op, Value pipe,
                                         bool producer) {
  if (!role)
    return op->emitError("pipe handoffs must be inside a role");
  const PipeInfo &info = pipes[pipe];
  // A stage filled by TMA arms its full barrier with the bytes the copies
  // will deliver; their completion ends the phase. A stage without copies
  // is a pure signal: its commit arrives instead.
  auto acquire = dyn_cast<PipeAcquireOp>(op);
  bool filledByTma = acquire && isFilledByTma(acquire);
  // In a role whose threads all run (it also consumes), only the leader
  // takes a stage TMA fills; every thread counts the hand-off, so all agree
  // on the stage index and phase. A stage filled by stores is taken by
  // every thread that writes it.
  bool leaderOnly = producer && role->allLanes && filledByTma;
  Value slot = role->ctr.lookup({pipe, unsigned(producer)});
  Value n = LLVM::LoadOp::create(b, loc(), b.getI32Type(), slot);
  LLVM::StoreOp::create(b, loc(), arith::AddIOp::create(b, loc(), n, i32c(1)),
                        slot);
  Value stage = arith::RemUIOp::create(b, loc(), n, i32c(info.stages));
  Value round = arith::DivUIOp::create(b, loc(), n, i32c(info.stages));
  Value phase = arith::AndIOp::create(b, loc(), round, i32c(1));
  Value stageOff = arith::MulIOp::create(b, loc(), stage, i32c(8));
  // A producer waits for the consumers to have released the stage, i.e. for
  // the completion of the empty barrier's previous phase: parity ^ 1, which
  // a freshly initialized barrier reports complete.
  Value parity =
      producer ? arith::XOrIOp::create(b, loc(), phase, i32c(1)) : phase;
  OpBuilder::InsertionGuard g(b);
  if (leaderOnly)
    enterLeader();
  Value bar = smemAt(arith::AddIOp::create(
      b, loc(), barrierBase(pipe, /*empty=*/producer), stageOff));
  waitParity(bar, parity);
  // The other side's tensor-memory work (MMAs into the stage, loads out of
  // it) is ordered before this side's.
  if (info.tmem)
    fenceTmem(/*before=*/false);
  // cp.async writes through the generic proxy: a reader of a gathered
  // stage orders them before its wgmma (async proxy) reads.
  if (!producer && info.gathered && hasAsyncProxy)
    NVVM::FenceProxyOp::create(
        b, loc(), NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  if (producer && filledByTma) {
    Value full = smemAt(arith::AddIOp::create(
        b, loc(), barrierBase(pipe, /*empty=*/false), stageOff));
    NVVM::MBarrierArriveExpectTxOp::create(
        b, loc(), Type(), full, i32c(info.txBytes), NVVM::MemScopeKind::CTA,
        /*relaxed=*/false, Value());
    noteArrivals(pipe, /*empty=*/false, 1); // the leader's, armed
  }
  map.map(op->getResult(0), stage);
  return success();
}

void KernelEmitter::waitParity(Value bar, Value parity) {
  if (hasTryWait) {
    NVVM::MBarrierTryWaitParityOp::create(b, loc(), bar, parity,
                                          i32c(10000000));
    return;
  }
  // sm_80: mbarrier.test_wait does not suspend; poll it (labels inside
  // braces are local to the block, so the loop may be emitted many times).
  // A plain bra: lanes need not see the phase complete at the same test.
  Value addr = LLVM::PtrToIntOp::create(b, loc(), b.getI32Type(), bar);
  sideEffectAsm(Type(), ValueRange{addr, parity},
                "{\n.reg .pred done;\ntest_again:\n"
                "mbarrier.test_wait.parity.shared.b64 done, [$0], $1;\n"
                "@!done bra test_again;\n}",
                "r,r");
}

LogicalResult KernelEmitter::emitCommit(PipeCommitOp c) {
  // A TMA-filled stage's full barrier was armed at acquire and the
  // copies finish the phase: nothing to emit. Otherwise arrive.
  auto acquire = c.getStage().getDefiningOp<PipeAcquireOp>();
  if (acquire && isFilledByTma(acquire))
    return success();
  // A gathered stage: every producer thread's arrival is made when its
  // cp.async pieces land (.noinc: the derived full_count counts the
  // threads). The form that raises the pending count now and lowers it
  // then, beside one arrival per warp, counts the same but takes the
  // count past the barrier's expected one, which compute-sanitizer's
  // synccheck reports as a barrier overflow.
  const PipeInfo &info = pipes[c.getPipe()];
  // A tensor-memory stage the role's MMAs fill is complete when they
  // retire; one its tcgen05.st fill (waited for at the store), when each
  // warp has ordered its stores before the hand-off and arrived.
  if (info.tmem && !role->tcgen05Issuer) {
    fenceTmem(/*before=*/true);
    arriveOnce(c.getPipe(), stageAt(barrierBase(c.getPipe(), /*empty=*/false),
                                    map.lookup(c.getStage()), 8));
    noteArrivals(c.getPipe(), /*empty=*/false, arrivalsOn(c.getPipe()));
    return success();
  }
  if (info.tmem) {
    NVVM::Tcgen05CommitOp::create(
        b, loc(),
        stageAt(barrierBase(c.getPipe(), /*empty=*/false),
                map.lookup(c.getStage()), 8),
        Value());
    noteArrivals(c.getPipe(), /*empty=*/false, 1);
    return success();
  }
  if (acquire && isFilledByThreadCopies(acquire)) {
    NVVM::CpAsyncMBarrierArriveOp::create(
        b, loc(),
        stageAt(barrierBase(c.getPipe(), /*empty=*/false),
                map.lookup(c.getStage()), 8),
        /*noinc=*/true);
    noteArrivals(c.getPipe(), /*empty=*/false,
                 role->allLanes ? 32 * role->role.getNumWarps() : 1);
    return success();
  }
  // Stores filled the stage: one arrival per producer warp (the derived
  // full_count), after the warp converged, or per thread.
  arriveOnce(c.getPipe(), stageAt(barrierBase(c.getPipe(), /*empty=*/false),
                                  map.lookup(c.getStage()), 8));
  noteArrivals(c.getPipe(), /*empty=*/false, arrivalsOn(c.getPipe()));
  return success();
}

LogicalResult KernelEmitter::emitRelease(PipeReleaseOp op) {
  Value stage = map.lookup(op.getStage());
  const PipeInfo &info = pipes[op.getPipe()];
  // The MMAs issued so far read the stage: it is free once they retire.
  if (role->tcgen05Issuer) {
    NVVM::Tcgen05CommitOp::create(
        b, loc(), stageAt(barrierBase(op.getPipe(), /*empty=*/true), stage, 8),
        Value());
    noteArrivals(op.getPipe(), /*empty=*/true, 1);
    return success();
  }
  // This thread's tensor-memory loads are done before the producer's
  // next MMAs into the stage.
  if (info.tmem)
    fenceTmem(/*before=*/true);
  if (chainStages.contains({op.getPipe(), stage})) {
    // A chained wgmma still in flight reads it.
    chainReleases.push_back({op.getPipe(), stage});
    return success();
  }
  if (readByPendingGroup({op.getPipe(), stage})) {
    // A retire-late group still in flight reads it.
    pendingReleases.push_back({op.getPipe(), stage});
    return success();
  }
  if (lazy && lazy->releases.count(op)) {
    // The wgmma reading `stage` may still run: released at the end of the
    // iteration, after it retires.
    lazy->released.push_back({op.getPipe(), stage});
    return success();
  }
  if (deferredStage) {
    // The mma just issued may still read `stage`; the previous one has
    // retired (wait_group 1), so release its stage and remember this one.
    releaseDeferred(op.getPipe());
    LLVM::StoreOp::create(b, loc(), stage, deferredStage);
    return success();
  }
  arriveEmpty(op.getPipe(), stage);
  return success();
}

void KernelEmitter::releaseSlot(Value pipe, Value slot) {
  Value prev = LLVM::LoadOp::create(b, loc(), b.getI32Type(), slot);
  Value any =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::sge, prev, i32c(0));
  auto ifAny = scf::IfOp::create(b, loc(), any, /*withElse=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(ifAny.thenBlock()->getTerminator());
  arriveEmpty(pipe, prev);
}

void KernelEmitter::releaseDeferred(Value pipe) {
  releaseSlot(pipe, deferredStage);
}

void KernelEmitter::arriveEmpty(Value pipe, Value stage) {
  const PipeInfo &info = pipes[pipe];
  if (info.releaseCtas > 1) {
    arriveInCluster(stageAt(barrierBase(pipe, /*empty=*/true), stage, 8),
                    info.releaseCtas);
    // Each CTA's barrier hears from this role in every CTA of the cluster.
    noteArrivals(pipe, /*empty=*/true, arrivingWarps() * info.releaseCtas);
    return;
  }
  arriveOnce(pipe, stageAt(barrierBase(pipe, /*empty=*/true), stage, 8));
  noteArrivals(pipe, /*empty=*/true, arrivalsOn(pipe));
}

void KernelEmitter::arriveInCluster(Value barrier, int64_t ctas) {
  // The stage is refilled by every CTA's copies: each warp of the role
  // arrives on the barrier of each CTA of the cluster, lane r on CTA r's
  // (mapa gives its address in the shared::cluster window), once the warp
  // converged. A copy role runs on its leader alone, which arrives on all.
  // The arrival keeps the default .release.cta, as CUTLASS's cluster
  // pipelines do: what it orders is the consumers' wgmma reads before the
  // peer's next copy into the stage, both in the async proxy, and the
  // .release.cluster form measured 20-45% slower on the H200 (GEMM run 6,
  // docs/benchmarks/gemm.md).
  OpBuilder::InsertionGuard g(b);
  auto arriveAt = [&](Value rank) {
    Value remote = NVVM::MapaOp::create(
        b, loc(), LLVM::LLVMPointerType::get(ctx, 7), barrier, rank);
    NVVM::MBarrierArriveOp::create(b, loc(), Type(), remote, Value(),
                                   NVVM::MemScopeKind::CTA,
                                   /*relaxed=*/false);
  };
  if (role->allLanes) {
    NVVM::SyncWarpOp::create(b, loc(), i32c(-1));
    Value mine = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                       role->lane, i32c(ctas));
    auto ifMine = scf::IfOp::create(b, loc(), mine, /*withElse=*/false);
    b.setInsertionPoint(ifMine.thenBlock()->getTerminator());
    arriveAt(role->lane);
    return;
  }
  for (int64_t r = 0; r < ctas; ++r)
    arriveAt(i32c(r));
}

void KernelEmitter::arriveOnce(Value pipe, Value barrier) {
  // One arrival per warp of the role (the derived counts): the warp
  // converges first so every lane is done with the stage. A copy role runs
  // on its leader alone, which arrives for its one warp. In a thread
  // hand-off every thread arrives after its own stores or loads.
  OpBuilder::InsertionGuard g(b);
  if (role->allLanes && !pipes[pipe].threadHandoff) {
    NVVM::SyncWarpOp::create(b, loc(), i32c(-1));
    Value lane0 = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                        role->lane, i32c(0));
    auto ifLane0 = scf::IfOp::create(b, loc(), lane0, /*withElse=*/false);
    b.setInsertionPoint(ifLane0.thenBlock()->getTerminator());
  }
  NVVM::MBarrierArriveOp::create(b, loc(), Type(), barrier, Value());
}

int64_t KernelEmitter::arrivingWarps() const {
  return role->allLanes ? role->role.getNumWarps() : 1;
}

int64_t KernelEmitter::arrivalsOn(Value pipe) const {
  bool eachThread = role->allLanes && pipes.lookup(pipe).threadHandoff;
  return (eachThread ? 32 : 1) * arrivingWarps();
}

void KernelEmitter::noteArrivals(Value pipe, bool empty, int64_t count) {
  // Code shared by roles arrives for each of them, on its own pipe.
  if (!sharedGroup) {
    arrivals[{pipe, unsigned(empty)}][role->role].push_back(count);
    return;
  }
  for (auto [k, member] : llvm::enumerate(sharedGroup->roles))
    arrivals[{inRole(pipe, k), unsigned(empty)}][member].push_back(count);
}

LogicalResult KernelEmitter::checkArrivals() {
  // Each role's arrival sites are the alternative places one hand-off is
  // made (a release held for a wgmma, or made at once): they must agree,
  // and the roles' arrivals together make the barrier's derived count (a
  // dealt pipe's consumers release different stages: each one's alone).
  for (auto &[key, byRole] : arrivals) {
    auto [pipe, empty] = key;
    const PipeInfo &info = pipes[pipe];
    int64_t derived = empty ? info.emptyCount : info.fullCount;
    bool eachAlone = empty && dealtPipe(pipe.getDefiningOp<PipeOp>());
    int64_t total = 0;
    std::string roles;
    llvm::raw_string_ostream os(roles);
    for (auto &[roleOp, counts] : byRole) {
      StringRef name = cast<RoleOp>(roleOp).getName();
      if (llvm::any_of(counts, [&](int64_t n) { return n != counts[0]; }))
        return pipe.getDefiningOp()->emitError("convert-cake-to-nvvm: role '")
               << name << "' arrives on the " << (empty ? "empty" : "full")
               << " barrier with " << counts[0] << " and with "
               << *llvm::find_if(counts,
                                 [&](int64_t n) { return n != counts[0]; })
               << " arrivals at different hand-offs";
      total = eachAlone ? counts[0] : total + counts[0];
      os << (roles.empty() ? "" : ", ") << "'" << name << "' " << counts[0];
      if (eachAlone && total != derived)
        break;
    }
    if (total != derived)
      return pipe.getDefiningOp()->emitError("convert-cake-to-nvvm: the ")
             << (empty ? "empty" : "full") << " barrier of this pipe expects "
             << derived << " arrivals a phase (cake-derive's "
             << (empty ? "empty_count" : "full_count")
             << ") but the lowered roles make " << total << " (" << roles
             << "); the kernel would "
             << (total < derived ? "hang" : "hand stages over early");
  }
  return success();
}

void KernelEmitter::releaseHeld(
    SmallVectorImpl<std::pair<Value, Value>> &held) {
  for (auto [pipe, stage] : held)
    arriveEmpty(pipe, stage);
  held.clear();
}
