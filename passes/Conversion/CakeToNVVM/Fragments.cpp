// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Fragments.cpp - Register fragments ---------------------------------===//
//
// Fragments live in the register layout of a wgmma accumulator of the role
// and become LLVM structs of their values per thread: an M x N fragment,
// a value per row (M x 1) or per column (1 x N). Maps are unrolled per
// value with broadcasts between layouts; row reductions and argmins
// combine a thread's values, then the four lanes of a quad by shuffles.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

std::optional<LogicalResult> KernelEmitter::emitFragmentOp(Operation &op) {
  if (auto z = dyn_cast<FragZeroOp>(op)) {
    FailureOr<FragInfo> info = fragInfo(z.getType(), z);
    if (failed(info))
      return failure();
    map.map(z.getResult(), LLVM::ZeroOp::create(b, loc(), info->type));
    return success();
  }
  if (auto sp = dyn_cast<FragSplatOp>(op)) {
    FailureOr<FragInfo> info = fragInfo(sp.getType(), sp);
    if (failed(info))
      return failure();
    map.map(sp.getResult(),
            splat(info->type, map.lookupOrDefault(sp.getValue())));
    return success();
  }
  if (auto io = dyn_cast<FragIotaOp>(op))
    return emitIota(io);
  if (auto m = dyn_cast<FragMapOp>(op))
    return emitFragMap(m);
  if (auto a = dyn_cast<FragArgminOp>(op))
    return emitArgmin(a);
  if (auto r = dyn_cast<FragReduceOp>(op))
    return emitReduce(r);
  if (auto sc = dyn_cast<FragScanOp>(op))
    return emitScan(sc);
  if (auto r = dyn_cast<FragRowOp>(op))
    return emitRow(r);
  if (auto c = dyn_cast<FragConvertOp>(op))
    return emitConvert(c);
  return std::nullopt;
}

LogicalResult KernelEmitter::emitConvert(FragConvertOp c) {
  FailureOr<FragInfo> from = fragInfo(c.getInput().getType(), c);
  FailureOr<FragInfo> toInfo = fragInfo(c.getType(), c);
  if (failed(from) || failed(toInfo))
    return failure();
  Type to = toInfo->type;
  Type dst = c.getType().getElementType();
  Type srcElt = c.getInput().getType().getElementType();
  bool narrow = srcElt.isF32() && (dst.isBF16() || dst.isF16());
  bool widen = (srcElt.isBF16() || srcElt.isF16()) && dst.isF32();
  if (!narrow && !widen)
    return c.emitError("frag.convert from ")
           << srcElt << " to " << dst << " is not lowered yet";
  Value in = map.lookup(c.getInput());
  Value out = LLVM::UndefOp::create(b, loc(), to);
  unsigned n = cast<LLVM::LLVMStructType>(to).getBody().size();
  for (unsigned i = 0; i < n; ++i) {
    Value v = LLVM::ExtractValueOp::create(b, loc(), in, i);
    Value t = narrow ? LLVM::FPTruncOp::create(b, loc(), dst, v).getResult()
                     : LLVM::FPExtOp::create(b, loc(), dst, v).getResult();
    out = LLVM::InsertValueOp::create(b, loc(), out, t, i);
  }
  map.map(c.getResult(), out);
  // A wgmma's A operand (the RS form) is packed here, where the IR
  // converts, and pinned by an operand fence: left to LLVM, the packing
  // sinks to the wgmma, and a loop-carried P then shares its registers
  // with the previous step's P, which the previous P V may still be
  // reading, so ptxas hoists that product's wait above the softmax.
  for (Operation *user : c.getResult().getUsers()) {
    auto mma = dyn_cast<MmaOp>(user);
    if (!mma || mma.getA() != c.getResult() || !mma.isAFromRegisters())
      continue;
    SmallVector<Value> regs;
    for (int64_t kk = 0; kk < mma.getK() / 16; ++kk)
      llvm::append_range(regs, packRegisterA(mma, kk));
    packedA[c.getResult()] = fenceOperands(regs);
    break;
  }
  return success();
}

