// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- KernelEmitter.h - The emitter of convert-cake-to-nvvm --*- C++ -*-===//
//
// The state of the lowering of one derived cake.kernel to a gpu.func, and
// one emitter per op family. The files of this folder implement it:
// ConvertCakeToNVVM.cpp (the pass, the kernel's prologue, roles and the
// dispatch), Schedule.cpp, Pipes.cpp, Tma.cpp, Wgmma.cpp, MmaSync.cpp,
// Tcgen05.cpp,
// Fragments.cpp, Solve.cpp, Epilogue.cpp, Scalars.cpp, TopK.cpp, Gather.cpp
// and SmemReduce.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_PASSES_CONVERSION_CAKETONVVM_KERNELEMITTER_H
#define CAKE_PASSES_CONVERSION_CAKETONVVM_KERNELEMITTER_H

#include "cake/Analysis/RoleTurns.h"
#include "cake/Analysis/SharedCode.h"
#include "cake/Dialect/CakeDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <optional>
#include <tuple>
#include <utility>

namespace mlir {
namespace cake {
namespace nvvm {

/// What cake-derive attached to `op` (its typed `derived` attribute), or
/// an error at `op` where it attached none.
template <typename OpT>
FailureOr<decltype(std::declval<OpT>().getDerivedAttr())> derived(OpT op) {
  if (auto attr = op.getDerivedAttr())
    return attr;
  return op.emitError("convert-cake-to-nvvm: '")
         << op->getName() << "' has no derived attribute; run cake-derive "
         << "first";
}

/// What the lowered code knows about one global tensor argument.
struct TensorParams {
  Value ptr;               // !llvm.ptr<1>
  SmallVector<Value> dims; // index, one per dimension
  Type elementType;
};

/// What the lowered code knows about one pipe.
struct PipeInfo {
  int64_t stages, full, empty, fullCount, emptyCount, txBytes;
  bool gathered; // its stages are filled by cp.async (cake.gather, ...)
  /// The CTAs whose consumers release each stage (the cluster, when
  /// multicast copies fill it): a release arrives on each one's barrier.
  int64_t releaseCtas = 1;
  /// A pipe over tensor memory: its stages are filled by tcgen05.mma and
  /// read by tcgen05.ld, each side fencing its tcgen05 work around the
  /// hand-off.
  bool tmem = false;
  /// Its stages pass from thread to thread by ordinary stores and loads
  /// (isThreadHandoff): every thread of either side arrives for itself.
  bool threadHandoff = false;
};

/// What the lowered code knows about one ring.
struct RingInfo {
  int64_t offset, tileBytes;
};

/// What the lowered code knows about one tensor-memory buffer: its first
/// column in the CTA's allocation and the columns of a stage.
struct TmemInfo {
  int64_t column, stageColumns;
};

/// Which part of the wgmma accumulator layout a fragment occupies, or
/// (sm_100a) tcgen05.ld's, in a role that holds rows one a thread
/// (holdsRowPerThread): thread t of warp w holds row 32 (w mod 4) + t, of a
/// 128 x N fragment its N columns in order (Lane), of a 128 x 1 its one
/// value (LaneRow), and of a 1 x N line all N values (LaneCol).
enum class FragLayout { Acc, Row, Col, Lane, LaneRow, LaneCol };
/// True for an scf.if whose branches only compute on registers and memory
/// (no wgmma, no hand-off): it may run while wgmma groups are in flight.
bool isRegisterBranch(Operation &op);

struct FragInfo {
  FragLayout layout;
  int64_t count; ///< values per thread
  Type type;     ///< the LLVM struct holding them
};

/// The role being emitted.
struct RoleState {
  RoleOp role;
  Value warpInRole;                 // i32
  Value lane;                       // i32
  Value leader;                     // i1: lane 0 of the role's first warp
  bool allLanes = false;            // every thread runs the body
  bool tcgen05Issuer = false;       // issues cake.tmem.mma (its leader)
  bool rowPerThread = false;        // fragments in tcgen05.ld's layout
  // (pipe, producer side?) -> !llvm.ptr alloca of i32: the hand-offs the
  // role has taken on that side. A role that fills its own pipe counts
  // its acquires and its waits apart.
  llvm::DenseMap<std::pair<Value, unsigned>, Value> ctr;
};

class KernelEmitter {
public:
  KernelEmitter(KernelOp kernel, gpu::GPUModuleOp module, unsigned mmaInFlight,
                bool fpContract, bool mmaChain, bool wgOrder,
                bool wgOrderRetire, bool retireLate, bool fenceWaits,
                bool flushDenormals, bool uniformWarp)
      : kernel(kernel), module(module), ctx(kernel.getContext()),
        b(kernel.getContext()), mmaInFlight(mmaInFlight),
        fpContract(fpContract), flushDenormals(flushDenormals),
        uniformWarp(uniformWarp), mmaChain(mmaChain), wgOrder(wgOrder),
        wgOrderRetire(wgOrderRetire), retireLate(retireLate),
        fenceWaits(fenceWaits) {}

