// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- TopKShared.cpp - Per-row top-k lists in shared memory --------------===//
//
// A !cake.topk<R x k x f32, shared> keeps each row's k (value, index)
// entries in the derived scratch of its cake.topk.init, unsorted, row r at
// offset (r * k + e) * 8, each as one 64-bit key whose unsigned order is
// the (value, index) order (entryKey): a scan is a load and an integer
// max an entry. In registers each thread holds, for its two rows
// of the accumulator layout, the row's largest entry by (value, index) and
// its slot, and the scratch offset: {v0, i0, s0, v1, i1, s1, base}. The
// four threads of a row (a quad) agree on them.
//
// topk.insert: a candidate that beats the row's largest entry replaces it.
// Each thread masks its candidates against the largest; then the warp
// runs as many steps as its busiest quad has candidates: a step takes the
// lowest candidate of the quad's lowest lane that has one (ballot,
// shuffles), and if it still beats the largest, lane 0 of the quad writes
// it over the largest. While the row fills (slot order) the next largest
// is the next slot's (+inf, -1); once it is full the quad scans the row
// (each thread a quarter of the entries at constant offsets, a tree, two
// shuffles). Past the first tiles few candidates pass the mask, as with
// the register lists.
//
// topk.store sorts each row in place (a bitonic network, by its quad) and
// writes slot e to rank e, every thread a quarter of the entries; a list
// still used after the store keeps its slots, and each entry is ranked
// among its row's k by (value, index, slot) instead.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include <limits>

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

namespace {
// Fields of the per-thread struct.
constexpr unsigned kFieldsPerRow = 3; // value, index, slot
constexpr unsigned kBaseField = 6;
} // namespace

Value KernelEmitter::warpVote(Value pred, NVVM::VoteSyncKind kind) {
  Type res = kind == NVVM::VoteSyncKind::ballot ? Type(b.getI32Type())
                                                : Type(b.getI1Type());
  return NVVM::VoteSyncOp::create(b, loc(), res, i32c(-1), pred, kind);
}

Value KernelEmitter::sharedEntry(Value base, Value row, Value e, int64_t k) {
  Value rowStart = arith::MulIOp::create(b, loc(), row, i32c(k));
  Value entry = arith::AddIOp::create(b, loc(), rowStart, e);
  Value bytes = arith::MulIOp::create(b, loc(), entry, i32c(8));
  return arith::AddIOp::create(b, loc(), base, bytes);
}

// Keys are 8-byte aligned (the scratch is); said so, or the default data
// layout's 4-byte alignment of i64 splits each access in two.
Value KernelEmitter::loadEntry(Value at) {
  return LLVM::LoadOp::create(b, loc(), b.getI64Type(), smemAt(at),
                              /*alignment=*/8);
}

void KernelEmitter::storeEntry(Value key, Value at) {
  LLVM::StoreOp::create(b, loc(), key, smemAt(at), /*alignment=*/8);
}

Value KernelEmitter::entryKey(Value v, Value i) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  // -0 as +0: pairLess compares them equal, their bits would not.
  Value zero = arith::ConstantOp::create(b, loc(), b.getF32FloatAttr(0.0f));
  Value canon = arith::AddFOp::create(b, loc(), v, zero);
  Value bits = LLVM::BitcastOp::create(b, loc(), i32, canon);
  // Negative values: every bit flipped; others: the sign bit set.
  Value sign = arith::ShRSIOp::create(b, loc(), bits, i32c(31));
  Value flip = arith::OrIOp::create(b, loc(), sign, i32c(INT32_MIN));
  Value high = arith::XOrIOp::create(b, loc(), bits, flip);
  // The index's signed order as unsigned.
  Value low = arith::XOrIOp::create(b, loc(), i, i32c(INT32_MIN));
  Value high64 = arith::ShLIOp::create(
      b, loc(), arith::ExtUIOp::create(b, loc(), i64, high),
      arith::ConstantIntOp::create(b, loc(), i64, 32));
  return arith::OrIOp::create(b, loc(), high64,
                              arith::ExtUIOp::create(b, loc(), i64, low));
}

