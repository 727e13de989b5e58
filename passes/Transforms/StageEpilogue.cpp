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

  /// The constant column a store of a tile's rows writes at, past the
  /// tile's own coordinates (attention's O halves: [bh, m, 64 i] of a
  /// [1, rows] tile), or null when the store has no such coordinate.
  static arith::ConstantIndexOp trailingColumn(StoreOp store,
                                               ArrayRef<int64_t> tile) {
    if (store.getCoords().size() != tile.size() + 1)
      return {};
    return store.getCoords().back().getDefiningOp<arith::ConstantIndexOp>();
  }

  /// A store of a whole tile's fragment at the tile's coordinates, directly
  /// in a role's tile loop: the fragment spans the tile ([M, N] at [m, n]),
  /// or a column band of its rows at a constant column ([R, C] at
  /// [b.., m, c] of a [1.., R] tile).
  static bool qualifies(StoreOp store) {
    auto tiles = dyn_cast<TilesOp>(store->getParentOp());
    auto frag = dyn_cast<FragType>(store.getValue().getType());
    // A TMA store cannot bound the rows more tightly than the tensor does
    // (nor write a transposed tile or every S-th row).
    if (!tiles || !frag || frag.getShape().size() != 2 || store.getRows() ||
        store.getTransposed() || store.getEvery())
      return false;
    ArrayRef<int64_t> tile =
        store->getParentOfType<KernelOp>().getTileShape();
    ArrayRef<int64_t> shape = frag.getShape();
    bool band = bool(trailingColumn(store, tile));
    if (band) {
      // Rows along the tile's last dimension, the others single.
      for (int64_t extent : tile.drop_back())
        if (extent != 1)
          return false;
      if (tile.empty() || tile.back() != shape[0])
        return false;
    } else if (store.getCoords().size() != 2 || tile.size() != 2) {
      return false;
    }
    for (auto [i, c] : llvm::enumerate(store.getCoords())) {
      if (band && i == tile.size())
        break; // the constant column
      auto arg = dyn_cast<BlockArgument>(c);
      if (!arg || arg.getOwner() != &tiles.getBody().front() ||
          arg.getArgNumber() != i || i >= tile.size() ||
          (!band && tile[i] != shape[i]))
        return false;
    }
    return true;
  }

  /// The coordinates a TMA store of `store`'s stage writes at for the tile
  /// at `corner`: the corner, and the store's constant column if it has
  /// one (created at `b`'s point).
  static SmallVector<Value> storeCoords(OpBuilder &b, StoreOp store,
                                        ValueRange corner) {
    SmallVector<Value> coords(corner);
    ArrayRef<int64_t> tile = store->getParentOfType<KernelOp>().getTileShape();
    if (arith::ConstantIndexOp col = trailingColumn(store, tile))
      coords.push_back(
          arith::ConstantIndexOp::create(b, store.getLoc(), col.value()));
    return coords;
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
    // The sending role, checked before anything is rewritten.
    TilesOp senderTiles;
    if (!intoRole.empty()) {
      FailureOr<TilesOp> found = findSender(store, role, tiles);
      if (failed(found))
        return failure();
      senderTiles = *found;
    }
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
    if (senderTiles)
      return sendFromRole(store, ring, pipe, senderTiles);
    // The store role: the same tiles, from the same extents.
    b.setInsertionPointAfter(role);
    auto i32 = IntegerType::get(ctx, 32);
    auto storer =
        RoleOp::create(b, loc, StringAttr::get(ctx, std::string(storeName)),
                       IntegerAttr(), IntegerAttr::get(i32, 1), IntegerAttr(),
                       /*shares_code_with=*/StringAttr(),
                       /*derived=*/RoleLayoutAttr());
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
                       storeCoords(b, store, tileBody->getArguments()),
                       /*reduce=*/nullptr, /*derived=*/TmaCopyAttr());
    PipeReleaseOp::create(b, loc, pipe, t);
    TilesYieldOp::create(b, loc);
    store.erase();
    return success();
  }

  /// The tile loop of the role named by `into`, which sends the stages:
  /// another role than the one computing the tile, with one cake.tiles
  /// walking the same 2-D tiles (and slice).
  FailureOr<TilesOp> findSender(StoreOp store, RoleOp mathRole,
                                TilesOp mathTiles) {
    auto kernel = store->getParentOfType<KernelOp>();
    auto emit = [&]() {
      return store.emitError("cake-stage-epilogue: into=\"")
             << intoRole << "\": ";
    };
    RoleOp sender;
    for (auto r : kernel.getBody().front().getOps<RoleOp>())
      if (r.getName() == intoRole)
        sender = r;
    if (!sender)
      return emit() << "the kernel has no role of that name";
    if (sender == mathRole)
      return emit() << "the role that computes the tile cannot also wait "
                       "for its own stage";
    auto loops = sender.getBody().front().getOps<TilesOp>();
    if (!llvm::hasSingleElement(loops))
      return emit() << "the role needs exactly one cake.tiles loop";
    TilesOp loop = *loops.begin();
    if (loop.getCoordinates().size() != 2 ||
        loop.getSliceOrWhole() != mathTiles.getSliceOrWhole())
      return emit() << "its tile loop must walk the same 2-D tiles (and "
                       "slice) as role \""
                    << mathRole.getName() << "\"";
    return loop;
  }

  /// The stages sent by an existing role (`into`), one tile behind: its
  /// tile loop `old` carries a first-tile flag and the previous tile's
  /// corner, and after issuing a tile's work (its copies) waits for the
  /// previous tile's stage and stores it; the last tile's follows the
  /// loop. The sync rules count these waits through the flag (once per
  /// tile).
  LogicalResult sendFromRole(StoreOp store, Value ring, Value pipe,
                             TilesOp old) {
    Location loc = store.getLoc();
    OpBuilder b(old);
    Type i1 = b.getI1Type(), index = b.getIndexType();
    Value yes = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    Value no = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    // The loop again, carrying (first, previous m, previous n) after what
    // it carried.
    unsigned carried = old.getInits().size();
    SmallVector<Value> inits(old.getInits());
    inits.append({yes, zero, zero});
    SmallVector<Type> types(old.getResultTypes());
    types.append({i1, index, index});
    auto loop = TilesOp::create(b, old.getLoc(), types, old.getExtents(), inits,
                                old.getSliceAttr(), old.getDerivedAttr());
    loop.getBody().takeBody(old.getBody());
    Block &body = loop.getBody().front();
    Value first = body.addArgument(i1, loc);
    Value pm = body.addArgument(index, loc);
    Value pn = body.addArgument(index, loc);
    auto send = [&](Value m, Value n) {
      Value t = PipeWaitOp::create(b, loc, pipe);
      TmaStoreOp::create(b, loc, ring, t, store.getDst(),
                         storeCoords(b, store, ValueRange{m, n}),
                         /*reduce=*/nullptr, /*derived=*/TmaCopyAttr());
      PipeReleaseOp::create(b, loc, pipe, t);
    };
    // Before the yield: the previous tile's stage, on every tile but the
    // first.
    Operation *yield = body.getTerminator();
    b.setInsertionPoint(yield);
    Value more = arith::XOrIOp::create(b, loc, first, yes);
    auto later = scf::IfOp::create(b, loc, more, /*withElseRegion=*/false);
    b.setInsertionPointToStart(later.thenBlock());
    send(pm, pn);
    b.setInsertionPoint(yield);
    SmallVector<Value> next(yield->getOperands());
    next.append({no, body.getArgument(0), body.getArgument(1)});
    TilesYieldOp::create(b, loc, next);
    yield->erase();
    for (unsigned i = 0; i < carried; ++i)
      old.getResult(i).replaceAllUsesWith(loop.getResult(i));
    old.erase();
    // After the loop: the last tile's, when there was one.
    b.setInsertionPointAfter(loop);
    Value ran = arith::XOrIOp::create(b, loc, loop.getResult(carried), yes);
    auto last = scf::IfOp::create(b, loc, ran, /*withElseRegion=*/false);
    b.setInsertionPointToStart(last.thenBlock());
    send(loop.getResult(carried + 1), loop.getResult(carried + 2));
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
