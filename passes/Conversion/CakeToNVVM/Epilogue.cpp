// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Epilogue.cpp - Fragments to and from memory ------------------------===//
//
// Global loads into row and column fragments (full tiles without masks,
// column pairs as vector loads), stores of accumulators, row and column
// fragments with bounds masks, and smem.write of a fragment into a ring stage
// in the ring's swizzle, for a TMA store or an mma to read, and its inverse
// smem.read.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"


using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

std::optional<LogicalResult> KernelEmitter::emitMemoryOp(Operation &op) {
  if (auto l = dyn_cast<LoadOp>(op))
    return emitLoad(l);
  if (auto s = dyn_cast<StoreOp>(op))
    return emitStore(s);
  if (auto w = dyn_cast<SmemWriteOp>(op))
    return emitSmemWrite(w);
  if (auto r = dyn_cast<SmemReadOp>(op))
    return emitSmemRead(r);
  return std::nullopt;
}

/// The rows of a tile inside the tensor: its extent `dim`, or with a
/// `rows %limit` bound, min(dim, row + limit).
Value KernelEmitter::rowBound(Value dim, Value row, Value limit) {
  if (!limit)
    return dim;
  Value end = arith::AddIOp::create(b, loc(), map.lookupOrDefault(row),
                                    map.lookupOrDefault(limit));
  return arith::MinUIOp::create(b, loc(), dim, end);
}

/// Linear element offset of the line selected by all coordinates but the
/// innermost (row-major, contiguous): 0 for rank-1 tensors.
Value KernelEmitter::outerOffset(const TensorParams &tp, ValueRange coords) {
  Value off = idxc(0);
  for (size_t i = 0; i + 1 < coords.size(); ++i) {
    Value stride = idxc(1);
    for (size_t j = i + 1; j < tp.dims.size(); ++j)
      stride = arith::MulIOp::create(b, loc(), stride, tp.dims[j]);
    off = arith::AddIOp::create(
        b, loc(), off,
        arith::MulIOp::create(b, loc(), map.lookupOrDefault(coords[i]),
                              stride));
  }
  return off;
}

/// The element offset of the plane that the outer coordinates (all but the
/// last two) select in a tensor of rank 3 or more; null for rank 2. A tile
/// of the two innermost dimensions is loaded or stored within it.
Value KernelEmitter::planeOffset(const TensorParams &tp, ValueRange coords) {
  int64_t rank = coords.size();
  if (rank <= 2)
    return Value();
  Value plane = idxc(0);
  for (int64_t i = 0; i < rank - 2; ++i) {
    Value stride = tp.dims[i + 1];
    for (int64_t j = i + 2; j < rank; ++j)
      stride = arith::MulIOp::create(b, loc(), stride, tp.dims[j]);
    Value term =
        arith::MulIOp::create(b, loc(), map.lookupOrDefault(coords[i]), stride);
    plane = arith::AddIOp::create(b, loc(), plane, term);
  }
  return plane;
}

Value KernelEmitter::outerInBounds(const TensorParams &tp, ValueRange coords,
                                   int64_t inner) {
  Value ok;
  for (int64_t i = 0; i + inner < int64_t(coords.size()); ++i) {
    Value in =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                              map.lookupOrDefault(coords[i]), tp.dims[i]);
    ok = ok ? arith::AndIOp::create(b, loc(), ok, in).getResult() : in;
  }
  return ok;
}

/// Row (within the role's 64 W rows) and column offsets of this thread.
Value KernelEmitter::threadRow() {
  Value wg = arith::DivUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value w = arith::RemUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value wgRow = arith::MulIOp::create(b, loc(), wg, i32c(64));
  Value warpRow = arith::MulIOp::create(b, loc(), w, i32c(16));
  Value base = arith::AddIOp::create(b, loc(), wgRow, warpRow);
  Value laneRow = arith::DivUIOp::create(b, loc(), role->lane, i32c(4));
  return arith::AddIOp::create(b, loc(), base, laneRow);
}