std::array<Value, 2> KernelEmitter::entryOfKey(Value key) {
  Type i32 = b.getI32Type();
  Value high = arith::TruncIOp::create(
      b, loc(), i32,
      arith::ShRUIOp::create(
          b, loc(), key,
          arith::ConstantIntOp::create(b, loc(), b.getI64Type(), 32)));
  Value low = arith::TruncIOp::create(b, loc(), i32, key);
  // The sign bit set: a value that was not negative.
  Value notHigh = arith::XOrIOp::create(b, loc(), high, i32c(-1));
  Value sign = arith::ShRSIOp::create(b, loc(), notHigh, i32c(31));
  Value flip = arith::OrIOp::create(b, loc(), sign, i32c(INT32_MIN));
  Value bits = arith::XOrIOp::create(b, loc(), high, flip);
  return {LLVM::BitcastOp::create(b, loc(), b.getF32Type(), bits),
          arith::XOrIOp::create(b, loc(), low, i32c(INT32_MIN))};
}

std::array<Value, 2> KernelEmitter::largerKey(std::array<Value, 2> x,
                                              std::array<Value, 2> y) {
  Value greater =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ugt, y[0], x[0]);
  return {arith::SelectOp::create(b, loc(), greater, y[0], x[0]),
          arith::SelectOp::create(b, loc(), greater, y[1], x[1])};
}

std::array<Value, 3> KernelEmitter::sharedRowMax(Value base, Value row,
                                                 int64_t k) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value laneInQuad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
  // This thread's entries are laneInQuad + 4j, 32 bytes apart from its
  // first: a load and a comparison each. They go in groups of kScanGroup
  // whose loads are issued together (a group costs about one
  // shared-memory latency) and which reduce as a tree; only a group's
  // entries are live at once (all k / 4 unrolled spilled under a
  // 128-register budget). With k not a multiple of 4 the last entry of
  // some threads is past the row: they reread entry k - 1.
  constexpr int64_t kScanGroup = 8;
  int64_t perThread = (k + 3) / 4;
  int64_t groups = perThread / kScanGroup, tail = perThread % kScanGroup;
  Value first = sharedEntry(base, row, laneInQuad, k);
  auto entry = [&](Value at, Value slot) -> std::array<Value, 2> {
    return {loadEntry(at), slot};
  };
  // Entries j0 .. j0 + count - 1 (j0 an i32 value), reduced as a tree.
  auto reduce = [&](Value j0, int64_t count, int64_t j0Static) {
    Value at0 = arith::AddIOp::create(
        b, loc(), first, arith::MulIOp::create(b, loc(), j0, i32c(32)));
    Value slot0 = arith::AddIOp::create(
        b, loc(), laneInQuad, arith::MulIOp::create(b, loc(), j0, i32c(4)));
    SmallVector<std::array<Value, 2>> level;
    for (int64_t t = 0; t < count; ++t) {
      Value slot = arith::AddIOp::create(b, loc(), slot0, i32c(4 * t));
      if (j0Static >= 0 && 4 * (j0Static + t) + 3 >= k) {
        // Past the row for some threads: entry min(slot, k - 1).
        slot = arith::MinUIOp::create(b, loc(), slot, i32c(k - 1));
        level.push_back(entry(sharedEntry(base, row, slot, k), slot));
        continue;
      }
      level.push_back(
          entry(arith::AddIOp::create(b, loc(), at0, i32c(32 * t)).getResult(),
                slot));
    }
    while (level.size() > 1) {
      SmallVector<std::array<Value, 2>> next;
      for (size_t t = 0; t + 1 < level.size(); t += 2)
        next.push_back(largerKey(level[t], level[t + 1]));
      if (level.size() % 2)
        next.push_back(level.back());
      level = std::move(next);
    }
    return level.front();
  };
  // Below every entry's key.
  std::array<Value, 2> m = {arith::ConstantIntOp::create(b, loc(), i64, 0),
                            i32c(0)};
  if (groups > 0) {
    auto loop = scf::ForOp::create(b, loc(), idxc(0), idxc(groups), idxc(1),
                                   ValueRange{m[0], m[1]});
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value j0 = arith::MulIOp::create(b, loc(), toI32(loop.getInductionVar()),
                                     i32c(kScanGroup));
    // Full groups end before entry perThread - 1 unless there is no tail;
    // then the last group may hold the entry past the row.
    std::array<Value, 2> group =
        reduce(j0, kScanGroup,
               tail == 0 && k % 4 != 0 ? (groups - 1) * kScanGroup : -1);
    auto args = loop.getRegionIterArgs();
    std::array<Value, 2> out = largerKey({args[0], args[1]}, group);
    scf::YieldOp::create(b, loc(), ValueRange{out[0], out[1]});
    b.setInsertionPointAfter(loop);
    m = {loop.getResult(0), loop.getResult(1)};
  }
  if (tail > 0)
    m = largerKey(m,
                  reduce(i32c(groups * kScanGroup), tail, groups * kScanGroup));
  for (int32_t off : {1, 2}) {
    Value keyLow = arith::TruncIOp::create(b, loc(), i32, m[0]);
    Value keyHigh = arith::TruncIOp::create(
        b, loc(), i32,
        arith::ShRUIOp::create(
            b, loc(), m[0], arith::ConstantIntOp::create(b, loc(), i64, 32)));
    Value otherLow = quadShuffle(keyLow, off);
    Value otherHigh = quadShuffle(keyHigh, off);
    Value otherHigh64 = arith::ShLIOp::create(
        b, loc(), arith::ExtUIOp::create(b, loc(), i64, otherHigh),
        arith::ConstantIntOp::create(b, loc(), i64, 32));
    Value other = arith::OrIOp::create(
        b, loc(), otherHigh64, arith::ExtUIOp::create(b, loc(), i64, otherLow));
    m = largerKey(m, {other, quadShuffle(m[1], off)});
  }
  auto [v, i] = entryOfKey(m[0]);
  return {v, i, m[1]};
}