  LogicalResult emit();

  /// The launch metadata (entry, parameter order, block, shared memory,
  /// TMA specs, schedule), set by emit().
  DictionaryAttr launch;

private:
  // Helpers for constants and pointer arithmetic.
  Value i32c(int64_t v) {
    return arith::ConstantIntOp::create(b, loc(), b.getI32Type(), v);
  }
  Value i64c(int64_t v) {
    return arith::ConstantIntOp::create(b, loc(), b.getI64Type(), v);
  }
  Value idxc(int64_t v) { return arith::ConstantIndexOp::create(b, loc(), v); }
  Location loc() { return curLoc; }
  Type smemPtrTy() { return LLVM::LLVMPointerType::get(ctx, 3); }
  Type globalPtrTy() { return LLVM::LLVMPointerType::get(ctx, 1); }
  Value smemAt(Value byteOffset /*i32*/) {
    return LLVM::GEPOp::create(b, loc(), smemPtrTy(), b.getI8Type(), smemBase,
                               ValueRange{byteOffset});
  }
  /// PTX that NVVM has no op for, as inline assembly with side effects
  /// (so that LLVM neither drops nor reorders it): `result` null for none.
  /// Returns the op's result, or null.
  Value sideEffectAsm(Type result, ValueRange operands, StringRef text,
                      StringRef constraints) {
    auto op = LLVM::InlineAsmOp::create(
        b, loc(), result ? TypeRange{result} : TypeRange{}, operands, text,
        constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::tailcallkind::TailCallKind::None,
        LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
        /*operand_attrs=*/ArrayAttr());
    return result ? op.getResult(0) : Value();
  }
  /// The shared-memory address of `stage`'s slot in an array at `base`
  /// with `stride` bytes a slot (a ring's tiles, a pipe's barriers). Like
  /// every emitter helper, it creates its ops one statement at a time: the
  /// order of a call's arguments is unspecified in C++, and the lowered IR
  /// must not depend on the host compiler.
  Value stageAt(int64_t base, Value stage, int64_t stride) {
    return stageAt(i32c(base), stage, stride);
  }
  Value stageAt(Value base, Value stage, int64_t stride) {
    Value offset = arith::MulIOp::create(b, loc(), stage, i32c(stride));
    return smemAt(arith::AddIOp::create(b, loc(), base, offset));
  }
  Value toI32(Value index) {
    return arith::IndexCastOp::create(b, loc(), b.getI32Type(), index);
  }
  /// A TMA copy's coordinates as i32, innermost first.
  SmallVector<Value> tmaCoordinates(ValueRange coords) {
    SmallVector<Value> out;
    for (Value c : llvm::reverse(coords))
      out.push_back(toI32(map.lookupOrDefault(c)));
    return out;
  }
  /// Continues inside `if (leader)` of a role whose threads all run: the
  /// leader alone takes TMA stages and issues copies; its warp reconverges
  /// behind it (the role's wgmma are .sync.aligned). The caller holds an
  /// InsertionGuard.
  void enterLeader() {
    auto lead = scf::IfOp::create(b, loc(), role->leader, /*withElse=*/false);
    NVVM::SyncWarpOp::create(b, loc(), i32c(-1));
    b.setInsertionPointToStart(lead.thenBlock());
  }