LogicalResult KernelEmitter::emitLoad(LoadOp op) {
  FailureOr<FragInfo> info = fragInfo(op.getType(), op);
  if (failed(info))
    return failure();
  if (info->layout == FragLayout::Acc)
    return emitAccLoad(op, *info);
  if (info->layout == FragLayout::Lane)
    return op.emitError("loads of 128-row tiles held a row a thread are not "
                        "lowered (tcgen05.ld fills them from tensor memory)");
  const TensorParams &tp = tensors[op.getSrc()];
  // The fragment runs along the innermost dimension; the outer coordinates
  // select one line of the tensor.
  Value lineBase = outerOffset(tp, op.getCoords());
  // A line past an outer end (the next chunk's row after the last) is all
  // outside: pad, and no access.
  Value lineOk = outerInBounds(tp, op.getCoords(), 1);
  Value extent = tp.dims.back();
  Type elt = op.getType().getElementType();
  Value pad = op.getPad()
                  ? map.lookupOrDefault(op.getPad())
                  : arith::ConstantOp::create(b, loc(), elt, b.getZeroAttr(elt))
                        .getResult();
  Value start = map.lookupOrDefault(op.getCoords().back());
  auto idx = [&](Value v) {
    return arith::IndexCastOp::create(b, loc(), b.getIndexType(), v);
  };
  auto elementAt = [&](Value pos, Type type) {
    Value lin = arith::AddIOp::create(b, loc(), lineBase, pos);
    Value ptr = LLVM::GEPOp::create(
        b, loc(), globalPtrTy(), elt, tp.ptr,
        ValueRange{arith::IndexCastOp::create(b, loc(), b.getI64Type(), lin)});
    return LLVM::LoadOp::create(b, loc(), type, ptr).getResult();
  };
  // Element k's offset from `start` in this thread: the wgmma accumulator
  // layout's columns (pairs 8 apart) or rows (8 apart); in a role holding
  // a row a thread, every column of a line, or the thread's row.
  bool col = info->layout == FragLayout::Col;
  bool laneCol = info->layout == FragLayout::LaneCol;
  auto offsetOf = [&](int64_t k) -> Value {
    if (laneCol)
      return i32c(int32_t(k));
    if (info->layout == FragLayout::LaneRow)
      return laneRow();
    if (col) {
      Value quad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
      Value pair = arith::MulIOp::create(b, loc(), quad, i32c(2));
      return arith::AddIOp::create(b, loc(), pair, i32c(8 * (k / 2) + k % 2));
    }
    Value row = threadRow();
    return arith::AddIOp::create(b, loc(), row, i32c(8 * k));
  };
  // Each element checked against the extent, the pad where it is past it.
  auto maskedLoads = [&]() {
    Value out = LLVM::UndefOp::create(b, loc(), info->type);
    for (int64_t k = 0; k < info->count; ++k) {
      Value pos = arith::AddIOp::create(b, loc(), start, idx(offsetOf(k)));
      Value inBounds = arith::CmpIOp::create(
          b, loc(), arith::CmpIPredicate::ult, pos, extent);
      if (lineOk)
        inBounds = arith::AndIOp::create(b, loc(), lineOk, inBounds);
      auto ifOp = scf::IfOp::create(b, loc(), TypeRange{elt}, inBounds,
                                    /*withElse=*/true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(b, loc(), ValueRange{elementAt(pos, elt)});
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, loc(), ValueRange{pad});
      b.setInsertionPointAfter(ifOp);
      out = LLVM::InsertValueOp::create(b, loc(), out, ifOp.getResult(0), k);
    }
    return out;
  };
  // A fragment wholly inside the tensor (every tile but the last) loads
  // without masks, a column fragment's pairs as one vector load each
  // where the line's start keeps them aligned: the masks and 64-bit
  // compares were most of the k-means epilogue's integer work.
  int64_t span = op.getType().getShape()[col || laneCol ? 1 : 0];
  Value end = arith::AddIOp::create(
      b, loc(), start, arith::ConstantIndexOp::create(b, loc(), span));
  Value full =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ule, end, extent);
  if (lineOk)
    full = arith::AndIOp::create(b, loc(), lineOk, full);
  bool pairs = (col || laneCol) && info->count % 2 == 0;
  if (pairs) {
    // The pair's address, not just its index: a caller's tensor may be a
    // view that starts off the vector's alignment.
    Value first = arith::IndexCastOp::create(
        b, loc(), b.getI64Type(),
        arith::AddIOp::create(b, loc(), lineBase, start));
    Value addr = LLVM::PtrToIntOp::create(
        b, loc(), b.getI64Type(),
        LLVM::GEPOp::create(b, loc(), globalPtrTy(), elt, tp.ptr,
                            ValueRange{first}));
    int64_t pairBytes = 2 * getElementBytes(elt);
    Value misalign = arith::AndIOp::create(b, loc(), addr, i64c(pairBytes - 1));
    Value aligned = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                          misalign, i64c(0));
    full = arith::AndIOp::create(b, loc(), full, aligned);
  }
  auto ifFull = scf::IfOp::create(b, loc(), TypeRange{info->type}, full,
                                  /*withElse=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifFull.thenBlock());
    Value out = LLVM::UndefOp::create(b, loc(), info->type);
    auto pairTy = VectorType::get({2}, elt);
    for (int64_t k = 0; k < info->count; k += pairs ? 2 : 1) {
      Value pos = arith::AddIOp::create(b, loc(), start, idx(offsetOf(k)));
      if (!pairs) {
        out = LLVM::InsertValueOp::create(b, loc(), out, elementAt(pos, elt),
                                          k);
        continue;
      }
      Value v = elementAt(pos, pairTy);
      for (int64_t e = 0; e < 2; ++e)
        out = LLVM::InsertValueOp::create(
            b, loc(), out,
            LLVM::ExtractElementOp::create(b, loc(), v, i32c(e)), k + e);
    }
    scf::YieldOp::create(b, loc(), ValueRange{out});
    b.setInsertionPointToStart(ifFull.elseBlock());
    scf::YieldOp::create(b, loc(), ValueRange{maskedLoads()});
  }
  Value out = ifFull.getResult(0);
  map.map(op.getResult(), out);
  return success();
}

/// A tile of the tensor's two innermost dimensions (the outer coordinates
/// select the plane, as for stores) into the accumulator layout: each
/// thread loads its pairs of columns in its two rows. Nothing branches: an
/// element past the tensor's end loads from row or column 0 instead and
/// takes the pad (a divergent branch beside wgmma groups in flight would
/// serialize them, as for stores). Pairs load as one vector where the rows
/// have an even length, so that they stay aligned.
LogicalResult KernelEmitter::emitAccLoad(LoadOp op, const FragInfo &info) {
  FragType ft = op.getType();
  int64_t rank = op.getSrc().getType().getRank();
  if (rank < 2)
    return op.emitError("loads of accumulator-shaped fragments read tensors "
                        "of rank 2 or more");
  const TensorParams &tp = tensors[op.getSrc()];
  Type elt = ft.getElementType();
  int64_t n = ft.getShape()[1];
  ValueRange coords = op.getCoords();
  Value plane = planeOffset(tp, coords);
  // A plane past an outer end holds no rows of the tensor (and its loads,
  // which read row 0 for masked elements, read the first plane's).
  Value planeOk = outerInBounds(tp, coords, 2);
  if (planeOk)
    plane = arith::SelectOp::create(b, loc(), planeOk, plane, idxc(0));
  auto idx = [&](Value v) {
    return arith::IndexCastOp::create(b, loc(), b.getIndexType(), v);
  };
  Value row0 = arith::AddIOp::create(
      b, loc(), map.lookupOrDefault(coords[rank - 2]), idx(threadRow()));
  Value quad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
  Value col0 = arith::AddIOp::create(
      b, loc(), map.lookupOrDefault(coords[rank - 1]),
      idx(arith::MulIOp::create(b, loc(), quad, i32c(2))));
  Value rows = rowBound(tp.dims[rank - 2], coords[rank - 2], op.getRows());
  if (planeOk)
    rows = arith::SelectOp::create(b, loc(), planeOk, rows, idxc(0));
  Value cols = tp.dims[rank - 1];
  Value pad = op.getPad()
                  ? map.lookupOrDefault(op.getPad())
                  : arith::ConstantOp::create(b, loc(), elt, b.getZeroAttr(elt))
                        .getResult();
  Value zero = idxc(0);
  auto ult = [&](Value a, Value c) {
    return arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, a, c)
        .getResult();
  };
  auto loadAt = [&](Value rowBase, Value col, Type type) {
    Value lin = arith::AddIOp::create(b, loc(), rowBase, col);
    Value ptr = LLVM::GEPOp::create(
        b, loc(), globalPtrTy(), elt, tp.ptr,
        ValueRange{arith::IndexCastOp::create(b, loc(), b.getI64Type(), lin)});
    return LLVM::LoadOp::create(b, loc(), type, ptr).getResult();
  };
  auto pairTy = VectorType::get({2}, elt);
  auto loadAll = [&](bool pairs) {
    Value out = LLVM::UndefOp::create(b, loc(), info.type);
    for (int64_t h = 0; h < 2; ++h) {
      Value row = arith::AddIOp::create(b, loc(), row0, idxc(8 * h));
      Value rowOk = ult(row, rows);
      Value rowAt = arith::SelectOp::create(b, loc(), rowOk, row, zero);
      Value rowBase = arith::MulIOp::create(b, loc(), rowAt, cols);
      if (plane)
        rowBase = arith::AddIOp::create(b, loc(), plane, rowBase);
      for (int64_t j = 0; j < n / 8; ++j)
        for (int64_t e = 0; e < 2; e += pairs ? 2 : 1) {
          // With rows of even length an even column inside the row has its
          // pair inside too.
          Value col = arith::AddIOp::create(b, loc(), col0, idxc(8 * j + e));
          Value ok = arith::AndIOp::create(b, loc(), rowOk, ult(col, cols));
          Value at = arith::SelectOp::create(b, loc(), ok, col, zero);
          if (!pairs) {
            Value v = arith::SelectOp::create(b, loc(), ok,
                                              loadAt(rowBase, at, elt), pad);
            out = LLVM::InsertValueOp::create(b, loc(), out, v,
                                              4 * j + 2 * h + e);
            continue;
          }
          Value vec = loadAt(rowBase, at, pairTy);
          for (int64_t k = 0; k < 2; ++k) {
            Value v = arith::SelectOp::create(
                b, loc(), ok,
                LLVM::ExtractElementOp::create(b, loc(), vec, i32c(k)), pad);
            out = LLVM::InsertValueOp::create(b, loc(), out, v,
                                              4 * j + 2 * h + k);
          }
        }
    }
    return out;
  };
  // The whole tile inside the tensor and rows of even length (the common
  // case, uniform across the role): one unguarded pair load each, no
  // bounds arithmetic. Otherwise one branch on the rows' parity.
  auto loadInside = [&]() {
    Value out = LLVM::UndefOp::create(b, loc(), info.type);
    for (int64_t h = 0; h < 2; ++h) {
      Value row = arith::AddIOp::create(b, loc(), row0, idxc(8 * h));
      Value rowBase = arith::MulIOp::create(b, loc(), row, cols);
      if (plane)
        rowBase = arith::AddIOp::create(b, loc(), plane, rowBase);
      Value lin = arith::AddIOp::create(b, loc(), rowBase, col0);
      Value rowPtr = LLVM::GEPOp::create(b, loc(), globalPtrTy(), elt, tp.ptr,
                                         ValueRange{arith::IndexCastOp::create(
                                             b, loc(), b.getI64Type(), lin)});
      for (int64_t j = 0; j < n / 8; ++j) {
        Value ptr = LLVM::GEPOp::create(b, loc(), globalPtrTy(), elt, rowPtr,
                                        ValueRange{i32c(8 * j)});
        Value vec = LLVM::LoadOp::create(b, loc(), pairTy, ptr);
        for (int64_t k = 0; k < 2; ++k) {
          Value v = LLVM::ExtractElementOp::create(b, loc(), vec, i32c(k));
          out =
              LLVM::InsertValueOp::create(b, loc(), out, v, 4 * j + 2 * h + k);
        }
      }
    }
    return out;
  };
  Value even = arith::CmpIOp::create(
      b, loc(), arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc(), cols, idxc(2)), zero);
  Value rowEnd = arith::AddIOp::create(
      b, loc(), map.lookupOrDefault(coords[rank - 2]), idxc(ft.getShape()[0]));
  Value colEnd = arith::AddIOp::create(
      b, loc(), map.lookupOrDefault(coords[rank - 1]), idxc(n));
  Value rowsInside =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ule, rowEnd, rows);
  Value colsInside =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ule, colEnd, cols);
  Value inside = arith::AndIOp::create(
      b, loc(), arith::AndIOp::create(b, loc(), rowsInside, colsInside), even);
  auto ifInside = scf::IfOp::create(b, loc(), TypeRange{info.type}, inside,
                                    /*withElse=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifInside.thenBlock());
    scf::YieldOp::create(b, loc(), ValueRange{loadInside()});
    b.setInsertionPointToStart(ifInside.elseBlock());
    auto ifEven = scf::IfOp::create(b, loc(), TypeRange{info.type}, even,
                                    /*withElse=*/true);
    scf::YieldOp::create(b, loc(), ifEven.getResults());
    b.setInsertionPointToStart(ifEven.thenBlock());
    scf::YieldOp::create(b, loc(), ValueRange{loadAll(/*pairs=*/true)});
    b.setInsertionPointToStart(ifEven.elseBlock());
    scf::YieldOp::create(b, loc(), ValueRange{loadAll(/*pairs=*/false)});
  }
  map.map(op.getResult(), ifInside.getResult(0));
  return success();
}

