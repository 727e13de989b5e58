// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Wgmma.cpp - wgmma, chains in flight and warpgroup turns ------------===//
//
// cake.mma ... wgmma becomes wgmma.mma_async over shared-memory
// descriptors built from the derived fields, with the accumulator as an
// LLVM struct in the wgmma register layout. Which groups stay in flight
// (straight-line chains, pipelined K loops, overlapped epilogues,
// retire-late) and when the stages they read are released are decided
// here; the forms themselves are cake/Analysis/MmaChains.h's.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "cake/Analysis/KernelLayout.h"
#include "cake/Analysis/MmaChains.h"
#include "cake/Target/TargetInfo.h"
#include "cake/Verify/Checks.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

std::optional<LogicalResult> KernelEmitter::emitMmaOp(Operation &op) {
  if (auto m = dyn_cast<MmaOp>(op))
    return m.getKind() == MmaKind::mma_sync ? emitMmaSync(m) : emitMma(m);
  return std::nullopt;
}

/// The index in pendingGroups of the last group whose result `op` reads
/// (in its operands or its regions), or -1. A wgmma accumulating onto a
/// pending result needs no wait: wgmmas on one accumulator run in order.
int KernelEmitter::lastPendingUse(Operation &op) {
  int last = -1;
  auto note = [&](Value v) {
    for (auto [i, g] : llvm::enumerate(pendingGroups))
      if (g.result == v)
        last = std::max(last, int(i));
  };
  auto mma = dyn_cast<MmaOp>(op);
  for (OpOperand &use : op.getOpOperands())
    if (!mma || use.get() != mma.getAcc())
      note(use.get());
  op.walk([&](Operation *inner) {
    if (inner != &op)
      for (Value v : inner->getOperands())
        if (!op.isAncestor(v.getParentBlock()->getParentOp()))
          note(v);
  });
  return last;
}

/// Retires pendingGroups[0 .. last] with one wait_group that leaves the
/// groups committed after pendingGroups[last] in flight, fences the retired
/// accumulators (so that LLVM reads them only after the wait), and releases
/// the held stages no pending group reads any more.
/// wg-order: arrive on the next warpgroup's turn barrier.
void KernelEmitter::passWarpgroupTurn() {
  turnToPass = false;
  Value wg = arith::DivUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value after = arith::AddIOp::create(b, loc(), wg, i32c(1));
  Value next = arith::RemUIOp::create(b, loc(), after, i32c(orderWarpgroups));
  Value barrierBase = i32c(orderBarrierBase);
  orderBarrier(/*arrive=*/true,
               arith::AddIOp::create(b, loc(), barrierBase, next));
}

void KernelEmitter::retirePendingThrough(int last) {
  // A turn under retire-late passes before the step's first wait.
  if (turnToPass && last >= 0)
    passWarpgroupTurn();
  if (last < 0)
    return;
  int64_t inFlight = groupSeq - pendingGroups[last].seq;
  if (fenceWaits)
    sideEffectAsm(Type(), ValueRange(), "fence.acq_rel.cta;", "");
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc(), inFlight);
  for (int i = 0; i <= last; ++i)
    map.map(pendingGroups[i].result,
            fenceAccumulator(map.lookup(pendingGroups[i].result)));
  pendingGroups.erase(pendingGroups.begin(), pendingGroups.begin() + last + 1);
  SmallVector<std::pair<Value, Value>> stillHeld, free;
  for (auto held : pendingReleases)
    (readByPendingGroup(held) ? stillHeld : free).push_back(held);
  pendingReleases = std::move(stillHeld);
  releaseHeld(free);
}

void KernelEmitter::retirePendingGroups() {
  retirePendingThrough(int(pendingGroups.size()) - 1);
}

bool KernelEmitter::readByPendingGroup(std::pair<Value, Value> pipeStage) {
  return llvm::any_of(pendingGroups, [&](const PendingGroup &g) {
    return llvm::is_contained(g.stages, pipeStage);
  });
}