  // The kernel, its roles and the dispatch over op families
  // (ConvertCakeToNVVM.cpp).
  LogicalResult emitRole(RoleOp role);
  /// Emits `block`'s ops; then, unless told not to, retires the wgmma groups
  /// still in flight (a region's end is where they must have landed).
  LogicalResult emitBlock(Block &block, bool retireAtEnd = true);
  LogicalResult emitOp(Operation &op);

  // One emitter per op family, each in its own file: it lowers the ops of
  // its family and returns none for every other op. emitOp asks each in
  // turn (kFamilyEmitters); a new op family adds a file and a line there.
  using FamilyEmitter = std::optional<LogicalResult> (KernelEmitter::*)(
      Operation &op);
  static const FamilyEmitter kFamilyEmitters[];

  // Tiles and control flow (Schedule.cpp): cake.tiles, scf.for, scf.if.
  std::optional<LogicalResult> emitScheduleOp(Operation &op);
  LogicalResult emitTiles(TilesOp tiles);
  LogicalResult emitFor(scf::ForOp forOp);
  /// Adds `times` x `trips` (i32) to the hand-off counter at `slot`: a dealt
  /// pipe's consumer skipping other slices' stages.
  void advanceCounter(Value slot, Value trips, int64_t times);
  LogicalResult emitIf(scf::IfOp ifOp);

  // Pipes and barriers (Pipes.cpp): hand-offs, named barriers, fences.
  std::optional<LogicalResult> emitPipeOp(Operation &op);
  LogicalResult emitHandoff(Operation *op, Value pipe, bool producer);
  LogicalResult emitCommit(PipeCommitOp op);
  LogicalResult emitRelease(PipeReleaseOp op);
  void releaseDeferred(Value pipe);
  void releaseSlot(Value pipe, Value slot);
  void arriveEmpty(Value pipe, Value stage);
  /// The current role's arrival on a stage barrier of `pipe`: each thread
  /// for itself in a thread hand-off, else one a warp once it converged.
  void arriveOnce(Value pipe, Value barrier);
  /// Waits for the completion of `barrier`'s phase of `parity` (i32).
  void waitParity(Value barrier, Value parity);
  /// One arrival per warp on `barrier` in each of the cluster's `ctas`.
  void arriveInCluster(Value barrier, int64_t ctas);
  /// Releases held back until a wait_group retired their readers.
  void releaseHeld(SmallVectorImpl<std::pair<Value, Value>> &held);
  /// Records that the current role's code arrives `count` times on a
  /// barrier of `pipe` (its empty one if `empty`) each time it passes here.
  void noteArrivals(Value pipe, bool empty, int64_t count);
  /// The warps of the current role that run an arrival: all of them, or
  /// its leader's alone.
  int64_t arrivingWarps() const;
  /// The arrivals the current role makes on a stage barrier of `pipe` at
  /// each hand-off (arriveOnce's).
  int64_t arrivalsOn(Value pipe) const;
  /// Compares the arrivals the roles' code makes on each pipe barrier with
  /// the count cake-derive gave the barrier: a disagreement would hang the
  /// kernel (too few) or complete phases early (too many) on the GPU.
  LogicalResult checkArrivals();

  // TMA copies (Tma.cpp).
  std::optional<LogicalResult> emitTmaOp(Operation &op);
  LogicalResult emitTmaLoad(TmaLoadOp op);
  LogicalResult emitTmaStore(TmaStoreOp op);

  // Copies issued by threads (Gather.cpp): cake.gather, cake.cp_async.load.
  std::optional<LogicalResult> emitGatherOp(Operation &op);
  LogicalResult emitGather(GatherOp op);
  LogicalResult emitGatherIndices(GatherIndicesOp op);
  LogicalResult emitCpAsyncLoad(CpAsyncLoadOp op);
  /// What one lane copies of every row a step: its piece of the row.
  struct RowPieces {
    RingType ring;
    int64_t pieceBytes, pieces, rowBytes;
    Value stageBase;  // i32 shared-memory offset of the stage
    Value pieceInRow; // i32 byte offset of the lane's piece in a ring row
    Value colElt;     // i64 source column of the piece
    Value colBytes;   // i32 bytes of the piece inside the source's row
  };
  RowPieces rowPieces(const TensorParams &tp, Value ring, Value stage,
                      Value column, int64_t pieceBytes);
  /// The lane's cp.async of row `row` (i32, in the tile) from row `srcRow`
  /// (i64) of the source, zero-filled where `inRange` is false.
  void copyPiece(const TensorParams &tp, const RowPieces &rp, Value row,
                 Value srcRow, Value inRange);
  /// Traps where the source's base, pitch or `column` (i64) is not a whole
  /// number of pieces: no copy could be issued.
  void trapUnlessPieceAligned(const TensorParams &tp, Value column,
                              int64_t eltBytes, int64_t pieceBytes);
  /// Entry `row` (i32) of a `rows`-entry list at `position` (i64) of the
  /// index tensor `ip`: a load, or -1 past the tile or the list.
  Value loadIndexEntry(const TensorParams &ip, Value position, Value row,
                       int64_t rows);

