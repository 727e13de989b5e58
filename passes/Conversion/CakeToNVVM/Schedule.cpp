// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Schedule.cpp - Tiles and control flow ------------------------------===//
//
// cake.tiles becomes the persistent (or one-shot) tile loop with the
// schedule's group-M rasterization and its slices; scf.for carries the
// wgmma groups it keeps in flight (a pipelined K loop, an overlapped
// epilogue); scf.if carries fragments as LLVM structs.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "cake/Analysis/Handoffs.h"
#include "cake/Analysis/MmaChains.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

std::optional<LogicalResult> KernelEmitter::emitScheduleOp(Operation &op) {
  if (auto t = dyn_cast<TilesOp>(op))
    return emitTiles(t);
  if (isa<TilesYieldOp>(op)) // emitTiles yields the carried values
    return success();
  if (auto f = dyn_cast<scf::ForOp>(op))
    return emitFor(f);
  if (auto i = dyn_cast<scf::IfOp>(op))
    return emitIf(i);
  return std::nullopt;
}

LogicalResult KernelEmitter::emitTiles(TilesOp tiles) {
  ArrayRef<int64_t> tile = kernel.getTileShape();
  size_t rank = tile.size();
  if (rank > 2)
    return tiles.emitError("3-D tile schedules are not lowered yet");
  SmallVector<Value> counts;
  for (auto [e, t] : llvm::zip(tiles.getExtents(), tile)) {
    Value ext = map.lookupOrDefault(e);
    counts.push_back(arith::CeilDivUIOp::create(b, loc(), ext, idxc(t)));
  }
  // A cluster of n CTAs walks the tiles as one: its unit is n tiles along
  // the first dimension (the tile rows rounded up to whole clusters), CTA
  // r of the cluster taking the r-th. They share the other dimension's
  // tile (multicast copies load it once) and run the same sequence, which
  // a pipe released cluster-wide needs; a CTA past the edge runs its tile
  // with zero-filled loads and masked stores.
  int64_t cluster = kernel.getCluster().value_or(1);
  Value clusterRank;
  if (cluster > 1)
    counts[0] = arith::CeilDivUIOp::create(b, loc(), counts[0], idxc(cluster));
  Value total = counts[0];
  if (rank == 2)
    total = arith::MulIOp::create(b, loc(), counts[0], counts[1]);
  Value start = gpu::BlockIdOp::create(b, loc(), gpu::Dimension::x);
  Value step = gpu::GridDimOp::create(b, loc(), gpu::Dimension::x);
  if (cluster > 1) {
    clusterRank = arith::RemUIOp::create(b, loc(), start, idxc(cluster));
    start = arith::DivUIOp::create(b, loc(), start, idxc(cluster));
    step = arith::DivUIOp::create(b, loc(), step, idxc(cluster));
  }
  // slice k of n: the CTA's k-th, (k+n)-th, ... tile of its sequence.
  if (auto [k, n] = tiles.getSliceOrWhole(); n > 1) {
    start = arith::AddIOp::create(
        b, loc(), start, arith::MulIOp::create(b, loc(), step, idxc(k)));
    step = arith::MulIOp::create(b, loc(), step, idxc(n));
  }
  // Carried values become the loop's: fragments as their register structs.
  SmallVector<Value> inits;
  for (Value v : tiles.getInits()) {
    if (auto frag = dyn_cast<FragType>(v.getType()))
      if (failed(fragInfo(frag, tiles)))
        return failure();
    inits.push_back(map.lookupOrDefault(v));
  }
  auto loop = scf::ForOp::create(b, loc(), start, total, step, inits);
  for (auto [from, to] :
       llvm::zip(tiles.getRegionIterArgs(), loop.getRegionIterArgs()))
    map.map(from, to);
  for (auto [from, to] : llvm::zip(tiles.getResults(), loop.getResults()))
    map.map(from, to);
  OpBuilder::InsertionGuard g(b);
  // scf.for::create adds an empty yield only when nothing is carried.
  if (loop.getBody()->empty())
    b.setInsertionPointToEnd(loop.getBody());
  else
    b.setInsertionPoint(loop.getBody()->getTerminator());
  Value t = loop.getInductionVar();
  // The CTA's tile row from its cluster's (the identity without clusters).
  auto ctaRow = [&](Value row) -> Value {
    if (cluster == 1)
      return row;
    Value first = arith::MulIOp::create(b, loc(), row, idxc(cluster));
    return arith::AddIOp::create(b, loc(), first, clusterRank);
  };
  if (rank == 1) {
    map.map(tiles.getBody().getArgument(0),
            arith::MulIOp::create(b, loc(), ctaRow(t), idxc(tile[0])));
  } else {
    // Group-M rasterization: walk `groupM` tile rows at a time so that
    // consecutive tiles share B columns and A rows in L2 (in cluster rows,
    // ceil(groupM / n) at a time).
    int64_t groupM = 1;
    if (auto p = dyn_cast<PersistentAttr>(kernel.getSchedule()))
      groupM = p.getGroupM();
    groupM = (groupM + cluster - 1) / cluster;
    Value gm = idxc(groupM);
    Value groupSize = arith::MulIOp::create(b, loc(), gm, counts[1]);
    Value group = arith::DivUIOp::create(b, loc(), t, groupSize);
    Value firstM = arith::MulIOp::create(b, loc(), group, gm);
    Value rows = arith::MinUIOp::create(
        b, loc(), arith::SubIOp::create(b, loc(), counts[0], firstM), gm);
    Value inGroup = arith::RemUIOp::create(b, loc(), t, groupSize);
    Value tm = arith::AddIOp::create(
        b, loc(), firstM, arith::RemUIOp::create(b, loc(), inGroup, rows));
    Value tn = arith::DivUIOp::create(b, loc(), inGroup, rows);
    map.map(tiles.getBody().getArgument(0),
            arith::MulIOp::create(b, loc(), ctaRow(tm), idxc(tile[0])));
    map.map(tiles.getBody().getArgument(1),
            arith::MulIOp::create(b, loc(), tn, idxc(tile[1])));
  }
  // cake.role_turns: the role takes its turn around the body's main loop.
  if (roleTurnIndex >= 0)
    std::tie(turnFirst, turnLast) = roleTurnSpan(tiles);
  LogicalResult body = emitBlock(tiles.getBody().front());
  turnFirst = turnLast = nullptr;
  if (failed(body))
    return failure();
  if (!tiles.getInits().empty()) {
    // emitBlock retired every wgmma group before the yield (it reads them).
    SmallVector<Value> next;
    for (Value v : tiles.getBody().front().getTerminator()->getOperands()) {
      Value lowered = map.lookupOrDefault(v);
      if (isa<FragType>(v.getType()))
        lowered = copyFragment(lowered);
      next.push_back(lowered);
    }
    scf::YieldOp::create(b, loc(), next);
  }
  return success();
}