/// A row (M x 1) or column (1 x N) fragment into one line of the tensor.
/// Every thread holds a copy of its values: in a row fragment the four
/// lanes of a quad share rows (lane l % 4 == 0 writes); in a column
/// fragment every row holder has the same columns (lanes 0..3 of the
/// role's first warp write, two columns of each 8 apiece).
LogicalResult KernelEmitter::emitLineStore(StoreOp op, const FragInfo &info) {
  const TensorParams &tp = tensors[op.getDst()];
  Type elt = op.getValue().getType().getElementType();
  int64_t bits = elt.getIntOrFloatBitWidth();
  if (bits != 16 && bits != 32)
    return op.emitError("stores of row and column fragments take 16- or "
                        "32-bit elements, got ")
           << elt;
  Value lineBase = outerOffset(tp, op.getCoords());
  bool col = info.layout == FragLayout::Col;
  bool laneRowOne = info.layout == FragLayout::LaneRow;
  bool laneCol = info.layout == FragLayout::LaneCol;
  Value quad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
  Value lineOk = outerInBounds(tp, op.getCoords(), 1), writer;
  if (laneRowOne) {
    // A row a thread: each thread writes its own.
    writer = arith::ConstantIntOp::create(b, loc(), b.getI1Type(), 1);
  } else if (laneCol) {
    // Every thread holds the whole line: the role's first thread writes.
    writer = arith::AndIOp::create(
        b, loc(),
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                              role->warpInRole, i32c(0)),
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, role->lane,
                              i32c(0)));
  } else if (col) {
    Value firstWarp = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                            role->warpInRole, i32c(0));
    Value firstQuad = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                            role->lane, i32c(4));
    writer = arith::AndIOp::create(b, loc(), firstWarp, firstQuad);
  } else {
    writer = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, quad,
                                   i32c(0));
  }
  if (lineOk)
    writer = arith::AndIOp::create(b, loc(), lineOk, writer);
  Value start = map.lookupOrDefault(op.getCoords().back());
  Value first = laneCol      ? i32c(0)
                : laneRowOne ? laneRow()
                : col
                    ? arith::MulIOp::create(b, loc(), quad, i32c(2)).getResult()
                    : threadRow();
  Value val = map.lookup(op.getValue());
  std::string text = "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p st.global.b" +
                     std::to_string(bits) + " [$1], $2; }";
  std::string constraints = bits == 16 ? "r,l,h" : "r,l,r";
  for (int64_t k = 0; k < info.count; ++k) {
    // Element k: columns in pairs 8 apart, or rows 8 apart; a line held
    // whole, column k.
    int64_t step = laneCol ? k : col ? 8 * (k / 2) + k % 2 : 8 * k;
    Value pos = arith::AddIOp::create(
        b, loc(), start,
        arith::IndexCastOp::create(
            b, loc(), b.getIndexType(),
            arith::AddIOp::create(b, loc(), first, i32c(step))));
    Value ok = arith::AndIOp::create(
        b, loc(), writer,
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, pos,
                              tp.dims.back()));
    // Predicated, not branched around (see emitStore: no divergent branch
    // while wgmma groups may be in flight).
    Value lin = arith::AddIOp::create(b, loc(), lineBase, pos);
    Value ptr = LLVM::GEPOp::create(
        b, loc(), globalPtrTy(), elt, tp.ptr,
        ValueRange{arith::IndexCastOp::create(b, loc(), b.getI64Type(), lin)});
    Value v = LLVM::ExtractValueOp::create(b, loc(), val, k);
    Value bitsOfV =
        LLVM::BitcastOp::create(b, loc(), b.getIntegerType(bits), v);
    Value pred = arith::ExtUIOp::create(b, loc(), b.getI32Type(), ok);
    SmallVector<Value> operands{pred, ptr, bitsOfV};
    sideEffectAsm(Type(), operands, text, constraints);
  }
  return success();
}

