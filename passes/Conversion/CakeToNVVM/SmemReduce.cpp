// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- SmemReduce.cpp - Rows of ring stages reduced -----------------------===//
//
// cake.smem.reduce: each row of a tile in ring stages reduced to one fp32
// value (the squared norms of a KNN search's corpus rows, from the stages
// the MMA reads), as a 1 x R or R x 1 fragment, through a derived scratch.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

std::optional<LogicalResult> KernelEmitter::emitSmemReduceOp(Operation &op) {
  if (auto r = dyn_cast<SmemReduceOp>(op))
    return emitSmemReduce(r);
  return std::nullopt;
}

/// The role's T threads split the R rows: P threads a row (the largest
/// power of two at most T / R, a warp, and dividing a stage row's 16-byte
/// pieces), each taking every P-th piece of every stage, combined by
/// shuffles; with fewer threads than rows, several rows a thread. A piece is
/// one 16-byte shared-memory load at the ring's swizzled offset (TMA's and
/// wgmma's: the chunk index XOR the 128-byte line). The rows' values go to the
/// derived scratch (row r at 4 r), the role meets, each thread reads its
/// columns (a 1 x R result: 8 j + 2 (lane % 4) + e) or rows (R x 1:
/// threadRow() + 8 h), and the role meets again before the scratch can be
/// rewritten.
LogicalResult KernelEmitter::emitSmemReduce(SmemReduceOp op) {
  FailureOr<FragInfo> out = fragInfo(op.getType(), op);
  if (failed(out))
    return failure();
  if (out->layout == FragLayout::Acc)
    return op.emitError("smem.reduce gives a 1 x R or R x 1 fragment");
  FailureOr<ScratchAttr> scratch = derived(op);
  if (failed(scratch))
    return failure();
  RingType rt = op.getSrc().getType();
  int64_t rows = rt.getShape()[0];
  Type elt = rt.getElementType();
  int64_t eltBytes = elt.getIntOrFloatBitWidth() / 8;
  int64_t pitch = rt.getShape()[1] * eltBytes;
  if (pitch % 16)
    return op.emitError("smem.reduce reads 16-byte pieces; a tile row of ")
           << pitch << " bytes is not lowered";
  int64_t pieces = pitch / 16;
  int64_t swizzleBits = swizzleBitsOf(rt.getSwizzle());
  const RingInfo &ring = rings[op.getSrc()];
  int64_t threads = role->role.getNumWarps() * 32;

  int64_t perRow = 1;
  if (threads >= rows)
    perRow = std::min<int64_t>(
        {int64_t(llvm::bit_floor(uint64_t(threads / rows))), 32,
         int64_t(1) << llvm::countr_zero(uint64_t(pieces))});
  int64_t slots = threads / perRow; // rows taken at once
  int64_t rowsPerThread = (rows + slots - 1) / slots;

  Type f32 = b.getF32Type();
  Value warpBase = arith::MulIOp::create(b, loc(), role->warpInRole, i32c(32));
  Value tidInRole = arith::AddIOp::create(b, loc(), warpBase, role->lane);
  Value part = arith::RemUIOp::create(b, loc(), tidInRole, i32c(perRow));
  Value identity = arith::ConstantOp::create(
      b, loc(),
      b.getF32FloatAttr(op.getKind() == ReduceKind::sum ? 0.0
                        : op.getKind() == ReduceKind::min
                            ? std::numeric_limits<float>::infinity()
                            : -std::numeric_limits<float>::infinity()));
  auto accumulate = [&](Value acc, Value v) -> Value {
    // A sum of squares as one fma a value (arith's mul and add lower with
    // explicit rounding, which ptxas does not contract).
    if (op.getSquared() && op.getKind() == ReduceKind::sum)
      return LLVM::FMAOp::create(b, loc(), v, v, acc);
    if (op.getSquared())
      v = arith::MulFOp::create(b, loc(), v, v);
    return combineFloats(op.getKind(), acc, v);
  };
  // The 32-bit words of a piece as fp32 values.
  auto widen = [&](Value word, SmallVectorImpl<Value> &vals) {
    if (elt.isF32()) {
      vals.push_back(arith::BitcastOp::create(b, loc(), f32, word));
    } else if (elt.isBF16()) {
      // bf16 is fp32's upper half.
      Value lo = arith::ShLIOp::create(b, loc(), word, i32c(16));
      Value hi = arith::AndIOp::create(b, loc(), word,
                                       i32c(static_cast<int32_t>(0xffff0000u)));
      vals.push_back(arith::BitcastOp::create(b, loc(), f32, lo));
      vals.push_back(arith::BitcastOp::create(b, loc(), f32, hi));
    } else {
      // f16: the word's two halves, widened.
      Value pair =
          LLVM::BitcastOp::create(b, loc(), VectorType::get({2}, elt), word);
      for (int64_t e = 0; e < 2; ++e) {
        Value h = LLVM::ExtractElementOp::create(b, loc(), pair, i32c(e));
        vals.push_back(arith::ExtFOp::create(b, loc(), f32, h));
      }
    }
  };
  auto pieceTy = VectorType::get({4}, b.getI32Type());

  for (int64_t i = 0; i < rowsPerThread; ++i) {
    // Threads past the last row (slots not dividing the rows) read the
    // last row and store nothing.
    Value slot = arith::DivUIOp::create(b, loc(), tidInRole, i32c(perRow));
    Value r = arith::AddIOp::create(b, loc(), slot, i32c(i * slots));
    Value row = r;
    Value active;
    if ((i + 1) * slots > rows) {
      row = arith::MinUIOp::create(b, loc(), r, i32c(rows - 1));
      active = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, r,
                                     i32c(rows));
    }
    Value rowBytes = arith::MulIOp::create(b, loc(), row, i32c(pitch));
    // One chain per 32-bit word of a piece: four short dependent chains
    // instead of one long one.
    Value acc[4] = {identity, identity, identity, identity};
    for (Value stage : op.getStages()) {
      Value stageOffset = arith::MulIOp::create(b, loc(), map.lookup(stage),
                                                i32c(ring.tileBytes));
      Value stageBase =
          arith::AddIOp::create(b, loc(), ringOffset(op.getSrc()), stageOffset);
      for (int64_t c = 0; c < pieces / perRow; ++c) {
        // One op a statement: the IR must not depend on the host
        // compiler's order of evaluating arguments.
        Value piece16 = arith::AddIOp::create(b, loc(), part, i32c(c * perRow));
        Value pieceBytes = arith::MulIOp::create(b, loc(), piece16, i32c(16));
        Value inTile = arith::AddIOp::create(b, loc(), rowBytes, pieceBytes);
        if (swizzleBits)
          inTile = swizzleOffset(inTile, swizzleBits);
        Value at = arith::AddIOp::create(b, loc(), stageBase, inTile);
        Value piece = LLVM::LoadOp::create(b, loc(), pieceTy, smemAt(at),
                                           /*alignment=*/16);
        for (int64_t w = 0; w < 4; ++w) {
          SmallVector<Value, 2> vals;
          widen(LLVM::ExtractElementOp::create(b, loc(), piece, i32c(w)), vals);
          for (Value v : vals)
            acc[w] = accumulate(acc[w], v);
        }
      }
    }
    Value acc01 = combineFloats(op.getKind(), acc[0], acc[1]);
    Value acc23 = combineFloats(op.getKind(), acc[2], acc[3]);
    Value total = combineFloats(op.getKind(), acc01, acc23);
    for (int64_t off = perRow / 2; off >= 1; off /= 2)
      total = combineFloats(op.getKind(), total,
                            quadShuffle(total, static_cast<int32_t>(off)));
    Value first = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                        part, i32c(0));
    Value writes =
        active ? arith::AndIOp::create(b, loc(), first, active) : first;
    auto store = scf::IfOp::create(b, loc(), writes, /*withElse=*/false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(store.thenBlock());
      Value rowAt = arith::MulIOp::create(b, loc(), row, i32c(4));
      Value at = arith::AddIOp::create(b, loc(), rowAt, scratchOffset(op));
      LLVM::StoreOp::create(b, loc(), total, smemAt(at));
    }
  }
  meetRole(scratchBarrier(op));

  Value res = LLVM::UndefOp::create(b, loc(), out->type);
  if (out->layout == FragLayout::Col) {
    Value quad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
    Value colBytes = arith::MulIOp::create(b, loc(), quad, i32c(8));
    Value base = arith::AddIOp::create(b, loc(), colBytes, scratchOffset(op));
    auto pairTy = VectorType::get({2}, f32);
    for (int64_t j = 0; j < rows / 8; ++j) {
      Value at = arith::AddIOp::create(b, loc(), base, i32c(32 * j));
      Value pair = LLVM::LoadOp::create(b, loc(), pairTy, smemAt(at),
                                        /*alignment=*/8);
      for (int64_t e = 0; e < 2; ++e)
        res = LLVM::InsertValueOp::create(
            b, loc(), res,
            LLVM::ExtractElementOp::create(b, loc(), pair, i32c(e)), 2 * j + e);
    }
  } else {
    Value row0 = threadRow();
    Value rowAt = arith::MulIOp::create(b, loc(), row0, i32c(4));
    Value base = arith::AddIOp::create(b, loc(), rowAt, scratchOffset(op));
    for (int64_t h = 0; h < 2; ++h) {
      Value at = arith::AddIOp::create(b, loc(), base, i32c(32 * h));
      res = LLVM::InsertValueOp::create(
          b, loc(), res, LLVM::LoadOp::create(b, loc(), f32, smemAt(at)), h);
    }
  }
  meetRole(scratchBarrier(op));
  map.map(op.getResult(), res);
  return success();
}