LogicalResult KernelEmitter::emitSharedTopKInit(TopKInitOp op) {
  FailureOr<Type> st = topkStructType(op.getType(), op);
  FailureOr<ScratchAttr> scratch = derived(op);
  if (failed(st) || failed(scratch))
    return failure();
  int64_t k = op.getType().getK();
  Value inf = arith::ConstantOp::create(
      b, loc(), b.getF32FloatAttr(std::numeric_limits<float>::infinity()));
  Value base = scratchOffset(op);
  Value unfilled = entryKey(inf, i32c(-1));
  // A previous list in the scratch (the last tile's) may still be read by
  // the warp's other lanes.
  NVVM::SyncWarpOp::create(b, loc(), i32c(-1));
  Value laneInQuad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
  Value row0 = threadRow();
  for (int64_t h = 0; h < 2; ++h) {
    Value row = arith::AddIOp::create(b, loc(), row0, i32c(8 * h));
    auto loop =
        scf::ForOp::create(b, loc(), idxc(0), idxc((k + 3) / 4), idxc(1));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value j = toI32(loop.getInductionVar());
    Value four = arith::MulIOp::create(b, loc(), j, i32c(4));
    Value e = arith::AddIOp::create(b, loc(), four, laneInQuad);
    e = arith::MinUIOp::create(b, loc(), e, i32c(k - 1));
    storeEntry(unfilled, sharedEntry(base, row, e, k));
  }
  NVVM::SyncWarpOp::create(b, loc(), i32c(-1));
  // Every entry is (+inf, -1): any slot holds the largest.
  Value lists = LLVM::UndefOp::create(b, loc(), *st);
  for (int64_t h = 0; h < 2; ++h) {
    lists =
        LLVM::InsertValueOp::create(b, loc(), lists, inf, kFieldsPerRow * h);
    lists = LLVM::InsertValueOp::create(b, loc(), lists, i32c(-1),
                                        kFieldsPerRow * h + 1);
    lists = LLVM::InsertValueOp::create(b, loc(), lists, i32c(0),
                                        kFieldsPerRow * h + 2);
  }
  lists = LLVM::InsertValueOp::create(b, loc(), lists, base, kBaseField);
  map.map(op.getResult(), lists);
  return success();
}

