// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Gather.cpp - Copies issued by threads ------------------------------===//
//
// cake.gather and cake.cp_async.load become cp.async copies of pieces (16
// bytes, cp.async.cg; 8 or 4 for a box whose source rows are not a
// multiple of 16 bytes, cp.async.ca). Each warp of the producer role
// copies whole rows, 32 / P of them a step (P pieces a row, one piece a
// lane). A gather's lanes first load the index entries of every row the
// warp will copy (one coalesced load, two for a 64-row tile on one warp),
// then each step takes its rows' indices from the owning lanes by
// shuffles, so no copy waits on a global load of its own; the gathers of
// one chunk (a tile's column slices) share the loaded list. A list loaded
// ahead by cake.gather.indices sits whole in every warp instead; a step
// selects its register (uniform over the warp) and shuffles. A box copy
// reads consecutive rows. Pieces out of bounds copy 0 source bytes
// (cp.async zero-fills them). The stage's commit (Pipes.cpp) hands the
// copies to the full barrier.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

std::optional<LogicalResult> KernelEmitter::emitGatherOp(Operation &op) {
  if (auto g = dyn_cast<GatherOp>(op))
    return emitGather(g);
  if (auto l = dyn_cast<GatherIndicesOp>(op))
    return emitGatherIndices(l);
  if (auto c = dyn_cast<CpAsyncLoadOp>(op))
    return emitCpAsyncLoad(c);
  return std::nullopt;
}