FailureOr<FragInfo> KernelEmitter::fragInfo(FragType type, Operation *where) {
  // Fragments live in the register layout of a wgmma accumulator of the
  // role (M = 64 W rows over W warpgroups): thread (warpgroup g, warp w,
  // lane l) holds rows 64 g + 16 w + l/4 + 8 h, h in {0, 1}, and columns
  // 8 j + 2 (l % 4) + e, e in {0, 1}. An M x N fragment holds N / 2 values
  // (index 4 j + 2 h + e), an M x 1 "row" fragment the 2 rows (index h),
  // a 1 x N "column" fragment the N / 4 columns (index 2 j + e).
  if (!role || !role->role.getWarpgroups() || type.getRank() != 2)
    return where->emitError("register fragments are lowered in the wgmma "
                            "accumulator layout (rank 2, in a warpgroups "
                            "role) today");
  int64_t wgs = role->role.getNumWarps() / 4;
  int64_t m = type.getShape()[0], n = type.getShape()[1];
  FragInfo info;
  if (role->rowPerThread) {
    // tcgen05.ld's layout: each thread holds one row of 128.
    if (m == 128 && n == 1) {
      info.layout = FragLayout::LaneRow;
      info.count = 1;
    } else if (m == 1 && n % 8 == 0) {
      info.layout = FragLayout::LaneCol;
      info.count = n;
    } else if (m == 128 && n % 8 == 0) {
      info.layout = FragLayout::Lane;
      info.count = n;
    } else {
      return where->emitError("fragment ")
             << m << "x" << n
             << " has no register layout in a role holding a row a thread "
                "(expected 128xN, 128x1 or 1xN with N a multiple of 8)";
    }
  } else if (m == 1 && n % 8 == 0) {
    info.layout = FragLayout::Col;
    info.count = n / 4;
  } else if (m == 64 * wgs && n == 1) {
    info.layout = FragLayout::Row;
    info.count = 2;
  } else if (m == 64 * wgs && n % 8 == 0) {
    info.layout = FragLayout::Acc;
    info.count = n / 2;
  } else {
    return where->emitError("fragment ")
           << m << "x" << n << " has no register layout in a role of " << wgs
           << " warpgroups (expected " << 64 * wgs << "xN, " << 64 * wgs
           << "x1 or 1xN with N a multiple of 8)";
  }
  SmallVector<Type> elts(info.count, type.getElementType());
  info.type = LLVM::LLVMStructType::getLiteral(ctx, elts);
  return info;
}

FailureOr<Type> KernelEmitter::fragStructType(FragType type, Operation *where) {
  FailureOr<FragInfo> info = fragInfo(type, where);
  if (failed(info))
    return failure();
  if (info->layout != FragLayout::Acc)
    return where->emitError("expected an accumulator-shaped fragment here");
  return info->type;
}

Value KernelEmitter::splat(Type structType, Value v) {
  Value out = LLVM::UndefOp::create(b, loc(), structType);
  unsigned n = cast<LLVM::LLVMStructType>(structType).getBody().size();
  for (unsigned i = 0; i < n; ++i)
    out = LLVM::InsertValueOp::create(b, loc(), out, v, i);
  return out;
}

/// The element of an input of layout `in` that broadcasts to element `i` of
/// a result of layout `out`, or -1 if it does not broadcast.
static int64_t broadcastIndex(FragLayout out, FragLayout in, int64_t i) {
  if (in == out)
    return i;
  if (out == FragLayout::Acc && in == FragLayout::Row)
    return (i / 2) % 2;
  if (out == FragLayout::Acc && in == FragLayout::Col)
    return (i / 4) * 2 + i % 2;
  // A row a thread: the thread's row value, or column i of the line.
  if (out == FragLayout::Lane && in == FragLayout::LaneRow)
    return 0;
  if (out == FragLayout::Lane && in == FragLayout::LaneCol)
    return i;
  return -1;
}

