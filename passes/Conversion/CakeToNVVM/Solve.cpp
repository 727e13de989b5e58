// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Solve.cpp - Triangular solves of register fragments ----------------===//
//
// cake.frag.tril_inverse: T = (I + L)⁻¹ for the strictly lower triangle L
// of a 64 x 64 fp32 fragment, by forward substitution in fp32 through the
// op's derived shared-memory scratch X (64 rows of kTrilInverseStride
// floats). The steps, between meetings of the role's threads on the
// derived named barrier:
//
//  1. every thread stores its accumulator values: X = L (as given);
//  2. threads 0..63 invert the four 16 x 16 diagonal blocks, one column c
//     of block b each (D_b = (I + L_bb)⁻¹), and store D_b's strictly lower
//     part transposed into the block's unused upper triangle;
//  3. column j of T (16 w + l % 16 for lane l of warp w) is solved by the
//     two lanes l and l ^ 16, each for eight rows of every block:
//     T_b = −D_b · Σ_{k < 16 b} L_bk T_k for the blocks below j's, D_b's
//     column for j's own, zero above; the lanes exchange their rows by
//     shuffles, so both hold the column;
//  4. T goes back to X over L, and every thread reads its values in the
//     accumulator layout; a last meeting keeps the next use of the scratch
//     (the op in a loop) from overwriting it under a slow reader.
//
// With `diagonal`, steps 1 and 2, then every thread reads D = the block
// inverses in the accumulator layout (zero off the blocks) and the role
// meets once more: three meetings.
//
// Every product is an fp32 FMA: the solve is as exact as fla's and
// FlashKDA's references, with no tensor-core rounding. Ops are created one
// argument at a time, so the IR does not depend on the host compiler's
// order of evaluating a call's arguments.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "cake/Analysis/KernelLayout.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

std::optional<LogicalResult> KernelEmitter::emitSolveOp(Operation &op) {
  if (auto inverse = dyn_cast<FragTrilInverseOp>(op))
    return emitTrilInverse(inverse);
  return std::nullopt;
}