LogicalResult KernelEmitter::emitStore(StoreOp op) {
  FragType ft = op.getValue().getType();
  FailureOr<FragInfo> info = fragInfo(ft, op);
  if (failed(info))
    return failure();
  if (op.getTransposed() || op.getEvery()) {
    if (info->layout != FragLayout::Acc)
      return op.emitError("a transposed or every(S) store is lowered for "
                          "accumulator-shaped tiles (64 W x N)");
    return op.getEvery() ? emitEveryStore(op) : emitTransposedStore(op);
  }
  if (info->layout == FragLayout::Row || info->layout == FragLayout::Col ||
      info->layout == FragLayout::LaneRow ||
      info->layout == FragLayout::LaneCol)
    return emitLineStore(op, *info);
  if (info->layout == FragLayout::Lane)
    return emitLaneStore(op, *info);
  // The fragment is a tile of the tensor's two innermost dimensions; the
  // outer coordinates (a batch, a head) select one such plane.
  GlobalType gt = op.getDst().getType();
  int64_t rank = gt.getRank();
  if (rank < 2)
    return op.emitError("stores of accumulators go to tensors of rank 2 or "
                        "more");
  const TensorParams &tp = tensors[op.getDst()];
  Type elt = ft.getElementType();
  int64_t n = ft.getShape()[1];
  ValueRange coords = op.getCoords();
  // wgmma accumulator layout: thread (warp w of its warpgroup, lane l) holds
  // for i in [0, N/2): row 16 w + l/4 + 8 ((i/2) % 2),
  // col 8 (i/4) + 2 (l%4) + (i%2).
  AccStoreBox box = accStoreBox(op);
  Value row0 = box.row0, col0 = box.col0, rows = box.rows, cols = box.cols,
        plane = box.plane;
  Value odd = arith::RemUIOp::create(b, loc(), cols, idxc(2));
  Value ldEven =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, odd, idxc(0));
  Value acc = map.lookup(op.getValue());
  auto pairTy = VectorType::get({2}, elt);
  // Every column of the tile inside the tensor (and rows of even length, so
  // pairs are aligned): one unguarded pair store each, no per-pair branch.
  // With a static extent this folds to true or false at compile time.
  Value tileEnd = arith::AddIOp::create(
      b, loc(), map.lookupOrDefault(coords[rank - 1]), idxc(n));
  Value colsFull = arith::AndIOp::create(
      b, loc(),
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ule, tileEnd, cols),
      ldEven);
  auto pairAt = [&](int64_t j, int64_t h) {
    Value v0 = LLVM::ExtractValueOp::create(b, loc(), acc, 4 * j + 2 * h);
    Value v1 = LLVM::ExtractValueOp::create(b, loc(), acc, 4 * j + 2 * h + 1);
    return std::pair(v0, v1);
  };
  // The pair as one integer of twice the element's width, for st.global;
  // a pair of 32-bit elements as two, since its address is 4-byte aligned
  // only (the previous stores' alignment).
  int64_t eltBits = elt.getIntOrFloatBitWidth();
  int64_t pairBits = 2 * eltBits;
  bool split = eltBits == 32;
  Type pairInt = b.getIntegerType(split ? 32 : pairBits);
  auto rowStart = [&](int64_t h) {
    Value row = arith::AddIOp::create(b, loc(), row0, idxc(8 * h));
    Value rowOk =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, row, rows);
    Value rowBase = arith::MulIOp::create(b, loc(), row, cols);
    if (plane)
      rowBase = arith::AddIOp::create(b, loc(), plane, rowBase);
    return std::pair(rowOk, rowBase);
  };
  auto fullIf = scf::IfOp::create(b, loc(), colsFull, /*withElse=*/true);
  {
    // Rows past the tensor's end are predicated off, not branched around:
    // a divergent branch while wgmma groups are in flight makes ptxas
    // serialize every wgmma of the kernel (C7518), and a rotated tile loop
    // stores the previous tile beside the next one's first product.
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(fullIf.thenBlock());
    std::string text =
        split ? "{ .reg .pred p; setp.ne.b32 p, $0, 0; "
                "@p st.global.b32 [$1], $2; @p st.global.b32 [$1+4], $3; }"
              : "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p st.global.b" +
                    std::to_string(pairBits) + " [$1], $2; }";
    std::string constraints = split            ? "r,l,r,r"
                              : pairBits == 32 ? "r,l,r"
                                               : "r,l,h";
    for (int64_t h = 0; h < 2; ++h) {
      auto [rowOk, rowBase] = rowStart(h);
      Value pred = arith::ExtUIOp::create(b, loc(), b.getI32Type(), rowOk);
      Value rowPtr = LLVM::GEPOp::create(
          b, loc(), globalPtrTy(), elt, tp.ptr,
          ValueRange{arith::IndexCastOp::create(
              b, loc(), b.getI64Type(),
              arith::AddIOp::create(b, loc(), rowBase, col0))});
      for (int64_t j = 0; j < n / 8; ++j) {
        auto [v0, v1] = pairAt(j, h);
        Value ptr = LLVM::GEPOp::create(b, loc(), globalPtrTy(), elt, rowPtr,
                                        ValueRange{i32c(8 * j)});
        SmallVector<Value> operands{pred, ptr};
        if (split) {
          operands.push_back(LLVM::BitcastOp::create(b, loc(), pairInt, v0));
          operands.push_back(LLVM::BitcastOp::create(b, loc(), pairInt, v1));
        } else {
          Value vec = LLVM::UndefOp::create(b, loc(), pairTy);
          vec = LLVM::InsertElementOp::create(b, loc(), vec, v0, i32c(0));
          vec = LLVM::InsertElementOp::create(b, loc(), vec, v1, i32c(1));
          operands.push_back(LLVM::BitcastOp::create(b, loc(), pairInt, vec));
        }
        sideEffectAsm(Type(), operands, text, constraints);
      }
    }
  }
  for (int64_t h = 0; h < 2; ++h) {
    // A tile across the tensor's last column: each pair checked.
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(fullIf.elseBlock());
    auto [rowOk, rowBase] = rowStart(h);
    auto rowIf = scf::IfOp::create(b, loc(), rowOk, /*withElse=*/false);
    b.setInsertionPointToStart(rowIf.thenBlock());
    for (int64_t j = 0; j < n / 8; ++j) {
      Value col = arith::AddIOp::create(b, loc(), col0, idxc(8 * j));
      auto [v0, v1] = pairAt(j, h);
      Value off = arith::IndexCastOp::create(
          b, loc(), b.getI64Type(),
          arith::AddIOp::create(b, loc(), rowBase, col));
      Value ptr = LLVM::GEPOp::create(b, loc(), globalPtrTy(), elt, tp.ptr,
                                      ValueRange{off});
      Value col1 = arith::AddIOp::create(b, loc(), col, idxc(1));
      Value both = arith::AndIOp::create(
          b, loc(),
          arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, col1,
                                cols),
          ldEven);
      auto pairIf = scf::IfOp::create(b, loc(), both, /*withElse=*/true);
      {
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(pairIf.thenBlock());
        Value vec = LLVM::UndefOp::create(b, loc(), pairTy);
        vec = LLVM::InsertElementOp::create(b, loc(), vec, v0, i32c(0));
        vec = LLVM::InsertElementOp::create(b, loc(), vec, v1, i32c(1));
        LLVM::StoreOp::create(b, loc(), vec, ptr, /*alignment=*/4);
        b.setInsertionPointToStart(pairIf.elseBlock());
        Value ok0 = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                          col, cols);
        auto if0 = scf::IfOp::create(b, loc(), ok0, false);
        b.setInsertionPointToStart(if0.thenBlock());
        LLVM::StoreOp::create(b, loc(), v0, ptr);
        b.setInsertionPointAfter(if0);
        Value ok1 = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                          col1, cols);
        auto if1 = scf::IfOp::create(b, loc(), ok1, false);
        b.setInsertionPointToStart(if1.thenBlock());
        Value ptr1 = LLVM::GEPOp::create(b, loc(), globalPtrTy(), elt, ptr,
                                         ValueRange{i32c(1)});
        LLVM::StoreOp::create(b, loc(), v1, ptr1);
      }
    }
  }
  return success();
}