LogicalResult KernelEmitter::emitFragMap(FragMapOp op) {
  SmallVector<FragInfo> ins;
  for (Value v : op.getInputs()) {
    FailureOr<FragInfo> info = fragInfo(cast<FragType>(v.getType()), op);
    if (failed(info))
      return failure();
    ins.push_back(*info);
  }
  SmallVector<FragInfo> outs;
  for (Value v : op.getResults()) {
    FailureOr<FragInfo> info = fragInfo(cast<FragType>(v.getType()), op);
    if (failed(info))
      return failure();
    outs.push_back(*info);
  }
  SmallVector<Value> results;
  for (const FragInfo &o : outs)
    results.push_back(LLVM::UndefOp::create(b, loc(), o.type));
  Block &body = op.getBody().front();
  for (int64_t i = 0; i < outs[0].count; ++i) {
    IRMapping scalar;
    for (auto [k, in] : llvm::enumerate(ins)) {
      int64_t j = broadcastIndex(outs[0].layout, in.layout, i);
      if (j < 0)
        return op.emitError("broadcast between these fragment layouts is "
                            "not lowered yet");
      scalar.map(body.getArgument(k),
                 LLVM::ExtractValueOp::create(
                     b, loc(), map.lookup(op.getInputs()[k]), j));
    }
    for (Operation &inner : body.without_terminator()) {
      for (Value v : inner.getOperands())
        if (!scalar.contains(v) && map.contains(v))
          scalar.map(v, map.lookup(v));
      // exp2 flushing denormals is one ex2.approx.ftz; NVPTX selects the
      // IEEE ex2.approx for llvm.exp2 whatever the function's mode.
      auto exp2 = dyn_cast<math::Exp2Op>(inner);
      if (exp2 && flushDenormals && exp2.getType().isF32()) {
        Value x = scalar.lookupOrDefault(exp2.getOperand());
        scalar.map(exp2.getResult(),
                   LLVM::CallIntrinsicOp::create(
                       b, loc(), b.getF32Type(),
                       b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f"),
                       ValueRange{x})
                       .getResult(0));
        continue;
      }
      Operation *copy = b.clone(inner, scalar);
      // Ops such as arith.extf and arith.truncf take fast-math flags but
      // may carry none.
      if (auto fm = dyn_cast<arith::ArithFastMathInterface>(copy);
          fm && fpContract) {
        arith::FastMathFlagsAttr had = fm.getFastMathFlagsAttr();
        arith::FastMathFlags flags =
            had ? had.getValue() : arith::FastMathFlags::none;
        copy->setAttr(fm.getFastMathAttrName(),
                      arith::FastMathFlagsAttr::get(
                          ctx, flags | arith::FastMathFlags::contract));
      }
    }
    auto yield = cast<FragYieldOp>(body.getTerminator());
    for (auto [r, v] : llvm::enumerate(yield.getValues()))
      results[r] = LLVM::InsertValueOp::create(b, loc(), results[r],
                                               scalar.lookupOrDefault(v), i);
  }
  for (auto [r, v] : llvm::zip(op.getResults(), results))
    map.map(r, v);
  return success();
}

/// Each element's row (an M x 1 fragment) or column (1 x N) plus `base`,
/// in the accumulator layout: thread (warpgroup g, warp w, lane l) holds
/// rows 64 g + 16 w + l / 4 + 8 h (h = 0, 1) and columns
/// 8 j + 2 (l % 4) + e (position 2 j + e).
LogicalResult KernelEmitter::emitIota(FragIotaOp op) {
  FailureOr<FragInfo> info = fragInfo(op.getType(), op);
  if (failed(info))
    return failure();
  if (info->layout == FragLayout::Acc || info->layout == FragLayout::Lane)
    return op.emitError("frag.iota makes one row or one column");
  Value base =
      op.getBase() ? toI32(map.lookupOrDefault(op.getBase())) : i32c(0);
  if (info->layout == FragLayout::LaneRow ||
      info->layout == FragLayout::LaneCol) {
    // The thread's row, or every column of the line.
    bool rowOne = info->layout == FragLayout::LaneRow;
    Value out = LLVM::UndefOp::create(b, loc(), info->type);
    for (int64_t i = 0; i < info->count; ++i) {
      Value at = rowOne ? laneRow() : i32c(int32_t(i));
      out = LLVM::InsertValueOp::create(
          b, loc(), out, arith::AddIOp::create(b, loc(), base, at), i);
    }
    map.map(op.getResult(), out);
    return success();
  }
  Value l = role->lane, first;
  if (info->layout == FragLayout::Row) {
    Value wg = arith::DivUIOp::create(b, loc(), role->warpInRole, i32c(4));
    Value w = arith::RemUIOp::create(b, loc(), role->warpInRole, i32c(4));
    Value wgRow = arith::MulIOp::create(b, loc(), wg, i32c(64));
    Value warpRow = arith::MulIOp::create(b, loc(), w, i32c(16));
    Value warpBase = arith::AddIOp::create(b, loc(), wgRow, warpRow);
    Value laneRow = arith::DivUIOp::create(b, loc(), l, i32c(4));
    first = arith::AddIOp::create(b, loc(), warpBase, laneRow);
  } else {
    Value quad = arith::RemUIOp::create(b, loc(), l, i32c(4));
    first = arith::MulIOp::create(b, loc(), quad, i32c(2));
  }
  first = arith::AddIOp::create(b, loc(), base, first);
  Value out = LLVM::UndefOp::create(b, loc(), info->type);
  for (int64_t i = 0; i < info->count; ++i) {
    int64_t offset = info->layout == FragLayout::Row ? 8 * i
                                                     : 8 * (i / 2) + i % 2;
    out = LLVM::InsertValueOp::create(
        b, loc(), out, arith::AddIOp::create(b, loc(), first, i32c(offset)),
        i);
  }
  map.map(op.getResult(), out);
  return success();
}

/// Butterfly-combines a per-quad partial over the 4 lanes sharing a row.
Value KernelEmitter::quadShuffle(Value v, int32_t offset) {
  return gpu::ShuffleOp::create(b, loc(), v, offset, 32, gpu::ShuffleMode::XOR)
      .getShuffleResult();
}

