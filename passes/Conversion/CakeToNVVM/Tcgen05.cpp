// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Tcgen05.cpp - Blackwell tensor memory and tcgen05 ------------------===//
//
// sm_100a: the CTA's one tensor-memory allocation (warp 0 allocates it at
// entry into the derived shared-memory slot and frees it at exit, with the
// tcgen05 fences around the CTA barriers that publish it), cake.tmem.mma
// as tcgen05.mma from shared-memory descriptors (A from tensor memory
// too), cake.tmem.load as tcgen05.ld .32x32b into fragments held one row a
// thread, which cake.store writes back, and cake.tmem.store as tcgen05.st
// .32x32b out of them. The commits that complete the MMAs' hand-offs
// are Pipes.cpp's. None of this has run on a Blackwell GPU.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "cake/Target/TargetInfo.h"
#include "cake/Verify/Checks.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

std::optional<LogicalResult> KernelEmitter::emitTmemOp(Operation &op) {
  if (auto mma = dyn_cast<TmemMmaOp>(op))
    return emitTmemMma(mma);
  if (auto load = dyn_cast<TmemLoadOp>(op))
    return emitTmemLoad(load);
  if (auto store = dyn_cast<TmemStoreOp>(op))
    return emitTmemStore(store);
  return std::nullopt;
}

LogicalResult KernelEmitter::recordTmem(TmemOp op) {
  FailureOr<TmemLayoutAttr> at = derived(op);
  if (failed(at))
    return failure();
  tmems[op.getResult()] = {at->getColumn(), op.getType().getStageColumns()};
  tmemAllocation = at->getAllocation();
  tmemSlot = at->getSlot();
  return success();
}

/// Continues inside `if (warp == 0)`: the warp that allocates tensor
/// memory and frees it. The caller holds an InsertionGuard.
static void enterWarpZero(OpBuilder &b, Location loc, Value warp) {
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp, zero);
  auto ifZero = scf::IfOp::create(b, loc, isZero, /*withElse=*/false);
  b.setInsertionPoint(ifZero.thenBlock()->getTerminator());
}

void KernelEmitter::emitTmemAllocation() {
  if (!tmemAllocation)
    return;
  // One whole warp allocates (the instruction is .sync.aligned) and gives
  // up the right to allocate again, so the next CTA on the SM may.
  OpBuilder::InsertionGuard g(b);
  enterWarpZero(b, loc(), warp);
  Value slot = smemAt(i32c(tmemSlot));
  NVVM::Tcgen05AllocOp::create(b, loc(), slot, i32c(tmemAllocation));
  NVVM::Tcgen05RelinquishAllocPermitOp::create(b, loc());
}

