// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Tma.cpp - TMA copies -----------------------------------------------===//
//
// cake.tma.load becomes cp.async.bulk.tensor into the stage, completing on
// its pipe's full barrier (a multicast load: its CTA's slice into every
// CTA of the cluster); cake.tma.store (and its reduce forms) a bulk
// tensor store from the stage, waited for before the stage is released.
// The leader thread of a role whose threads all run issues them.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"


using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

std::optional<LogicalResult> KernelEmitter::emitTmaOp(Operation &op) {
  if (auto t = dyn_cast<TmaLoadOp>(op))
    return emitTmaLoad(t);
  if (auto t = dyn_cast<TmaStoreOp>(op))
    return emitTmaStore(t);
  return std::nullopt;
}

LogicalResult KernelEmitter::emitTmaLoad(TmaLoadOp op) {
  FailureOr<TmaCopyAttr> copy = derived(op);
  if (failed(copy))
    return failure();
  int64_t desc = copy->getDescriptor();
  if (desc < 0 || desc >= (int64_t)descriptors.size())
    return op.emitError("missing derived descriptor index");
  const RingInfo &ring = rings[op.getDst()];
  Value pipe;
  for (auto &[v, info] : pipes)
    for (Value r : cast<PipeOp>(v.getDefiningOp()).getRings())
      if (r == op.getDst())
        pipe = v;
  if (!pipe)
    return op.emitError("the ring is not in any pipe; its copies could not "
                        "signal a barrier");
  Value stage = map.lookup(op.getStage());
  Value mbar = stageAt(barrierBase(pipe, /*empty=*/false), stage, 8);
  SmallVector<Value> coords = tmaCoordinates(op.getCoords());
  OpBuilder::InsertionGuard g(b);
  if (role && role->allLanes)
    enterLeader();
  // A multicast copy (derived slices n): the CTA of cluster rank r loads
  // rows [r * rows/n, (r+1) * rows/n) of the box into that slice of the
  // stage of every CTA of the cluster, each completing on its own copy of
  // the full barrier (same offset).
  Value dst;
  Value mask;
  if (int64_t slices = copy->getSlices(); slices > 1) {
    RingType type = op.getDst().getType();
    int64_t sliceRows = type.getShape()[0] / slices;
    Value rank = NVVM::ClusterId::create(b, loc(), b.getI32Type());
    Value sliceOffset =
        arith::MulIOp::create(b, loc(), rank, i32c(ring.tileBytes / slices));
    Value stageOffset =
        arith::MulIOp::create(b, loc(), stage, i32c(ring.tileBytes));
    Value offset =
        arith::AddIOp::create(b, loc(), ringOffset(op.getDst()), stageOffset);
    dst = smemAt(arith::AddIOp::create(b, loc(), offset, sliceOffset));
    // Coordinates are innermost first: the tile's rows are entry rank-1.
    Value &row = coords[type.getRank() - 1];
    Value rowOffset = arith::MulIOp::create(b, loc(), rank, i32c(sliceRows));
    row = arith::AddIOp::create(b, loc(), row, rowOffset);
    mask = arith::ConstantIntOp::create(b, loc(), b.getI16Type(),
                                        (int64_t(1) << slices) - 1);
  } else {
    dst = stageAt(ringOffset(op.getDst()), stage, ring.tileBytes);
  }
  // The copy writes through the shared::cluster window (address space 7);
  // a CTA's own shared memory is part of it.
  Value dstCluster = LLVM::AddrSpaceCastOp::create(
      b, loc(), LLVM::LLVMPointerType::get(ctx, 7), dst);
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc(), dstCluster, tmaDescriptor(op, desc), coords, mbar, ValueRange{},
      mask, Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
      NVVM::CTAGroupKindAttr(), Value());
  return success();
}

LogicalResult KernelEmitter::emitTmaStore(TmaStoreOp op) {
  FailureOr<TmaCopyAttr> copy = derived(op);
  if (failed(copy))
    return failure();
  int64_t desc = copy->getDescriptor();
  if (desc < 0 || desc >= (int64_t)descriptors.size())
    return op.emitError("missing derived descriptor index");
  const RingInfo &ring = rings[op.getSrc()];
  Value stage = map.lookup(op.getStage());
  Value src = stageAt(ringOffset(op.getSrc()), stage, ring.tileBytes);
  SmallVector<Value> coords = tmaCoordinates(op.getCoords());
  OpBuilder::InsertionGuard g(b);
  if (role && role->allLanes)
    enterLeader();
  if (std::optional<ReduceKind> kind = op.getReduce()) {
    NVVM::TMAReduxKind redux = *kind == ReduceKind::sum   ? NVVM::TMAReduxKind::ADD
                               : *kind == ReduceKind::min ? NVVM::TMAReduxKind::MIN
                                                          : NVVM::TMAReduxKind::MAX;
    NVVM::CpAsyncBulkTensorReduceOp::create(
        b, loc(), tmaDescriptor(op, desc), src, redux, NVVM::TMAStoreMode::TILE,
        coords, /*l2CacheHint=*/Value());
  } else {
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        b, loc(), tmaDescriptor(op, desc), src, coords, /*l2CacheHint=*/Value(),
        NVVM::TMAStoreModeAttr::get(ctx, NVVM::TMAStoreMode::TILE),
        /*predicate=*/Value());
  }
  NVVM::CpAsyncBulkCommitGroupOp::create(b, loc());
  // The stage is free again once the copy has read it (the writes to
  // global memory may still be under way): the release that follows may
  // hand it back.
  NVVM::CpAsyncBulkWaitGroupOp::create(b, loc(), 0u, b.getUnitAttr());
  return success();
}
