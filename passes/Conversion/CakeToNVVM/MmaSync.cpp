// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- MmaSync.cpp - cake.mma mma_sync: ldmatrix and mma.sync -------------===//
//
// cake.mma mma_sync becomes, in each warp of the role's warpgroups,
// mma.sync.m16n8k16 instructions over its 16 rows of the warpgroup's 64,
// their operands read from the ring stages with ldmatrix under the ring's
// swizzle. The accumulator keeps the wgmma layout: warp w of a warpgroup
// holds rows 16 w .. 16 w + 15, and the four values of n8 block j (values
// 4 j .. 4 j + 3) are exactly the C fragment of an m16n8 mma.sync (rows
// g and g + 8, columns 2 (l % 4) + {0, 1}; PTX ISA, "Matrix fragments for
// mma.m16n8k16"). So fragment math, stores, top-k lists and the epilogue
// are the same on sm_80 as on sm_90a. mma.sync is synchronous: no group
// stays in flight and a stage is free as soon as the op has run.
//
// The operand forms are wgmma's: an mn_major ring operand is read with
// ldmatrix .trans, and a register A fragment (the RS form) is already
// mma.sync's A fragment once packed, so attention's P V and KDA's chained
// products need no shared-memory round trip on sm_80 either.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "cake/Verify/Checks.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

/// The shared-memory address a lane gives ldmatrix: row `row` (i32, in the
/// stage's tile) and the 16-byte chunk `chunk` (i32) of that row, under
/// the ring's swizzle (as TMA and cake.cp_async.load wrote it).
Value KernelEmitter::ldmatrixRowAddress(Value stageBase, int64_t rowBytes,
                                        int64_t swizzleBits, Value row,
                                        Value chunk) {
  Value rowOff = arith::MulIOp::create(b, loc(), row, i32c(rowBytes));
  Value chunkOff = arith::MulIOp::create(b, loc(), chunk, i32c(16));
  Value inTile = arith::AddIOp::create(b, loc(), rowOff, chunkOff);
  Value swizzled = swizzleOffset(inTile, swizzleBits);
  return smemAt(arith::AddIOp::create(b, loc(), stageBase, swizzled));
}