static FailureOr<NVVM::WGMMATypes> wgmmaType(Type t) {
  if (t.isBF16())
    return NVVM::WGMMATypes::bf16;
  if (t.isF16())
    return NVVM::WGMMATypes::f16;
  if (t.isF32())
    return NVVM::WGMMATypes::f32;
  if (t.isTF32())
    return NVVM::WGMMATypes::tf32;
  if (isa<Float8E4M3FNType>(t))
    return NVVM::WGMMATypes::e4m3;
  if (isa<Float8E5M2Type>(t))
    return NVVM::WGMMATypes::e5m2;
  return failure();
}

/// bar.sync (or bar.arrive) on named barrier `id` between two consecutive
/// warpgroups of the ordered role: 256 threads, the one that waits for its
/// turn and the one that hands it over.
void KernelEmitter::orderBarrier(bool arrive, Value id) {
  namedBarrier(arrive, id, 256);
}

void KernelEmitter::namedBarrier(bool arrive, Value id, int64_t threads) {
  if (arrive)
    NVVM::BarrierArriveOp::create(b, loc(), id, i32c(threads));
  else
    NVVM::BarrierOp::create(b, loc(), Type(), id, i32c(threads),
                            NVVM::BarrierReductionAttr(), Value());
}

/// wg-order (FlashAttention-3's warp-scheduler barriers): in a role of W > 1
/// warpgroups, warpgroup i waits on named barrier base+i before the first
/// wgmma of each fresh accumulator's chain and arrives on base+(i+1)%W
/// after its last commit, so the chains issue in warpgroup order, one at a
/// time, and a warpgroup's epilogue runs while the next ones' wgmmas do.
/// Only straight-line chains from a frag.zero within one block are ordered
/// (every warpgroup of a role runs the same loops, so turns stay
/// balanced); the last warpgroup hands the first its turn at the start.
/// With wg-order-retire the turn passes after the chain's wait_group 0
/// instead: the tensor cores interleave chains issued together, so only
/// then do the chains also run one at a time (k-means run 17c).
LogicalResult KernelEmitter::startWarpgroupOrder(RoleOp r) {
  orderedFirst.clear();
  orderedLast.clear();
  orderWarpgroups = r.getNumWarps() / 4;
  if (!wgOrder || !r.getWarpgroups() || orderWarpgroups < 2)
    return success();
  if (failed(verifyWarpgroupTurns(r, retireLate)))
    return failure();
  for (auto [first, last] : warpgroupTurnChains(r)) {
    orderedFirst.insert(first);
    orderedLast.insert(last);
  }
  if (orderedFirst.empty())
    return success();
  // After the explicit ids and those derived for frag.row.
  int64_t maxId = computeDerivedBarriers(kernel).last;
  orderBarrierBase = maxId + 1;
  const TargetInfo *target = lookupTarget(kernel.getTarget().getArch());
  if (target && orderBarrierBase + orderWarpgroups > target->namedBarriers)
    return r.emitError("wg-order: role \"")
           << r.getName() << "\" needs " << orderWarpgroups
           << " named barriers after id " << maxId << ", past the "
           << target->namedBarriers << " of a CTA";
  // The last warpgroup gives the first its first turn.
  Value wg = arith::DivUIOp::create(b, loc(), role->warpInRole, i32c(4));
  auto last = scf::IfOp::create(
      b, loc(),
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, wg,
                            i32c(orderWarpgroups - 1)),
      /*withElse=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(last.thenBlock());
  orderBarrier(/*arrive=*/true, i32c(orderBarrierBase));
  return success();
}

