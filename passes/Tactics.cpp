//===- Tactics.cpp - Rewrites that each change one decision ---------------===//
//
// The tactics cake-evolve composes: stage count, swizzle, register budget,
// raster order, schedule kind, tile shape, warp specialization, an
// epilogue overlapped with the next tile's wgmmas, an epilogue staged
// through shared memory for TMA stores, ping-pong consumers. Each
// changes the types, attributes or roles that hold one decision; every use
// sees the change through its operand types, and the pass manager's
// verifier re-checks the op contracts after each.
//
//===----------------------------------------------------------------------===//

#include "cake/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_SETSTAGES
#define GEN_PASS_DEF_SETSWIZZLE
#define GEN_PASS_DEF_SETREGS
#define GEN_PASS_DEF_SETRASTER
#define GEN_PASS_DEF_SETMMACHAIN
#define GEN_PASS_DEF_SETARGMIN
#define GEN_PASS_DEF_SETWGORDER
#define GEN_PASS_DEF_SETRETIRELATE
#define GEN_PASS_DEF_SETSCHEDULE
#define GEN_PASS_DEF_SETTILE
#define GEN_PASS_DEF_WARPSPECIALIZE
#define GEN_PASS_DEF_OVERLAPEPILOGUE
#define GEN_PASS_DEF_STAGEEPILOGUE
#define GEN_PASS_DEF_PINGPONG
#include "cake/Transforms/Passes.h.inc"
} // namespace cake
} // namespace mlir

using namespace mlir;
using namespace mlir::cake;