LogicalResult KernelEmitter::emitTrilInverse(FragTrilInverseOp op) {
  FailureOr<FragInfo> info = fragInfo(op.getType(), op);
  if (failed(info))
    return failure();
  if (info->layout != FragLayout::Acc || role->role.getNumWarps() != 4)
    return op.emitError("frag.tril_inverse is lowered for a 64 x 64 "
                        "fragment of a one-warpgroup role");
  FailureOr<ScratchAttr> scratch = derived(op);
  if (failed(scratch))
    return failure();
  constexpr int64_t n = kTrilInverseRows, blocks = n / 16;
  constexpr int64_t rowBytes = kTrilInverseStride * 4;
  Type f32 = b.getF32Type();
  Type vec4 = VectorType::get({4}, f32);
  Value zero = arith::ConstantOp::create(b, loc(), b.getF32FloatAttr(0.0f));
  Value one = arith::ConstantOp::create(b, loc(), b.getF32FloatAttr(1.0f));
  Value warp = role->warpInRole, lane = role->lane;

  // Byte offsets: X[row][col] at base + row * rowBytes + col * 4.
  auto add = [&](Value a, int64_t c) {
    return arith::AddIOp::create(b, loc(), a, i32c(c)).getResult();
  };
  auto mul = [&](Value a, int64_t c) {
    return arith::MulIOp::create(b, loc(), a, i32c(c)).getResult();
  };
  auto load = [&](Value offset) {
    return LLVM::LoadOp::create(b, loc(), f32, smemAt(offset)).getResult();
  };
  // Four floats at a 16-byte aligned offset (a row's k..k+3).
  auto load4 = [&](Value offset, SmallVectorImpl<Value> &out) {
    Value v = LLVM::LoadOp::create(b, loc(), vec4, smemAt(offset), 16);
    for (int64_t e = 0; e < 4; ++e)
      out.push_back(LLVM::ExtractElementOp::create(b, loc(), v, i32c(e)));
  };
  auto store = [&](Value v, Value offset) {
    LLVM::StoreOp::create(b, loc(), v, smemAt(offset));
  };
  auto fma = [&](Value x, Value y, Value acc) {
    return LLVM::FMAOp::create(b, loc(), x, y, acc).getResult();
  };
  auto eq = [&](Value a, int64_t c) {
    return arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, a, i32c(c))
        .getResult();
  };
  auto select = [&](Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc(), c, x, y).getResult();
  };
  Value base = scratchOffset(op);

  // 1. X = L, from the accumulator layout: value 4 jj + 2 hh + e is row
  // 16 w + l / 4 + 8 hh, column 8 jj + 2 (l % 4) + e.
  Value laneRow = arith::DivUIOp::create(b, loc(), lane, i32c(4));
  Value laneCol = mul(arith::RemUIOp::create(b, loc(), lane, i32c(4)), 8);
  Value accRow = arith::AddIOp::create(b, loc(), mul(warp, 16), laneRow);
  Value laneBase = arith::AddIOp::create(b, loc(), base, laneCol);
  Value accBase =
      arith::AddIOp::create(b, loc(), mul(accRow, rowBytes), laneBase);
  auto accOffset = [&](int64_t index) {
    int64_t jj = index / 4, hh = (index / 2) % 2, e = index % 2;
    return add(accBase, 8 * hh * rowBytes + 4 * (8 * jj + e));
  };
  Value input = map.lookup(op.getInput());
  for (int64_t i = 0; i < info->count; ++i) {
    Value v = LLVM::ExtractValueOp::create(b, loc(), input, i);
    store(v, accOffset(i));
  }
  meetRole(scratchBarrier(op));

  // 2. Thread 16 b + c (< 64) solves column c of (I + L_bb) x = e_c by
  // forward substitution: x_i = −Σ_{k<i} L_ik x_k below c (the x_k above c
  // are zero, so the sum runs over every k < i), 1 at c.
  Value thread = arith::AddIOp::create(b, loc(), mul(warp, 32), lane);
  auto diagonal = scf::IfOp::create(
      b, loc(),
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, thread,
                            i32c(64)),
      /*withElse=*/false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(diagonal.thenBlock());
    Value blk = arith::DivUIOp::create(b, loc(), thread, i32c(16));
    Value c = arith::RemUIOp::create(b, loc(), thread, i32c(16));
    // X[16 b][16 b]
    Value blockBase =
        arith::AddIOp::create(b, loc(), mul(blk, 16 * rowBytes + 16 * 4), base);
    SmallVector<Value> x;
    for (int64_t i = 0; i < 16; ++i) {
      SmallVector<Value> row;
      for (int64_t k = 0; k < i; k += 4)
        load4(add(blockBase, i * rowBytes + 4 * k), row);
      Value s = zero;
      for (int64_t k = 0; k < i; ++k)
        s = fma(row[k], x[k], s);
      Value neg = arith::NegFOp::create(b, loc(), s);
      x.push_back(select(eq(c, i), one, neg));
    }
    // D_b's column c below the diagonal, into row c above it.
    Value rowC = arith::AddIOp::create(b, loc(), blockBase, mul(c, rowBytes));
    for (int64_t i = 1; i < 16; ++i) {
      auto below = scf::IfOp::create(
          b, loc(),
          arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, c,
                                i32c(i)),
          /*withElse=*/false);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(below.thenBlock());
      store(x[i], add(rowC, 4 * i));
    }
  }
  meetRole(scratchBarrier(op));

  // `diagonal`: D itself, read in the accumulator layout. Warp w holds rows
  // 16 w.. (block w), so value i lies in the diagonal block when its column
  // block jj / 2 is w; there, D[ri][ci] below the diagonal sits transposed
  // at X[16 w + ci][16 w + ri] (step 2).
  if (op.getDiagonal()) {
    Value blockBase = arith::AddIOp::create(
        b, loc(), mul(warp, 16 * rowBytes + 16 * 4), base);
    Value result = LLVM::UndefOp::create(b, loc(), info->type);
    for (int64_t i = 0; i < info->count; ++i) {
      int64_t jj = i / 4, hh = (i / 2) % 2, e = i % 2;
      Value ri = add(laneRow, 8 * hh);
      Value ci = add(mul(arith::RemUIOp::create(b, loc(), lane, i32c(4)), 2),
                     8 * (jj % 2) + e);
      Value at = arith::AddIOp::create(b, loc(), blockBase, mul(ci, rowBytes));
      at = arith::AddIOp::create(b, loc(), at, mul(ri, 4));
      Value v = load(at);
      Value lower =
          arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, ci, ri);
      Value onDiag =
          arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, ci, ri);
      v = select(lower, v, select(onDiag, one, zero));
      v = select(eq(warp, jj / 2), v, zero);
      result = LLVM::InsertValueOp::create(b, loc(), result, v, i);
    }
    meetRole(scratchBarrier(op));
    map.map(op.getResult(), result);
    return success();
  }

  // 3. Column j = 16 w + c of T on lanes c and c + 16 (h = l / 16): rows
  // 16 bi + 8 h + ii of every block bi.
  Value c = arith::RemUIOp::create(b, loc(), lane, i32c(16));
  Value h = arith::DivUIOp::create(b, loc(), lane, i32c(16));
  Value upper = eq(h, 1);
  Value half = mul(h, 8);
  auto exchange = [&](ArrayRef<Value> mine, SmallVectorImpl<Value> &full) {
    SmallVector<Value> other;
    for (Value v : mine)
      other.push_back(
          gpu::ShuffleOp::create(b, loc(), v, 16, 32, gpu::ShuffleMode::XOR)
              .getShuffleResult());
    for (int64_t m = 0; m < 16; ++m) {
      Value own = mine[m % 8], theirs = other[m % 8];
      full.push_back(m < 8 ? select(upper, theirs, own)
                           : select(upper, own, theirs));
    }
  };
  SmallVector<Value> t;           // column j of T, rows 0..63
  SmallVector<Value> mineByBlock; // rows 16 bi + 8 h + ii, block by block
  for (int64_t bi = 0; bi < blocks; ++bi) {
    // r = Σ_{k < 16 bi} L[16 bi + i][k] t_k for this lane's eight rows.
    Value rowsBase = add(mul(half, rowBytes), 16 * bi * rowBytes);
    rowsBase = arith::AddIOp::create(b, loc(), rowsBase, base);
    SmallVector<Value> r;
    for (int64_t ii = 0; ii < 8; ++ii) {
      Value s = zero;
      for (int64_t k = 0; k < 16 * bi; k += 4) {
        SmallVector<Value> l4;
        load4(add(rowsBase, ii * rowBytes + 4 * k), l4);
        for (int64_t e = 0; e < 4; ++e)
          s = fma(l4[e], t[k + e], s);
      }
      r.push_back(s);
    }
    // The first block has nothing above it: r is zero, nothing to trade.
    SmallVector<Value> rFull;
    if (bi == 0)
      rFull.assign(16, zero);
    else
      exchange(r, rFull);
    // u = −D_bi · r for rows i = 8 h + ii, with D[i][c'] = X[16 bi + c']
    // [16 bi + i] below the diagonal (c' < i) and 1 on it.
    Value dBase = add(mul(half, 4), 16 * bi * rowBytes + 64 * bi);
    dBase = arith::AddIOp::create(b, loc(), dBase, base);
    SmallVector<SmallVector<Value>> dRows(16);
    for (int64_t cc = 0; bi > 0 && cc < 15; ++cc) {
      load4(add(dBase, cc * rowBytes), dRows[cc]);
      load4(add(dBase, cc * rowBytes + 16), dRows[cc]);
    }
    // D's column for the lanes of j's own block: X[16 bi + c][16 bi + i].
    Value colBase = arith::AddIOp::create(b, loc(), dBase, mul(c, rowBytes));
    Value ownBlock = eq(warp, bi);
    Value below = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                        warp, i32c(bi));
    SmallVector<Value> mine;
    for (int64_t ii = 0; ii < 8; ++ii) {
      Value s = r[ii];
      // The first block is never below j's: no solve there.
      for (int64_t cc = 0; bi > 0 && cc < 8 + ii; ++cc) {
        Value d = dRows[cc][ii];
        // c' < ii lies below the diagonal for both halves; ii <= c' < 8 + ii
        // only for the lower half's rows (h = 1).
        if (cc >= ii)
          d = select(upper, d, zero);
        s = fma(d, rFull[cc], s);
      }
      Value u = arith::NegFOp::create(b, loc(), s);
      Value i = arith::AddIOp::create(b, loc(), half, i32c(ii));
      Value isBelow =
          arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ugt, i, c);
      Value dc = select(isBelow, load(add(colBase, 4 * ii)), zero);
      dc = select(
          arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, i, c), one,
          dc);
      // Zero above j's block, D's column in it, the solve below it.
      mine.push_back(select(below, u, select(ownBlock, dc, zero)));
    }
    exchange(mine, t);
    llvm::append_range(mineByBlock, mine);
  }
  meetRole(scratchBarrier(op));

  // 4. T into X (each lane its eight rows of every block), then read back
  // in the accumulator layout.
  Value j = arith::AddIOp::create(b, loc(), mul(warp, 16), c);
  Value halfBase = arith::AddIOp::create(b, loc(), mul(half, rowBytes), base);
  Value colJ = arith::AddIOp::create(b, loc(), mul(j, 4), halfBase);
  for (int64_t bi = 0; bi < blocks; ++bi)
    for (int64_t ii = 0; ii < 8; ++ii)
      store(mineByBlock[8 * bi + ii], add(colJ, (16 * bi + ii) * rowBytes));
  meetRole(scratchBarrier(op));
  Value result = LLVM::UndefOp::create(b, loc(), info->type);
  for (int64_t i = 0; i < info->count; ++i)
    result =
        LLVM::InsertValueOp::create(b, loc(), result, load(accOffset(i)), i);
  meetRole(scratchBarrier(op));
  map.map(op.getResult(), result);
  return success();
}
