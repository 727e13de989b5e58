// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- TopK.cpp - Per-row top-k lists in registers ------------------------===//
//
// A !cake.topk<R x k x f32> becomes, per thread, the sorted k best (value,
// index) pairs of the columns the thread holds of each of its two rows in
// the accumulator layout: an LLVM struct {v0[k], i0[k], v1[k], i1[k]}.
// The four lists of a row together hold the row's k best (each may hold
// entries the row's list will not). topk.insert compares each candidate
// with the least k-th value of the four and inserts only those that pass,
// in a loop over a bit mask, so a tile past the first few costs about one
// comparison a value (with `indices`, the candidates' indices come from a
// fragment: the merge of corpus splits). topk.store merges the four lists
// of a row (the threads of a quad) by shuffles, then stores, to [rows, k]
// or to a slot of [rows, S, k].
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

std::optional<LogicalResult> KernelEmitter::emitTopKOp(Operation &op) {
  if (auto init = dyn_cast<TopKInitOp>(op))
    return emitTopKInit(init);
  if (auto insert = dyn_cast<TopKInsertOp>(op))
    return emitTopKInsert(insert);
  if (auto store = dyn_cast<TopKStoreOp>(op))
    return emitTopKStore(store);
  if (auto admits = dyn_cast<TopKAdmitsOp>(op))
    return emitSharedTopKAdmits(admits);
  return std::nullopt;
}

FailureOr<Type> KernelEmitter::topkStructType(TopKType type, Operation *where) {
  if (!role || !role->role.getWarpgroups())
    return where->emitError("top-k lists live in the registers of a "
                            "warpgroups role");
  int64_t rows = 64 * (role->role.getNumWarps() / 4);
  if (type.getRows() != rows)
    return where->emitError("a top-k list of ")
           << type.getRows() << " rows in a role of " << rows
           << " accumulator rows";
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  SmallVector<Type> elts;
  if (type.getShared()) // TopKShared.cpp: {v, i, slot} x 2, base
    return Type(LLVM::LLVMStructType::getLiteral(
        ctx, {f32, i32, i32, f32, i32, i32, i32}));
  for (int64_t h = 0; h < 2; ++h) {
    elts.append(type.getK(), f32);
    elts.append(type.getK(), i32);
  }
  return Type(LLVM::LLVMStructType::getLiteral(ctx, elts));
}

KernelEmitter::RowList KernelEmitter::extractRowList(Value lists, int64_t k,
                                                     int64_t h) {
  RowList l;
  for (int64_t s = 0; s < k; ++s)
    l.values.push_back(
        LLVM::ExtractValueOp::create(b, loc(), lists, (2 * h) * k + s));
  for (int64_t s = 0; s < k; ++s)
    l.indices.push_back(
        LLVM::ExtractValueOp::create(b, loc(), lists, (2 * h + 1) * k + s));
  return l;
}

Value KernelEmitter::insertRowList(Value lists, const RowList &l, int64_t h) {
  int64_t k = l.values.size();
  for (int64_t s = 0; s < k; ++s)
    lists = LLVM::InsertValueOp::create(b, loc(), lists, l.values[s],
                                        (2 * h) * k + s);
  for (int64_t s = 0; s < k; ++s)
    lists = LLVM::InsertValueOp::create(b, loc(), lists, l.indices[s],
                                        (2 * h + 1) * k + s);
  return lists;
}

/// (v, i) < (w, j): by value, then by index. False when v is NaN.
Value KernelEmitter::pairLess(Value v, Value i, Value w, Value j) {
  Value lt = arith::CmpFOp::create(b, loc(), arith::CmpFPredicate::OLT, v, w);
  Value eq = arith::CmpFOp::create(b, loc(), arith::CmpFPredicate::OEQ, v, w);
  Value lower =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::slt, i, j);
  Value tie = arith::AndIOp::create(b, loc(), eq, lower);
  return arith::OrIOp::create(b, loc(), lt, tie);
}

