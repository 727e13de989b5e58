// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- PingPong.cpp - cake-ping-pong --------------------------------------===//
//
// Splits a consumer role into sets of warpgroups that take alternate tiles
// (slices of the CTA's tiles), each with its own pipes and rings, so one
// set's epilogue runs while the other's wgmmas do.
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/RoleTurns.h"
#include "cake/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_PINGPONG
#include "cake/Passes.h.inc"
} // namespace cake
} // namespace mlir

using namespace mlir;
using namespace mlir::cake;

namespace {

/// The one role of `roles` whose body issues a cake.mma (the consumer the
/// turns and the dealt copies are about), or an error naming the option
/// that needs it.
FailureOr<RoleOp> mmaRole(KernelOp kernel, ArrayRef<RoleOp> roles,
                          StringRef option, StringRef where) {
  SmallVector<RoleOp> found;
  for (RoleOp role : roles) {
    bool mma = false;
    role.walk([&](MmaOp) { mma = true; });
    if (mma)
      found.push_back(role);
  }
  if (found.size() != 1)
    return kernel.emitError("cake-ping-pong: ")
           << option << " needs one role issuing cake.mma" << where
           << ", found " << found.size();
  return found.front();
}

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
    if (dealt)
      return applyDealt(kernel, roles);
    // The copies of the rings, tensor memory and pipes go after the last
    // declaration, the copies of the roles after the last role, set by set.
    SmallVector<Operation *> decls;
    for (Operation &op : kernel.getBody().front())
      if (isa<RingOp, TmemOp, PipeOp>(op))
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
    if (turns)
      return setTurns(kernel, roles);
    return success();
  }

  /// dealt=true: copies of the consumer role alone, set k on slice k, the
  /// pipes it waits on dealt between them; the other roles and the rings
  /// stay as they are.
  LogicalResult applyDealt(KernelOp kernel, ArrayRef<RoleOp> roles) {
    FailureOr<RoleOp> found = mmaRole(kernel, roles, "dealt=true", "");
    if (failed(found))
      return failure();
    RoleOp consumer = *found;
    WalkResult fills = consumer.walk([&](PipeAcquireOp op) {
      op.emitError("cake-ping-pong: dealt=true copies role \"")
          << consumer.getName()
          << "\", which also fills this pipe; its copies would be a second "
             "producer of it (sync.pipe-roles), and dealt=true makes no "
             "pipe of its own for each (dealt=false copies every pipe)";
      return WalkResult::interrupt();
    });
    if (fills.wasInterrupted())
      return failure();
    OpBuilder b(kernel.getContext());
    auto setSlice = [&](RoleOp role, int64_t k) {
      role.walk([&](TilesOp t) {
        t.setSliceAttr(b.getDenseI64ArrayAttr({k, int64_t(sets)}));
      });
    };
    Operation *last = roles.back();
    for (int64_t k = 1; k < int64_t(sets); ++k) {
      b.setInsertionPointAfter(last);
      IRMapping map;
      auto copy = cast<RoleOp>(b.clone(*consumer, map));
      copy.setName((consumer.getName() + "_" + Twine(k)).str());
      setSlice(copy, k);
      last = copy;
    }
    setSlice(consumer, 0);
    return setTurns(kernel, {consumer});
  }

  /// cake.role_turns over the sets' consumer roles, set 0 first: the one
  /// role of each set whose body issues a cake.mma.
  LogicalResult setTurns(KernelOp kernel, ArrayRef<RoleOp> set0) {
    FailureOr<RoleOp> consumer =
        mmaRole(kernel, set0, "turns=true", " in each set");
    if (failed(consumer))
      return failure();
    SmallVector<Attribute> names;
    names.push_back(StringAttr::get(kernel.getContext(), consumer->getName()));
    for (int64_t k = 1; k < int64_t(sets); ++k)
      names.push_back(StringAttr::get(
          kernel.getContext(), (consumer->getName() + "_" + Twine(k)).str()));
    kernel->setAttr(kRoleTurnsAttrName,
                    ArrayAttr::get(kernel.getContext(), names));
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