void KernelEmitter::trapUnlessPieceAligned(const TensorParams &tp, Value column,
                                           int64_t eltBytes,
                                           int64_t pieceBytes) {
  Type i64 = b.getI64Type();
  Value cols = arith::IndexCastOp::create(b, loc(), i64, tp.dims.back());
  Value pitch = arith::MulIOp::create(b, loc(), cols, i64c(eltBytes));
  Value colBytes = arith::MulIOp::create(b, loc(), column, i64c(eltBytes));
  Value either = arith::OrIOp::create(b, loc(), pitch, colBytes);
  // The base address too: a view that starts inside a piece (a torch
  // slice at an odd offset) would make every copy misaligned.
  Value base = LLVM::PtrToIntOp::create(b, loc(), i64, tp.ptr);
  either = arith::OrIOp::create(b, loc(), either, base);
  Value rem = arith::AndIOp::create(b, loc(), either, i64c(pieceBytes - 1));
  Value bad =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ne, rem, i64c(0));
  auto ifBad = scf::IfOp::create(b, loc(), bad, /*withElse=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(ifBad.thenBlock()->getTerminator());
  LLVM::Trap::create(b, loc());
}

KernelEmitter::RowPieces KernelEmitter::rowPieces(const TensorParams &tp,
                                                  Value ring, Value stage,
                                                  Value column,
                                                  int64_t pieceBytes) {
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  RingType rt = cast<RingType>(ring.getType());
  int64_t eltBytes = getElementBytes(rt.getElementType());
  RowPieces rp;
  rp.ring = rt;
  rp.pieceBytes = pieceBytes;
  rp.rowBytes = rt.getShape()[1] * eltBytes;
  rp.pieces = rp.rowBytes / pieceBytes; // divides 32
  // The stage (stages start on whole swizzle patterns).
  const RingInfo &info = rings[ring];
  Value stageOffset =
      arith::MulIOp::create(b, loc(), map.lookup(stage), i32c(info.tileBytes));
  rp.stageBase = arith::AddIOp::create(b, loc(), ringOffset(ring), stageOffset);
  Value piece = arith::RemUIOp::create(b, loc(), role->lane, i32c(rp.pieces));
  rp.pieceInRow = arith::MulIOp::create(b, loc(), piece, i32c(pieceBytes));
  Value pieceCol = arith::ExtUIOp::create(
      b, loc(), i64,
      arith::MulIOp::create(b, loc(), piece, i32c(pieceBytes / eltBytes)));
  rp.colElt = arith::AddIOp::create(b, loc(), column, pieceCol);
  // Bytes of this lane's piece inside the source's row (0 to the piece).
  Value cols = arith::IndexCastOp::create(b, loc(), i64, tp.dims.back());
  Value left = arith::SubIOp::create(b, loc(), cols, rp.colElt);
  Value leftBytes = arith::MulIOp::create(b, loc(), left, i64c(eltBytes));
  Value clampHi = arith::MinSIOp::create(b, loc(), leftBytes, i64c(pieceBytes));
  Value clamped = arith::MaxSIOp::create(b, loc(), clampHi, i64c(0));
  rp.colBytes = arith::TruncIOp::create(b, loc(), i32, clamped);
  return rp;
}

void KernelEmitter::copyPiece(const TensorParams &tp, const RowPieces &rp,
                              Value row, Value srcRow, Value inRange) {
  Type i64 = b.getI64Type();
  Value cols = arith::IndexCastOp::create(b, loc(), i64, tp.dims.back());
  Value bytes =
      arith::SelectOp::create(b, loc(), inRange, rp.colBytes, i32c(0));
  // An empty piece still needs a valid address: the row's start.
  Value safeRow = arith::SelectOp::create(b, loc(), inRange, srcRow, i64c(0));
  Value full =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ne, bytes, i32c(0));
  Value safeCol = arith::SelectOp::create(b, loc(), full, rp.colElt, i64c(0));
  Value rowStart = arith::MulIOp::create(b, loc(), safeRow, cols);
  Value elt = arith::AddIOp::create(b, loc(), rowStart, safeCol);
  Value srcPtr = LLVM::GEPOp::create(b, loc(), globalPtrTy(), tp.elementType,
                                     tp.ptr, ValueRange{elt});
  // The swizzle as smem.write applies it: the 16-byte chunk index XOR the
  // 128-byte line index, on the offset in the tile (a smaller piece stays
  // inside its chunk).
  Value rowOffset = arith::MulIOp::create(b, loc(), row, i32c(rp.rowBytes));
  Value inTile = arith::AddIOp::create(b, loc(), rowOffset, rp.pieceInRow);
  if (int64_t swizzleBits = swizzleBitsOf(rp.ring.getSwizzle()))
    inTile = swizzleOffset(inTile, swizzleBits);
  Value dst = smemAt(arith::AddIOp::create(b, loc(), rp.stageBase, inTile));
  // cp.async.cg (L2 only) takes 16-byte pieces alone; smaller ones go
  // through .ca.
  auto cache = rp.pieceBytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                   : NVVM::LoadCacheModifierKind::CA;
  NVVM::CpAsyncOp::create(
      b, loc(), dst, srcPtr, b.getI32IntegerAttr(rp.pieceBytes),
      NVVM::LoadCacheModifierKindAttr::get(ctx, cache), bytes);
}

Value KernelEmitter::loadIndexEntry(const TensorParams &ip, Value position,
                                    Value row, int64_t rows) {
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  Value listLength =
      arith::IndexCastOp::create(b, loc(), i64, ip.dims[0]).getResult();
  Value inTile = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, row,
                                       i32c(rows));
  Value row64 = arith::ExtUIOp::create(b, loc(), i64, row);
  Value slot = arith::AddIOp::create(b, loc(), position, row64);
  Value inList = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                       slot, listLength);
  Value valid = arith::AndIOp::create(b, loc(), inTile, inList);
  auto ifValid = scf::IfOp::create(b, loc(), TypeRange{i32}, valid,
                                   /*withElse=*/true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(ifValid.thenBlock());
  Value ptr = LLVM::GEPOp::create(b, loc(), globalPtrTy(), i32, ip.ptr,
                                  ValueRange{slot});
  Value v = LLVM::LoadOp::create(b, loc(), i32, ptr);
  scf::YieldOp::create(b, loc(), ValueRange{v});
  b.setInsertionPointToStart(ifValid.elseBlock());
  scf::YieldOp::create(b, loc(), ValueRange{i32c(-1)});
  return ifValid.getResult(0);
}

LogicalResult KernelEmitter::emitGatherIndices(GatherIndicesOp op) {
  if (!role || !role->allLanes)
    return op.emitError("cake.gather.indices runs on every thread of its "
                        "role");
  auto idx = tensors.find(op.getIndex());
  if (idx == tensors.end())
    return op.emitError("expected a kernel argument");
  int64_t rows = op.getType().getRows(), regs = (rows + 31) / 32;
  Type i32 = b.getI32Type();
  Type listTy =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(regs, i32));
  Value position = arith::IndexCastOp::create(
      b, loc(), b.getI64Type(), map.lookupOrDefault(op.getPosition()));
  // Entry e in lane e % 32, register e / 32, in every warp.
  Value list = LLVM::UndefOp::create(b, loc(), listTy);
  for (int64_t j = 0; j < regs; ++j) {
    Value e = arith::AddIOp::create(b, loc(), role->lane, i32c(32 * j));
    Value entry = loadIndexEntry(idx->second, position, e, rows);
    list = LLVM::InsertValueOp::create(b, loc(), list, entry, j);
  }
  map.map(op.getResult(), list);
  return success();
}