LogicalResult KernelEmitter::emitSharedTopKInsert(TopKInsertOp op) {
  FailureOr<Value> givenOr =
      topkCandidateIndices(op, op.getCandidates(), op.getIndices());
  if (failed(givenOr))
    return failure();
  Value given = *givenOr;
  int64_t k = op.getList().getType().getK();
  int64_t n = op.getCandidates().getType().getShape()[1];
  int64_t positions = n / 4; // a thread's columns of one row: 8j + 2q + e
  Type maskTy = b.getIntegerType(positions <= 32 ? 32 : 64);
  auto maskc = [&](uint64_t v) {
    return arith::ConstantIntOp::create(b, loc(), maskTy, int64_t(v))
        .getResult();
  };
  Type i32 = b.getI32Type();
  Value acc = map.lookup(op.getCandidates());
  Value lists = map.lookup(op.getList());
  Value base = LLVM::ExtractValueOp::create(b, loc(), lists, kBaseField);
  Value lane = role->lane;
  Value laneInQuad = arith::RemUIOp::create(b, loc(), lane, i32c(4));
  Value quadBase = arith::SubIOp::create(b, loc(), lane, laneInQuad);
  Value quadCol = arith::MulIOp::create(b, loc(), laneInQuad, i32c(2));
  Value colBase;
  if (!given) {
    Value baseCol = toI32(map.lookupOrDefault(op.getBase()));
    colBase = arith::AddIOp::create(b, loc(), baseCol, quadCol);
  }
  Value inf = arith::ConstantOp::create(
      b, loc(), b.getF32FloatAttr(std::numeric_limits<float>::infinity()));
  struct RowState {
    Value row;
    SmallVector<Value> cands, candIdx;
    std::array<Value, 3> largest; // value, index, slot
  };
  std::array<RowState, 2> rows;
  Value row0 = threadRow();
  for (int64_t h = 0; h < 2; ++h) {
    RowState &r = rows[h];
    r.row = arith::AddIOp::create(b, loc(), row0, i32c(8 * h));
    for (int64_t p = 0; p < positions; ++p) {
      int64_t slot = 4 * (p / 2) + 2 * h + p % 2;
      r.cands.push_back(LLVM::ExtractValueOp::create(b, loc(), acc, slot));
      if (given)
        r.candIdx.push_back(
            LLVM::ExtractValueOp::create(b, loc(), given, slot));
    }
    for (unsigned f = 0; f < kFieldsPerRow; ++f)
      r.largest[f] =
          LLVM::ExtractValueOp::create(b, loc(), lists, kFieldsPerRow * h + f);
  }
  auto candIndex = [&](const RowState &r, Value pos) -> Value {
    if (given)
      return selectByIndex(r.candIdx, pos);
    // Position p is column 8 (p / 2) + p % 2 of the quad's pairs.
    Value pair = arith::ShRUIOp::create(b, loc(), pos, i32c(1));
    Value pairCol = arith::ShLIOp::create(b, loc(), pair, i32c(3));
    Value inPair = arith::AndIOp::create(b, loc(), pos, i32c(1));
    Value col = arith::AddIOp::create(b, loc(), pairCol, inPair);
    return arith::AddIOp::create(b, loc(), colBase, col);
  };
  // Row h's insertion steps: a loop of as many steps as the warp's busiest
  // quad has candidates in the row.
  auto stepRow = [&](unsigned h) {
    RowState &r = rows[h];
    // The mask: candidates that beat the row's largest entry now (+inf
    // and NaN never do: the largest starts as (+inf, -1)).
    Value mask = maskc(0);
    for (int64_t p = 0; p < positions; ++p) {
      Value pass = pairLess(r.cands[p], candIndex(r, i32c(p)), r.largest[0],
                            r.largest[1]);
      Value bit =
          arith::SelectOp::create(b, loc(), pass, maskc(1ull << p), maskc(0));
      mask = arith::OrIOp::create(b, loc(), mask, bit);
    }
    Value count = LLVM::CtPopOp::create(b, loc(), maskTy, mask);
    if (maskTy != i32)
      count = arith::TruncIOp::create(b, loc(), i32, count);
    for (int32_t off : {1, 2})
      count = arith::AddIOp::create(b, loc(), count, quadShuffle(count, off));
    for (int32_t off : {4, 8, 16})
      count = arith::MaxUIOp::create(b, loc(), count, quadShuffle(count, off));
    Value steps = arith::IndexCastOp::create(b, loc(), b.getIndexType(), count);
    auto loop = scf::ForOp::create(
        b, loc(), idxc(0), steps, idxc(1),
        ValueRange{mask, r.largest[0], r.largest[1], r.largest[2]});
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    auto args = loop.getRegionIterArgs();
    Value left = args[0];
    std::array<Value, 3> kept = {args[1], args[2], args[3]};
    Value has = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ne, left,
                                      maskc(0));
    Value ballot = warpVote(has, NVVM::VoteSyncKind::ballot);
    Value quadBits = arith::ShRUIOp::create(b, loc(), ballot, quadBase);
    quadBits = arith::AndIOp::create(b, loc(), quadBits, i32c(15));
    Value active = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ne,
                                         quadBits, i32c(0));
    Value guarded = arith::OrIOp::create(b, loc(), quadBits, i32c(16));
    Value first = LLVM::CountTrailingZerosOp::create(b, loc(), i32, guarded,
                                                     /*is_zero_poison=*/true);
    Value owner = arith::AddIOp::create(b, loc(), quadBase, first);
    // This lane's lowest candidate (any position when it has none).
    Value pos = LLVM::CountTrailingZerosOp::create(b, loc(), maskTy, left,
                                                   /*is_zero_poison=*/false);
    if (maskTy != i32)
      pos = arith::TruncIOp::create(b, loc(), i32, pos);
    pos = arith::MinUIOp::create(b, loc(), pos, i32c(positions - 1));
    Value v = selectByIndex(r.cands, pos);
    Value idx = candIndex(r, pos);
    Value ov = gpu::ShuffleOp::create(b, loc(), v, owner, i32c(32),
                                      gpu::ShuffleMode::IDX)
                   .getShuffleResult();
    Value oi = gpu::ShuffleOp::create(b, loc(), idx, owner, i32c(32),
                                      gpu::ShuffleMode::IDX)
                   .getShuffleResult();
    Value beats = pairLess(ov, oi, kept[0], kept[1]);
    Value pass = arith::AndIOp::create(b, loc(), active, beats);
    // The owner is done with its candidate either way.
    Value isOwner =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, lane, owner);
    Value lower = arith::SubIOp::create(b, loc(), left, maskc(1));
    Value cleared = arith::AndIOp::create(b, loc(), left, lower);
    Value rest = arith::SelectOp::create(b, loc(), isOwner, cleared, left);
    Value writer = arith::AndIOp::create(
        b, loc(), pass,
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, laneInQuad,
                              i32c(0)));
    {
      auto ifWrite = scf::IfOp::create(b, loc(), writer, /*withElse=*/false);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPoint(ifWrite.thenBlock()->getTerminator());
      storeEntry(entryKey(ov, oi), sharedEntry(base, r.row, kept[2], k));
    }
    // Where a quad replaced its largest, the quad finds the next one.
    // While the row fills, that is the next slot: the init's entries are
    // all (+inf, -1), filled in slot order, and a scan only runs once the
    // row is full (quads that did not replace keep theirs), so the slots
    // past the one written are unfilled. Else the quad scans its row.
    Value nextSlot = arith::AddIOp::create(b, loc(), kept[2], i32c(1));
    Value infinite = arith::CmpFOp::create(b, loc(), arith::CmpFPredicate::OEQ,
                                           kept[0], inf);
    Value noIndex = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                          kept[1], i32c(-1));
    Value unfilled = arith::AndIOp::create(b, loc(), infinite, noIndex);
    Value filling = arith::AndIOp::create(
        b, loc(), unfilled,
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::slt, nextSlot,
                              i32c(k)));
    Value scans = arith::AndIOp::create(
        b, loc(), pass,
        arith::XOrIOp::create(b, loc(), filling,
                              arith::ConstantIntOp::create(b, loc(), 1, 1)));
    // The warp's lanes all take part in the scan's shuffles.
    Value anyScan = warpVote(scans, NVVM::VoteSyncKind::any);
    auto ifAny = scf::IfOp::create(b, loc(),
                                   TypeRange{b.getF32Type(), i32, i32}, anyScan,
                                   /*withElse=*/true);
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPointToStart(ifAny.thenBlock());
      NVVM::SyncWarpOp::create(b, loc(), i32c(-1));
      std::array<Value, 3> next = sharedRowMax(base, r.row, k);
      // Every lane's reads are done before the next step's write.
      NVVM::SyncWarpOp::create(b, loc(), i32c(-1));
      scf::YieldOp::create(b, loc(), ValueRange{next[0], next[1], next[2]});
      b.setInsertionPointToStart(ifAny.elseBlock());
      scf::YieldOp::create(b, loc(), ValueRange{kept[0], kept[1], kept[2]});
    }
    // Per quad: the scan's result, the next unfilled slot, or the largest
    // it had.
    std::array<Value, 3> filled = {inf, i32c(-1), nextSlot};
    SmallVector<Value> yields = {rest};
    for (unsigned f = 0; f < 3; ++f) {
      Value onPass = arith::SelectOp::create(b, loc(), filling, filled[f],
                                             ifAny.getResult(f));
      yields.push_back(
          arith::SelectOp::create(b, loc(), pass, onPass, kept[f]));
    }
    scf::YieldOp::create(b, loc(), yields);
    b.setInsertionPointAfter(loop);
    for (unsigned f = 0; f < kFieldsPerRow; ++f)
      lists = LLVM::InsertValueOp::create(
          b, loc(), lists, loop.getResult(1 + f), kFieldsPerRow * h + f);
  };
  // Each row its own loop: one loop stepping both rows (their scans in one
  // loop too) was 1.3-1.8x slower at 1-16 queries (KNN run 17: a step then
  // pays for both rows even where one has no candidates left).
  stepRow(0);
  stepRow(1);
  map.map(op.getResult(), lists);
  return success();
}