/// One thread's minimum of accumulator row half `h` (n columns) and its
/// column, for `cake.frag.argmin ... packed`: each value's low `bits`
/// mantissa bits are replaced by its position among the thread's n/4
/// columns (2j + e), so min.f32 alone compares and selects. The position
/// is decoded once after the row, and the bits are cleared from the value
/// so the quad merge compares the same truncated values in every lane.
/// min.f32 ignores the NaNs that packing +inf (a padded column) makes; a
/// thread whose columns are all padded gets +inf back.
std::pair<Value, Value> KernelEmitter::packedRowArgmin(Value acc, int64_t h,
                                                       int64_t n,
                                                       Value colBase) {
  int64_t positions = n / 4;
  int32_t bits = llvm::Log2_64_Ceil(std::max<int64_t>(positions, 2));
  int32_t low = (1 << bits) - 1;
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  // (raw & keep) | position is one LOP3 only if `keep` sits in a register:
  // with both constants as immediates ptxas emits two (the H200 SASS of
  // run 15a). colBase >> 31 is 0 (columns are i32 indices) but ptxas cannot
  // prove it, so the mask stays a register, computed once per argmin.
  Value highBits = i32c(~low);
  Value zero = arith::ShRUIOp::create(b, loc(), colBase, i32c(31));
  Value keep = arith::OrIOp::create(b, loc(), highBits, zero);
  Value best;
  for (int64_t j = 0; j < n / 8; ++j)
    for (int64_t e = 0; e < 2; ++e) {
      Value v = LLVM::ExtractValueOp::create(b, loc(), acc, 4 * j + 2 * h + e);
      Value raw = arith::BitcastOp::create(b, loc(), i32, v);
      Value kept = arith::AndIOp::create(b, loc(), raw, keep);
      Value packed =
          arith::OrIOp::create(b, loc(), kept, i32c(int32_t(2 * j + e)));
      Value p = arith::BitcastOp::create(b, loc(), f32, packed);
      best = best ? arith::MinNumFOp::create(b, loc(), best, p).getResult() : p;
    }
  Value raw = arith::BitcastOp::create(b, loc(), i32, best);
  Value pos = arith::AndIOp::create(b, loc(), raw, i32c(low));
  // Position 2j + e is column 8j + e of the thread's quad.
  Value pairIndex = arith::ShRUIOp::create(b, loc(), pos, i32c(1));
  Value pairCol = arith::ShLIOp::create(b, loc(), pairIndex, i32c(3));
  Value inPair = arith::AndIOp::create(b, loc(), pos, i32c(1));
  Value col = arith::AddIOp::create(b, loc(), pairCol, inPair);
  Value value = arith::BitcastOp::create(
      b, loc(), f32, arith::AndIOp::create(b, loc(), raw, keep));
  Value isNan = arith::CmpFOp::create(b, loc(), arith::CmpFPredicate::UNO,
                                      value, value);
  Value inf = arith::ConstantOp::create(
      b, loc(), b.getF32FloatAttr(std::numeric_limits<float>::infinity()));
  value = arith::SelectOp::create(b, loc(), isNan, inf, value);
  return {value, arith::AddIOp::create(b, loc(), colBase, col)};
}