/// The list with (v, i) in its place, the last entry dropped; the list
/// itself when (v, i) does not beat its last entry. Because the list is
/// sorted, "(v, i) goes before entry s" holds from some s on, and entry s
/// of the result is the old entry s - 1, (v, i), or the old entry s.
KernelEmitter::RowList KernelEmitter::insertSorted(const RowList &l, Value v,
                                                   Value i) {
  int64_t k = l.values.size();
  SmallVector<Value> before;
  for (int64_t s = 0; s < k; ++s)
    before.push_back(pairLess(v, i, l.values[s], l.indices[s]));
  RowList out;
  for (int64_t s = 0; s < k; ++s) {
    Value val = arith::SelectOp::create(b, loc(), before[s], v, l.values[s]);
    Value idx = arith::SelectOp::create(b, loc(), before[s], i, l.indices[s]);
    if (s > 0) {
      val = arith::SelectOp::create(b, loc(), before[s - 1], l.values[s - 1],
                                    val);
      idx = arith::SelectOp::create(b, loc(), before[s - 1], l.indices[s - 1],
                                    idx);
    }
    out.values.push_back(val);
    out.indices.push_back(idx);
  }
  return out;
}

/// items[sel] for a runtime `sel` (i32) in [0, items.size()): a tree of
/// selects on sel's bits, so the items stay in registers.
Value KernelEmitter::selectByIndex(ArrayRef<Value> items, Value sel) {
  SmallVector<Value> level(items);
  level.resize(llvm::PowerOf2Ceil(level.size()), level.back());
  for (int64_t bit = 0; level.size() > 1; ++bit) {
    Value shifted = arith::ShRUIOp::create(b, loc(), sel, i32c(bit));
    Value odd = arith::TruncIOp::create(b, loc(), b.getI1Type(), shifted);
    SmallVector<Value> next;
    for (size_t t = 0; t + 1 < level.size(); t += 2)
      next.push_back(
          arith::SelectOp::create(b, loc(), odd, level[t + 1], level[t]));
    level = std::move(next);
  }
  return level.front();
}

FailureOr<Value> KernelEmitter::topkCandidateIndices(Operation *op,
                                                     Value candidates,
                                                     Value indices) {
  FailureOr<FragInfo> in = fragInfo(cast<FragType>(candidates.getType()), op);
  if (failed(in))
    return failure();
  if (in->layout != FragLayout::Acc)
    return op->emitError("top-k candidates must be an accumulator-shaped "
                         "fragment");
  if (!indices)
    return Value();
  FailureOr<FragInfo> ii = fragInfo(cast<FragType>(indices.getType()), op);
  if (failed(ii))
    return failure();
  if (ii->layout != FragLayout::Acc)
    return op->emitError("top-k indices must be an accumulator-shaped "
                         "fragment");
  return map.lookup(indices);
}

LogicalResult KernelEmitter::emitTopKInit(TopKInitOp op) {
  if (op.getType().getShared())
    return emitSharedTopKInit(op);
  FailureOr<Type> st = topkStructType(op.getType(), op);
  if (failed(st))
    return failure();
  int64_t k = op.getType().getK();
  Value inf = arith::ConstantOp::create(
      b, loc(), b.getF32FloatAttr(std::numeric_limits<float>::infinity()));
  Value none = i32c(-1);
  Value lists = LLVM::UndefOp::create(b, loc(), *st);
  for (int64_t h = 0; h < 2; ++h) {
    RowList l;
    l.values.assign(k, inf);
    l.indices.assign(k, none);
    lists = insertRowList(lists, l, h);
  }
  map.map(op.getResult(), lists);
  return success();
}

