// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- WarpSpecialize.cpp - cake-warp-specialize --------------------------===//
//
// Splits a role that fills its own pipes into a producer role (its
// acquires, TMA copies and commits, with the loops and index computations
// they need) and the consumer that keeps the rest.
//
//===----------------------------------------------------------------------===//

#include "cake/Passes.h"
#include "cake/Analysis/Handoffs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_WARPSPECIALIZE
#include "cake/Passes.h.inc"
} // namespace cake
} // namespace mlir

using namespace mlir;
using namespace mlir::cake;

namespace {

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
        producerRegs ? IntegerAttr::get(i32, producerRegs) : IntegerAttr(),
        /*shares_code_with=*/StringAttr(), /*derived=*/RoleLayoutAttr());
    Block *body = new Block();
    producer.getBody().push_back(body);
    IRMapping map;
    b.setInsertionPointToEnd(body);
    if (failed(cloneSlice(role.getBody().front(), slice, map, b)))
      return failure();
    // The consumer: the role without its producer side, and without what
    // only that side used.
    // Commits and copies use the acquired stage: they are erased first.
    // (Sorted before any erasure: an erased op cannot be asked its kind.)
    SmallVector<Operation *> users, acquires;
    role.walk([&](Operation *op) {
      if (isProducerSide(op))
        (isa<PipeAcquireOp>(op) ? acquires : users).push_back(op);
    });
    for (Operation *op : users)
      op->erase();
    for (Operation *op : acquires)
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

} // namespace