LogicalResult KernelEmitter::emitArgmin(FragArgminOp op) {
  FailureOr<FragInfo> in = fragInfo(op.getInput().getType(), op);
  FailureOr<FragInfo> vo = fragInfo(op.getValues().getType(), op);
  FailureOr<FragInfo> io = fragInfo(op.getIndices().getType(), op);
  if (failed(in) || failed(vo) || failed(io))
    return failure();
  if (in->layout == FragLayout::Lane)
    return emitLaneArgmin(op);
  if (in->layout != FragLayout::Acc)
    return op.emitError("argmin of this fragment layout is not lowered yet");
  Type idxTy = op.getIndices().getType().getElementType();
  if (!idxTy.isInteger(32))
    return op.emitError("argmin indices are lowered as i32 today");
  Value acc = map.lookup(op.getInput());
  Value laneInQuad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
  Value quad = arith::MulIOp::create(b, loc(), laneInQuad, i32c(2));
  Value base =
      op.getBase() ? toI32(map.lookupOrDefault(op.getBase())) : i32c(0);
  Value colBase = arith::AddIOp::create(b, loc(), base, quad);
  Value vals = LLVM::UndefOp::create(b, loc(), vo->type);
  Value idxs = LLVM::UndefOp::create(b, loc(), io->type);
  int64_t n = op.getInput().getType().getShape()[1];
  for (int64_t h = 0; h < 2; ++h) {
    Value best, bestIdx;
    if (op.getPacked()) {
      std::tie(best, bestIdx) = packedRowArgmin(acc, h, n, colBase);
    } else {
      // The scan selects the column's constant offset in the quad's columns
      // (an immediate operand of SEL) and adds colBase once per row: the
      // column indices themselves would cost n/4 adds and as many registers
      // per argmin.
      Value bestOff;
      for (int64_t j = 0; j < n / 8; ++j)
        for (int64_t e = 0; e < 2; ++e) {
          Value v =
              LLVM::ExtractValueOp::create(b, loc(), acc, 4 * j + 2 * h + e);
          Value c = i32c(8 * j + e);
          if (!best) {
            best = v;
            bestOff = c;
            continue;
          }
          // Strictly less: the first (lowest) column wins ties.
          Value lt = arith::CmpFOp::create(b, loc(), arith::CmpFPredicate::OLT,
                                           v, best);
          best = arith::SelectOp::create(b, loc(), lt, v, best);
          bestOff = arith::SelectOp::create(b, loc(), lt, c, bestOff);
        }
      bestIdx = arith::AddIOp::create(b, loc(), colBase, bestOff);
    }
    for (int32_t off : {1, 2}) {
      Value ov = quadShuffle(best, off), oi = quadShuffle(bestIdx, off);
      Value lt =
          arith::CmpFOp::create(b, loc(), arith::CmpFPredicate::OLT, ov, best);
      Value eq =
          arith::CmpFOp::create(b, loc(), arith::CmpFPredicate::OEQ, ov, best);
      Value lower = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::slt,
                                          oi, bestIdx);
      Value take = arith::OrIOp::create(
          b, loc(), lt, arith::AndIOp::create(b, loc(), eq, lower));
      best = arith::SelectOp::create(b, loc(), take, ov, best);
      bestIdx = arith::SelectOp::create(b, loc(), take, oi, bestIdx);
    }
    vals = LLVM::InsertValueOp::create(b, loc(), vals, best, h);
    idxs = LLVM::InsertValueOp::create(b, loc(), idxs, bestIdx, h);
  }
  map.map(op.getValues(), vals);
  map.map(op.getIndices(), idxs);
  return success();
}

/// a (+) c for a row reduction or scan of floats: add, or min / max that
/// propagate NaN.
Value KernelEmitter::combineFloats(ReduceKind kind, Value a, Value c) {
  switch (kind) {
  case ReduceKind::sum:
    return arith::AddFOp::create(b, loc(), a, c);
  case ReduceKind::min:
    return arith::MinimumFOp::create(b, loc(), a, c);
  case ReduceKind::max:
    return arith::MaximumFOp::create(b, loc(), a, c);
  }
  return a;
}

LogicalResult KernelEmitter::emitReduce(FragReduceOp op) {
  FailureOr<FragInfo> in = fragInfo(op.getInput().getType(), op);
  FailureOr<FragInfo> out = fragInfo(op.getResult().getType(), op);
  if (failed(in) || failed(out))
    return failure();
  Type elt = op.getInput().getType().getElementType();
  if (in->layout == FragLayout::Lane && isa<FloatType>(elt))
    return emitLaneReduce(op);
  if (in->layout != FragLayout::Acc || !isa<FloatType>(elt))
    return op.emitError("this reduction is not lowered yet (float rows of an "
                        "accumulator-shaped fragment are)");
  auto combine = [&](Value a, Value c) {
    return combineFloats(op.getKind(), a, c);
  };
  Value acc = map.lookup(op.getInput());
  Value res = LLVM::UndefOp::create(b, loc(), out->type);
  int64_t n = op.getInput().getType().getShape()[1];
  for (int64_t h = 0; h < 2; ++h) {
    // The thread's values of the row, combined pairwise (a tree of depth
    // log2(n/4)): a serial chain would make every combine wait on the one
    // before it, which two warps per scheduler cannot hide.
    SmallVector<Value> level;
    for (int64_t j = 0; j < n / 8; ++j)
      for (int64_t e = 0; e < 2; ++e)
        level.push_back(
            LLVM::ExtractValueOp::create(b, loc(), acc, 4 * j + 2 * h + e));
    while (level.size() > 1) {
      SmallVector<Value> next;
      for (size_t i = 0; i + 1 < level.size(); i += 2)
        next.push_back(combine(level[i], level[i + 1]));
      if (level.size() % 2)
        next.push_back(level.back());
      level = std::move(next);
    }
    Value r = level.front();
    for (int32_t off : {1, 2})
      r = combine(r, quadShuffle(r, off));
    res = LLVM::InsertValueOp::create(b, loc(), res, r, h);
  }
  map.map(op.getResult(), res);
  return success();
}