LogicalResult KernelEmitter::emitMma(MmaOp op) {
  if (op.getKind() != MmaKind::wgmma)
    return op.emitError("only wgmma is lowered on sm_90a today");
  FailureOr<Type> accTy = fragStructType(op.getAcc().getType(), op);
  if (failed(accTy))
    return failure();
  Type abType = op.getAElementType();
  auto ta = wgmmaType(abType);
  auto td = wgmmaType(op.getAcc().getType().getElementType());
  if (failed(ta) || failed(td))
    return op.emitError("wgmma operand types are not lowered yet");
  bool registerA = op.isAFromRegisters();
  if (registerA && !op.getAcc().getType().getElementType().isF32())
    return op.emitError("wgmma with A from registers is lowered for f32 "
                        "accumulators today");
  FailureOr<WgmmaLayoutAttr> fields = derived(op);
  if (failed(fields))
    return failure();
  int64_t wgRows = fields->getWgRows(), instrN = fields->getInstrN(),
          instrK = fields->getInstrK(), sbo = fields->getSbo(),
          mode = fields->getSwizzleMode();
  int64_t k = op.getK();
  int64_t eltBytes = getElementBytes(abType);
  // An mn_major operand's rows are M or N long (one swizzle atom): a k16
  // slice is 16 rows further on; a K-major operand's slice is 32 bytes
  // along its row.
  auto sliceBytes = [&](RingType t, bool mnMajor) {
    return mnMajor ? instrK * t.getShape()[1] * eltBytes : instrK * eltBytes;
  };
  int64_t bSliceBytes = sliceBytes(op.getB().getType(), op.getMnMajor());
  int64_t aSliceBytes =
      registerA ? 0 : sliceBytes(op.getARing(), op.getAMnMajor());

  const RingInfo &rb = rings[op.getB()];
  Value wg = arith::DivUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value aBase;
  if (!registerA) {
    // Emitted in a fixed order (not nested calls, whose argument order the
    // C++ compiler picks): this warpgroup's rows, the stage, the ring.
    // A K-major A's warpgroups own consecutive rows; an mn_major A is
    // one swizzle atom wide, 64 rows for one warpgroup (hw.wgmma-transpose
    // and the rows-per-warpgroup split leave no other), so it has no
    // offset.
    const RingInfo &ra = rings[op.getA()];
    int64_t wgBytes = op.getAMnMajor() ? 0 : wgRows * k * eltBytes;
    Value wgOffset = arith::MulIOp::create(b, loc(), wg, i32c(wgBytes));
    Value tileBytes = i32c(ra.tileBytes);
    Value stageOffset = arith::MulIOp::create(
        b, loc(), map.lookup(op.getAStage()), tileBytes);
    Value aRing = ringOffset(op.getA());
    aBase = arith::AddIOp::create(
        b, loc(), arith::AddIOp::create(b, loc(), aRing, stageOffset),
        wgOffset);
  }
  Value bRing = ringOffset(op.getB());
  Value bStage = arith::MulIOp::create(b, loc(), map.lookup(op.getBStage()),
                                       i32c(rb.tileBytes));
  Value bBase = arith::AddIOp::create(b, loc(), bRing, bStage);
  // Shared-memory matrix descriptor: start address >> 4 in bits 0-13,
  // leading byte offset (unused for swizzled K-major, and for an MN-major
  // tile of one swizzle atom along N, 1) in 16-29, stride byte offset >> 4
  // in 32-45, swizzle mode in 62-63. The address field is computed once per
  // operand in 32 bits and each k step adds its offset >> 4 to it
  // (CUTLASS's descriptor iterator): shared offsets stay below 2^18, so the
  // field cannot carry, and the other fields are constants. In 64 bits, per
  // wgmma, it cost ptxas ten uniform-datapath instructions (the H200 SASS
  // of run 17).
  Value smemAddr = LLVM::PtrToIntOp::create(b, loc(), b.getI32Type(), smemBase);
  auto field = [&](Value base32) {
    Value addr = arith::AddIOp::create(b, loc(), smemAddr, base32);
    Value units = arith::ShRUIOp::create(b, loc(), addr, i32c(4));
    return arith::AndIOp::create(b, loc(), units, i32c(0x3FFF)).getResult();
  };
  Value aField = registerA ? Value() : field(aBase);
  Value bField = field(bBase);
  // In unsigned arithmetic: the swizzle field reaches bit 63 (a signed
  // shift into it is undefined).
  Value fixedBits = i64c(static_cast<int64_t>(
      (1ull << 16) | (uint64_t(sbo >> 4) << 32) | (uint64_t(mode) << 62)));
  auto descAt = [&](Value field32, int64_t extra) {
    Value lo = arith::AddIOp::create(b, loc(), field32, i32c(extra >> 4));
    return arith::OrIOp::create(
               b, loc(), arith::ExtUIOp::create(b, loc(), b.getI64Type(), lo),
               fixedBits)
        .getResult();
  };

  Value acc = map.lookup(op.getAcc());
  // The RS form's A registers, every k16 slice packed before the fence:
  // registers written between wgmma.fence and the wgmma that reads them
  // make ptxas inject a warpgroup.arrive per slice (C7519), which waits for
  // the wgmmas in flight. The operand fence keeps LLVM from sinking the
  // packing (and the accumulator's last update) past wgmma.fence.
  SmallVector<Value> aRegs;
  if (registerA) {
    auto packed = packedA.find(op.getA());
    if (packed != packedA.end()) {
      aRegs = packed->second; // packed where the IR converts
    } else {
      for (int64_t kk = 0; kk < k / instrK; ++kk)
        llvm::append_range(aRegs, packRegisterA(op, kk));
      aRegs = fenceOperands(aRegs);
    }
    acc = fenceAccumulator(acc);
  }
  // wg-order: wait for this warpgroup's turn before the chain's first
  // wgmma (the previous warpgroup has issued its chain).
  if (orderedFirst.contains(op))
    orderBarrier(/*arrive=*/false,
                 arith::AddIOp::create(b, loc(), i32c(orderBarrierBase), wg));
  NVVM::WgmmaFenceAlignedOp::create(b, loc());
  auto shape = NVVM::MMAShapeAttr::get(ctx, 64, instrN, instrK);
  // K-major is "row" for A and "col" for B; MN-major sets the transpose bit.
  NVVM::MMALayout layoutA =
      op.getAMnMajor() ? NVVM::MMALayout::col : NVVM::MMALayout::row;
  NVVM::MMALayout layoutB =
      op.getMnMajor() ? NVVM::MMALayout::row : NVVM::MMALayout::col;
  for (int64_t kk = 0; kk < k / instrK; ++kk) {
    if (registerA) {
      Value db = descAt(bField, kk * bSliceBytes);
      acc = emitRegisterAWgmma(op, acc, ArrayRef(aRegs).slice(4 * kk, 4), db,
                               instrN);
      continue;
    }
    Value da = descAt(aField, kk * aSliceBytes);
    Value db = descAt(bField, kk * bSliceBytes);
    // A chain from frag.zero: its first wgmma does not read the
    // accumulator (scale-d 0), so no zeros are moved into its registers.
    bool fromZero = kk == 0 && op.getAcc().getDefiningOp<FragZeroOp>();
    acc = NVVM::WgmmaMmaAsyncOp::create(
        b, loc(), *accTy, acc, da, db, shape, *ta, *ta, *td,
        fromZero ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one,
        op.getNegate() ? NVVM::WGMMAScaleIn::neg : NVVM::WGMMAScaleIn::one,
        NVVM::WGMMAScaleIn::one, layoutA, layoutB, NVVM::MMAIntOverflowAttr());
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc());
  ++groupSeq;
  // wg-order: the next warpgroup's turn, now that the chain is issued, or
  // under retire-late before the first wait that follows (the turn then
  // spans the step's other wgmmas too: warpgroupTurnEnd), or with
  // wg-order-retire once its last group has retired below.
  auto passTurn = [&] { passWarpgroupTurn(); };
  bool passAtRetire = wgOrderRetire && orderedLast.contains(op);
  if (orderedLast.contains(op) && !passAtRetire) {
    if (retireLate)
      turnToPass = true;
    else
      passTurn();
  }
  // A group retired elsewhere (at the end of an overlapped epilogue's
  // iteration, or late) would never pass the turn here: the other
  // warpgroups would wait forever.
  auto retiresElsewhere = [&] {
    return op.emitError("wg-order-retire: the chain's last wgmma must "
                        "retire at its commit (not in an overlapped "
                        "epilogue loop, with retire-late or a deferred "
                        "stage)");
  };
  if (passAtRetire && lazy && lazy->mmas.count(op))
    return retiresElsewhere();
  // Retire groups before their stages can be released: all of them, all
  // but this one inside a pipelined K loop or a straight-line chain, or
  // none yet in an overlapped epilogue loop (retired at the end of the
  // iteration).
  if (!lazy || !lazy->mmas.count(op)) {
    bool chained = mmaChain && !lazy && !deferredStage &&
                   mmaInFlight > 0 && chainsIntoNextMma(op);
    bool lastOfChain = llvm::none_of(op.getResult().getUsers(),
                                     [](Operation *u) { return isa<MmaOp>(u); });
    if (passAtRetire && (chained || deferredStage ||
                         (retireLate && !lazy && lastOfChain)))
      return retiresElsewhere();
    if (retireLate && !chained && !lazy && !deferredStage && lastOfChain) {
      // The chain's last group stays in flight until an op reads its result
      // (lastPendingUse) or cannot issue beside it; later groups may commit
      // meanwhile (attention's S = Q Kᵀ of one step beside O += P V of the
      // previous one). Its stages, and the earlier chained groups', are
      // released once it retires.
      PendingGroup group{op.getResult(), groupSeq, {}};
      group.stages.append(chainStages.begin(), chainStages.end());
      chainStages.clear();
      for (Value stage : {op.getAStage(), op.getBStage()})
        if (stage)
          group.stages.push_back(
              {stage.getDefiningOp<PipeWaitOp>().getPipe(), map.lookup(stage)});
      llvm::append_range(pendingReleases, chainReleases);
      chainReleases.clear();
      pendingGroups.push_back(std::move(group));
      map.map(op.getResult(), acc);
      return success();
    }
    if (!chained || !chainReleases.empty())
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc(),
                                         deferredStage || chained ? 1 : 0);
    if (passAtRetire)
      passTurn();
    // Every group before this one has retired.
    releaseHeld(chainReleases);
    chainStages.clear();
    if (chained)
      for (Value stage : {op.getAStage(), op.getBStage()})
        if (stage)
          chainStages.insert({stage.getDefiningOp<PipeWaitOp>().getPipe(),
                              map.lookup(stage)});
  }
  map.map(op.getResult(), acc);
  return success();
}