LogicalResult KernelEmitter::emitFor(scf::ForOp forOp) {
  std::optional<OverlappedEpilogueLoop> overlap;
  if (mmaInFlight > 0 && !lazy && !deferredStage)
    overlap = matchOverlappedEpilogueLoop(forOp);
  if (overlap) {
    LazyMma state;
    for (MmaOp m : overlap->mmas)
      state.mmas.insert(m);
    for (PipeReleaseOp r : overlap->releases)
      state.releases.insert(r);
    lazy = std::move(state);
  }
  bool pipelined = !overlap && mmaInFlight > 0 && isPipelinedMmaLoop(forOp);
  Value pipe;
  if (pipelined) {
    for (Operation &op : *forOp.getBody())
      if (auto r = dyn_cast<PipeReleaseOp>(op))
        pipe = r.getPipe();
    // A deferred release holds mma-in-flight stages past the next wait: a
    // pipe with no more stages than that would wait for itself forever.
    if (cast<PipeType>(pipe.getType()).getStages() <= int64_t(mmaInFlight))
      pipelined = false;
  }
  if (pipelined) {
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(entryBlock);
      Value one = i32c(1);
      deferredStage = LLVM::AllocaOp::create(
          b, loc(), LLVM::LLVMPointerType::get(ctx), b.getI32Type(), one);
    }
    LLVM::StoreOp::create(b, loc(), i32c(-1), deferredStage);
  }
  // A consumer of a dealt pipe (slice k of n) takes positions k I .. of
  // every n I the producer fills, I the loop's trip count: it skips the
  // earlier slices' stages before its loop and the later ones' after it.
  struct DealtSkip {
    Value slot, trips;
    int64_t after; ///< tiles of the later slices, skipped after the loop
  };
  SmallVector<DealtSkip> dealtSkips;
  for (Operation &op : *forOp.getBody()) {
    auto wait = dyn_cast<PipeWaitOp>(op);
    std::optional<DealtPipe> dealt =
        wait ? dealtPipe(wait.getPipe().getDefiningOp<PipeOp>()) : std::nullopt;
    if (!dealt || !role)
      continue;
    int64_t n = dealt->consumers.size();
    int64_t k =
        llvm::find(dealt->consumers, role->role) - dealt->consumers.begin();
    if (k == n)
      continue;
    // sync.dealt-pipe in cake-verify; a module lowered without it is
    // refused here: without turns in slice order the skips race.
    if (roleTurns.indexOf(role->role) != int(k))
      return forOp.emitError("[sync.dealt-pipe] role \"")
             << role->role.getName() << "\" takes slice " << k
             << " of a dealt pipe but not turn " << k
             << " (cake.role_turns); run cake-verify";
    Value lb = map.lookupOrDefault(forOp.getLowerBound());
    Value ub = map.lookupOrDefault(forOp.getUpperBound());
    Value st = map.lookupOrDefault(forOp.getStep());
    Value span = arith::MaxSIOp::create(
        b, loc(), arith::SubIOp::create(b, loc(), ub, lb), idxc(0));
    Value trips = arith::IndexCastOp::create(
        b, loc(), b.getI32Type(),
        arith::CeilDivSIOp::create(b, loc(), span, st));
    Value slot = role->ctr.lookup({wait.getPipe(), 0u});
    advanceCounter(slot, trips, k);
    dealtSkips.push_back({slot, trips, n - 1 - k});
  }
  SmallVector<Value> inits;
  for (Value v : forOp.getInitArgs())
    inits.push_back(map.lookupOrDefault(v));
  auto newFor =
      scf::ForOp::create(b, loc(), map.lookupOrDefault(forOp.getLowerBound()),
                         map.lookupOrDefault(forOp.getUpperBound()),
                         map.lookupOrDefault(forOp.getStep()), inits);
  map.map(forOp.getInductionVar(), newFor.getInductionVar());
  for (auto [o, n] :
       llvm::zip(forOp.getRegionIterArgs(), newFor.getRegionIterArgs()))
    map.map(o, n);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(newFor.getBody());
    // scf.for::create adds an empty yield when there are no iter_args.
    if (!newFor.getBody()->empty())
      b.setInsertionPoint(newFor.getBody()->getTerminator());
    for (Operation &op : *forOp.getBody()) {
      if (overlap && isa<scf::YieldOp>(op)) {
        // This tile's wgmmas ran beside the epilogue; retire them, so the
        // accumulator carried to the next iteration is complete, and free
        // their stages.
        NVVM::WgmmaWaitGroupSyncOp::create(b, loc(), 0);
        releaseHeld(lazy->released);
      }
      if (failed(emitOp(op)))
        return failure();
    }
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    if (!yield.getResults().empty()) {
      SmallVector<Value> vals;
      for (Value v : yield.getResults())
        vals.push_back(map.lookupOrDefault(v));
      scf::YieldOp::create(b, loc(), vals);
    }
  }
  for (auto [o, n] : llvm::zip(forOp.getResults(), newFor.getResults()))
    map.map(o, n);
  for (const DealtSkip &skip : dealtSkips)
    advanceCounter(skip.slot, skip.trips, skip.after);
  if (pipelined) {
    // Retire the last group and release the stage it read.
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc(), 0);
    releaseDeferred(pipe);
    deferredStage = Value();
  }
  if (overlap)
    lazy.reset();
  return success();
}