void KernelEmitter::fenceTmem(bool before) {
  NVVM::Tcgen05FenceOp::create(b, loc(),
                               before
                                   ? NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC
                                   : NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
}

void KernelEmitter::readTmemBase() {
  if (!tmemAllocation)
    return;
  Value slot = smemAt(i32c(tmemSlot));
  tmemBase = LLVM::LoadOp::create(b, loc(), b.getI32Type(), slot,
                                  /*alignment=*/4, /*isVolatile=*/true);
}

void KernelEmitter::emitTmemRelease() {
  if (!tmemAllocation)
    return;
  // Every role is done with tensor memory (the CTA barrier before this):
  // the warp that allocated frees the same columns.
  OpBuilder::InsertionGuard g(b);
  enterWarpZero(b, loc(), warp);
  fenceTmem(/*before=*/false);
  Value ptr = LLVM::IntToPtrOp::create(
      b, loc(), LLVM::LLVMPointerType::get(ctx, 6), tmemBase);
  NVVM::Tcgen05DeallocOp::create(b, loc(), ptr, i32c(tmemAllocation));
}

Value KernelEmitter::tmemAddress(Value tmem, Value stage, Value lane,
                                 Value column) {
  // An address is lane << 16 | column, relative to the allocation's base.
  const TmemInfo &info = tmems[tmem];
  Value first = i32c(info.column);
  Value stageColumn =
      arith::MulIOp::create(b, loc(), stage, i32c(info.stageColumns));
  Value col = arith::AddIOp::create(b, loc(), first, stageColumn);
  if (column)
    col = arith::AddIOp::create(b, loc(), col, column);
  Value addr = arith::AddIOp::create(b, loc(), tmemBase, col);
  if (lane) {
    Value laneBits = arith::ShLIOp::create(b, loc(), lane, i32c(16));
    addr = arith::AddIOp::create(b, loc(), addr, laneBits);
  }
  return LLVM::IntToPtrOp::create(b, loc(), LLVM::LLVMPointerType::get(ctx, 6),
                                  addr);
}

LogicalResult KernelEmitter::emitTmemMma(TmemMmaOp op) {
  // The role runs on its leader alone (sync.tcgen05-issuer): the one
  // thread that issues the MMAs and, at the role's releases and commits,
  // the tcgen05.commit that tracks them.
  if (role->allLanes)
    return op.emitError("[sync.tcgen05-issuer] cake.tmem.mma in a role whose "
                        "every thread runs");
  if (failed(verifyTcgen05Operands(op)))
    return failure();
  RingType bt = op.getB().getType();
  TmemType dt = op.getD().getType();
  Type in = op.getInputElementType();
  int64_t eltBytes = getElementBytes(in);
  int64_t rowBytes = bt.getShape()[1] * eltBytes; // one swizzle atom
  int64_t m = dt.getRows(), n = dt.getCols(), k = op.getK();
  int64_t instrK = kMmaInstructionKBytes / eltBytes;
  bool aInTmem = isa<TmemType>(op.getA().getType());
  // A K-major B's slice is 32 bytes along its rows, and a piece of N a
  // block of rows further on; an mn_major B's slice is 16 rows of N further
  // on, and its N is one swizzle atom, one piece.
  bool bMnMajor = op.getMnMajor();
  int64_t bSliceBytes = bMnMajor ? instrK * rowBytes : kMmaInstructionKBytes;

  // Shared-memory descriptors (sm_100 form): start address >> 4 in bits
  // 0-13, leading byte offset 1 (unused for swizzled K-major tiles), the
  // stride between 8-row groups >> 4 in 32-45, the fixed 0b001 in 46-48,
  // and the layout in 61-63 (128B: 2, 64B: 4, 32B: 6). The address field
  // is computed in 32 bits and each K slice adds its 32 bytes >> 4 to it;
  // a stage's offset stays below 2^18, so the field cannot carry. The
  // fixed fields are built unsigned: the layout field reaches bit 63.
  int64_t swizzle = bt.getSwizzle(); // A's too, when A is a ring
  uint64_t layoutType = swizzle == 128 ? 2 : swizzle == 64 ? 4 : 6;
  uint64_t sbo = 8 * rowBytes;
  Value fixedBits = i64c(static_cast<int64_t>(
      (1ull << 16) | ((sbo >> 4) << 32) | (1ull << 46) | (layoutType << 61)));
  Value smemAddr = LLVM::PtrToIntOp::create(b, loc(), b.getI32Type(), smemBase);
  auto stageField = [&](Value ring, Value stage) {
    const RingInfo &info = rings[ring];
    Value first = ringOffset(ring);
    Value stageOffset =
        arith::MulIOp::create(b, loc(), stage, i32c(info.tileBytes));
    Value offset = arith::AddIOp::create(b, loc(), first, stageOffset);
    Value addr = arith::AddIOp::create(b, loc(), smemAddr, offset);
    Value units = arith::ShRUIOp::create(b, loc(), addr, i32c(4));
    return arith::AndIOp::create(b, loc(), units, i32c(0x3FFF)).getResult();
  };
  Value aField =
      aInTmem ? Value() : stageField(op.getA(), map.lookup(op.getAStage()));
  Value bField = stageField(op.getB(), map.lookup(op.getBStage()));
  auto descAt = [&](Value field, int64_t bytes) {
    Value lo = arith::AddIOp::create(b, loc(), field, i32c(bytes >> 4));
    Value wide = arith::ExtUIOp::create(b, loc(), b.getI64Type(), lo);
    return arith::OrIOp::create(b, loc(), wide, fixedBits).getResult();
  };

  // The instruction descriptor (kind::f16): D format in bits 4-5 (f32 1,
  // f16 0), A and B formats in 7-9 and 10-12 (f16 0, bf16 1), A K-major
  // (bit 15 clear), B K-major or, mn_major, transposed (bit 16), N >> 3
  // in 17-22, M >> 4 in 24-28.
  int64_t dFormat = dt.getElementType().isF32() ? 1 : 0;
  int64_t abFormat = in.isBF16() ? 1 : 0;
  int64_t bTranspose = bMnMajor ? 1 : 0;
  auto instrDesc = [&](int64_t instrN) {
    return i32c((dFormat << 4) | (abFormat << 7) | (abFormat << 10) |
                (bTranspose << 16) | ((instrN >> 3) << 17) | ((m >> 4) << 24));
  };

  // N in instructions of at most 256 columns; each starts a B row block
  // and a tensor-memory column block further on.
  Value stage = map.lookup(op.getDStage());
  Value accumulate = map.lookupOrDefault(op.getAccumulate());
  Value on = arith::ConstantIntOp::create(b, loc(), b.getI1Type(), 1);
  int64_t eltBits = dt.getElementType().getIntOrFloatBitWidth();
  for (int64_t n0 = 0; n0 < n; n0 += 256) {
    int64_t instrN = std::min<int64_t>(256, n - n0);
    Value d = tmemAddress(op.getD(), stage, Value(), i32c(n0 * eltBits / 32));
    Value idesc = instrDesc(instrN);
    for (int64_t kk = 0; kk < k / instrK; ++kk) {
      // A in tensor memory: the K slice's 32 bytes are its 8 columns of
      // the stage, in every lane; the instruction takes their address.
      Value da = aInTmem ? tmemAddress(op.getA(), map.lookup(op.getAStage()),
                                       Value(), i32c(kk * 8))
                         : descAt(aField, kk * kMmaInstructionKBytes);
      Value db = descAt(bField, n0 * rowBytes + kk * bSliceBytes);
      // Tensor memory is not zeroed: the tile's first slice overwrites
      // unless the kernel says to accumulate.
      Value enable = kk == 0 ? accumulate : on;
      NVVM::Tcgen05MMAOp::create(
          b, loc(), NVVM::Tcgen05MMAKind::F16, NVVM::CTAGroupKind::CTA_1,
          NVVM::Tcgen05MMACollectorOp::DISCARD, /*aShift=*/false, d, da, db,
          idesc, enable, /*scaleInputD=*/Value(),
          /*disableOutputLane=*/Value());
    }
  }
  return success();
}

void KernelEmitter::forEachTmemPiece(
    Value tmem, Value stage, Value column, int64_t columns,
    function_ref<void(Value, int64_t, int64_t)> emit) {
  // Warp w of the role reaches lanes 32 (w mod 4) up: its rows of the
  // tile. .32x32b.xN takes N a power of two: the columns in such pieces.
  Value quarter = arith::RemUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value lane = arith::MulIOp::create(b, loc(), quarter, i32c(32));
  for (int64_t done = 0; done < columns;) {
    int64_t piece = 128;
    while (piece > columns - done)
      piece /= 2;
    Value at =
        column ? arith::AddIOp::create(b, loc(), column, i32c(done)).getResult()
               : i32c(done);
    emit(tmemAddress(tmem, stage, lane, at), done, piece);
    done += piece;
  }
}

LogicalResult KernelEmitter::emitTmemLoad(TmemLoadOp op) {
  FragType ft = op.getResult().getType();
  FailureOr<FragInfo> info = fragInfo(ft, op);
  if (failed(info))
    return failure();
  if (info->layout != FragLayout::Lane)
    return op.emitError("cake.tmem.load makes fragments held one row a "
                        "thread, in a warpgroups(1) role of an sm_100a kernel");
  // Each piece a tcgen05.ld of consecutive columns, all waited for at once.
  Value column =
      op.getColumn() ? toI32(map.lookupOrDefault(op.getColumn())) : Value();
  SmallVector<Value> words;
  forEachTmemPiece(op.getSrc(), map.lookup(op.getStage()), column,
                   ft.getShape()[1], [&](Value addr, int64_t, int64_t piece) {
                     Type resTy = VectorType::get({piece}, b.getI32Type());
                     Value vec = NVVM::Tcgen05LdOp::create(
                         b, loc(), resTy, /*pack=*/false,
                         NVVM::Tcgen05LdStShape::SHAPE_32X32B, addr,
                         /*offset=*/Value());
                     for (int64_t j = 0; j < piece; ++j)
                       words.push_back(LLVM::ExtractElementOp::create(
                           b, loc(), vec, i32c(j)));
                   });
  NVVM::Tcgen05WaitOp::create(b, loc(), NVVM::Tcgen05WaitKind::LOAD);
  Type elt = ft.getElementType();
  Value frag = LLVM::UndefOp::create(b, loc(), info->type);
  for (auto [j, word] : llvm::enumerate(words)) {
    Value v = elt.isInteger(32)
                  ? word
                  : LLVM::BitcastOp::create(b, loc(), elt, word).getResult();
    frag = LLVM::InsertValueOp::create(b, loc(), frag, v, j);
  }
  map.map(op.getResult(), frag);
  return success();
}

LogicalResult KernelEmitter::emitTmemStore(TmemStoreOp op) {
  FragType ft = op.getValue().getType();
  FailureOr<FragInfo> info = fragInfo(ft, op);
  if (failed(info))
    return failure();
  if (info->layout != FragLayout::Lane)
    return op.emitError("cake.tmem.store writes fragments held one row a "
                        "thread, in a warpgroups(1) role of an sm_100a kernel");
  // The thread's row as 32-bit words: a 16-bit pair shares one, the lower
  // column in the low half (tensor memory's packing of an A operand).
  Type elt = ft.getElementType();
  int64_t bits = elt.getIntOrFloatBitWidth();
  Value frag = map.lookup(op.getValue());
  SmallVector<Value> words;
  auto bitsOf = [&](int64_t j) -> Value {
    Value v = LLVM::ExtractValueOp::create(b, loc(), frag, j);
    return isa<IntegerType>(elt)
               ? v
               : LLVM::BitcastOp::create(b, loc(), b.getIntegerType(bits), v)
                     .getResult();
  };
  if (bits == 32) {
    for (int64_t j = 0; j < info->count; ++j)
      words.push_back(bitsOf(j));
  } else {
    for (int64_t j = 0; j + 1 < info->count; j += 2) {
      Value lo = arith::ExtUIOp::create(b, loc(), b.getI32Type(), bitsOf(j));
      Value hi =
          arith::ExtUIOp::create(b, loc(), b.getI32Type(), bitsOf(j + 1));
      Value hiShifted = arith::ShLIOp::create(b, loc(), hi, i32c(16));
      words.push_back(arith::OrIOp::create(b, loc(), lo, hiShifted));
    }
  }
  // From the stage's column (in elements: a 32-bit column holds 32 / bits
  // of them), each piece a tcgen05.st of consecutive columns.
  Value column = Value();
  if (op.getColumn()) {
    column = toI32(map.lookupOrDefault(op.getColumn()));
    if (bits != 32)
      column = arith::DivUIOp::create(b, loc(), column, i32c(32 / bits));
  }
  forEachTmemPiece(
      op.getDst(), map.lookup(op.getStage()), column,
      static_cast<int64_t>(words.size()),
      [&](Value addr, int64_t done, int64_t piece) {
        Value vec = LLVM::UndefOp::create(
            b, loc(), VectorType::get({piece}, b.getI32Type()));
        for (int64_t j = 0; j < piece; ++j)
          vec = LLVM::InsertElementOp::create(b, loc(), vec, words[done + j],
                                              i32c(j));
        NVVM::Tcgen05StOp::create(b, loc(), /*unpack=*/false,
                                  NVVM::Tcgen05LdStShape::SHAPE_32X32B, addr,
                                  vec, /*offset=*/Value());
      });
  // The stores land before the role's next hand-off orders them for the
  // reader (the commit's tcgen05.fence::before_thread_sync).
  NVVM::Tcgen05WaitOp::create(b, loc(), NVVM::Tcgen05WaitKind::STORE);
  return success();
}

LogicalResult KernelEmitter::emitLaneStore(StoreOp op, const FragInfo &info) {
  // Thread t of warp w holds row 32 (w mod 4) + t of the tile, its
  // columns in order: each element is stored where its row and column lie
  // inside the tensor (a predicated st.global per element).
  GlobalType gt = op.getDst().getType();
  int64_t rank = gt.getRank();
  if (rank < 2)
    return op.emitError("stores of 128-row fragments go to tensors of rank 2 "
                        "or more");
  const TensorParams &tp = tensors[op.getDst()];
  Type elt = op.getValue().getType().getElementType();
  int64_t bits = elt.getIntOrFloatBitWidth();
  ValueRange coords = op.getCoords();
  Value plane = planeOffset(tp, coords);
  Value threadRow = laneRow();
  Value row = arith::AddIOp::create(
      b, loc(), map.lookupOrDefault(coords[rank - 2]),
      arith::IndexCastOp::create(b, loc(), b.getIndexType(), threadRow));
  Value rows = rowBound(tp.dims[rank - 2], coords[rank - 2], op.getRows());
  if (Value planeOk = outerInBounds(tp, coords, 2))
    rows = arith::SelectOp::create(b, loc(), planeOk, rows, idxc(0));
  Value rowOk =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, row, rows);
  Value cols = tp.dims[rank - 1];
  Value rowBase = arith::MulIOp::create(b, loc(), row, cols);
  if (plane)
    rowBase = arith::AddIOp::create(b, loc(), plane, rowBase);
  Value col0 = map.lookupOrDefault(coords[rank - 1]);
  Value frag = map.lookup(op.getValue());
  std::string text = "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p st.global.b" +
                     std::to_string(bits) + " [$1], $2; }";
  std::string constraints = bits == 16 ? "r,l,h" : "r,l,r";
  Type word = b.getIntegerType(bits);
  for (int64_t j = 0; j < info.count; ++j) {
    Value col = arith::AddIOp::create(b, loc(), col0, idxc(j));
    Value colOk =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, col, cols);
    Value ok = arith::AndIOp::create(b, loc(), rowOk, colOk);
    Value pred = arith::ExtUIOp::create(b, loc(), b.getI32Type(), ok);
    Value linear = arith::AddIOp::create(b, loc(), rowBase, col);
    Value ptr = LLVM::GEPOp::create(b, loc(), globalPtrTy(), elt, tp.ptr,
                                    ValueRange{arith::IndexCastOp::create(
                                        b, loc(), b.getI64Type(), linear)});
    Value v = LLVM::ExtractValueOp::create(b, loc(), frag, j);
    Value bitsValue = LLVM::BitcastOp::create(b, loc(), word, v);
    sideEffectAsm(Type(), ValueRange{pred, ptr, bitsValue}, text, constraints);
  }
  return success();
}