// topk.admits: each thread tests its candidates of its two rows against
// the rows' largest entries (the insert's filter), and the role's threads
// meet at its named barrier with an `or` of their answers (bar.red.or).
LogicalResult KernelEmitter::emitSharedTopKAdmits(TopKAdmitsOp op) {
  FailureOr<ScratchAttr> scratch = derived(op);
  if (failed(scratch))
    return failure();
  FailureOr<Value> givenOr =
      topkCandidateIndices(op, op.getCandidates(), op.getIndices());
  if (failed(givenOr))
    return failure();
  Value given = *givenOr;
  int64_t positions = op.getCandidates().getType().getShape()[1] / 4;
  Value acc = map.lookup(op.getCandidates());
  Value lists = map.lookup(op.getList());
  Value colBase;
  if (!given) {
    Value laneInQuad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
    Value quadCol = arith::MulIOp::create(b, loc(), laneInQuad, i32c(2));
    Value baseCol = toI32(map.lookupOrDefault(op.getBase()));
    colBase = arith::AddIOp::create(b, loc(), baseCol, quadCol);
  }
  Value any = arith::ConstantIntOp::create(b, loc(), b.getI1Type(), 0);
  for (int64_t h = 0; h < 2; ++h) {
    Value largest =
        LLVM::ExtractValueOp::create(b, loc(), lists, kFieldsPerRow * h);
    Value largestIdx =
        LLVM::ExtractValueOp::create(b, loc(), lists, kFieldsPerRow * h + 1);
    for (int64_t p = 0; p < positions; ++p) {
      // Position p: column 8 (p / 2) + 2 (lane % 4) + p % 2 of the row.
      int64_t slot = 4 * (p / 2) + 2 * h + p % 2;
      Value v = LLVM::ExtractValueOp::create(b, loc(), acc, slot);
      Value idx =
          given ? Value(LLVM::ExtractValueOp::create(b, loc(), given, slot))
                : Value(arith::AddIOp::create(b, loc(), colBase,
                                              i32c(8 * (p / 2) + p % 2)));
      Value beats = pairLess(v, idx, largest, largestIdx);
      any = arith::OrIOp::create(b, loc(), any, beats);
    }
  }
  // bar.red.or on the role's named barrier: NVVM's barrier op reduces on
  // barrier 0 (the whole CTA) only.
  Type i32 = b.getI32Type();
  Value pred = arith::ExtUIOp::create(b, loc(), i32, any);
  Value id = scratchBarrier(op);
  Value threads = i32c(role->role.getNumWarps() * 32);
  SmallVector<Value> operands{pred, id, threads};
  Value votes =
      sideEffectAsm(i32, operands,
                    "{ .reg .pred p, q; setp.ne.b32 p, $1, 0; "
                    "bar.red.or.pred q, $2, $3, p; selp.u32 $0, 1, 0, q; }",
                    "=r,r,r,r");
  map.map(op.getResult(),
          arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ne, votes,
                                i32c(0)));
  return success();
}