std::pair<Value, Value> KernelEmitter::accThreadOrigin() {
  Value wg = arith::DivUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value w = arith::RemUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value l = role->lane;
  Value wgRow = arith::MulIOp::create(b, loc(), wg, i32c(64));
  Value warpRow = arith::MulIOp::create(b, loc(), w, i32c(16));
  Value warpBase = arith::AddIOp::create(b, loc(), wgRow, warpRow);
  Value laneRow = arith::DivUIOp::create(b, loc(), l, i32c(4));
  Value row = arith::AddIOp::create(b, loc(), warpBase, laneRow);
  Value quad = arith::RemUIOp::create(b, loc(), l, i32c(4));
  Value col = arith::MulIOp::create(b, loc(), quad, i32c(2));
  return {row, col};
}

KernelEmitter::AccStoreBox KernelEmitter::accStoreBox(StoreOp op) {
  int64_t rank = op.getDst().getType().getRank();
  const TensorParams &tp = tensors[op.getDst()];
  ValueRange coords = op.getCoords();
  AccStoreBox box;
  box.plane = planeOffset(tp, coords);
  auto [tileRow, tileCol] = accThreadOrigin();
  if (op.getTransposed())
    std::swap(tileRow, tileCol);
  auto idx = [&](Value v) {
    return arith::IndexCastOp::create(b, loc(), b.getIndexType(), v);
  };
  box.row0 = arith::AddIOp::create(
      b, loc(), map.lookupOrDefault(coords[rank - 2]), idx(tileRow));
  box.col0 = arith::AddIOp::create(
      b, loc(), map.lookupOrDefault(coords[rank - 1]), idx(tileCol));
  // A plane past an outer end holds no rows of the tensor: nothing stored.
  box.rows = rowBound(tp.dims[rank - 2], coords[rank - 2], op.getRows());
  if (Value planeOk = outerInBounds(tp, coords, 2))
    box.rows = arith::SelectOp::create(b, loc(), planeOk, box.rows, idxc(0));
  box.cols = tp.dims[rank - 1];
  return box;
}