  // Blackwell tensor memory (Tcgen05.cpp): the allocation, tcgen05.mma,
  // tcgen05.ld and the stores of the fragments it makes.
  std::optional<LogicalResult> emitTmemOp(Operation &op);
  LogicalResult recordTmem(TmemOp op);
  /// Warp 0 allocates the CTA's columns into the derived slot (before the
  /// CTA barrier that publishes it); every thread then reads the base.
  void emitTmemAllocation();
  void readTmemBase();
  /// Warp 0 frees the allocation (after the CTA barrier at exit).
  void emitTmemRelease();
  /// tcgen05.fence::before_thread_sync (or ::after_thread_sync).
  void fenceTmem(bool before);
  /// The address (!llvm.ptr<6>) of `column` (i32, or null for 0) of
  /// `stage` of a buffer, in `lane` (i32, or null for 0).
  Value tmemAddress(Value tmem, Value stage, Value lane, Value column);
  /// tcgen05.ld/st .32x32b: `columns` 32-bit columns of the stage from
  /// `column` (null: 0) in power-of-two pieces, each emitted with the
  /// address in the warp's lane quarter, its first column and its width.
  void forEachTmemPiece(Value tmem, Value stage, Value column, int64_t columns,
                        function_ref<void(Value, int64_t, int64_t)> emit);
  LogicalResult emitTmemMma(TmemMmaOp op);
  LogicalResult emitTmemLoad(TmemLoadOp op);
  LogicalResult emitTmemStore(TmemStoreOp op);
  LogicalResult emitLaneStore(StoreOp op, const FragInfo &info);
  /// The row of a 128-row tile thread t of warp w holds: 32 (w mod 4) + t.
  Value laneRow();
  /// Argmin and reductions along a row held by one thread.
  LogicalResult emitLaneArgmin(FragArgminOp op);
  LogicalResult emitLaneReduce(FragReduceOp op);

  // Stores keyed by a fragment (Scatter.cpp): cake.scatter.
  std::optional<LogicalResult> emitScatterOp(Operation &op);
  LogicalResult emitScatter(ScatterOp op);

  // Rows of ring stages reduced (SmemReduce.cpp): cake.smem.reduce.
  std::optional<LogicalResult> emitSmemReduceOp(Operation &op);
  LogicalResult emitSmemReduce(SmemReduceOp op);

  // wgmma, its chains in flight and warpgroup turns (Wgmma.cpp).
  std::optional<LogicalResult> emitMmaOp(Operation &op);
  LogicalResult emitMma(MmaOp op);
  SmallVector<Value> packRegisterA(MmaOp op, int64_t kk);
  SmallVector<Value> fenceOperands(ArrayRef<Value> values);
  Value fenceAccumulator(Value acc);
  Value copyFragment(Value frag);
  // mma.sync over ldmatrix (MmaSync.cpp): cake.mma mma_sync.
  LogicalResult emitMmaSync(MmaOp op);
  Value ldmatrixRowAddress(Value stageBase, int64_t rowBytes,
                           int64_t swizzleBits, Value row, Value chunk);
  Value emitRegisterAWgmma(MmaOp op, Value acc, ArrayRef<Value> aRegs,
                           Value descB, int64_t instrN);
  LogicalResult startWarpgroupOrder(RoleOp r);
  void orderBarrier(bool arrive, Value id);
  /// bar.arrive (or bar.sync) on named barrier `id` counting `threads`.
  void namedBarrier(bool arrive, Value id, int64_t threads);
  // cake.role_turns (RoleTurns.cpp): the role's place in the turn order.
  LogicalResult startRoleTurn(RoleOp r);
  void waitRoleTurn();
  void passRoleTurn();
  void passWarpgroupTurn();
  // retire-late's pending groups (Wgmma.cpp).
  int lastPendingUse(Operation &op);
  void retirePendingThrough(int last);
  void retirePendingGroups();
  bool readByPendingGroup(std::pair<Value, Value> pipeStage);

