// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- StageEpilogue.cpp - cake-stage-epilogue ----------------------------===//
//
// Stages a role's epilogue stores through a shared-memory ring: the role
// writes its fragment into a stage, and a new store role sends each stage
// to global memory with a TMA store.
//
//===----------------------------------------------------------------------===//

#include "cake/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_STAGEEPILOGUE
#include "cake/Passes.h.inc"
} // namespace cake
} // namespace mlir

using namespace mlir;
using namespace mlir::cake;

namespace {

struct StageEpiloguePass
    : public mlir::cake::impl::StageEpilogueBase<StageEpiloguePass> {
  using StageEpilogueBase::StageEpilogueBase;

  /// A store of a whole tile's fragment at the tile's coordinates, directly
  /// in a role's tile loop.
  static bool qualifies(StoreOp store) {
    auto tiles = dyn_cast<TilesOp>(store->getParentOp());
    auto frag = dyn_cast<FragType>(store.getValue().getType());
    // A TMA store cannot bound the rows more tightly than the tensor does.
    if (!tiles || !frag || frag.getShape().size() != 2 ||
        store.getCoords().size() != 2 || store.getRows())
      return false;
    ArrayRef<int64_t> tile =
        store->getParentOfType<KernelOp>().getTileShape();
    for (auto [i, c] : llvm::enumerate(store.getCoords())) {
      auto arg = dyn_cast<BlockArgument>(c);
      if (!arg || arg.getOwner() != &tiles.getBody().front() ||
          arg.getArgNumber() != i || i >= tile.size() ||
          tile[i] != frag.getShape()[i])
        return false;
    }
    return true;
  }

  LogicalResult stage(StoreOp store) {
    MLIRContext *ctx = store.getContext();
    auto kernel = store->getParentOfType<KernelOp>();
    auto role = store->getParentOfType<RoleOp>();
    auto tiles = cast<TilesOp>(store->getParentOp());
    auto frag = cast<FragType>(store.getValue().getType());
    Location loc = store.getLoc();
    auto emit = [&]() { return store.emitError("cake-stage-epilogue: "); };
    RingType ringType =
        RingType::getChecked(emit, ctx, int64_t(stages), frag.getShape(),
                             frag.getElementType(), int64_t(swizzle));
    if (!ringType)
      return failure();
    // The ring and its pipe, before the roles.
    OpBuilder b(role);
    Operation *firstRole = *kernel.getBody().front().getOps<RoleOp>().begin();
    b.setInsertionPoint(firstRole);
    Value ring =
        RingOp::create(b, loc, ringType, /*derived=*/RingLayoutAttr());
    Value pipe = PipeOp::create(b, loc, PipeType::get(ctx, int64_t(stages)),
                                ValueRange{ring});
    // The math role: write, fence, commit instead of the store.
    b.setInsertionPoint(store);
    Value s = PipeAcquireOp::create(b, loc, pipe);
    SmemWriteOp::create(b, loc, store.getValue(), ring, s);
    FenceProxyAsyncOp::create(b, loc);
    PipeCommitOp::create(b, loc, pipe, s);
    // The store role: the same tiles, from the same extents.
    b.setInsertionPointAfter(role);
    auto i32 = IntegerType::get(ctx, 32);
    auto storer = RoleOp::create(b, loc, StringAttr::get(ctx, std::string(storeName)),
                                 IntegerAttr(), IntegerAttr::get(i32, 1),
                                 IntegerAttr(), /*derived=*/RoleLayoutAttr());
    Block *body = new Block();
    storer.getBody().push_back(body);
    b.setInsertionPointToEnd(body);
    IRMapping map;
    SmallVector<Operation *> defs;
    SetVector<Operation *> needed;
    SmallVector<Value> work(tiles.getExtents());
    while (!work.empty()) {
      Value v = work.pop_back_val();
      Operation *def = v.getDefiningOp();
      if (!def || !role->isProperAncestor(def))
        continue;
      if (def->getNumRegions() != 0 || !isPure(def))
        if (!isa<DimOp>(def))
          return store.emitError("cake-stage-epilogue: the tile extents of "
                                 "role \"")
                 << role.getName() << "\" are not plain values";
      if (needed.insert(def))
        llvm::append_range(work, def->getOperands());
    }
    // Clone in the role's order.
    role.getBody().front().walk([&](Operation *op) {
      if (needed.contains(op))
        b.clone(*op, map);
    });
    SmallVector<Value> extents;
    for (Value e : tiles.getExtents())
      extents.push_back(map.lookupOrDefault(e));
    // The store role walks the storing role's tiles, its slice included:
    // they share the staging pipe.
    auto newTiles = TilesOp::create(b, loc, extents, tiles.getSliceAttr());
    Block *tileBody = new Block();
    for (BlockArgument a : tiles.getCoordinates())
      tileBody->addArgument(a.getType(), a.getLoc());
    newTiles.getBody().push_back(tileBody);
    b.setInsertionPointToEnd(tileBody);
    Value t = PipeWaitOp::create(b, loc, pipe);
    TmaStoreOp::create(b, loc, ring, t, store.getDst(),
                       tileBody->getArguments(), /*reduce=*/nullptr,
                       /*derived=*/TmaCopyAttr());
    PipeReleaseOp::create(b, loc, pipe, t);
    TilesYieldOp::create(b, loc);
    store.erase();
    return success();
  }

  void runOnOperation() override {
    SmallVector<StoreOp> stores;
    getOperation().walk([&](StoreOp store) {
      if (qualifies(store))
        stores.push_back(store);
    });
    for (StoreOp store : stores)
      if (failed(stage(store)))
        return signalPassFailure();
  }
};

} // namespace