/// cake.store ... transposed: element (i, j) of an accumulator-shaped tile
/// to row coords[-2] + j, column coords[-1] + i of the tensor. A thread's
/// two values of a pair are adjacent along the tile's row, which is the
/// tensor's column: two rows apart in memory, so each value is its own
/// store, predicated (not branched around, as in emitStore) on the box's
/// row bound and the tensor's last column.
LogicalResult KernelEmitter::emitTransposedStore(StoreOp op) {
  FragType ft = op.getValue().getType();
  const TensorParams &tp = tensors[op.getDst()];
  Type elt = ft.getElementType();
  int64_t n = ft.getShape()[1];
  int64_t bits = elt.getIntOrFloatBitWidth();
  if (bits != 16 && bits != 32)
    return op.emitError("a transposed store writes 16- or 32-bit elements");
  // The accumulator layout as in emitStore (tile row + 8, tile column
  // 8 j (+ 1)): here the tensor's column and row (col0 + 8 h, row0 + 8 j).
  AccStoreBox box = accStoreBox(op);
  Value row0 = box.row0, col0 = box.col0, rows = box.rows, cols = box.cols,
        plane = box.plane;
  Value acc = map.lookup(op.getValue());
  for (int64_t h = 0; h < 2; ++h) {
    Value col = arith::AddIOp::create(b, loc(), col0, idxc(8 * h));
    Value colOk =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, col, cols);
    for (int64_t j = 0; j < n / 8; ++j)
      for (int64_t e = 0; e < 2; ++e) {
        Value row = arith::AddIOp::create(b, loc(), row0, idxc(8 * j + e));
        Value rowOk = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                            row, rows);
        Value ok = arith::AndIOp::create(b, loc(), rowOk, colOk);
        Value off = arith::MulIOp::create(b, loc(), row, cols);
        off = arith::AddIOp::create(b, loc(), off, col);
        if (plane)
          off = arith::AddIOp::create(b, loc(), plane, off);
        Value off64 = arith::IndexCastOp::create(b, loc(), b.getI64Type(), off);
        Value ptr = LLVM::GEPOp::create(b, loc(), globalPtrTy(), elt, tp.ptr,
                                        ValueRange{off64});
        predicatedStore(
            ok, ptr,
            LLVM::ExtractValueOp::create(b, loc(), acc, 4 * j + 2 * h + e));
      }
  }
  return success();
}

/// One 16- or 32-bit value stored where `ok` holds, predicated in the
/// instruction rather than branched around (as in emitStore).
void KernelEmitter::predicatedStore(Value ok, Value ptr, Value v) {
  int64_t bits = v.getType().getIntOrFloatBitWidth();
  std::string text = "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p st.global.b" +
                     std::to_string(bits) + " [$1], $2; }";
  Value pred = arith::ExtUIOp::create(b, loc(), b.getI32Type(), ok);
  Value raw = LLVM::BitcastOp::create(b, loc(), b.getIntegerType(bits), v);
  sideEffectAsm(Type(), ValueRange{pred, ptr, raw}, text,
                bits == 16 ? "r,l,h" : "r,l,r");
}