  // Register fragments in the wgmma accumulator layout (Fragments.cpp).
  std::optional<LogicalResult> emitFragmentOp(Operation &op);
  FailureOr<FragInfo> fragInfo(FragType type, Operation *where);
  FailureOr<Type> fragStructType(FragType type, Operation *where);
  Value splat(Type structType, Value v);
  Value quadShuffle(Value v, int32_t offset);
  Value combineFloats(ReduceKind kind, Value a, Value c);
  LogicalResult emitConvert(FragConvertOp op);
  LogicalResult emitFragMap(FragMapOp op);
  LogicalResult emitArgmin(FragArgminOp op);
  LogicalResult emitIota(FragIotaOp op);
  std::pair<Value, Value> packedRowArgmin(Value acc, int64_t h, int64_t n,
                                          Value colBase);
  LogicalResult emitReduce(FragReduceOp op);
  LogicalResult emitScan(FragScanOp op);
  LogicalResult emitRow(FragRowOp op);
  LogicalResult emitScanDown(FragScanOp op, Value identity);
  void meetRole(Value barrierId);

  // Triangular solves of fragments (Solve.cpp): frag.tril_inverse.
  std::optional<LogicalResult> emitSolveOp(Operation &op);
  LogicalResult emitTrilInverse(FragTrilInverseOp op);

  // Per-row top-k lists (TopK.cpp): topk.init, topk.insert, topk.store.
  /// One row's list in a thread: k values and k indices, sorted.
  struct RowList {
    SmallVector<Value> values, indices;
  };
  std::optional<LogicalResult> emitTopKOp(Operation &op);
  FailureOr<Type> topkStructType(TopKType type, Operation *where);
  RowList extractRowList(Value lists, int64_t k, int64_t h);
  Value insertRowList(Value lists, const RowList &l, int64_t h);
  Value pairLess(Value v, Value i, Value w, Value j);
  RowList insertSorted(const RowList &l, Value v, Value i);
  Value selectByIndex(ArrayRef<Value> items, Value sel);
  LogicalResult emitTopKInit(TopKInitOp op);
  LogicalResult emitTopKInsert(TopKInsertOp op);
  LogicalResult emitTopKStore(TopKStoreOp op);
  /// Checks that a topk.insert's or topk.admits' candidates (and indices,
  /// where given) are in the accumulator layout; the indices' lowered
  /// value, or null where the index is base + column.
  FailureOr<Value> topkCandidateIndices(Operation *op, Value candidates,
                                        Value indices);
  /// Whether topk.store writes row `row` (index) of `tp` at all: within the
  /// tensor and the rows bound, and with a slot, the slot within its axis.
  Value topkStoreInBounds(TopKStoreOp op, const TensorParams &tp, Value row);
  /// The element offset of entry `e` (index) of row `row` in `tp`: row * k
  /// + e; with a slot (row * S + slot) * k + e; rank_major (row * k + e) *
  /// S + slot.
  Value topkStoreOffset(TopKStoreOp op, const TensorParams &tp, Value row,
                        Value e);
  // The same in shared memory (TopKShared.cpp): !cake.topk<..., shared>.
  LogicalResult emitSharedTopKInit(TopKInitOp op);
  LogicalResult emitSharedTopKInsert(TopKInsertOp op);
  LogicalResult emitSharedTopKStore(TopKStoreOp op);
  LogicalResult emitSharedTopKAdmits(TopKAdmitsOp op);
  /// The shared-memory offset of entry `e` (i32) of role row `row` (i32).
  Value sharedEntry(Value base, Value row, Value e, int64_t k);
  /// The row's largest entry (value, index, slot), found by its quad.
  std::array<Value, 3> sharedRowMax(Value base, Value row, int64_t k);
  /// Sorts role row `row`'s k keys in place, ascending, by its quad.
  void sortSharedRow(Value base, Value row, int64_t k, Value laneInQuad);
  /// The rank of `key` (in slot `slot`) among role row `row`'s k keys:
  /// the keys below it and equal ones in earlier slots.
  Value rankInSharedRow(Value base, Value row, int64_t k, Value key,
                        Value slot);
  /// A shared list's entry as stored: a 64-bit key whose unsigned order is
  /// pairLess's (value, index) order (the value's bits made monotone in
  /// the high word, the index's sign bit flipped in the low word).
  Value entryKey(Value v, Value i);
  /// A key's 8-byte shared-memory load and store at byte offset `at`.
  Value loadEntry(Value at);
  void storeEntry(Value key, Value at);
  /// The (value, index) of a key.
  std::array<Value, 2> entryOfKey(Value key);
  /// The larger of two (key, slot) pairs; `x` on a tie.
  std::array<Value, 2> largerKey(std::array<Value, 2> x,
                                 std::array<Value, 2> y);
  /// A full-warp vote: `any` (i1) or `ballot` (i32) of `pred`.
  Value warpVote(Value pred, NVVM::VoteSyncKind kind);
  /// Global row-major stores of a top-k row: a predicated st.global.b32.
  void storeWord(Value ok, const TensorParams &tp, Value linear, Value bits);