/// The inclusive scan of each row. Thread (lane l, quad position
/// q = l % 4) holds, for each group j of eight columns, the pair at columns
/// 8j + 2q and 8j + 2q + 1 of its two rows. Per group: the pair is scanned
/// in place; the pairs' totals are scanned across the quad (Hillis-Steele,
/// shuffles from lanes l - 1 and l - 2); the lane before gives the
/// exclusive prefix, lane q = 3 the group's total, which carries into the
/// next group. 4 shuffles and about 10 combines or selects per pair.
LogicalResult KernelEmitter::emitScan(FragScanOp op) {
  FailureOr<FragInfo> info = fragInfo(op.getInput().getType(), op);
  if (failed(info))
    return failure();
  auto elt = dyn_cast<FloatType>(op.getInput().getType().getElementType());
  if (info->layout != FragLayout::Acc || !elt)
    return op.emitError("this scan is not lowered yet (float rows of an "
                        "accumulator-shaped fragment are)");
  auto combine = [&](Value a, Value c) {
    return combineFloats(op.getKind(), a, c);
  };
  const llvm::fltSemantics &sem = elt.getFloatSemantics();
  APFloat idv = op.getKind() == ReduceKind::sum ? APFloat::getZero(sem)
                : op.getKind() == ReduceKind::min
                    ? APFloat::getInf(sem)
                    : APFloat::getInf(sem, /*Negative=*/true);
  Value identity =
      arith::ConstantOp::create(b, loc(), elt, b.getFloatAttr(elt, idv));
  if (op.getDown())
    return emitScanDown(op, identity);
  Value lane = role->lane;
  Value q = arith::RemUIOp::create(b, loc(), lane, i32c(4));
  // Lane l - off of this quad (this lane where there is none: q < off),
  // and whether there is one; for off = 1, 2.
  Value has[3], src[3];
  for (int32_t off : {1, 2}) {
    has[off] = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::uge, q,
                                     i32c(off));
    src[off] = arith::SelectOp::create(
        b, loc(), has[off], arith::SubIOp::create(b, loc(), lane, i32c(off)),
        lane);
  }
  auto fromBefore = [&](Value v, int32_t off) {
    Value got = gpu::ShuffleOp::create(b, loc(), v, src[off], i32c(32),
                                       gpu::ShuffleMode::IDX)
                    .getShuffleResult();
    return std::pair(got, has[off]);
  };
  Value lastOfQuad = arith::OrIOp::create(b, loc(), lane, i32c(3));
  Value acc = map.lookup(op.getInput());
  Value res = acc;
  int64_t n = op.getInput().getType().getShape()[1];
  for (int64_t h = 0; h < 2; ++h) {
    Value running = identity;
    for (int64_t j = 0; j < n / 8; ++j) {
      int64_t k = 4 * j + 2 * h;
      Value v0 = LLVM::ExtractValueOp::create(b, loc(), acc, k);
      Value v1 = LLVM::ExtractValueOp::create(b, loc(), acc, k + 1);
      Value pair = combine(v0, v1);
      Value x = pair;
      for (int32_t off : {1, 2}) {
        auto [y, has] = fromBefore(x, off);
        x = arith::SelectOp::create(b, loc(), has, combine(y, x), x);
      }
      auto [before, has] = fromBefore(x, 1);
      Value base = combine(
          running, arith::SelectOp::create(b, loc(), has, before, identity));
      res = LLVM::InsertValueOp::create(b, loc(), res, combine(base, v0), k);
      res = LLVM::InsertValueOp::create(b, loc(), res, combine(base, pair),
                                        k + 1);
      Value total = gpu::ShuffleOp::create(b, loc(), x, lastOfQuad, i32c(32),
                                           gpu::ShuffleMode::IDX)
                        .getShuffleResult();
      running = combine(running, total);
    }
  }
  map.map(op.getResult(), res);
  return success();
}