/// cake.store ... every(S): tile rows 0, S, 2S, ... to consecutive rows of
/// the box. In the accumulator layout a thread's rows are tile row
/// 16 w + l/4 and 8 below it, so with S a multiple of 16 only the first
/// (l/4 = 0, four lanes a warp) can be kept, and only in the warps whose
/// first row is a multiple of S: those lanes store their values
/// themselves, each a predicated store.
LogicalResult KernelEmitter::emitEveryStore(StoreOp op) {
  FragType ft = op.getValue().getType();
  const TensorParams &tp = tensors[op.getDst()];
  Type elt = ft.getElementType();
  int64_t n = ft.getShape()[1];
  int64_t bits = elt.getIntOrFloatBitWidth();
  int64_t every = *op.getEvery();
  if (bits != 16 && bits != 32)
    return op.emitError("an every(S) store writes 16- or 32-bit elements");
  int64_t rank = op.getDst().getType().getRank();
  ValueRange coords = op.getCoords();
  AccStoreBox box = accStoreBox(op);
  // The tile row this thread holds first (the box's row0 less the row
  // coordinate), and whether it is kept.
  Value rowCoord = map.lookupOrDefault(coords[rank - 2]);
  Value tileRowIdx = arith::SubIOp::create(b, loc(), box.row0, rowCoord);
  Value kept = arith::CmpIOp::create(
      b, loc(), arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc(), tileRowIdx, idxc(every)), idxc(0));
  Value row = arith::AddIOp::create(
      b, loc(), rowCoord,
      arith::DivUIOp::create(b, loc(), tileRowIdx, idxc(every)));
  Value rowOk = arith::AndIOp::create(
      b, loc(), kept,
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, row,
                            box.rows));
  Value rowBase = arith::MulIOp::create(b, loc(), row, box.cols);
  if (box.plane)
    rowBase = arith::AddIOp::create(b, loc(), box.plane, rowBase);
  Value acc = map.lookup(op.getValue());
  for (int64_t j = 0; j < n / 8; ++j)
    for (int64_t e = 0; e < 2; ++e) {
      Value col = arith::AddIOp::create(b, loc(), box.col0, idxc(8 * j + e));
      Value ok = arith::AndIOp::create(
          b, loc(), rowOk,
          arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, col,
                                box.cols));
      Value off64 = arith::IndexCastOp::create(
          b, loc(), b.getI64Type(),
          arith::AddIOp::create(b, loc(), rowBase, col));
      Value ptr = LLVM::GEPOp::create(b, loc(), globalPtrTy(), elt, tp.ptr,
                                      ValueRange{off64});
      // Value 4 j + e is the first row's (h = 0) of column pair j.
      predicatedStore(ok, ptr,
                      LLVM::ExtractValueOp::create(b, loc(), acc, 4 * j + e));
    }
  return success();
}

SmallVector<Value> KernelEmitter::accPairOffsets(Value ringValue, Value stage) {
  RingType rt = cast<RingType>(ringValue.getType());
  ArrayRef<int64_t> shape = rt.getShape();
  int64_t eltBytes = rt.getElementType().getIntOrFloatBitWidth() / 8;
  int64_t pitch = shape[1] * eltBytes;
  // The ring's swizzle as TMA and wgmma use it: the 16-byte chunk index
  // (address bits 4..) XOR the 128-byte line index (bits 7..),
  // log2(swizzle / 16) bits wide, on the shared-memory address (its base
  // is 1024-byte aligned).
  int64_t swizzleBits = swizzleBitsOf(rt.getSwizzle());
  const RingInfo &ring = rings[ringValue];
  assert(ring.offset % (int64_t(128) << swizzleBits) == 0 &&
         ring.tileBytes % (int64_t(128) << swizzleBits) == 0 &&
         "swizzled stages start on whole swizzle patterns");
  Value ringBase = ringOffset(ringValue);
  Value stageOffset =
      arith::MulIOp::create(b, loc(), map.lookup(stage), i32c(ring.tileBytes));
  Value stageBase = arith::AddIOp::create(b, loc(), ringBase, stageOffset);
  Value row0 = threadRow();
  Value quad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
  Value col0 = arith::MulIOp::create(b, loc(), quad, i32c(2));
  SmallVector<Value> offsets(shape[1] / 4);
  for (int64_t h = 0; h < 2; ++h) {
    Value row = arith::AddIOp::create(b, loc(), row0, i32c(8 * h));
    for (int64_t j = 0; j < shape[1] / 8; ++j) {
      // Columns 8 j + 2 (lane % 4) + {0, 1}: one 2-element access.
      Value col = arith::AddIOp::create(b, loc(), col0, i32c(8 * j));
      Value rowBytes = arith::MulIOp::create(b, loc(), row, i32c(pitch));
      Value colBytes = arith::MulIOp::create(b, loc(), col, i32c(eltBytes));
      Value inTile = arith::AddIOp::create(b, loc(), rowBytes, colBytes);
      if (swizzleBits) {
        // On the offset within the tile: stages start on whole swizzle
        // patterns (128 << swizzleBits bytes; KernelLayout aligns swizzled
        // rings, tiles are whole patterns), so adding the stage's base
        // leaves the swizzled bits alone, and every ring of one shape
        // shares these offsets (computed once per thread, not per access).
        inTile = swizzleOffset(inTile, swizzleBits);
      }
      offsets[2 * j + h] = arith::AddIOp::create(b, loc(), stageBase, inTile);
    }
  }
  return offsets;
}

