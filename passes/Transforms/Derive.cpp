// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Derive.cpp - The cake-derive pass ----------------------------------===//
//
// Derives the mechanical details of a kernel from its decisions and attaches
// them as each op's typed `derived` attribute (CakeDerived.td): warp ranges and
// setmaxnreg per role, the shared-memory layout of barriers and rings, the
// tensor-memory columns and allocation, barrier arrival counts and
// expect-tx bytes per pipe, the barrier and parity rule of every handoff,
// TMA descriptor specs, wgmma descriptor fields, and where the tile loop's
// extents come from. The lowering reads these attributes and nothing else
// derived.
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/Handoffs.h"
#include "cake/Analysis/KernelLayout.h"
#include "cake/Passes.h"
#include "cake/Target/TargetInfo.h"
#include "cake/Transforms/Decisions.h"
#include "cake/Verify/Checks.h"
#include "cake/Verify/Rules.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_DERIVE
#include "cake/Passes.h.inc"
} // namespace cake
} // namespace mlir

using namespace mlir;
using namespace mlir::cake;

namespace {

/// The kernel argument index a value comes from, or -1.
int64_t argIndexOf(Value v, KernelOp kernel) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != &kernel.getBody().front())
    return -1;
  return arg.getArgNumber();
}

struct DerivePass : public mlir::cake::impl::DeriveBase<DerivePass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk(
        [&](KernelOp kernel) { ok &= succeeded(derive(kernel)); });
    if (!ok)
      signalPassFailure();
  }

  LogicalResult derive(KernelOp kernel) {
    const TargetInfo *target = lookupTarget(kernel.getTarget().getArch());
    if (!target)
      return failure();
    MLIRContext *ctx = kernel.getContext();
    Builder b(ctx);

    // Roles: warp ranges, warpgroup roles aligned to a multiple of 4 warps.
    RoleWarps warps = computeRoleWarps(kernel);
    SmallVector<RoleOp> roles(kernel.getBody().getOps<RoleOp>());
    int64_t threads = warps.totalWarps * 32;
    if (threads > target->maxThreadsPerBlock)
      return emitRuleError(kernel, RuleId::ResourceThreads)
             << "the roles need " << threads
             << " threads (warpgroup-aligned), more than "
             << target->maxThreadsPerBlock;
    // Registers per thread at launch: what the register file gives each of
    // `threads` threads, in the allocation granularity of 8.
    int64_t baseline =
        launchBaselineRegisters(*target, threads, getCtasPerSM(kernel));
    for (auto [role, first] : llvm::zip(roles, warps.firstWarp)) {
      SetmaxnregAction action = SetmaxnregAction::none;
      if (auto r = role.getRegs())
        action = *r > baseline   ? SetmaxnregAction::inc
                 : *r < baseline ? SetmaxnregAction::dec
                                 : SetmaxnregAction::none;
      role.setDerivedAttr(RoleLayoutAttr::get(
          ctx, first, isCopyOnlyRole(role) ? RoleLanes::one : RoleLanes::all,
          action));
    }

    // Shared memory: barriers first (8 B each), then rings, each aligned.
    SharedMemoryLayout layout = computeSharedMemoryLayout(kernel);
    for (RingOp ring : kernel.getBody().getOps<RingOp>())
      ring.setDerivedAttr(RingLayoutAttr::get(
          ctx, layout.offsets.lookup(ring), ringAlignment(ring.getType())));
    int64_t smemBytes = layout.totalBytes;
    if (smemBytes > target->smemPerBlockOptIn) {
      InFlightDiagnostic d =
          emitRuleError(kernel, RuleId::ResourceSmemCapacity)
          << "barriers and rings need " << smemBytes
          << " bytes of shared memory (with alignment), more than the "
          << target->smemPerBlockOptIn << " a CTA of " << target->arch
          << " can have";
      for (RingOp ring : kernel.getBody().getOps<RingOp>())
        d.attachNote(ring.getLoc())
            << "ring of " << ring.getType().getRingBytes() << " bytes";
      return failure();
    }

    // Tensor memory: each buffer's first column and the CTA's allocation.
    if (failed(verifyTensorMemoryCapacity(kernel)))
      return failure();
    TensorMemoryLayout tmemLayout = computeTensorMemoryLayout(kernel);
    for (TmemOp tmem : kernel.getBody().getOps<TmemOp>())
      tmem.setDerivedAttr(
          TmemLayoutAttr::get(ctx, tmemLayout.columns.lookup(tmem),
                              tmemLayout.allocation, layout.tmemSlot));

    // frag.row, frag.scan down, frag.tril_inverse, smem.reduce, a shared
    // top-k list: a scratch
    // after the rings and their role's named barrier.
    DerivedBarriers barriers = computeDerivedBarriers(kernel);
    if (barriers.last >= target->namedBarriers) {
      emitRuleError(kernel, RuleId::SyncNamedBarrier)
          << "the kernel's named barriers (cake.barrier.sync ids and one per "
             "role with frag.row, frag.scan down, frag.tril_inverse, "
             "smem.reduce, a shared top-k list or topk.admits) reach "
             "id "
          << barriers.last << ", past the " << target->namedBarriers - 1
          << " a CTA of " << target->arch << " has";
      return failure();
    }
    WalkResult rows = kernel.walk([&](Operation *op) {
      int64_t bytes = fragScratchBytes(op);
      if (!needsRoleBarrier(op))
        return WalkResult::advance();
      auto role = op->getParentOfType<RoleOp>();
      if (!role || !role.getWarpgroups()) {
        emitRuleError(op, RuleId::DataflowFragmentLayout)
            << "'" << op->getName()
            << "' runs in a warpgroups(n) role, whose accumulator layout it "
               "reads";
        return WalkResult::interrupt();
      }
      auto scratch = ScratchAttr::get(ctx, layout.offsets.lookup(op), bytes,
                                      barriers.roleIds.lookup(role));
      if (auto row = dyn_cast<FragRowOp>(op))
        row.setDerivedAttr(scratch);
      else if (auto inverse = dyn_cast<FragTrilInverseOp>(op))
        inverse.setDerivedAttr(scratch);
      else if (auto reduce = dyn_cast<SmemReduceOp>(op))
        reduce.setDerivedAttr(scratch);
      else if (auto list = dyn_cast<TopKInitOp>(op))
        list.setDerivedAttr(scratch);
      else if (auto admits = dyn_cast<TopKAdmitsOp>(op))
        admits.setDerivedAttr(scratch); // the barrier; no bytes
      else
        cast<FragScanOp>(op).setDerivedAttr(scratch);
      return WalkResult::advance();
    });
    if (rows.wasInterrupted())
      return failure();

    // Pipes: barrier offsets, arrival counts and transaction bytes.
    for (PipeOp pipe : kernel.getBody().getOps<PipeOp>()) {
      int64_t txBytes = 0;
      for (Value r : pipe.getRings())
        txBytes += cast<RingType>(r.getType()).getTileBytes();
      // A stage passed between threads by ordinary stores and loads
      // (isThreadHandoff) takes an arrival per thread on both barriers.
      bool threads = isThreadHandoff(pipe);
      // One arrival per consumer warp releases a stage (per thread in a
      // thread hand-off); a role that reads it with tcgen05.mma releases it
      // with one tcgen05.commit, and a copy role (a TMA store of a staged
      // epilogue), which runs on its leader alone, with that one warp's
      // arrival.
      int64_t emptyCount = 0;
      for (Operation *user : pipe->getUsers())
        if (isa<PipeWaitOp>(user))
          if (auto role = user->getParentOfType<RoleOp>()) {
            bool tcgen05 = false;
            role.walk([&](TmemMmaOp) { tcgen05 = true; });
            emptyCount = tcgen05 || isCopyOnlyRole(role)
                             ? 1
                             : (threads ? 32 : 1) * role.getNumWarps();
          }
      // A stage filled by TMA completes with its bytes after one armed
      // arrival; one filled by stores, with an arrival per producer warp
      // (one for a copy role, which runs on its leader alone; one per
      // thread in a thread hand-off); one filled by cake.gather or
      // cake.cp_async.load, with an arrival per producer thread, each made
      // by the landing of the thread's cp.async pieces (.noinc); a
      // tensor-memory stage, with one tcgen05.commit when the role's MMAs
      // fill it and otherwise (tcgen05.st) an arrival per producer warp.
      int64_t fullCount = 1;
      for (Operation *user : pipe->getUsers())
        if (auto acquire = dyn_cast<PipeAcquireOp>(user)) {
          auto role = acquire->getParentOfType<RoleOp>();
          if (pipe.getTmem()) {
            bool tcgen05 = false;
            if (role)
              role.walk([&](TmemMmaOp) { tcgen05 = true; });
            if (role && !tcgen05 && !isCopyOnlyRole(role))
              fullCount = role.getNumWarps();
            continue;
          }
          if (role && (isFilledByThreadCopies(acquire) ||
                       (threads && !isCopyOnlyRole(role))))
            fullCount = 32 * role.getNumWarps();
          else if (!isFilledByTma(acquire) && role && !isCopyOnlyRole(role))
            fullCount = role.getNumWarps();
        }
      // A multicast copy into one of the pipe's rings writes the stage of
      // every CTA of the cluster: each stage is refilled only after all
      // their consumers released it.
      int64_t releaseCtas = 1;
      kernel.walk([&](TmaLoadOp load) {
        if (load.getMulticast() &&
            llvm::is_contained(pipe.getRings(), load.getDst()))
          releaseCtas = kernel.getCluster().value_or(1);
      });
      int64_t full = layout.offsets.lookup(pipe);
      pipe.setDerivedAttr(PipeBarriersAttr::get(
          ctx, full, full + 8 * pipe.getType().getStages(), fullCount,
          emptyCount * releaseCtas, txBytes, releaseCtas));
    }
    kernel.walk([&](PipeAcquireOp op) {
      op.setDerivedAttr(HandoffAttr::get(ctx, HandoffBarrier::empty,
                                         ParityRule::inverted_phase));
    });
    kernel.walk([&](PipeWaitOp op) {
      op.setDerivedAttr(
          HandoffAttr::get(ctx, HandoffBarrier::full, ParityRule::phase));
    });

    // TMA descriptors: one per (argument, box, swizzle); a multicast load's
    // box is its slice, one n-th of the ring tile's rows.
    SmallVector<Attribute> descs;
    llvm::DenseMap<std::tuple<int64_t, Type, int64_t>, int64_t> descIndex;
    bool ok = true;
    auto assign = [&](Operation *op, Value tensor, RingType ring,
                      int64_t slices) -> Attribute {
      int64_t arg = argIndexOf(tensor, kernel);
      if (arg < 0) {
        op->emitError("expected the global tensor to be a kernel argument");
        ok = false;
        return nullptr;
      }
      auto key = std::make_tuple(arg, Type(ring), slices);
      auto it = descIndex.find(key);
      if (it == descIndex.end()) {
        it = descIndex.insert({key, (int64_t)descs.size()}).first;
        // The box has the tensor's rank: leading dimensions beyond the ring
        // tile's are 1.
        int64_t rank = cast<GlobalType>(tensor.getType()).getRank();
        SmallVector<int64_t> box(rank - ring.getRank(), 1);
        llvm::append_range(box, ring.getShape());
        box[rank - ring.getRank()] /= slices;
        descs.push_back(
            TmaDescriptorAttr::get(ctx, arg, box, ring.getSwizzle()));
      }
      return TmaCopyAttr::get(ctx, it->second, slices);
    };
    kernel.walk([&](TmaLoadOp op) {
      int64_t slices = op.getMulticast() ? kernel.getCluster().value_or(1) : 1;
      if (Attribute a = assign(op, op.getSrc(), op.getDst().getType(), slices))
        op.setDerivedAttr(cast<TmaCopyAttr>(a));
    });
    kernel.walk([&](TmaStoreOp op) {
      if (Attribute a = assign(op, op.getDst(), op.getSrc().getType(), 1))
        op.setDerivedAttr(cast<TmaCopyAttr>(a));
    });
    kernel.setDerivedAttr(KernelLayoutAttr::get(
        ctx, {threads, 1, 1}, baseline, smemBytes, b.getArrayAttr(descs)));

    // wgmma: rows per warpgroup and shared-memory descriptor fields;
    // mma_sync reads the rows per warpgroup (its warps split them as
    // wgmma's do) and the swizzle.
    kernel.walk([&](MmaOp op) {
      if (op.getKind() == MmaKind::tcgen05)
        return;
      RingType bt = op.getB().getType();
      auto role = op->getParentOfType<RoleOp>();
      int64_t wgs = role ? role.getNumWarps() / 4 : 0;
      int64_t m = op.getAShape()[0];
      if (!role || !role.getWarpgroups() || m % (64 * wgs) != 0) {
        emitRuleError(op, RuleId::DataflowFragmentLayout)
            << stringifyMmaKind(op.getKind())
            << " needs the role's warpgroups to split M=" << m
            << " into multiples of 64 rows";
        ok = false;
        return;
      }
      if (failed(verifyWgmmaOperands(op))) {
        ok = false;
        return;
      }
      // A and B share the swizzle (B alone when A is a register fragment).
      int64_t swizzle = bt.getSwizzle();
      int64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : 3;
      op.setDerivedAttr(WgmmaLayoutAttr::get(
          ctx, m / wgs, op.getN(),
          kMmaInstructionKBytes / getElementBytes(bt.getElementType()),
          8 * swizzle, mode));
    });

    // Tile extents: which kernel argument (and dimension) each comes from.
    kernel.walk([&](TilesOp tiles) {
      SmallVector<int64_t> args, dims;
      for (Value e : tiles.getExtents()) {
        int64_t arg = -1, dim = -1;
        if (auto d = e.getDefiningOp<DimOp>()) {
          arg = argIndexOf(d.getTensor(), kernel);
          dim = d.getDim();
        } else {
          arg = argIndexOf(e, kernel);
        }
        if (arg < 0) {
          tiles.emitError("expected each extent to be a kernel argument or a "
                          "cake.dim of one, so the launcher can size the grid");
          ok = false;
          return;
        }
        args.push_back(arg);
        dims.push_back(dim);
      }
      tiles.setDerivedAttr(TileExtentsAttr::get(ctx, args, dims));
    });
    return success(ok);
  }
};

} // namespace