Value KernelEmitter::laneRow() {
  Value quarter = arith::RemUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value quarterRow = arith::MulIOp::create(b, loc(), quarter, i32c(32));
  return arith::AddIOp::create(b, loc(), quarterRow, role->lane);
}

LogicalResult KernelEmitter::emitLaneArgmin(FragArgminOp op) {
  // The thread holds its whole row: a scan of its N values, no shuffles.
  if (op.getPacked())
    return op.emitError("packed argmin is lowered for the wgmma accumulator "
                        "layout only; a row held by one thread takes the "
                        "exact form");
  if (!op.getIndices().getType().getElementType().isInteger(32))
    return op.emitError("argmin indices are lowered as i32 today");
  Value row = map.lookup(op.getInput());
  int64_t n = op.getInput().getType().getShape()[1];
  Value best, bestCol;
  for (int64_t j = 0; j < n; ++j) {
    Value v = LLVM::ExtractValueOp::create(b, loc(), row, j);
    if (!best) {
      best = v;
      bestCol = i32c(0);
      continue;
    }
    // Strictly less: the first (lowest) column wins ties. The column is an
    // immediate of the select; the base is added once.
    Value lt =
        arith::CmpFOp::create(b, loc(), arith::CmpFPredicate::OLT, v, best);
    best = arith::SelectOp::create(b, loc(), lt, v, best);
    bestCol = arith::SelectOp::create(b, loc(), lt, i32c(int32_t(j)), bestCol);
  }
  Value base =
      op.getBase() ? toI32(map.lookupOrDefault(op.getBase())) : i32c(0);
  Value index = arith::AddIOp::create(b, loc(), base, bestCol);
  auto one = [&](Value v, Type structTy) {
    Value undef = LLVM::UndefOp::create(b, loc(), structTy);
    return LLVM::InsertValueOp::create(b, loc(), undef, v, ArrayRef<int64_t>{0})
        .getResult();
  };
  FailureOr<FragInfo> vo = fragInfo(op.getValues().getType(), op);
  FailureOr<FragInfo> io = fragInfo(op.getIndices().getType(), op);
  if (failed(vo) || failed(io))
    return failure();
  map.map(op.getValues(), one(best, vo->type));
  map.map(op.getIndices(), one(index, io->type));
  return success();
}

LogicalResult KernelEmitter::emitLaneReduce(FragReduceOp op) {
  // Pairwise over the thread's row (a tree: no chain of dependent steps).
  FailureOr<FragInfo> out = fragInfo(op.getResult().getType(), op);
  if (failed(out))
    return failure();
  Value row = map.lookup(op.getInput());
  int64_t n = op.getInput().getType().getShape()[1];
  SmallVector<Value> level;
  for (int64_t j = 0; j < n; ++j)
    level.push_back(LLVM::ExtractValueOp::create(b, loc(), row, j));
  while (level.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i + 1 < level.size(); i += 2)
      next.push_back(combineFloats(op.getKind(), level[i], level[i + 1]));
    if (level.size() % 2)
      next.push_back(level.back());
    level = std::move(next);
  }
  Value undef = LLVM::UndefOp::create(b, loc(), out->type);
  map.map(op.getResult(),
          LLVM::InsertValueOp::create(b, loc(), undef, level.front(),
                                      ArrayRef<int64_t>{0}));
  return success();
}