SmallVector<Value> KernelEmitter::rowValueOffsets(Value ringValue,
                                                  Value stage) {
  RingType rt = cast<RingType>(ringValue.getType());
  int64_t eltBytes = rt.getElementType().getIntOrFloatBitWidth() / 8;
  // Only smem.write and smem.read reach a one-column tile (a row of 2 or
  // 4 bytes is too narrow for a TMA box or a wgmma operand): the swizzle
  // only has to agree between them, and is applied the same way as to the
  // other tiles.
  int64_t swizzleBits = swizzleBitsOf(rt.getSwizzle());
  const RingInfo &ring = rings[ringValue];
  Value stageOffset =
      arith::MulIOp::create(b, loc(), map.lookup(stage), i32c(ring.tileBytes));
  Value stageBase =
      arith::AddIOp::create(b, loc(), ringOffset(ringValue), stageOffset);
  SmallVector<Value> offsets;
  for (int64_t h = 0; h < 2; ++h) {
    Value first = threadRow();
    Value row = arith::AddIOp::create(b, loc(), first, i32c(8 * h));
    Value inTile = arith::MulIOp::create(b, loc(), row, i32c(eltBytes));
    if (swizzleBits)
      inTile = swizzleOffset(inTile, swizzleBits);
    offsets.push_back(arith::AddIOp::create(b, loc(), stageBase, inTile));
  }
  return offsets;
}

Value KernelEmitter::swizzleOffset(Value inTile, int64_t swizzleBits) {
  Value lineBits = arith::ShRUIOp::create(b, loc(), inTile, i32c(7));
  Value line =
      arith::AndIOp::create(b, loc(), lineBits, i32c((1 << swizzleBits) - 1));
  Value chunkFlip = arith::ShLIOp::create(b, loc(), line, i32c(4));
  return arith::XOrIOp::create(b, loc(), inTile, chunkFlip);
}

LogicalResult KernelEmitter::emitSmemWrite(SmemWriteOp op) {
  FailureOr<FragInfo> info = fragInfo(op.getValue().getType(), op);
  if (failed(info))
    return failure();
  RingType rt = op.getDst().getType();
  if (info->layout == FragLayout::Row && rt.getShape().size() == 2) {
    // The four threads of a quad hold the same rows: the first writes.
    // (Ops are created one statement each: the order of a call's arguments
    // is the compiler's, and the IR should not depend on it.)
    SmallVector<Value> offsets = rowValueOffsets(op.getDst(), op.getStage());
    Value quad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
    Value zero = i32c(0);
    Value quadLeader =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, quad, zero);
    auto ifOp = scf::IfOp::create(b, loc(), quadLeader, /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value frag = map.lookup(op.getValue());
    for (auto [h, off] : llvm::enumerate(offsets)) {
      Value v = LLVM::ExtractValueOp::create(b, loc(), frag, h);
      Value ptr = smemAt(off);
      LLVM::StoreOp::create(b, loc(), v, ptr);
    }
    return success();
  }
  if (info->layout != FragLayout::Acc || rt.getShape().size() != 2)
    return op.emitError("smem.write of this fragment into a rank-")
           << rt.getShape().size() << " ring tile is not lowered yet";
  SmallVector<Value> offsets = accPairOffsets(op.getDst(), op.getStage());
  Type elt = rt.getElementType();
  int64_t eltBytes = elt.getIntOrFloatBitWidth() / 8;
  Value frag = map.lookup(op.getValue());
  auto pairTy = VectorType::get({2}, elt);
  for (auto [p, off] : llvm::enumerate(offsets)) {
    int64_t j = p / 2, h = p % 2;
    Value pair = LLVM::UndefOp::create(b, loc(), pairTy);
    for (int64_t e = 0; e < 2; ++e) {
      Value v = LLVM::ExtractValueOp::create(b, loc(), frag, 4 * j + 2 * h + e);
      pair = LLVM::InsertElementOp::create(b, loc(), pair, v, i32c(e));
    }
    LLVM::StoreOp::create(b, loc(), pair, smemAt(off),
                          /*alignment=*/2 * eltBytes);
  }
  return success();
}

LogicalResult KernelEmitter::emitSmemRead(SmemReadOp op) {
  FailureOr<FragInfo> info = fragInfo(op.getType(), op);
  if (failed(info))
    return failure();
  RingType rt = op.getSrc().getType();
  if (info->layout == FragLayout::Row && rt.getShape().size() == 2) {
    SmallVector<Value> offsets = rowValueOffsets(op.getSrc(), op.getStage());
    Value frag = LLVM::UndefOp::create(b, loc(), info->type);
    for (auto [h, off] : llvm::enumerate(offsets))
      frag = LLVM::InsertValueOp::create(
          b, loc(), frag,
          LLVM::LoadOp::create(b, loc(), rt.getElementType(), smemAt(off)), h);
    map.map(op.getResult(), frag);
    return success();
  }
  if (info->layout != FragLayout::Acc || rt.getShape().size() != 2)
    return op.emitError("smem.read of a rank-")
           << rt.getShape().size() << " ring tile into this fragment is not "
           << "lowered yet (a 64·W x N accumulator-layout fragment or a "
           << "64·W x 1 one is)";
  SmallVector<Value> offsets = accPairOffsets(op.getSrc(), op.getStage());
  Type elt = rt.getElementType();
  int64_t eltBytes = elt.getIntOrFloatBitWidth() / 8;
  auto pairTy = VectorType::get({2}, elt);
  Value frag = LLVM::UndefOp::create(b, loc(), info->type);
  for (auto [p, off] : llvm::enumerate(offsets)) {
    int64_t j = p / 2, h = p % 2;
    Value pair = LLVM::LoadOp::create(b, loc(), pairTy, smemAt(off),
                                      /*alignment=*/2 * eltBytes);
    for (int64_t e = 0; e < 2; ++e) {
      Value v = LLVM::ExtractElementOp::create(b, loc(), pair, i32c(e));
      frag = LLVM::InsertValueOp::create(b, loc(), frag, v, 4 * j + 2 * h + e);
    }
  }
  map.map(op.getResult(), frag);
  return success();
}