// A bitonic network over the row's k slots padded to a power of two P,
// in the form whose comparators all put the smaller key in the lower slot:
// a comparator whose upper slot is past k meets a virtual +inf there and
// leaves both slots as they are, so it is skipped, and the k real slots
// sort in place. P/2 comparators a step, a quarter of them a thread of the
// quad; the quad meets at a warp barrier after each of the
// log2(P)(log2(P)+1)/2 steps. At k = 100: 28 steps of 16 comparators a
// thread, against 2,500 comparisons a thread for ranking each entry
// against the whole row (the KNN search's store was a third of its time).
void KernelEmitter::sortSharedRow(Value base, Value row, int64_t k,
                                  Value laneInQuad) {
  int64_t logP = llvm::Log2_64_Ceil(std::max<int64_t>(k, 2));
  int64_t perThread = std::max<int64_t>(((int64_t(1) << logP) / 2 + 3) / 4, 1);
  // The steps are loops, not unrolled code: unrolled, LLVM hoists every
  // comparator's lane-dependent slots out of the loop over the thread's
  // rows and ptxas spills them.
  auto phases = scf::ForOp::create(b, loc(), idxc(1), idxc(logP + 1), idxc(1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(phases.getBody());
  Value phase = toI32(phases.getInductionVar());
  auto steps =
      scf::ForOp::create(b, loc(), idxc(0), phases.getInductionVar(), idxc(1));
  b.setInsertionPointToStart(steps.getBody());
  // step = phase - 1 - t: the phase's first step mirrors, the others add.
  Value t = toI32(steps.getInductionVar());
  Value first =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, t, i32c(0));
  Value step = arith::SubIOp::create(
      b, loc(), arith::SubIOp::create(b, loc(), phase, i32c(1)), t);
  Value stride = arith::ShLIOp::create(b, loc(), i32c(1), step);
  Value strideMask = arith::SubIOp::create(b, loc(), stride, i32c(1));
  Value step1 = arith::AddIOp::create(b, loc(), step, i32c(1));
  Value blockLast = arith::SubIOp::create(
      b, loc(), arith::ShLIOp::create(b, loc(), i32c(1), step1), i32c(1));
  for (int64_t u = 0; u < perThread; ++u) {
    // Comparator c pairs slots i < j: in the phase's first step the mirror
    // of i in its block of 2^phase, else i + 2^step.
    Value c = arith::AddIOp::create(b, loc(), laneInQuad, i32c(4 * u));
    Value block = arith::ShRUIOp::create(b, loc(), c, step);
    Value start = arith::ShLIOp::create(b, loc(), block, step1);
    Value q = arith::AndIOp::create(b, loc(), c, strideMask);
    Value i = arith::AddIOp::create(b, loc(), start, q);
    Value mirror = arith::SubIOp::create(
        b, loc(), arith::AddIOp::create(b, loc(), start, blockLast), q);
    Value next = arith::AddIOp::create(b, loc(), i, stride);
    Value j = arith::SelectOp::create(b, loc(), first, mirror, next);
    Value inRow =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, j, i32c(k));
    Value atI = sharedEntry(
        base, row, arith::MinUIOp::create(b, loc(), i, i32c(k - 1)), k);
    Value atJ = sharedEntry(
        base, row, arith::MinUIOp::create(b, loc(), j, i32c(k - 1)), k);
    Value x = loadEntry(atI);
    Value y = loadEntry(atJ);
    Value swap =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, y, x);
    Value write = arith::AndIOp::create(b, loc(), inRow, swap);
    auto ifWrite = scf::IfOp::create(b, loc(), write, /*withElse=*/false);
    OpBuilder::InsertionGuard g2(b);
    b.setInsertionPointToStart(ifWrite.thenBlock());
    storeEntry(y, atI);
    storeEntry(x, atJ);
  }
  NVVM::SyncWarpOp::create(b, loc(), i32c(-1));
}