namespace {

/// Gives ring `ring` a new type with `stages` and `swizzle`; emits at the
/// ring and returns failure if that type is invalid.
LogicalResult retypeRing(RingOp ring, int64_t stages, int64_t swizzle) {
  auto t = cast<RingType>(ring.getType());
  auto emit = [&]() { return ring.emitError(); };
  RingType n = RingType::getChecked(emit, ring.getContext(), stages,
                                    t.getShape(), t.getElementType(), swizzle);
  if (!n)
    return failure();
  ring.getResult().setType(n);
  return success();
}

struct SetStagesPass
    : public mlir::cake::impl::SetStagesBase<SetStagesPass> {
  using SetStagesBase::SetStagesBase;
  void runOnOperation() override {
    WalkResult r = getOperation().walk([&](KernelOp kernel) {
      auto pipes = llvm::to_vector(kernel.getBody().front().getOps<PipeOp>());
      if (pipe >= pipes.size()) {
        kernel.emitError("cake-set-stages: the kernel has ")
            << pipes.size() << " pipes, no pipe #" << unsigned(pipe);
        return WalkResult::interrupt();
      }
      if (stages < 1) {
        kernel.emitError("cake-set-stages: stages must be at least 1");
        return WalkResult::interrupt();
      }
      PipeOp p = pipes[pipe];
      for (Value v : p.getRings()) {
        auto ring = v.getDefiningOp<RingOp>();
        if (!ring || failed(retypeRing(ring, stages,
                                       cast<RingType>(v.getType()).getSwizzle())))
          return WalkResult::interrupt();
      }
      p.getResult().setType(PipeType::get(p.getContext(), stages));
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};

struct SetSwizzlePass
    : public mlir::cake::impl::SetSwizzleBase<SetSwizzlePass> {
  using SetSwizzleBase::SetSwizzleBase;
  void runOnOperation() override {
    WalkResult r = getOperation().walk([&](KernelOp kernel) {
      auto rings = llvm::to_vector(kernel.getBody().front().getOps<RingOp>());
      if (ring >= rings.size()) {
        kernel.emitError("cake-set-swizzle: the kernel has ")
            << rings.size() << " rings, no ring #" << unsigned(ring);
        return WalkResult::interrupt();
      }
      RingOp op = rings[ring];
      if (failed(retypeRing(op, cast<RingType>(op.getType()).getStages(),
                            swizzle)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};

struct SetRegsPass : public mlir::cake::impl::SetRegsBase<SetRegsPass> {
  using SetRegsBase::SetRegsBase;
  void runOnOperation() override {
    bool found = false;
    getOperation().walk([&](RoleOp r) {
      if (r.getName() != role)
        return;
      found = true;
      if (regs == 0)
        r.removeRegsAttr();
      else
        r.setRegsAttr(IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                       regs));
    });
    if (!found) {
      getOperation().emitError("cake-set-regs: no role named \"")
          << role.getValue() << "\"";
      signalPassFailure();
    }
  }
};

struct SetRasterPass : public mlir::cake::impl::SetRasterBase<SetRasterPass> {
  using SetRasterBase::SetRasterBase;
  void runOnOperation() override {
    WalkResult r = getOperation().walk([&](KernelOp kernel) {
      auto p = dyn_cast<PersistentAttr>(kernel.getSchedule());
      if (!p || groupM < 1) {
        kernel.emitError("cake-set-raster: ")
            << (p ? "group-m must be at least 1"
                  : "the raster order is a persistent schedule's; this "
                    "kernel has a grid schedule");
        return WalkResult::interrupt();
      }
      kernel.setScheduleAttr(
          PersistentAttr::get(kernel.getContext(), p.getTile(), groupM));
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};

/// Records a lowering decision on every kernel as a bool attribute, which
/// convert-cake-to-nvvm follows over its own option.
static void setKernelFlag(ModuleOp module, StringRef name, bool value) {
  module.walk([&](KernelOp kernel) {
    kernel->setAttr(name, BoolAttr::get(kernel.getContext(), value));
  });
}

struct SetMmaChainPass
    : public mlir::cake::impl::SetMmaChainBase<SetMmaChainPass> {
  using SetMmaChainBase::SetMmaChainBase;
  void runOnOperation() override {
    setKernelFlag(getOperation(), kMmaChainAttrName, enable);
  }
};

struct SetWgOrderPass
    : public mlir::cake::impl::SetWgOrderBase<SetWgOrderPass> {
  using SetWgOrderBase::SetWgOrderBase;
  void runOnOperation() override {
    setKernelFlag(getOperation(), kWgOrderAttrName, enable);
    setKernelFlag(getOperation(), kWgOrderRetireAttrName, enable && retire);
  }
};

struct SetRetireLatePass
    : public mlir::cake::impl::SetRetireLateBase<SetRetireLatePass> {
  using SetRetireLateBase::SetRetireLateBase;
  void runOnOperation() override {
    setKernelFlag(getOperation(), kRetireLateAttrName, enable);
  }
};

struct SetArgminPass
    : public mlir::cake::impl::SetArgminBase<SetArgminPass> {
  using SetArgminBase::SetArgminBase;
  void runOnOperation() override {
    bool found = role.empty();
    getOperation().walk([&](RoleOp r) {
      if (!role.empty() && r.getName() != role)
        return;
      found = true;
      r.walk([&](FragArgminOp argmin) {
        FragType in = argmin.getInput().getType();
        if (packed && (!in.getElementType().isF32() ||
                       in.getShape().back() > 1024)) {
          argmin.emitRemark("cake-set-argmin: left exact (a packed argmin "
                            "needs f32 values and at most 1024 columns)");
          return;
        }
        argmin.setPacked(packed);
      });
    });
    if (!found) {
      getOperation().emitError("cake-set-argmin: no role named '")
          << role.getValue() << "'";
      signalPassFailure();
    }
  }
};

struct SetSchedulePass
    : public mlir::cake::impl::SetScheduleBase<SetSchedulePass> {
  using SetScheduleBase::SetScheduleBase;
  void runOnOperation() override {
    if (kind != "persistent" && kind != "grid") {
      getOperation().emitError("cake-set-schedule: kind must be persistent "
                               "or grid, got '")
          << kind.getValue() << "'";
      return signalPassFailure();
    }
    if (kind == "grid" && groupM > 1) {
      getOperation().emitError("cake-set-schedule: group-m applies to a "
                               "persistent schedule");
      return signalPassFailure();
    }
    getOperation().walk([&](KernelOp kernel) {
      llvm::SmallVector<int64_t> tile(kernel.getTileShape());
      if (kind == "grid") {
        kernel.setScheduleAttr(GridAttr::get(kernel.getContext(), tile));
        return;
      }
      int64_t g = 1;
      if (auto p = dyn_cast<PersistentAttr>(kernel.getSchedule()))
        g = p.getGroupM();
      if (groupM)
        g = groupM;
      kernel.setScheduleAttr(PersistentAttr::get(kernel.getContext(), tile, g));
    });
  }
};

/// Which tile coordinates (bits) a value is computed from.
unsigned tileBits(Value v, Block *tilesBody) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == tilesBody ? 1u << arg.getArgNumber() : 0;
  unsigned bits = 0;
  if (Operation *def = v.getDefiningOp())
    for (Value operand : def->getOperands())
      bits |= tileBits(operand, tilesBody);
  return bits;
}

struct SetTilePass : public mlir::cake::impl::SetTileBase<SetTilePass> {
  using SetTileBase::SetTileBase;

  LogicalResult retile(KernelOp kernel) {
    SmallVector<int64_t> oldTile(kernel.getTileShape());
    SmallVector<int64_t> tile = oldTile;
    if (m)
      tile[0] = m;
    if (n && tile.size() > 1)
      tile[1] = n;
    else if (n)
      return kernel.emitError("cake-set-tile: n applies to a two-dimensional "
                              "schedule; this kernel's tile is ")
             << oldTile[0];
    if (m && tile[0] % 64 != 0)
      return kernel.emitError("cake-set-tile: m must be a multiple of 64 "
                              "(one mma warpgroup per 64 rows), got ")
             << tile[0];
    MLIRContext *ctx = kernel.getContext();
    // Rings: a box dimension indexed by tile coordinate i takes tile[i].
    llvm::DenseMap<Operation *, SmallVector<int64_t>> ringShapes;
    WalkResult w = kernel.walk([&](TmaLoadOp load) {
      auto tiles = load->getParentOfType<TilesOp>();
      auto ringOp = load.getDst().getDefiningOp<RingOp>();
      if (!tiles || !ringOp)
        return WalkResult::advance();
      auto ring = cast<RingType>(ringOp.getType());
      SmallVector<int64_t> shape(ring.getShape());
      auto coords = load.getCoords();
      int64_t offset = int64_t(coords.size()) - int64_t(shape.size());
      for (size_t r = 0; r < shape.size(); ++r) {
        unsigned bits = tileBits(coords[offset + r], &tiles.getBody().front());
        for (size_t i = 0; i < tile.size(); ++i)
          if (bits & (1u << i))
            shape[r] = tile[i];
      }
      auto [it, fresh] = ringShapes.try_emplace(ringOp, shape);
      if (!fresh && it->second != shape) {
        load.emitError("cake-set-tile: the ring's copies are indexed by "
                       "different tile coordinates");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (w.wasInterrupted())
      return failure();
    for (auto &[op, shape] : ringShapes) {
      auto ringOp = cast<RingOp>(op);
      auto t = cast<RingType>(ringOp.getType());
      auto emit = [&]() { return ringOp.emitError(); };
      RingType nt = RingType::getChecked(emit, ctx, t.getStages(),
                                         ArrayRef<int64_t>(shape),
                                         t.getElementType(), t.getSwizzle());
      if (!nt)
        return failure();
      ringOp.getResult().setType(nt);
    }
    // Fragments: dimension i of a tile-sized fragment follows tile[i].
    auto retype = [&](Value v) {
      auto f = dyn_cast<FragType>(v.getType());
      if (!f || f.getRank() != 2)
        return;
      SmallVector<int64_t> shape(f.getShape());
      for (size_t i = 0; i < std::min<size_t>(2, tile.size()); ++i)
        if (shape[i] == oldTile[i])
          shape[i] = tile[i];
      v.setType(FragType::get(ctx, ArrayRef<int64_t>(shape), f.getElementType()));
    };
    kernel.walk([&](Operation *op) {
      for (Value r : op->getResults())
        retype(r);
      for (Region &region : op->getRegions())
        for (Block &b : region)
          for (BlockArgument a : b.getArguments())
            retype(a);
    });
    // The roles that run the mma: one warpgroup per 64 rows.
    for (RoleOp role : kernel.getBody().front().getOps<RoleOp>()) {
      bool mma = false;
      role.walk([&](MmaOp) { mma = true; });
      if (m && mma && role.getWarpgroups())
        role.setWarpgroupsAttr(
            IntegerAttr::get(IntegerType::get(ctx, 32), tile[0] / 64));
    }
    if (auto p = dyn_cast<PersistentAttr>(kernel.getSchedule()))
      kernel.setScheduleAttr(PersistentAttr::get(ctx, tile, p.getGroupM()));
    else
      kernel.setScheduleAttr(GridAttr::get(ctx, tile));
    return success();
  }

  void runOnOperation() override {
    WalkResult r = getOperation().walk([&](KernelOp kernel) {
      return failed(retile(kernel)) ? WalkResult::interrupt()
                                    : WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};

/// The producer side of a role: its acquires and commits, and the TMA
/// copies into the stages it acquires.
bool isProducerSide(Operation *op) {
  if (isa<PipeAcquireOp, PipeCommitOp>(op))
    return true;
  if (auto load = dyn_cast<TmaLoadOp>(op))
    return isa_and_nonnull<PipeAcquireOp>(load.getStage().getDefiningOp());
  return false;
}

/// Whether `role` acquires and waits on the same pipe.
bool fillsOwnPipe(RoleOp role) {
  auto kernel = role->getParentOfType<KernelOp>();
  return llvm::any_of(kernel.getBody().front().getOps<PipeOp>(),
                      [&](PipeOp p) { return selfFillingRole(p) == role; });
}

struct WarpSpecializePass
    : public mlir::cake::impl::WarpSpecializeBase<WarpSpecializePass> {
  using WarpSpecializeBase::WarpSpecializeBase;

  /// The ops of `role` the producer needs: its producer side, the loops and
  /// tile loops around it, and (backwards) what computes their operands. A
  /// value carried around a loop cannot move: the producer keeps no state.
  LogicalResult collectSlice(RoleOp role, llvm::DenseSet<Operation *> &slice) {
    SmallVector<Operation *> work;
    role.walk([&](Operation *op) {
      if (isProducerSide(op))
        work.push_back(op);
    });
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      if (op == role.getOperation() || !slice.insert(op).second)
        continue;
      if (Operation *parent = op->getParentOp(); parent != role.getOperation())
        work.push_back(parent);
      ValueRange operands = op->getOperands();
      if (isa<scf::ForOp>(op))
        operands = op->getOperands().take_front(3); // bounds, not inits
      for (Value v : operands) {
        if (Operation *def = v.getDefiningOp()) {
          if (role->isProperAncestor(def))
            work.push_back(def);
          continue;
        }
        auto arg = cast<BlockArgument>(v);
        Operation *owner = arg.getOwner()->getParentOp();
        if (!role->isProperAncestor(owner))
          continue;
        if (auto f = dyn_cast<scf::ForOp>(owner);
            f && arg != f.getInductionVar())
          return op->emitError("cake-warp-specialize: the copies of role \"")
                 << role.getName()
                 << "\" depend on a value carried around a loop, which a "
                    "producer role cannot compute";
        work.push_back(owner);
      }
    }
    return success();
  }

  /// Clones the ops of `src` that are in `slice` to `b`'s insertion point;
  /// loops lose their carried values, region terminators without operands
  /// are kept.
  LogicalResult cloneSlice(Block &src, const llvm::DenseSet<Operation *> &slice,
                           IRMapping &map, OpBuilder &b) {
    for (Operation &op : src) {
      if (!slice.contains(&op)) {
        if (op.hasTrait<OpTrait::IsTerminator>() && op.getNumOperands() == 0 &&
            !isa<scf::YieldOp>(op))
          b.clone(op, map);
        continue;
      }
      if (auto f = dyn_cast<scf::ForOp>(op)) {
        auto loop = scf::ForOp::create(b, f.getLoc(),
                                       map.lookup(f.getLowerBound()),
                                       map.lookup(f.getUpperBound()),
                                       map.lookup(f.getStep()));
        map.map(f.getInductionVar(), loop.getInductionVar());
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPoint(loop.getBody()->getTerminator());
        if (failed(cloneSlice(*f.getBody(), slice, map, b)))
          return failure();
        continue;
      }
      if (op.getNumRegions() == 0) {
        b.clone(op, map);
        continue;
      }
      if (op.getNumResults() != 0)
        return op.emitError("cake-warp-specialize: cannot move the copies out "
                            "of an op with results and regions");
      Operation *copy = b.cloneWithoutRegions(op, map);
      for (auto [from, to] :
           llvm::zip(op.getRegions(), copy->getRegions())) {
        for (Block &block : from) {
          Block *nb = new Block();
          to.push_back(nb);
          for (BlockArgument a : block.getArguments())
            map.map(a, nb->addArgument(a.getType(), a.getLoc()));
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToEnd(nb);
          if (failed(cloneSlice(block, slice, map, b)))
            return failure();
        }
      }
    }
    return success();
  }

  LogicalResult split(KernelOp kernel, RoleOp role) {
    MLIRContext *ctx = kernel.getContext();
    for (RoleOp r : kernel.getBody().front().getOps<RoleOp>())
      if (r.getName() == producerName)
        return role.emitError("cake-warp-specialize: the kernel already has a "
                              "role named \"")
               << producerName << "\"";
    llvm::DenseSet<Operation *> slice;
    if (failed(collectSlice(role, slice)))
      return failure();
    // The producer: one warpgroup (setmaxnreg works on whole warpgroups),
    // its lanes elected by the lowering, placed before the consumer.
    OpBuilder b(role);
    auto i32 = IntegerType::get(ctx, 32);
    auto producer = RoleOp::create(
        b, role.getLoc(), StringAttr::get(ctx, producerName),
        IntegerAttr::get(i32, 1), IntegerAttr(),
        producerRegs ? IntegerAttr::get(i32, producerRegs) : IntegerAttr());
    Block *body = new Block();
    producer.getBody().push_back(body);
    IRMapping map;
    b.setInsertionPointToEnd(body);
    if (failed(cloneSlice(role.getBody().front(), slice, map, b)))
      return failure();
    // The consumer: the role without its producer side, and without what
    // only that side used.
    SmallVector<Operation *> moved;
    role.walk([&](Operation *op) {
      if (isProducerSide(op))
        moved.push_back(op);
    });
    // Commits and copies use the acquired stage: erase them first.
    for (Operation *op : moved)
      if (!isa<PipeAcquireOp>(op))
        op->erase();
    for (Operation *op : moved)
      if (isa<PipeAcquireOp>(op))
        op->erase();
    IRRewriter rewriter(ctx);
    (void)runRegionDCE(rewriter, role->getRegions());
    return success();
  }

  void runOnOperation() override {
    WalkResult r = getOperation().walk([&](KernelOp kernel) {
      SmallVector<RoleOp> candidates;
      for (RoleOp role : kernel.getBody().front().getOps<RoleOp>())
        if (roleName.empty() ? fillsOwnPipe(role) : role.getName() == roleName)
          candidates.push_back(role);
      if (!roleName.empty() && candidates.empty()) {
        kernel.emitError("cake-warp-specialize: no role named \"")
            << roleName << "\"";
        return WalkResult::interrupt();
      }
      if (candidates.size() > 1) {
        kernel.emitError("cake-warp-specialize: ")
            << candidates.size()
            << " roles fill their own pipes; name one with role=";
        return WalkResult::interrupt();
      }
      // Already specialized: nothing to do.
      if (candidates.empty() || !fillsOwnPipe(candidates.front())) {
        if (!roleName.empty()) {
          candidates.front().emitError("cake-warp-specialize: role \"")
              << roleName << "\" fills none of the pipes it waits on";
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      }
      return failed(split(kernel, candidates.front())) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};

/// A consumer loop in the serial form cake-overlap-epilogue rewrites: the
/// body's ops up to the last release (the chain) and after it (the
/// epilogue, which the chain's result feeds).
struct SerialEpilogueLoop {
  scf::ForOp loop;
  Operation *lastRelease = nullptr;
  Value result; ///< the chain's last wgmma
};

std::optional<SerialEpilogueLoop> serialEpilogueLoop(scf::ForOp loop) {
  SerialEpilogueLoop form{loop, nullptr, Value()};
  Block *body = loop.getBody();
  Value pipe;
  MmaOp last;
  llvm::DenseSet<Operation *> chain;
  for (Operation &op : body->without_terminator()) {
    if (isa<PipeAcquireOp, scf::ForOp, scf::WhileOp>(op))
      return std::nullopt;
    if (auto w = dyn_cast<PipeWaitOp>(op)) {
      if (pipe && w.getPipe() != pipe)
        return std::nullopt;
      pipe = w.getPipe();
    } else if (auto m = dyn_cast<MmaOp>(op)) {
      Value acc = m.getAcc();
      bool chained = last ? acc == last.getResult()
                          : isa_and_nonnull<FragZeroOp>(acc.getDefiningOp()) &&
                                acc.getDefiningOp()->getBlock() == body;
      if (m.getKind() != MmaKind::wgmma || !chained)
        return std::nullopt;
      last = m;
    } else if (auto r = dyn_cast<PipeReleaseOp>(op)) {
      if (!last || r.getPipe() != pipe)
        return std::nullopt;
      form.lastRelease = &op;
    }
  }
  if (!last || !form.lastRelease)
    return std::nullopt;
  form.result = last.getResult();
  // The chain: everything up to the last release. It must not read the
  // loop's carried values (it runs a tile ahead of them), and the epilogue
  // may read of it only its result.
  for (Operation &op : body->without_terminator()) {
    chain.insert(&op);
    if (&op == form.lastRelease)
      break;
  }
  bool ok = true;
  for (Operation *op : chain)
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (auto arg = dyn_cast<BlockArgument>(v);
            arg && arg.getOwner() == body && arg != loop.getInductionVar())
          ok = false;
    });
  for (Operation &op : llvm::make_range(
           std::next(Block::iterator(form.lastRelease)), body->end())) {
    op.walk([&](Operation *inner) {
      if (isa<PipeWaitOp, PipeReleaseOp, PipeAcquireOp, MmaOp>(inner))
        ok = false;
      for (Value v : inner->getOperands())
        if (Operation *def = v.getDefiningOp();
            def && chain.count(def) && v != form.result)
          ok = false;
    });
  }
  // The result feeds the epilogue, not the next iteration.
  for (Operation *user : form.result.getUsers())
    if (isa<scf::YieldOp>(user) && user->getBlock() == body)
      ok = false;
  if (!ok)
    return std::nullopt;
  return form;
}

struct OverlapEpiloguePass
    : public mlir::cake::impl::OverlapEpilogueBase<OverlapEpiloguePass> {
  using OverlapEpilogueBase::OverlapEpilogueBase;

  /// Clones the epilogue (the ops after the chain, and the yield's values)
  /// at the builder with `mapping`; returns the yielded values.
  SmallVector<Value> cloneEpilogue(OpBuilder &b, const SerialEpilogueLoop &f,
                                   IRMapping &mapping) {
    Block *body = scf::ForOp(f.loop).getBody();
    for (Operation &op : llvm::make_range(
             std::next(Block::iterator(f.lastRelease)), body->end()))
      if (!isa<scf::YieldOp>(op))
        b.clone(op, mapping);
    SmallVector<Value> out;
    for (Value v : body->getTerminator()->getOperands())
      out.push_back(mapping.lookupOrDefault(v));
    return out;
  }

  void rewrite(const SerialEpilogueLoop &f) {
    scf::ForOp loop = f.loop; // a handle; the loop itself changes
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    auto accType = f.result.getType();
    Value zero = FragZeroOp::create(b, loc, accType);
    SmallVector<Value> inits(loop.getInitArgs());
    size_t n = inits.size();
    inits.push_back(zero);
    inits.push_back(loop.getLowerBound());
    auto pipelined = scf::ForOp::create(b, loc, loop.getLowerBound(),
                                        loop.getUpperBound(), loop.getStep(),
                                        inits);
    Block *newBody = pipelined.getBody();
    Value iv = pipelined.getInductionVar();
    ValueRange carried = pipelined.getRegionIterArgs();
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(newBody);
      if (!newBody->empty())
        b.setInsertionPoint(newBody->getTerminator());
      // This tile's chain.
      IRMapping chainMap;
      chainMap.map(loop.getInductionVar(), iv);
      for (Operation &op : *loop.getBody()) {
        b.clone(op, chainMap);
        if (&op == f.lastRelease)
          break;
      }
      // The previous tile's epilogue, from the second iteration on.
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          iv, loop.getLowerBound());
      auto guard = scf::IfOp::create(b, loc, loop.getResultTypes(), first,
                                     /*withElse=*/true);
      {
        OpBuilder::InsertionGuard gi(b);
        b.setInsertionPointToStart(guard.thenBlock());
        scf::YieldOp::create(b, loc, carried.take_front(n));
        b.setInsertionPointToStart(guard.elseBlock());
        IRMapping epi;
        epi.map(loop.getInductionVar(), carried[n + 1]);
        epi.map(f.result, carried[n]);
        for (size_t i = 0; i < n; ++i)
          epi.map(loop.getRegionIterArgs()[i], carried[i]);
        scf::YieldOp::create(b, loc, cloneEpilogue(b, f, epi));
      }
      SmallVector<Value> yields(guard.getResults());
      yields.push_back(chainMap.lookup(f.result));
      yields.push_back(iv);
      if (!newBody->empty() && isa<scf::YieldOp>(newBody->back()))
        newBody->back().erase();
      scf::YieldOp::create(b, loc, yields);
    }
    // The last tile's epilogue, when the loop ran.
    Value ran = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                      loop.getLowerBound(),
                                      loop.getUpperBound());
    auto tail = scf::IfOp::create(b, loc, loop.getResultTypes(), ran,
                                  /*withElse=*/true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(tail.thenBlock());
      IRMapping epi;
      epi.map(loop.getInductionVar(), pipelined.getResult(n + 1));
      epi.map(f.result, pipelined.getResult(n));
      for (size_t i = 0; i < n; ++i)
        epi.map(loop.getRegionIterArgs()[i], pipelined.getResult(i));
      scf::YieldOp::create(b, loc, cloneEpilogue(b, f, epi));
      b.setInsertionPointToStart(tail.elseBlock());
      scf::YieldOp::create(b, loc, pipelined.getResults().take_front(n));
    }
    loop.replaceAllUsesWith(tail.getResults());
    loop.erase();
  }

  void runOnOperation() override {
    SmallVector<SerialEpilogueLoop> loops;
    bool found = roleName.empty();
    getOperation().walk([&](RoleOp role) {
      if (!roleName.empty() && role.getName() != roleName)
        return;
      found = true;
      role.walk([&](scf::ForOp loop) {
        if (auto f = serialEpilogueLoop(loop))
          loops.push_back(*f);
      });
    });
    if (!found) {
      getOperation().emitError("cake-overlap-epilogue: no role named \"")
          << roleName << "\"";
      return signalPassFailure();
    }
    for (const SerialEpilogueLoop &f : loops)
      rewrite(f);
  }
};

struct StageEpiloguePass
    : public mlir::cake::impl::StageEpilogueBase<StageEpiloguePass> {
  using StageEpilogueBase::StageEpilogueBase;

  /// A store of a whole tile's fragment at the tile's coordinates, directly
  /// in a role's tile loop.
  static bool qualifies(StoreOp store) {
    auto tiles = dyn_cast<TilesOp>(store->getParentOp());
    auto frag = dyn_cast<FragType>(store.getValue().getType());
    if (!tiles || !frag || frag.getShape().size() != 2 ||
        store.getCoords().size() != 2)
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
    Value ring = RingOp::create(b, loc, ringType);
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
                                 IntegerAttr());
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
    for (BlockArgument a : tiles.getBody().front().getArguments())
      tileBody->addArgument(a.getType(), a.getLoc());
    newTiles.getBody().push_back(tileBody);
    b.setInsertionPointToEnd(tileBody);
    Value t = PipeWaitOp::create(b, loc, pipe);
    TmaStoreOp::create(b, loc, ring, t, store.getDst(),
                       tileBody->getArguments(), /*reduce=*/nullptr);
    PipeReleaseOp::create(b, loc, pipe, t);
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

struct PingPongPass : public mlir::cake::impl::PingPongBase<PingPongPass> {
  using PingPongBase::PingPongBase;

  LogicalResult apply(KernelOp kernel) {
    if (!isa<PersistentAttr>(kernel.getSchedule()))
      return kernel.emitError("cake-ping-pong: needs a persistent schedule "
                              "(a grid gives each CTA one tile); apply "
                              "cake-set-schedule first");
    SmallVector<RoleOp> roles(kernel.getBody().getOps<RoleOp>());
    if (roles.empty())
      return kernel.emitError("cake-ping-pong: the kernel has no roles");
    // A copied named barrier would count the warps of every set at once.
    WalkResult barriers = kernel.walk([](BarrierSyncOp op) {
      op.emitError("cake-ping-pong: named barriers are not split by set yet "
                   "(each set would need its own barrier ids)");
      return WalkResult::interrupt();
    });
    if (barriers.wasInterrupted())
      return failure();
    for (RoleOp role : roles) {
      SmallVector<TilesOp> loops;
      role.walk([&](TilesOp t) { loops.push_back(t); });
      if (loops.size() != 1)
        return role.emitError("cake-ping-pong: role \"")
               << role.getName() << "\" has " << loops.size()
               << " tile loops; each role needs exactly one to take a slice "
                  "of";
      if (loops.front().getSliceAttr())
        return loops.front().emitError(
            "cake-ping-pong: this tile loop already takes a slice");
    }
    // The copies of the rings and pipes go after the last declaration, the
    // copies of the roles after the last role, set by set.
    SmallVector<Operation *> decls;
    for (Operation &op : kernel.getBody().front())
      if (isa<RingOp, PipeOp>(op))
        decls.push_back(&op);
    OpBuilder b(kernel.getContext());
    auto setSlice = [&](RoleOp role, int64_t k) {
      role.walk([&](TilesOp t) {
        t.setSliceAttr(b.getDenseI64ArrayAttr({k, int64_t(sets)}));
      });
    };
    Operation *lastDecl = decls.empty() ? nullptr : decls.back();
    // The copied roles go after the copied declarations whatever the order.
    Operation *lastRole = roles.back();
    if (lastDecl && lastRole->isBeforeInBlock(lastDecl))
      lastRole = lastDecl;
    for (int64_t k = 1; k < int64_t(sets); ++k) {
      IRMapping map;
      for (Operation *decl : decls) {
        b.setInsertionPointAfter(lastDecl);
        Operation *copy = b.clone(*decl, map);
        if (lastRole == lastDecl)
          lastRole = copy;
        lastDecl = copy;
      }
      for (RoleOp role : roles) {
        b.setInsertionPointAfter(lastRole);
        auto copy = cast<RoleOp>(b.clone(*role, map));
        copy.setName((role.getName() + "_" + Twine(k)).str());
        setSlice(copy, k);
        lastRole = copy;
      }
    }
    for (RoleOp role : roles)
      setSlice(role, 0);
    return success();
  }

  void runOnOperation() override {
    if (sets < 2) {
      getOperation().emitError("cake-ping-pong: sets must be at least 2");
      return signalPassFailure();
    }
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp k) { kernels.push_back(k); });
    for (KernelOp kernel : kernels)
      if (failed(apply(kernel)))
        return signalPassFailure();
  }
};

} // namespace