LogicalResult KernelEmitter::emitTopKInsert(TopKInsertOp op) {
  if (op.getList().getType().getShared())
    return emitSharedTopKInsert(op);
  FailureOr<Type> st = topkStructType(op.getList().getType(), op);
  FailureOr<Value> givenOr =
      topkCandidateIndices(op, op.getCandidates(), op.getIndices());
  if (failed(st) || failed(givenOr))
    return failure();
  Value given = *givenOr; // the candidates' indices when read beside them
  int64_t k = op.getList().getType().getK();
  int64_t n = op.getCandidates().getType().getShape()[1];
  int64_t positions = n / 4; // a thread's columns of one row: 8j + 2q + e
  Type maskTy = b.getIntegerType(positions <= 32 ? 32 : 64);
  auto maskc = [&](uint64_t v) {
    return arith::ConstantIntOp::create(b, loc(), maskTy, int64_t(v))
        .getResult();
  };
  Value acc = map.lookup(op.getCandidates());
  Value lists = map.lookup(op.getList());
  Value laneInQuad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
  Value quadCol = arith::MulIOp::create(b, loc(), laneInQuad, i32c(2));
  Value colBase;
  if (!given) {
    Value base = toI32(map.lookupOrDefault(op.getBase()));
    colBase = arith::AddIOp::create(b, loc(), base, quadCol);
  }
  for (int64_t h = 0; h < 2; ++h) {
    SmallVector<Value> cands, candIdx;
    for (int64_t p = 0; p < positions; ++p) {
      int64_t slot = 4 * (p / 2) + 2 * h + p % 2;
      cands.push_back(LLVM::ExtractValueOp::create(b, loc(), acc, slot));
      if (given)
        candIdx.push_back(LLVM::ExtractValueOp::create(b, loc(), given, slot));
    }
    // The filter: a candidate above the k-th value of any of the row's four
    // threads has k smaller ones there and cannot be in the row's list, so
    // the bound is the least of the four (one that ties it may enter, by
    // index: the insertion decides). The largest finite float keeps +inf
    // and NaN out.
    Value last =
        LLVM::ExtractValueOp::create(b, loc(), lists, (2 * h) * k + k - 1);
    for (int32_t off : {1, 2}) {
      Value other = quadShuffle(last, off);
      last = arith::MinNumFOp::create(b, loc(), last, other);
    }
    Value finite = arith::ConstantOp::create(
        b, loc(), b.getF32FloatAttr(std::numeric_limits<float>::max()));
    last = arith::MinNumFOp::create(b, loc(), last, finite);
    Value mask = maskc(0);
    for (int64_t p = 0; p < positions; ++p) {
      Value pass = arith::CmpFOp::create(b, loc(), arith::CmpFPredicate::OLE,
                                         cands[p], last);
      Value one = maskc(1ull << p);
      Value none = maskc(0);
      Value bit = arith::SelectOp::create(b, loc(), pass, one, none);
      mask = arith::OrIOp::create(b, loc(), mask, bit);
    }
    // Insert the candidates the mask lets through, lowest position first.
    Value count = LLVM::CtPopOp::create(b, loc(), maskTy, mask);
    if (maskTy != b.getI32Type())
      count = arith::TruncIOp::create(b, loc(), b.getI32Type(), count);
    Value upper = arith::IndexCastOp::create(b, loc(), b.getIndexType(), count);
    auto loop = scf::ForOp::create(b, loc(), idxc(0), upper, idxc(1),
                                   ValueRange{mask, lists});
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value left = loop.getRegionIterArgs()[0];
      Value cur = loop.getRegionIterArgs()[1];
      Value pos = LLVM::CountTrailingZerosOp::create(b, loc(), maskTy, left,
                                                     /*is_zero_poison=*/true);
      if (maskTy != b.getI32Type())
        pos = arith::TruncIOp::create(b, loc(), b.getI32Type(), pos);
      Value lowest = arith::SubIOp::create(b, loc(), left, maskc(1));
      Value rest = arith::AndIOp::create(b, loc(), left, lowest);
      Value v = selectByIndex(cands, pos);
      Value idx;
      if (given) {
        idx = selectByIndex(candIdx, pos);
      } else {
        // Position p is column 8 (p / 2) + p % 2 of the quad's pairs.
        Value pair = arith::ShRUIOp::create(b, loc(), pos, i32c(1));
        Value pairCol = arith::ShLIOp::create(b, loc(), pair, i32c(3));
        Value inPair = arith::AndIOp::create(b, loc(), pos, i32c(1));
        Value col = arith::AddIOp::create(b, loc(), pairCol, inPair);
        idx = arith::AddIOp::create(b, loc(), colBase, col);
      }
      RowList l = extractRowList(cur, k, h);
      Value next = insertRowList(cur, insertSorted(l, v, idx), h);
      scf::YieldOp::create(b, loc(), ValueRange{rest, next});
    }
    lists = loop.getResult(1);
  }
  map.map(op.getResult(), lists);
  return success();
}

void KernelEmitter::storeWord(Value ok, const TensorParams &tp, Value linear,
                              Value bits) {
  // Predicated stores, not branches (as emitLineStore).
  std::string text = "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p "
                     "st.global.b32 [$1], $2; }";
  Value ptr = LLVM::GEPOp::create(
      b, loc(), globalPtrTy(), tp.elementType, tp.ptr,
      ValueRange{arith::IndexCastOp::create(b, loc(), b.getI64Type(), linear)});
  Value pred = arith::ExtUIOp::create(b, loc(), b.getI32Type(), ok);
  SmallVector<Value> operands{pred, ptr, bits};
  sideEffectAsm(Type(), operands, text, "r,l,r");
}