  // Fragments to and from memory: global loads and stores, shared-memory
  // stages (Epilogue.cpp).
  std::optional<LogicalResult> emitMemoryOp(Operation &op);
  Value threadRow();
  Value outerOffset(const TensorParams &tp, ValueRange coords);
  Value planeOffset(const TensorParams &tp, ValueRange coords);
  /// Whether the coordinates before the last `inner` ones are inside the
  /// tensor (i1; null when there are none): a box past an outer end is all
  /// outside.
  Value outerInBounds(const TensorParams &tp, ValueRange coords, int64_t inner);
  LogicalResult emitLoad(LoadOp op);
  LogicalResult emitAccLoad(LoadOp op, const FragInfo &info);
  LogicalResult emitStore(StoreOp op);
  LogicalResult emitTransposedStore(StoreOp op);
  LogicalResult emitEveryStore(StoreOp op);
  void predicatedStore(Value ok, Value ptr, Value v);
  /// This thread's first row and column of an accumulator-shaped tile
  /// (i32): row 64 wg + 16 w + l / 4, column 2 (l % 4).
  std::pair<Value, Value> accThreadOrigin();
  /// Where a cake.store of an accumulator tile puts this thread's values:
  /// the tensor row and column of its first (the tile's row and column
  /// swapped when transposed), the rows inside the tensor (and `rows %n`;
  /// none past an outer end), the tensor's columns, and the plane's
  /// element offset (null for rank 2).
  struct AccStoreBox {
    Value row0, col0, rows, cols, plane;
  };
  AccStoreBox accStoreBox(StoreOp op);
  LogicalResult emitLineStore(StoreOp op, const FragInfo &info);
  LogicalResult emitSmemWrite(SmemWriteOp op);
  LogicalResult emitSmemRead(SmemReadOp op);
  /// Shared-memory byte offsets of an accumulator-layout fragment's column
  /// pairs in a ring stage (pair index j * 2 + h, swizzle applied), for
  /// smem.write and smem.read.
  SmallVector<Value> accPairOffsets(Value ringValue, Value stage);
  /// Shared-memory byte offsets of a value-per-row fragment's two rows
  /// (index h: the thread's row and the row 8 below) in a ring stage of
  /// one column, for smem.write and smem.read.
  SmallVector<Value> rowValueOffsets(Value ringValue, Value stage);
  Value rowBound(Value dim, Value row, Value limit);
  /// A byte offset within a stage under the ring's swizzle, as TMA and
  /// wgmma use it: the 16-byte chunk index XOR the 128-byte line index,
  /// `swizzleBits` (log2(swizzle / 16)) bits wide.
  Value swizzleOffset(Value inTile, int64_t swizzleBits);
  /// The width swizzleOffset takes for a ring of `swizzleBytes` (32, 64 or
  /// 128; 0 or 16 for none): log2(swizzleBytes / 16).
  static int64_t swizzleBitsOf(int64_t swizzleBytes) {
    int64_t bits = 0;
    for (int64_t span = swizzleBytes; span > 16; span /= 2)
      ++bits;
    return bits;
  }