LogicalResult KernelEmitter::emitMmaSync(MmaOp op) {
  FailureOr<Type> accTy = fragStructType(op.getAcc().getType(), op);
  if (failed(accTy))
    return failure();
  Type in = op.getAElementType();
  // The verifier admits only these (hw.arch-feature); a hand-built module
  // that skipped it still gets an error, not wrong code.
  if (!(in.isBF16() || in.isF16()) ||
      !op.getAcc().getType().getElementType().isF32())
    return op.emitError("mma_sync is lowered for f16 and bf16 operands into "
                        "f32 accumulators");
  FailureOr<WgmmaLayoutAttr> fields = derived(op);
  if (failed(fields))
    return failure();
  int64_t wgRows = fields->getWgRows();
  if (wgRows != 64)
    return op.emitError("mma_sync keeps the wgmma accumulator layout: 64 "
                        "rows a warpgroup, got ")
           << wgRows;
  int64_t n = op.getN(), k = op.getK();
  bool registerA = op.isAFromRegisters();
  bool aTrans = op.getAMnMajor(), bTrans = op.getMnMajor();
  RingType at = op.getARing(), bt = op.getB().getType();
  int64_t eltBytes = getElementBytes(in);
  int64_t aRowBytes = registerA ? 0 : at.getShape()[1] * eltBytes;
  int64_t bRowBytes = bt.getShape()[1] * eltBytes;
  int64_t aBits = registerA ? 0 : swizzleBitsOf(at.getSwizzle());
  int64_t bBits = swizzleBitsOf(bt.getSwizzle());

  // Every value below is created one statement at a time: the lowered IR
  // must not depend on the order a C++ compiler evaluates arguments in.
  // This warp's 16 rows of A: its warpgroup's block of wgRows, then 16 a
  // warp in the warpgroup.
  Value wg = arith::DivUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value warpInWg = arith::RemUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value wgFirst = arith::MulIOp::create(b, loc(), wg, i32c(wgRows));
  Value warpFirst = arith::MulIOp::create(b, loc(), warpInWg, i32c(16));
  Value rowBase = arith::AddIOp::create(b, loc(), wgFirst, warpFirst);
  Value lane = role->lane;

  auto stageBase = [&](Value ring, Value stage) {
    const RingInfo &info = rings[ring];
    Value offset = ringOffset(ring);
    Value within = arith::MulIOp::create(b, loc(), map.lookup(stage),
                                         i32c(info.tileBytes));
    return arith::AddIOp::create(b, loc(), offset, within).getResult();
  };
  Value aBase = registerA ? Value() : stageBase(op.getA(), op.getAStage());
  Value bBase = stageBase(op.getB(), op.getBStage());

  // Lane l gives ldmatrix the address of row r = l % 8 of matrix q = l / 8.
  Value q = arith::DivUIOp::create(b, loc(), lane, i32c(8));
  Value r8 = arith::RemUIOp::create(b, loc(), lane, i32c(8));
  Value qLow = arith::RemUIOp::create(b, loc(), q, i32c(2));
  Value qHigh = arith::DivUIOp::create(b, loc(), q, i32c(2));
  Value qLow8 = arith::MulIOp::create(b, loc(), qLow, i32c(8));
  Value qHigh8 = arith::MulIOp::create(b, loc(), qHigh, i32c(8));
  Value rPlusLow = arith::AddIOp::create(b, loc(), r8, qLow8);
  Value rPlusHigh = arith::AddIOp::create(b, loc(), r8, qHigh8);
  // A's matrices are a0..a3 of mma.m16n8k16: (rows 0-7, k 0-7), (rows
  // 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15). K-major (.x4):
  // matrix q's rows are the warp's rows 8 (q % 2) + r, at chunk q / 2 of
  // the slice. MN-major (.x4.trans; a K x 64 tile, one warpgroup's rows):
  // its rows are k = 8 (q / 2) + r of the slice, at the chunk of the warp's
  // rows 8 (q % 2) on.
  Value aRowOrK, aChunkOff;
  if (aTrans) {
    aRowOrK = rPlusHigh;
    Value warpChunk = arith::MulIOp::create(b, loc(), warpInWg, i32c(2));
    aChunkOff = arith::AddIOp::create(b, loc(), warpChunk, qLow);
  } else if (!registerA) {
    aRowOrK = arith::AddIOp::create(b, loc(), rowBase, rPlusLow);
    aChunkOff = qHigh;
  }
  // B's matrices for a pair of n8 blocks (j, j + 1) are b0, b1 of block j,
  // then of block j + 1: (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7),
  // (n 8-15, k 8-15). K-major (.x4): matrix q's rows are n = 8 (q / 2) + r
  // at chunk q % 2 of the slice. MN-major (.x4.trans; a K x N tile): its
  // rows are k = 8 (q % 2) + r of the slice, at n-chunk j + q / 2. An odd
  // last block takes .x2 (lanes 0-15).
  Value bRowOrK = bTrans ? rPlusLow : rPlusHigh;
  Value bChunkOff = bTrans ? qHigh : qLow;

  Type i32 = b.getI32Type();
  auto shape = NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8);
  auto ldmatrix = [&](Value base, int64_t rowBytes, int64_t bits, Value row,
                      Value chunk, int64_t num, bool trans) {
    Value addr = ldmatrixRowAddress(base, rowBytes, bits, row, chunk);
    Type res = num == 1 ? i32
                        : LLVM::LLVMStructType::getLiteral(
                              ctx, SmallVector<Type>(num, i32));
    Value v = NVVM::LdMatrixOp::create(b, loc(), res, addr, num,
                                       trans ? NVVM::MMALayout::col
                                             : NVVM::MMALayout::row,
                                       shape, NVVM::LdStMatrixEltType::B16);
    SmallVector<Value> regs;
    for (int64_t i = 0; i < num; ++i)
      regs.push_back(LLVM::ExtractValueOp::create(b, loc(), v, i));
    return regs;
  };
  // f16 operands travel as vector<2xf16>, bf16 as i32 (NVVM's mma.sync).
  Type f16x2 = VectorType::get({2}, b.getF16Type());
  auto operand = [&](Value r) {
    return in.isF16() ? LLVM::BitcastOp::create(b, loc(), f16x2, r).getResult()
                      : r;
  };
  NVVM::MMATypes ptxType =
      in.isF16() ? NVVM::MMATypes::f16 : NVVM::MMATypes::bf16;
  Type f32 = b.getF32Type();
  Type cTy = LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});

  // A register fragment (the RS form) is in the accumulator layout, whose
  // values 8 kk .. 8 kk + 7, packed in pairs, are a0..a3 of slice kk:
  // wgmma's A registers and mma.sync's alike (packRegisterA).
  SmallVector<Value> aRegs;
  if (registerA) {
    auto packed = packedA.find(op.getA());
    if (packed != packedA.end())
      aRegs = packed->second;
    else
      for (int64_t kk = 0; kk < k / 16; ++kk)
        llvm::append_range(aRegs, packRegisterA(op, kk));
  }

  Value acc = map.lookup(op.getAcc());
  int64_t blocks = n / 8;
  for (int64_t kk = 0; kk < k / 16; ++kk) {
    SmallVector<Value> a;
    if (registerA) {
      a.assign(aRegs.begin() + 4 * kk, aRegs.begin() + 4 * kk + 4);
    } else if (aTrans) {
      Value kRow = arith::AddIOp::create(b, loc(), i32c(16 * kk), aRowOrK);
      a = ldmatrix(aBase, aRowBytes, aBits, kRow, aChunkOff, 4, true);
    } else {
      Value chunk = arith::AddIOp::create(b, loc(), i32c(2 * kk), aChunkOff);
      a = ldmatrix(aBase, aRowBytes, aBits, aRowOrK, chunk, 4, false);
    }
    // negate (acc - A Bᵀ): A's sign bits flipped, two 16-bit values a
    // register; exact, as wgmma's scale-a of -1 is.
    if (op.getNegate())
      for (Value &r : a)
        r = arith::XOrIOp::create(b, loc(), r, i32c(int32_t(0x80008000u)));
    for (Value &r : a)
      r = operand(r);
    for (int64_t j = 0; j < blocks; j += 2) {
      int64_t num = j + 1 < blocks ? 4 : 2;
      Value row, chunk;
      if (bTrans) {
        row = arith::AddIOp::create(b, loc(), i32c(16 * kk), bRowOrK);
        chunk = arith::AddIOp::create(b, loc(), i32c(j), bChunkOff);
      } else {
        row = arith::AddIOp::create(b, loc(), i32c(8 * j), bRowOrK);
        chunk = arith::AddIOp::create(b, loc(), i32c(2 * kk), bChunkOff);
      }
      SmallVector<Value> bRegs =
          ldmatrix(bBase, bRowBytes, bBits, row, chunk, num, bTrans);
      for (int64_t jj = j; jj < j + num / 2; ++jj) {
        SmallVector<Value> c;
        for (int64_t e = 0; e < 4; ++e)
          c.push_back(LLVM::ExtractValueOp::create(b, loc(), acc, 4 * jj + e));
        Value b0 = operand(bRegs[2 * (jj - j)]);
        Value b1 = operand(bRegs[2 * (jj - j) + 1]);
        Value d = NVVM::MmaOp::create(
            b, loc(), cTy, a, ValueRange{b0, b1}, c,
            ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
            std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                           NVVM::MMALayout::col});
        for (int64_t e = 0; e < 4; ++e) {
          Value v = LLVM::ExtractValueOp::create(b, loc(), d, e);
          acc = LLVM::InsertValueOp::create(b, loc(), acc, v, 4 * jj + e);
        }
      }
    }
  }
  map.map(op.getResult(), acc);
  return success();
}