/// Row i of the accumulator layout lives in warp (i / 16) of warpgroup
/// (i / 64), lanes 4 (i % 8) .. 4 (i % 8) + 3, values 4 j + 2 h + e with
/// h = (i % 16) / 8. Those four lanes store it to the derived scratch
/// (column 8 j + 2 (l % 4) + e at 4 bytes a column); the role's threads
/// meet on the derived named barrier; each reads its own columns
/// (value 2 j + e of a 1 x N fragment); they meet again so that the next
/// frag.row of the role cannot overwrite the scratch under a slow reader.
LogicalResult KernelEmitter::emitRow(FragRowOp op) {
  FailureOr<FragInfo> in = fragInfo(op.getInput().getType(), op);
  FailureOr<FragInfo> out = fragInfo(op.getType(), op);
  if (failed(in) || failed(out))
    return failure();
  if (in->layout != FragLayout::Acc || out->layout != FragLayout::Col)
    return op.emitError("frag.row is lowered from an accumulator-shaped "
                        "fragment to a 1 x N one");
  FailureOr<ScratchAttr> scratch = derived(op);
  if (failed(scratch))
    return failure();
  int64_t row = op.getRow(), n = op.getType().getShape()[1];
  int64_t ownerWarp = 4 * (row / 64) + (row % 64) / 16, h = (row % 16) / 8;
  Type elt = op.getType().getElementType();
  Value lane = role->lane;
  Value quad = arith::RemUIOp::create(b, loc(), lane, i32c(4));
  Value colBase = arith::MulIOp::create(b, loc(), quad, i32c(8));
  Value base = arith::AddIOp::create(b, loc(), colBase, scratchOffset(op));
  auto at = [&](int64_t j, int64_t e) {
    return smemAt(arith::AddIOp::create(b, loc(), base, i32c(4 * (8 * j + e))));
  };
  Value isWarp = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                       role->warpInRole, i32c(ownerWarp));
  Value isLanes = arith::CmpIOp::create(
      b, loc(), arith::CmpIPredicate::eq,
      arith::DivUIOp::create(b, loc(), lane, i32c(4)), i32c(row % 8));
  auto owner = scf::IfOp::create(
      b, loc(), arith::AndIOp::create(b, loc(), isWarp, isLanes),
      /*withElse=*/false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(owner.thenBlock());
    Value acc = map.lookup(op.getInput());
    for (int64_t j = 0; j < n / 8; ++j)
      for (int64_t e = 0; e < 2; ++e)
        LLVM::StoreOp::create(
            b, loc(),
            LLVM::ExtractValueOp::create(b, loc(), acc, 4 * j + 2 * h + e),
            at(j, e));
  }
  meetRole(scratchBarrier(op));
  Value res = LLVM::UndefOp::create(b, loc(), out->type);
  for (int64_t j = 0; j < n / 8; ++j)
    for (int64_t e = 0; e < 2; ++e)
      res = LLVM::InsertValueOp::create(
          b, loc(), res, LLVM::LoadOp::create(b, loc(), elt, at(j, e)),
          2 * j + e);
  meetRole(scratchBarrier(op));
  map.map(op.getResult(), res);
  return success();
}

/// bar.sync on `barrierId` for every thread of the role.
void KernelEmitter::meetRole(Value barrierId) {
  NVVM::BarrierOp::create(b, loc(), Type(), barrierId,
                          i32c(role->role.getNumWarps() * 32),
                          NVVM::BarrierReductionAttr(), Value());
}