Value KernelEmitter::rankInSharedRow(Value base, Value row, int64_t k,
                                     Value key, Value slot) {
  // Four entries an iteration, their loads issued together; entries past
  // k (k not a multiple of 4) do not count.
  auto ranks = scf::ForOp::create(b, loc(), idxc(0), idxc((k + 3) / 4), idxc(1),
                                  ValueRange{i32c(0)});
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(ranks.getBody());
  Value t0 =
      arith::MulIOp::create(b, loc(), toI32(ranks.getInductionVar()), i32c(4));
  SmallVector<std::array<Value, 2>> others;
  for (int64_t u = 0; u < 4; ++u) {
    Value t = arith::AddIOp::create(b, loc(), t0, i32c(u));
    Value tc = arith::MinUIOp::create(b, loc(), t, i32c(k - 1));
    others.push_back({loadEntry(sharedEntry(base, row, tc, k)), t});
  }
  Value rank = ranks.getRegionIterArgs()[0];
  for (auto [kt, t] : others) {
    Value before =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, kt, key);
    Value same =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, kt, key);
    Value earlier =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, t, slot);
    Value tie = arith::AndIOp::create(b, loc(), same, earlier);
    Value counts = arith::OrIOp::create(b, loc(), before, tie);
    Value inList =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, t, i32c(k));
    counts = arith::AndIOp::create(b, loc(), counts, inList);
    Value one = arith::ExtUIOp::create(b, loc(), b.getI32Type(), counts);
    rank = arith::AddIOp::create(b, loc(), rank, one);
  }
  scf::YieldOp::create(b, loc(), ValueRange{rank});
  return ranks.getResult(0);
}