LogicalResult KernelEmitter::emitGather(GatherOp op) {
  if (!role || !role->allLanes)
    return op.emitError("cake.gather runs on every thread of its role");
  auto src = tensors.find(op.getSrc());
  // The entries come from global memory (a position in a list) or from
  // registers (a list cake.gather.indices loaded ahead).
  bool loaded = isa<IndicesType>(op.getIndex().getType());
  auto idx = tensors.find(op.getIndex());
  if (src == tensors.end() || (!loaded && idx == tensors.end()))
    return op.emitError("expected kernel arguments");
  const TensorParams &tp = src->second;
  RingType rt = op.getDst().getType();
  int64_t rows = rt.getShape()[0],
          eltBytes = getElementBytes(rt.getElementType());
  int64_t rowBytes = rt.getShape()[1] * eltBytes;
  int64_t pieces = rowBytes / 16; // a row's pieces, P: divides 32
  int64_t rowsPerWarpStep = 32 / pieces;
  int64_t warps = role->role.getNumWarps();
  int64_t rowsPerStep = warps * rowsPerWarpStep;
  int64_t steps = (rows + rowsPerStep - 1) / rowsPerStep;
  // The warp's rows, in the order its steps copy them, spread over its
  // lanes: entry e of the list sits in lane e % 32, register e / 32.
  int64_t listRegs = (steps * rowsPerWarpStep + 31) / 32;

  Type i64 = b.getI64Type();
  auto toI64 = [&](Value index) {
    return arith::IndexCastOp::create(b, loc(), i64, index).getResult();
  };
  Value srcRows = toI64(tp.dims[0]);
  Value column = toI64(map.lookupOrDefault(op.getColumn()));

  // hw.gather-copy at run time: a row pitch or column offset that is not
  // a whole number of pieces cannot be copied; trap rather than copy
  // misaligned or wrong bytes.
  trapUnlessPieceAligned(tp, column, eltBytes, 16);

  Value warp = role->warpInRole, lane = role->lane;
  Value warpRow0 = arith::MulIOp::create(b, loc(), warp, i32c(rowsPerWarpStep));
  // The index entries: -1 for a row past the tile or the list. A loaded
  // list holds them already; otherwise an earlier gather of this block
  // from the same list and position loaded them, or this one does.
  SmallVector<Value> list;
  if (loaded) {
    Value packed = map.lookup(op.getIndex());
    for (int64_t j = 0; j < (rows + 31) / 32; ++j)
      list.push_back(LLVM::ExtractValueOp::create(b, loc(), packed, j));
  } else {
    GatherListKey key{b.getInsertionBlock(), op.getIndex(),
                      map.lookupOrDefault(op.getPosition()), rows,
                      rowsPerWarpStep};
    auto cached = gatherLists.find(key);
    if (cached != gatherLists.end()) {
      list = cached->second;
    } else {
      Value position = toI64(map.lookupOrDefault(op.getPosition()));
      for (int64_t j = 0; j < listRegs; ++j) {
        Value e = arith::AddIOp::create(b, loc(), lane, i32c(32 * j));
        Value step = arith::DivUIOp::create(b, loc(), e, i32c(rowsPerWarpStep));
        Value sub = arith::RemUIOp::create(b, loc(), e, i32c(rowsPerWarpStep));
        Value stepRow0 =
            arith::MulIOp::create(b, loc(), step, i32c(rowsPerStep));
        Value row = arith::AddIOp::create(b, loc(), stepRow0, warpRow0);
        row = arith::AddIOp::create(b, loc(), row, sub);
        list.push_back(loadIndexEntry(idx->second, position, row, rows));
      }
      gatherLists[key] = list;
    }
  }

  RowPieces rp = rowPieces(tp, op.getDst(), op.getStage(), column, 16);
  Value rowInStep = arith::DivUIOp::create(b, loc(), lane, i32c(pieces));

  for (int64_t s = 0; s < steps; ++s) {
    Value row0 =
        arith::AddIOp::create(b, loc(), warpRow0, i32c(s * rowsPerStep));
    Value index;
    if (loaded) {
      // This lane's row is entry row0 + lane / P of the whole list; the
      // step's rows never straddle a register (rowsPerWarpStep divides
      // 32), so the register is the same on every lane.
      Value reg = arith::DivUIOp::create(b, loc(), row0, i32c(32));
      Value held = list[0];
      for (int64_t j = 1; j < int64_t(list.size()); ++j) {
        Value isJ = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                          reg, i32c(j));
        held = arith::SelectOp::create(b, loc(), isJ, list[j], held);
      }
      Value first = arith::RemUIOp::create(b, loc(), row0, i32c(32));
      Value srcLane = arith::AddIOp::create(b, loc(), first, rowInStep);
      index = gpu::ShuffleOp::create(b, loc(), held, srcLane, i32c(32),
                                     gpu::ShuffleMode::IDX)
                  .getShuffleResult();
    } else {
      // This lane's row: entry s * rowsPerWarpStep + lane / P of the
      // warp's list.
      int64_t entry0 = s * rowsPerWarpStep;
      Value srcLane =
          arith::AddIOp::create(b, loc(), rowInStep, i32c(entry0 % 32));
      index = gpu::ShuffleOp::create(b, loc(), list[entry0 / 32], srcLane,
                                     i32c(32), gpu::ShuffleMode::IDX)
                  .getShuffleResult();
    }
    Value row = arith::AddIOp::create(b, loc(), row0, rowInStep);
    // Rows past the tile (a last partial step) copy nothing.
    auto ifRow = scf::IfOp::create(
        b, loc(),
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, row,
                              i32c(rows)),
        /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ifRow.thenBlock()->getTerminator());
    Value index64 = arith::ExtSIOp::create(b, loc(), i64, index);
    Value inRange = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                          index64, srcRows);
    copyPiece(tp, rp, row, index64, inRange);
  }
  return success();
}