/// The four A registers of k16 slice kk of a wgmma whose A is a register
/// fragment (the RS form). The fragment is in the accumulator layout,
/// whose values 8 kk .. 8 kk + 7 (columns 16 kk .. 16 kk + 15) are, packed
/// in pairs, exactly the four A registers of slice kk (PTX ISA, wgmma
/// register fragments: rows r and r + 8, columns 2 (l % 4) + {0, 1} and
/// + 8).
SmallVector<Value> KernelEmitter::packRegisterA(MmaOp op, int64_t kk) {
  Type elt = op.getAElementType();
  Value frag = map.lookup(op.getA());
  auto pairTy = VectorType::get({2}, elt);
  SmallVector<Value> regs;
  for (int64_t q = 0; q < 4; ++q) {
    Value pair = LLVM::UndefOp::create(b, loc(), pairTy);
    for (int64_t e = 0; e < 2; ++e) {
      Value v =
          LLVM::ExtractValueOp::create(b, loc(), frag, 8 * kk + 2 * q + e);
      pair = LLVM::InsertElementOp::create(b, loc(), pair, v, i32c(e));
    }
    regs.push_back(LLVM::BitcastOp::create(b, loc(), b.getI32Type(), pair));
  }
  return regs;
}

/// CUTLASS's warpgroup_fence_operand: an empty volatile asm that takes and
/// returns each value in place ("+r" / "+f"), so that LLVM computes them
/// before it and reads them only after it.
SmallVector<Value> KernelEmitter::fenceOperands(ArrayRef<Value> values) {
  if (values.empty())
    return {};
  SmallVector<Type> types;
  std::string constraints;
  for (Value v : values) {
    types.push_back(v.getType());
    constraints += v.getType().isF32() ? "=f," : "=r,";
  }
  for (size_t i = 0; i < values.size(); ++i)
    constraints += (i ? "," : "") + std::to_string(i);
  Type resultTy = values.size() == 1
                      ? types.front()
                      : LLVM::LLVMStructType::getLiteral(ctx, types);
  Value fenced = sideEffectAsm(resultTy, values, "", constraints);
  if (values.size() == 1)
    return {fenced};
  SmallVector<Value> out;
  for (size_t i = 0; i < values.size(); ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc(), fenced, i));
  return out;
}