Value KernelEmitter::topkStoreInBounds(TopKStoreOp op, const TensorParams &tp,
                                       Value row) {
  Value limit = rowBound(tp.dims[0], op.getRow(), op.getRows());
  Value in =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, row, limit);
  if (!op.getSlot())
    return in;
  Value slot = map.lookupOrDefault(op.getSlot());
  Value slots = tp.dims[op.getRankMajor() ? 2 : 1];
  Value inSlot =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, slot, slots);
  return arith::AndIOp::create(b, loc(), in, inSlot);
}

Value KernelEmitter::topkStoreOffset(TopKStoreOp op, const TensorParams &tp,
                                     Value row, Value e) {
  Value k = idxc(op.getList().getType().getK());
  auto mul = [&](Value x, Value y) {
    return arith::MulIOp::create(b, loc(), x, y).getResult();
  };
  auto add = [&](Value x, Value y) {
    return arith::AddIOp::create(b, loc(), x, y).getResult();
  };
  if (!op.getSlot())
    return add(mul(row, k), e);
  Value slot = map.lookupOrDefault(op.getSlot());
  if (op.getRankMajor())
    return add(mul(add(mul(row, k), e), tp.dims[2]), slot);
  return add(mul(add(mul(row, tp.dims[1]), slot), k), e);
}

LogicalResult KernelEmitter::emitTopKStore(TopKStoreOp op) {
  if (op.getList().getType().getShared())
    return emitSharedTopKStore(op);
  FailureOr<Type> st = topkStructType(op.getList().getType(), op);
  if (failed(st))
    return failure();
  int64_t k = op.getList().getType().getK();
  Value lists = map.lookup(op.getList());
  // Merge the quad's four lists: each thread inserts its partner's entries
  // (lanes 1 apart, then 2 apart). The columns the four saw are disjoint,
  // so every thread ends with the row's list.
  for (int32_t offset : {1, 2}) {
    for (int64_t h = 0; h < 2; ++h) {
      RowList mine = extractRowList(lists, k, h);
      RowList theirs;
      for (int64_t s = 0; s < k; ++s) {
        theirs.values.push_back(quadShuffle(mine.values[s], offset));
        theirs.indices.push_back(quadShuffle(mine.indices[s], offset));
      }
      auto loop = scf::ForOp::create(b, loc(), idxc(0), idxc(k), idxc(1),
                                     ValueRange{lists});
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value s = toI32(loop.getInductionVar());
      Value cur = loop.getRegionIterArgs()[0];
      Value v = selectByIndex(theirs.values, s);
      Value i = selectByIndex(theirs.indices, s);
      RowList l = extractRowList(cur, k, h);
      Value next = insertRowList(cur, insertSorted(l, v, i), h);
      scf::YieldOp::create(b, loc(), ValueRange{next});
      b.setInsertionPointAfter(loop);
      lists = loop.getResult(0);
    }
  }
  // Each thread of the quad writes the entries s with s % 4 equal to its
  // lane in the quad, rows past the tensors' extent (or the rows bound) not
  // at all (storeWord: predicated stores).
  const TensorParams &vp = tensors[op.getValues()];
  const TensorParams &ip = tensors[op.getIndices()];
  Value laneInQuad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
  Value thread = threadRow();
  Value threadIdx =
      arith::IndexCastOp::create(b, loc(), b.getIndexType(), thread);
  Value row0 = arith::AddIOp::create(b, loc(), map.lookupOrDefault(op.getRow()),
                                     threadIdx);
  for (int64_t h = 0; h < 2; ++h) {
    Value row = arith::AddIOp::create(b, loc(), row0, idxc(8 * h));
    Value inV = topkStoreInBounds(op, vp, row);
    Value inI = topkStoreInBounds(op, ip, row);
    RowList l = extractRowList(lists, k, h);
    for (int64_t s = 0; s < k; ++s) {
      Value mine = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                         laneInQuad, i32c(s % 4));
      Value okV = arith::AndIOp::create(b, loc(), mine, inV);
      Value bitsV =
          LLVM::BitcastOp::create(b, loc(), b.getI32Type(), l.values[s]);
      storeWord(okV, vp, topkStoreOffset(op, vp, row, idxc(s)), bitsV);
      Value okI = arith::AndIOp::create(b, loc(), mine, inI);
      storeWord(okI, ip, topkStoreOffset(op, ip, row, idxc(s)), l.indices[s]);
    }
  }
  return success();
}