/// Each column scanned down the rows. A thread holds rows r = l / 4 and
/// r + 8 (h = 0, 1) of its warp's 16, columns 8 j + 2 (l % 4) + e. Per
/// value: an inclusive scan over the 8 lanes of a column (l % 4 fixed) by
/// shuffles from l - 4, l - 8, l - 16; rows 8..15 then take rows 0..7's
/// total (lane 28 + l % 4). Each warp's column totals (its row 15) go to
/// the derived scratch, [warp][column], between two meetings of the
/// role's threads; every thread combines the totals of the warps before
/// its own (rows are ordered by the warp's index in the role) within its
/// segment. Segments of 16 rows end at the warp: no scratch, no meetings.
/// `reverse` mirrors every step: shuffles from l + 4, l + 8, l + 16, rows
/// 0..7 take rows 8..15's total (lane l % 4), a warp's total is its row 0,
/// and a warp combines the totals of the warps after it in its segment.
LogicalResult KernelEmitter::emitScanDown(FragScanOp op, Value identity) {
  bool rev = op.getReverse();
  auto combine = [&](Value a, Value c) {
    return combineFloats(op.getKind(), a, c);
  };
  Type elt = op.getInput().getType().getElementType();
  int64_t n = op.getInput().getType().getShape()[1];
  int64_t warps = role->role.getNumWarps();
  Value lane = role->lane;
  Value rowInGroup = arith::DivUIOp::create(b, loc(), lane, i32c(4));
  Value q = arith::RemUIOp::create(b, loc(), lane, i32c(4));
  Value has[3], src[3];
  for (int k = 0; k < 3; ++k) {
    int32_t off = 1 << k; // rows above (below, reversed), 4 lanes a row
    has[k] = rev ? arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                         rowInGroup, i32c(8 - off))
                 : arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::uge,
                                         rowInGroup, i32c(off));
    Value from =
        rev ? arith::AddIOp::create(b, loc(), lane, i32c(4 * off)).getResult()
            : arith::SubIOp::create(b, loc(), lane, i32c(4 * off)).getResult();
    src[k] = arith::SelectOp::create(b, loc(), has[k], from, lane);
  }
  // The lanes of the half's boundary row the other half takes its total
  // from: row 7 (lanes 28..31) forwards, row 8 (h = 1 of lanes 0..3)
  // reversed.
  Value edgeRowLane =
      rev ? q : arith::AddIOp::create(b, loc(), q, i32c(28)).getResult();
  auto shuffle = [&](Value v, Value from) {
    return gpu::ShuffleOp::create(b, loc(), v, from, i32c(32),
                                  gpu::ShuffleMode::IDX)
        .getShuffleResult();
  };
  Value acc = map.lookup(op.getInput());
  SmallVector<Value> x(n / 2);
  for (int64_t i = 0; i < n / 2; ++i)
    x[i] = LLVM::ExtractValueOp::create(b, loc(), acc, i);
  for (int64_t i = 0; i < n / 2; ++i)
    for (int k = 0; k < 3; ++k) {
      Value y = shuffle(x[i], src[k]);
      x[i] = arith::SelectOp::create(b, loc(), has[k], combine(y, x[i]), x[i]);
    }
  // Rows 8..15 (h = 1, values 4 j + 2 + e) after rows 0..7 (4 j + e);
  // reversed, rows 0..7 after rows 8..15.
  int64_t into = rev ? 0 : 2, from = rev ? 2 : 0;
  for (int64_t j = 0; j < n / 8; ++j)
    for (int64_t e = 0; e < 2; ++e) {
      Value edge = shuffle(x[4 * j + from + e], edgeRowLane);
      x[4 * j + into + e] = combine(edge, x[4 * j + into + e]);
    }
  if (!op.crossesWarps()) {
    Value res = LLVM::UndefOp::create(b, loc(), acc.getType());
    for (int64_t i = 0; i < n / 2; ++i)
      res = LLVM::InsertValueOp::create(b, loc(), res, x[i], i);
    map.map(op.getResult(), res);
    return success();
  }
  FailureOr<ScratchAttr> scratch = derived(op);
  if (failed(scratch))
    return failure();
  // Warp totals: row 15 (lanes 28..31, h = 1; reversed, row 0: lanes
  // 0..3, h = 0) into scratch[warp][column].
  Value colBytes = arith::MulIOp::create(b, loc(), q, i32c(8));
  Value warpBytes =
      arith::MulIOp::create(b, loc(), role->warpInRole, i32c(4 * n));
  Value mine = arith::AddIOp::create(
      b, loc(), arith::AddIOp::create(b, loc(), colBytes, warpBytes),
      scratchOffset(op));
  Value isTotalRow = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                           rowInGroup, i32c(rev ? 0 : 7));
  auto writer = scf::IfOp::create(b, loc(), isTotalRow, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(writer.thenBlock());
    for (int64_t j = 0; j < n / 8; ++j)
      for (int64_t e = 0; e < 2; ++e)
        LLVM::StoreOp::create(b, loc(), x[4 * j + into + e],
                              smemAt(arith::AddIOp::create(
                                  b, loc(), mine, i32c(4 * (8 * j + e)))));
  }
  meetRole(scratchBarrier(op));
  // The totals of the warps before this one in its segment (after it,
  // reversed), per column: warp w counts for warps w + 1 .. the end of w's
  // segment (its start .. w - 1).
  Value colBase = arith::AddIOp::create(b, loc(), colBytes, scratchOffset(op));
  SmallVector<Value> before(n / 4, identity);
  int64_t segWarps = op.getSegmentRows() / 16;
  for (int64_t w = 0; w < warps; ++w) {
    int64_t segStart = w / segWarps * segWarps;
    if (rev ? w == segStart : w == segStart + segWarps - 1)
      continue; // no other warp of its segment takes it
    Value earlier =
        rev ? arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                    role->warpInRole, i32c(w))
            : arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                    i32c(w), role->warpInRole);
    if (segWarps < warps)
      earlier = arith::AndIOp::create(
          b, loc(), earlier,
          rev ? arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::uge,
                                      role->warpInRole, i32c(segStart))
              : arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                      role->warpInRole,
                                      i32c(segStart + segWarps)));
    for (int64_t j = 0; j < n / 8; ++j)
      for (int64_t e = 0; e < 2; ++e) {
        Value t = LLVM::LoadOp::create(
            b, loc(), elt,
            smemAt(arith::AddIOp::create(b, loc(), colBase,
                                         i32c(4 * (w * n + 8 * j + e)))));
        Value &p = before[2 * j + e];
        p = arith::SelectOp::create(b, loc(), earlier, combine(p, t), p);
      }
  }
  meetRole(scratchBarrier(op));
  Value res = LLVM::UndefOp::create(b, loc(), acc.getType());
  for (int64_t i = 0; i < n / 2; ++i) {
    int64_t j = i / 4, e = i % 2;
    res = LLVM::InsertValueOp::create(b, loc(), res,
                                      combine(before[2 * j + e], x[i]), i);
  }
  map.map(op.getResult(), res);
  return success();
}