LogicalResult KernelEmitter::emitSharedTopKStore(TopKStoreOp op) {
  int64_t k = op.getList().getType().getK();
  Type i32 = b.getI32Type();
  Value lists = map.lookup(op.getList());
  Value base = LLVM::ExtractValueOp::create(b, loc(), lists, kBaseField);
  const TensorParams &vp = tensors[op.getValues()];
  const TensorParams &ip = tensors[op.getIndices()];
  NVVM::SyncWarpOp::create(b, loc(), i32c(-1));
  Value laneInQuad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
  Value thread = threadRow();
  Value threadIdx =
      arith::IndexCastOp::create(b, loc(), b.getIndexType(), thread);
  Value row0 = arith::AddIOp::create(b, loc(), map.lookupOrDefault(op.getRow()),
                                     threadIdx);
  // Where the store is the list's last use, its rows are sorted in place
  // and slot e holds rank e. Otherwise the slots must keep their entries
  // (the registers name the largest entry's slot) and each entry is ranked
  // against its row.
  bool sortInPlace = op.getList().hasOneUse();
  if (sortInPlace) {
    // Both of the thread's rows in one loop: the network is long code.
    auto rows = scf::ForOp::create(b, loc(), idxc(0), idxc(2), idxc(1));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(rows.getBody());
    Value h8 =
        arith::MulIOp::create(b, loc(), toI32(rows.getInductionVar()), i32c(8));
    sortSharedRow(base, arith::AddIOp::create(b, loc(), thread, h8), k,
                  laneInQuad);
  }
  for (int64_t h = 0; h < 2; ++h) {
    Value listRow = arith::AddIOp::create(b, loc(), thread, i32c(8 * h));
    Value row = arith::AddIOp::create(b, loc(), row0, idxc(8 * h));
    Value inV = topkStoreInBounds(op, vp, row);
    Value inI = topkStoreInBounds(op, ip, row);
    auto entries =
        scf::ForOp::create(b, loc(), idxc(0), idxc((k + 3) / 4), idxc(1));
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(entries.getBody());
    Value j = toI32(entries.getInductionVar());
    Value four = arith::MulIOp::create(b, loc(), j, i32c(4));
    Value e = arith::AddIOp::create(b, loc(), four, laneInQuad);
    Value valid =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, e, i32c(k));
    Value ec = arith::MinUIOp::create(b, loc(), e, i32c(k - 1));
    Value key = loadEntry(sharedEntry(base, listRow, ec, k));
    auto [v, i] = entryOfKey(key);
    Value rank32 =
        sortInPlace ? ec : rankInSharedRow(base, listRow, k, key, ec);
    Value rank = arith::IndexCastOp::create(b, loc(), b.getIndexType(), rank32);
    Value okV = arith::AndIOp::create(b, loc(), valid, inV);
    Value okI = arith::AndIOp::create(b, loc(), valid, inI);
    Value bitsV = LLVM::BitcastOp::create(b, loc(), i32, v);
    storeWord(okV, vp, topkStoreOffset(op, vp, row, rank), bitsV);
    storeWord(okI, ip, topkStoreOffset(op, ip, row, rank), i);
  }
  return success();
}