/// fenceOperands over the fields of an accumulator struct.
Value KernelEmitter::fenceAccumulator(Value acc) {
  auto accTy = cast<LLVM::LLVMStructType>(acc.getType());
  SmallVector<Value> fields;
  for (size_t i = 0; i < accTy.getBody().size(); ++i)
    fields.push_back(LLVM::ExtractValueOp::create(b, loc(), acc, i));
  fields = fenceOperands(fields);
  Value out = LLVM::UndefOp::create(b, loc(), accTy);
  for (auto [i, v] : llvm::enumerate(fields))
    out = LLVM::InsertValueOp::create(b, loc(), out, v, i);
  return out;
}

/// A fragment copied register by register with PTX movs ptxas cannot see
/// through: a value a wgmma wrote that crosses a tile loop's back edge is
/// then defined by a mov, and ptxas does not inject a warpgroup.wait
/// (C7517) where the next tile reads it while that tile's wgmmas run.
Value KernelEmitter::copyFragment(Value frag) {
  auto ty = dyn_cast<LLVM::LLVMStructType>(frag.getType());
  if (!ty)
    return frag;
  Value out = LLVM::UndefOp::create(b, loc(), ty);
  for (size_t i = 0; i < ty.getBody().size(); ++i) {
    Value v = LLVM::ExtractValueOp::create(b, loc(), frag, i);
    Type t = v.getType();
    if (t.isF32() || t.isInteger(32)) {
      v = sideEffectAsm(t, ValueRange{v}, "mov.b32 $0, $1;",
                        t.isF32() ? "=f,f" : "=r,r");
    }
    out = LLVM::InsertValueOp::create(b, loc(), out, v, i);
  }
  return out;
}

