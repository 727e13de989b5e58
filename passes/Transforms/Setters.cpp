// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Setters.cpp - Tactics that set one decision ------------------------===//
//
// The tactics cake-evolve composes that each set one decision in place:
// stage count, swizzle, register budget, raster order, the lowering
// decisions recorded on the kernel (mma chains, warpgroup order, late
// retirement, packed argmin), the schedule kind and the tile shape. Each
// changes the types or attributes that hold the decision; every use sees
// the change through its operand types, and the pass manager's verifier
// re-checks the op contracts after each.
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/ClusterRow.h"
#include "cake/Analysis/IndexExpr.h"
#include "cake/Passes.h"
#include "cake/Transforms/Decisions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_SETSTAGES
#define GEN_PASS_DEF_SETSWIZZLE
#define GEN_PASS_DEF_SETREGS
#define GEN_PASS_DEF_SETRASTER
#define GEN_PASS_DEF_SETMMACHAIN
#define GEN_PASS_DEF_SETARGMIN
#define GEN_PASS_DEF_SETWGORDER
#define GEN_PASS_DEF_SETCTASPERSM
#define GEN_PASS_DEF_SETCLUSTER
#define GEN_PASS_DEF_SETRETIRELATE
#define GEN_PASS_DEF_SETFENCEWAITS
#define GEN_PASS_DEF_SETFLUSHDENORMALS
#define GEN_PASS_DEF_SETUNIFORMWARP
#define GEN_PASS_DEF_SETSCHEDULE
#define GEN_PASS_DEF_SETTILE
#include "cake/Passes.h.inc"
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

struct SetCtasPerSMPass
    : public mlir::cake::impl::SetCtasPerSMBase<SetCtasPerSMPass> {
  using SetCtasPerSMBase::SetCtasPerSMBase;
  void runOnOperation() override {
    if (ctas < 1) {
      getOperation().emitError("cake-set-ctas-per-sm: ctas must be at least "
                               "1, got ")
          << int64_t(ctas);
      return signalPassFailure();
    }
    getOperation().walk([&](KernelOp kernel) {
      if (ctas == 1)
        kernel->removeAttr(kCtasPerSMAttrName);
      else
        kernel->setAttr(
            kCtasPerSMAttrName,
            IntegerAttr::get(IntegerType::get(kernel.getContext(), 64),
                             int64_t(ctas)));
    });
  }
};

struct SetClusterPass
    : public mlir::cake::impl::SetClusterBase<SetClusterPass> {
  using SetClusterBase::SetClusterBase;
  void runOnOperation() override {
    if (ctas < 1) {
      getOperation().emitError("cake-set-cluster: ctas must be at least 1, "
                               "got ")
          << int64_t(ctas);
      return signalPassFailure();
    }
    getOperation().walk([&](KernelOp kernel) {
      if (ctas == 1)
        kernel.removeClusterAttr();
      else
        kernel.setClusterAttr(IntegerAttr::get(
            IntegerType::get(kernel.getContext(), 64), int64_t(ctas)));
      // Decide every load before changing any: a load's legality reads
      // the kernel, not the other loads' marks.
      SmallVector<std::pair<TmaLoadOp, bool>> marks;
      kernel.walk([&](TmaLoadOp load) {
        marks.push_back({load, multicast && canMulticast(load, ctas)});
      });
      for (auto [load, on] : marks) {
        if (on)
          load.setMulticast(true);
        else
          load.removeMulticastAttr();
      }
    });
  }
};

struct SetRetireLatePass
    : public mlir::cake::impl::SetRetireLateBase<SetRetireLatePass> {
  using SetRetireLateBase::SetRetireLateBase;
  void runOnOperation() override {
    setKernelFlag(getOperation(), kRetireLateAttrName, enable);
  }
};

struct SetFenceWaitsPass
    : public mlir::cake::impl::SetFenceWaitsBase<SetFenceWaitsPass> {
  using SetFenceWaitsBase::SetFenceWaitsBase;
  void runOnOperation() override {
    setKernelFlag(getOperation(), kFenceWaitsAttrName, enable);
  }
};

struct SetFlushDenormalsPass
    : public mlir::cake::impl::SetFlushDenormalsBase<SetFlushDenormalsPass> {
  using SetFlushDenormalsBase::SetFlushDenormalsBase;
  void runOnOperation() override {
    setKernelFlag(getOperation(), kFlushDenormalsAttrName, enable);
  }
};

struct SetUniformWarpPass
    : public mlir::cake::impl::SetUniformWarpBase<SetUniformWarpPass> {
  using SetUniformWarpBase::SetUniformWarpBase;
  void runOnOperation() override {
    setKernelFlag(getOperation(), kUniformWarpAttrName, enable);
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
        llvm::DenseMap<Value, unsigned> memo;
        unsigned bits = tileCoordinateMask(coords[offset + r],
                                           &tiles.getBody().front(), memo);
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

} // namespace
