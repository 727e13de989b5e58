//===- Tactics.cpp - Rewrites that each change one decision ---------------===//
//
// The tactics cake-evolve composes: stage count, swizzle, register budget,
// raster order, schedule kind. Each changes the types or attributes that
// hold one decision; every use sees the change through its operand types,
// and the pass manager's verifier re-checks the op contracts after each.
//
//===----------------------------------------------------------------------===//

#include "cake/Transforms/Passes.h"

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_SETSTAGES
#define GEN_PASS_DEF_SETSWIZZLE
#define GEN_PASS_DEF_SETREGS
#define GEN_PASS_DEF_SETRASTER
#define GEN_PASS_DEF_SETSCHEDULE
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
    getOperation().walk([&](KernelOp kernel) {
      llvm::SmallVector<int64_t> tile(kernel.getTileShape());
      if (kind == "grid") {
        kernel.setScheduleAttr(GridAttr::get(kernel.getContext(), tile));
      } else if (!isa<PersistentAttr>(kernel.getSchedule())) {
        kernel.setScheduleAttr(
            PersistentAttr::get(kernel.getContext(), tile, 1));
      }
    });
  }
};

} // namespace