LogicalResult KernelEmitter::emitCpAsyncLoad(CpAsyncLoadOp op) {
  if (!role || !role->allLanes)
    return op.emitError("cake.cp_async.load runs on every thread of its role");
  auto src = tensors.find(op.getSrc());
  if (src == tensors.end())
    return op.emitError("expected a kernel argument");
  const TensorParams &tp = src->second;
  RingType rt = op.getDst().getType();
  int64_t rows = rt.getShape()[0],
          eltBytes = getElementBytes(rt.getElementType());
  int64_t pieceBytes = op.getPieceBytes();
  Type i64 = b.getI64Type();
  Value column = arith::IndexCastOp::create(
      b, loc(), i64, map.lookupOrDefault(op.getColumn()));
  Value row0 = arith::IndexCastOp::create(b, loc(), i64,
                                          map.lookupOrDefault(op.getRow()));
  int64_t rank = op.getCoords().size();
  Value srcRows = arith::IndexCastOp::create(b, loc(), i64, tp.dims[rank - 2]);
  // A rank-3 source: the first coordinate selects a plane, which the
  // copies address from; a plane past the tensor's is all zeros, as TMA
  // fills it.
  Value planeBase = tp.ptr, planeOk;
  if (Value plane = planeOffset(tp, op.getCoords())) {
    Value planeElts = arith::IndexCastOp::create(b, loc(), i64, plane);
    planeOk = outerInBounds(tp, op.getCoords(), 2);
    Value safe = arith::SelectOp::create(b, loc(), planeOk, planeElts, i64c(0));
    planeBase = LLVM::GEPOp::create(b, loc(), globalPtrTy(), tp.elementType,
                                    tp.ptr, ValueRange{safe});
  }
  // hw.cp-async-copy at run time: the column offset is a whole number of
  // pieces (the pitch is, by the op verifier).
  trapUnlessPieceAligned(tp, column, eltBytes, pieceBytes);

  RowPieces rp = rowPieces(tp, op.getDst(), op.getStage(), column, pieceBytes);
  int64_t rowsPerWarpStep = 32 / rp.pieces;
  int64_t rowsPerStep = role->role.getNumWarps() * rowsPerWarpStep;
  int64_t steps = (rows + rowsPerStep - 1) / rowsPerStep;
  // Lane l of warp w copies piece l % P of tile row
  // s * rowsPerStep + w * rowsPerWarpStep + l / P in step s: a warp's step
  // reads 32 consecutive pieces of consecutive rows.
  Value rowInStep =
      arith::DivUIOp::create(b, loc(), role->lane, i32c(rp.pieces));
  Value warpRow0 =
      arith::MulIOp::create(b, loc(), role->warpInRole, i32c(rowsPerWarpStep));
  Value laneRow = arith::AddIOp::create(b, loc(), warpRow0, rowInStep);
  // The steps differ from the first by constants, so each copy's two
  // addresses are one base register and an immediate offset: the lane's
  // source piece of its first row (an address computed only, used where
  // in range), and its swizzled place in the stage, which a step of whole
  // swizzle periods (8 lines of 128 bytes) leaves in the same place of the
  // pattern. Precomputing each step's addresses would hold 2 registers a
  // step across the copy loop, more than a load role's 40.
  Value cols = arith::IndexCastOp::create(b, loc(), i64, tp.dims.back());
  Value srcRow0 = arith::AddIOp::create(
      b, loc(), row0, arith::ExtUIOp::create(b, loc(), i64, laneRow));
  Value laneElt = arith::AddIOp::create(
      b, loc(), arith::MulIOp::create(b, loc(), srcRow0, cols), rp.colElt);
  Value laneSrc = LLVM::GEPOp::create(b, loc(), globalPtrTy(), tp.elementType,
                                      planeBase, ValueRange{laneElt});
  int64_t swizzleBits = swizzleBitsOf(rt.getSwizzle());
  auto placeInTile = [&](Value row) {
    Value rowOffset = arith::MulIOp::create(b, loc(), row, i32c(rp.rowBytes));
    Value inTile = arith::AddIOp::create(b, loc(), rowOffset, rp.pieceInRow);
    return swizzleBits ? swizzleOffset(inTile, swizzleBits) : inTile;
  };
  bool periodic = (rowsPerStep * rp.rowBytes) % 1024 == 0;
  Value laneDst0 =
      arith::AddIOp::create(b, loc(), rp.stageBase, placeInTile(laneRow));
  auto cache = pieceBytes == 16 ? NVVM::LoadCacheModifierKind::CG
                                : NVVM::LoadCacheModifierKind::CA;
  for (int64_t s = 0; s < steps; ++s) {
    Value row = arith::AddIOp::create(b, loc(), laneRow, i32c(s * rowsPerStep));
    OpBuilder::InsertionGuard g(b);
    // Rows past the tile (a last partial step) copy nothing.
    if ((s + 1) * rowsPerStep > rows) {
      auto ifRow = scf::IfOp::create(
          b, loc(),
          arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, row,
                                i32c(rows)),
          /*withElse=*/false);
      b.setInsertionPoint(ifRow.thenBlock()->getTerminator());
    }
    Value srcRow =
        arith::AddIOp::create(b, loc(), srcRow0, i64c(s * rowsPerStep));
    Value inRange = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                          srcRow, srcRows);
    if (planeOk)
      inRange = arith::AndIOp::create(b, loc(), inRange, planeOk);
    Value bytes =
        arith::SelectOp::create(b, loc(), inRange, rp.colBytes, i32c(0));
    Value full = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ne,
                                       bytes, i32c(0));
    // An empty piece still needs a valid address: the tensor's start.
    Value stepElts =
        arith::MulIOp::create(b, loc(), cols, i64c(s * rowsPerStep));
    Value stepSrc = LLVM::GEPOp::create(b, loc(), globalPtrTy(), tp.elementType,
                                        laneSrc, ValueRange{stepElts});
    Value src = arith::SelectOp::create(b, loc(), full, stepSrc, tp.ptr);
    Value dstOffset =
        periodic
            ? arith::AddIOp::create(b, loc(), laneDst0,
                                    i32c(s * rowsPerStep * rp.rowBytes))
                  .getResult()
            : arith::AddIOp::create(b, loc(), rp.stageBase, placeInTile(row))
                  .getResult();
    NVVM::CpAsyncOp::create(
        b, loc(), smemAt(dstOffset), src, b.getI32IntegerAttr(pieceBytes),
        NVVM::LoadCacheModifierKindAttr::get(ctx, cache), bytes);
  }
  return success();
}