  // Roles that share code (SharedCode.cpp): the leader's body emitted once
  // for its group, what differs selected by the warp's role.
  struct SharedCodeGroup {
    SmallVector<RoleOp> roles;            // the leader first
    SmallVector<SharedCodeMatch> matches; // by role; the leader's is empty
    Value index;                          // i32: the warp's role in roles
  };
  /// The group of `leader` (itself alone when no role shares its code), or
  /// failure with a diagnostic when a follower's body does not match.
  FailureOr<SharedCodeGroup> sharedCodeGroup(RoleOp leader);
  /// The value of each of the group's roles, the warp's selected (the one
  /// value outside a group, or where all are the same).
  Value byRole(ArrayRef<Value> perRole);
  /// byRole of `valueOf(k)` for each role k of the group (k = 0 alone
  /// outside one).
  Value eachRole(llvm::function_ref<Value(unsigned)> valueOf);
  /// What role k of the group uses in place of the leader's `v`, and its
  /// op at `op`'s place.
  Value inRole(Value v, unsigned k);
  Operation *inRole(Operation *op, unsigned k);
  /// A ring's first byte and a pipe's barrier array (empty or full) in
  /// shared memory, for the warp's role.
  Value ringOffset(Value ring);
  Value barrierBase(Value pipe, bool empty);
  /// An arith.constant whose value differs across the group: each role's,
  /// selected. Returns false for any other op.
  bool emitSharedConstant(Operation &op);
  /// What cake-derive gave `op` in the warp's role: its scratch's first
  /// byte and named barrier, its TMA descriptor (`leaderIndex` is the
  /// leader's, as `op` records it).
  Value scratchOffset(Operation *op);
  Value scratchBarrier(Operation *op);
  Value tmaDescriptor(Operation *op, int64_t leaderIndex);

  // Scalars from tensors (Scalars.cpp): cake.dim, cake.scalar.load.
  std::optional<LogicalResult> emitScalarOp(Operation &op);
  LogicalResult emitScalarLoad(ScalarLoadOp op);

  KernelOp kernel;
  gpu::GPUModuleOp module;
  MLIRContext *ctx;
  OpBuilder b;
  Location curLoc = UnknownLoc::get(kernel.getContext());