void KernelEmitter::advanceCounter(Value slot, Value trips, int64_t times) {
  if (times == 0)
    return;
  Value cur = LLVM::LoadOp::create(b, loc(), b.getI32Type(), slot);
  Value by = arith::MulIOp::create(b, loc(), trips, i32c(times));
  LLVM::StoreOp::create(b, loc(), arith::AddIOp::create(b, loc(), cur, by),
                        slot);
}

LogicalResult KernelEmitter::emitIf(scf::IfOp ifOp) {
  SmallVector<Type> types;
  for (Type t : ifOp.getResultTypes()) {
    if (auto frag = dyn_cast<FragType>(t)) {
      FailureOr<FragInfo> info = fragInfo(frag, ifOp);
      if (failed(info))
        return failure();
      types.push_back(info->type);
    } else if (auto topk = dyn_cast<TopKType>(t)) {
      FailureOr<Type> st = topkStructType(topk, ifOp);
      if (failed(st))
        return failure();
      types.push_back(*st);
    } else if (t.isIntOrIndexOrFloat()) {
      types.push_back(t);
    } else {
      return ifOp.emitError("convert-cake-to-nvvm: an scf.if result of type ")
             << t << " is not lowered yet";
    }
  }
  bool withElse = !ifOp.getElseRegion().empty();
  auto newIf = scf::IfOp::create(
      b, loc(), types, map.lookupOrDefault(ifOp.getCondition()), withElse);
  for (auto [from, to] : {std::pair(ifOp.thenBlock(), newIf.thenBlock()),
                          std::pair(ifOp.elseBlock(), newIf.elseBlock())}) {
    if (!from)
      continue;
    OpBuilder::InsertionGuard g(b);
    // Without results, create() already put an empty yield there.
    if (to->empty())
      b.setInsertionPointToEnd(to);
    else
      b.setInsertionPoint(to->getTerminator());
    // A register branch leaves the groups in flight for the ops after it.
    if (failed(emitBlock(*from, /*retireAtEnd=*/!isRegisterBranch(*ifOp))))
      return failure();
    if (!types.empty()) {
      SmallVector<Value> vals;
      for (Value v : cast<scf::YieldOp>(from->getTerminator()).getResults())
        vals.push_back(map.lookupOrDefault(v));
      scf::YieldOp::create(b, loc(), vals);
    }
  }
  for (auto [o, n] : llvm::zip(ifOp.getResults(), newIf.getResults()))
    map.map(o, n);
  return success();
}