/// One k16 slice of a wgmma whose A is a register fragment (the RS form),
/// as inline PTX: upstream's nvvm.wgmma.mma_async reads A from shared
/// memory only. `aRegs` are the slice's four packed registers.
Value KernelEmitter::emitRegisterAWgmma(MmaOp op, Value acc,
                                        ArrayRef<Value> aRegs, Value descB,
                                        int64_t instrN) {
  Type elt = op.getAElementType();
  SmallVector<Value> operands;
  auto accTy = cast<LLVM::LLVMStructType>(acc.getType());
  int64_t n = accTy.getBody().size();
  for (int64_t i = 0; i < n; ++i)
    operands.push_back(LLVM::ExtractValueOp::create(b, loc(), acc, i));
  llvm::append_range(operands, aRegs);
  operands.push_back(descB);
  std::string type = elt.isBF16() ? "bf16" : "f16";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, $" << 2 * n + 5
     << ", 0;\nwgmma.mma_async.sync.aligned.m64n" << instrN << "k16.f32."
     << type << "." << type << " {";
  for (int64_t i = 0; i < n; ++i)
    os << (i ? ", " : "") << "$" << i;
  os << "}, {$" << 2 * n << ", $" << 2 * n + 1 << ", $" << 2 * n + 2 << ", $"
     << 2 * n + 3 << "}, $" << 2 * n + 4 << ", p, $" << 2 * n + 6 << ", $"
     << 2 * n + 7 << ", $" << 2 * n + 8 << ";\n}\n";
  std::string constraints;
  for (int64_t i = 0; i < n; ++i)
    constraints += "=f,";
  for (int64_t i = 0; i < n; ++i)
    constraints += std::to_string(i) + ",";
  constraints += "r,r,r,r,l,n,n,n,n";
  // scale-d 1 (accumulate), scale-a -1 with negate, scale-b 1, and the
  // transpose bit of an mn_major B.
  for (int64_t imm : {int64_t(1), int64_t(op.getNegate() ? -1 : 1),
                      int64_t(1), int64_t(op.getMnMajor() ? 1 : 0)})
    operands.push_back(i32c(imm));
  return sideEffectAsm(accTy, operands, text, constraints);
}