  IRMapping map;
  llvm::DenseMap<Value, TensorParams> tensors;
  SmallVector<Value> descriptors; // !llvm.ptr, by derived index
  llvm::DenseMap<Value, PipeInfo> pipes;
  /// (pipe, empty?) -> role -> the arrivals of each of the role's arrival
  /// sites on that barrier (noteArrivals, checkArrivals).
  llvm::MapVector<std::pair<Value, unsigned>,
                  llvm::MapVector<Operation *, SmallVector<int64_t, 2>>>
      arrivals;
  llvm::DenseMap<Value, RingInfo> rings;
  llvm::DenseMap<Value, TmemInfo> tmems;
  int64_t tmemAllocation = 0, tmemSlot = 0; // columns; shared-memory offset
  Value tmemBase;                           // i32: the allocation's address
  bool hasTcgen05 = false;                  // the target's
  bool hasTryWait = true;    // mbarrier.try_wait, else a test_wait loop
  bool hasAsyncProxy = true; // fence.proxy.async, fence.mbarrier_init
  Value smemBase, tid, warp;
  RoleState *role = nullptr;
  std::optional<SharedCodeGroup> sharedGroup; // while a group's body is emitted
  Block *entryBlock = nullptr; // allocas go here so LLVM promotes them
  // Inside a K loop of the form {wait; wgmma on the stage; release; yield},
  // one wgmma group stays in flight: the release of a stage is deferred
  // until the next iteration's wait_group(1) has retired the mma reading it.
  Value deferredStage; // !llvm.ptr to an i32 (-1: none), or null
  unsigned mmaInFlight;
  // A straight-line chain of wgmmas on one accumulator (a K split over
  // stages, unrolled): each group but the last commits without waiting, so
  // the tensor cores never drain between stages. The stages an unretired
  // group reads (`chainStages`) are released only once a later group's
  // wait_group(1) or the chain's final wait_group(0) has retired it.
  llvm::SmallDenseSet<std::pair<Value, Value>> chainStages; // (pipe, stage)
  SmallVector<std::pair<Value, Value>> chainReleases; // (pipe, stage)
  bool fpContract; // frag.map's float ops may fuse into FMAs
  bool flushDenormals; // f32 denormals flush to zero (.ftz)
  bool uniformWarp;    // the warp index is broadcast from lane 0
  bool mmaChain;   // straight-line wgmma chains stay in flight
  // wg-order: the first and last wgmma of each ordered chain (a fresh
  // accumulator's straight-line chain in a role of several warpgroups),
  // that role's warpgroups, and the first named barrier of the token ring.
  bool wgOrder;
  // wg-order-retire: the turn passes when the chain's last group retires,
  // not when it is issued.
  bool wgOrderRetire;
  llvm::DenseSet<Operation *> orderedFirst, orderedLast;
  bool turnToPass = false; // under retire-late: at the next wait
  int64_t orderWarpgroups = 0;
  int32_t orderBarrierBase = 0;
  // cake.role_turns: the kernel's turn order, the emitted role's index in
  // it (-1: none) and, while its tile loop's body is emitted, the first and
  // last op of the turn (roleTurnSpan).
  RoleTurns roleTurns;
  int roleTurnIndex = -1;
  Operation *turnFirst = nullptr, *turnLast = nullptr;
  // retire-late: a wgmma chain's last group retires at the first op that
  // reads its result (or cannot issue beside it) rather than at its commit,
  // with a wait_group that leaves the groups committed after it in flight:
  // global loads (the k-means ||c||^2 row), other chains and the register
  // math that does not need it (attention's softmax beside O += P V) run
  // meanwhile. Groups are numbered by commit (groupSeq); the releases of
  // the stages a pending group reads are held in pendingReleases.
  bool retireLate;
  // fence-waits: ptxas's scheduler hoists a WARPGROUP.DEPBAR above the
  // independent instructions before it (the attention forward's wait for
  // O += P V above all 66 MUFU.EX2 of the softmax), which undoes
  // retire-late; a fence.acq_rel.cta before the wait is not crossed.
  bool fenceWaits;
  struct PendingGroup {
    Value result;                                // the cake.mma's result
    int64_t seq;                                 // its commit's number
    SmallVector<std::pair<Value, Value>> stages; // (pipe, stage) it reads
  };
  SmallVector<PendingGroup> pendingGroups;
  // The RS form's A registers, packed and fenced at the frag.convert that
  // made the fragment (its k-slices' four registers each, in order).
  llvm::DenseMap<Value, SmallVector<Value>> packedA;
  SmallVector<std::pair<Value, Value>> pendingReleases; // (pipe, stage)
  // cake.gather's index entries, loaded once for the gathers of one chunk
  // (a tile's column slices share the list): by the emitted block, the
  // index tensor, the lowered position, the tile's rows and rows a step.
  using GatherListKey = std::tuple<Block *, Value, Value, int64_t, int64_t>;
  llvm::DenseMap<GatherListKey, SmallVector<Value>> gatherLists;
  int64_t groupSeq = 0;
  // Inside a loop that overlaps the previous tile's epilogue with this
  // tile's wgmmas (overlappedEpilogueLoop): the body's wgmmas commit without
  // waiting and their stages' releases wait in `released` until the end of
  // the iteration, where wait_group(0) retires them: the epilogue, which
  // reads the accumulator the previous iteration completed, runs between.
  struct LazyMma {
    llvm::DenseSet<Operation *> mmas, releases;
    SmallVector<std::pair<Value, Value>> released; // (pipe, stage), in order
  };
  std::optional<LazyMma> lazy;
};

} // namespace nvvm
} // namespace cake
} // namespace mlir

#endif // CAKE_PASSES_CONVERSION_CAKETONVVM_KERNELEMITTER_H
