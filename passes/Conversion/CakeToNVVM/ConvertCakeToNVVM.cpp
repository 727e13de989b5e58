// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- ConvertCakeToNVVM.cpp - convert-cake-to-nvvm -----------------------===//
//
// Lowers each derived cake.kernel to a gpu.func in a gpu.module targeting
// #nvvm.target, written with NVVM, LLVM, arith and scf ops:
//
//   - the kernel becomes a prologue (dynamic shared memory base rounded up to
//     1024 B, mbarrier init by thread 0, fence, CTA barrier) and one branch
//     per role on the warp index, each starting with its setmaxnreg;
//   - cake.tiles becomes the persistent (or one-shot) tile loop with the
//     schedule's group-M rasterization;
//   - pipes become full/empty mbarrier arrays with a per-role handoff
//     counter n: stage n mod S, parity (n / S) mod 2;
//   - TMA copies become cp.async.bulk.tensor completing on the full barrier;
//   - wgmma becomes wgmma.mma_async over shared-memory descriptors built from
//     the derived fields, with the accumulator as an LLVM struct in the
//     wgmma register layout; the epilogue stores it with bounds masks.
//
// This file holds the pass, the kernel's signature, launch metadata and
// prologue, the roles, and the dispatch of each op to its family's emitter
// (KernelEmitter.h lists them, one file each).
//
// The kernel ABI (the order of parameters) and launch metadata are recorded
// in a `cake.launch` array on the top-level module for cake-translate.
//
// Kernels using ops or layouts this lowering does not handle yet are
// rejected with a diagnostic that says what is missing.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"
#include "cake/Analysis/Handoffs.h"
#include "cake/Analysis/KernelLayout.h"
#include "cake/Analysis/MmaChains.h"
#include "cake/Target/TargetInfo.h"

#include "cake/Passes.h"
#include "cake/Transforms/Decisions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_CONVERTCAKETONVVM
#include "cake/Passes.h.inc"
} // namespace cake
} // namespace mlir

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

LogicalResult KernelEmitter::emit() {
  KernelLayoutAttr layout = kernel.getDerivedAttr();
  if (!layout)
    return kernel.emitError("cake-derive must run before convert-cake-to-nvvm");
  const TargetInfo *target = lookupTarget(kernel.getTarget().getArch());
  if (!target || !target->lowered)
    return kernel.emitError("convert-cake-to-nvvm lowers sm_80, sm_90a and "
                            "sm_100a kernels; ")
           << kernel.getTarget().getArch() << " is not lowered yet";
  // An op the target lacks would reach NVPTX's instruction selection,
  // which aborts: refuse it here too (cake-verify's hw.arch-feature) for
  // a module lowered without the verifier.
  WalkResult missing = kernel.walk([&](Operation *op) {
    auto mma = dyn_cast<MmaOp>(op);
    bool lacks =
        (isa<TmaLoadOp, TmaStoreOp>(op) && !target->hasTma) ||
        (isa<TmemOp, TmemMmaOp, TmemLoadOp, TmemStoreOp>(op) &&
         !target->hasTcgen05) ||
        (mma && mma.getKind() == MmaKind::wgmma && !target->hasWgmma) ||
        (mma && mma.getKind() == MmaKind::tcgen05);
    if (!lacks)
      return WalkResult::advance();
    op->emitError("convert-cake-to-nvvm: '")
        << op->getName() << "' has no lowering on " << target->arch
        << " (cake-verify reports it as hw.arch-feature)";
    return WalkResult::interrupt();
  });
  if (missing.wasInterrupted())
    return failure();
  hasTcgen05 = target->hasTcgen05;
  hasTryWait = target->hasMbarrierTryWait;
  hasAsyncProxy = target->hasAsyncProxy;

  // Signature: per global tensor (ptr, dims...), per scalar its value, then
  // one TMA descriptor pointer per derived descriptor.
  SmallVector<Type> argTypes;
  SmallVector<Attribute> abi;
  auto entry = [&](StringRef kind, int64_t arg, int64_t dim) {
    abi.push_back(
        b.getDictionaryAttr({b.getNamedAttr("kind", b.getStringAttr(kind)),
                             b.getNamedAttr("arg", b.getI64IntegerAttr(arg)),
                             b.getNamedAttr("dim", b.getI64IntegerAttr(dim))}));
  };
  for (auto [i, t] : llvm::enumerate(kernel.getArgumentTypes())) {
    if (auto g = dyn_cast<GlobalType>(t)) {
      argTypes.push_back(globalPtrTy());
      entry("ptr", i, -1);
      for (int64_t d = 0; d < g.getRank(); ++d) {
        argTypes.push_back(b.getI64Type());
        entry("dim", i, d);
      }
    } else if (t.isIndex()) {
      argTypes.push_back(b.getI64Type());
      entry("i64", i, -1);
    } else {
      return kernel.emitError("scalar kernel argument of type ")
             << t << " is not lowered yet";
    }
  }
  ArrayAttr tma = layout.getTma();
  for (auto [i, d] : llvm::enumerate(tma)) {
    argTypes.push_back(LLVM::LLVMPointerType::get(ctx));
    entry("tma", i, -1);
  }

  b.setInsertionPointToEnd(module.getBody());
  auto funcType = b.getFunctionType(argTypes, {});
  auto func =
      gpu::GPUFuncOp::create(b, kernel.getLoc(), kernel.getSymName(), funcType);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  auto block = b.getDenseI64ArrayAttr(layout.getBlock());
  int32_t threads = block[0];
  func->setAttr("nvvm.maxntid", b.getDenseI32ArrayAttr({threads, 1, 1}));
  // One CTA per SM at launch is what lets ptxas honour setmaxnreg; a
  // kernel asking for more (cake.ctas_per_sm) holds ptxas to their share
  // of the register file.
  func->setAttr("nvvm.minctasm",
                b.getI32IntegerAttr(int32_t(getCtasPerSM(kernel))));
  // A cluster (hw.cluster): .reqnctapercluster n, 1, 1 in the PTX, so the
  // driver groups every n consecutive CTAs of the one-dimensional grid.
  int64_t cluster = kernel.getCluster().value_or(1);
  if (cluster > 1)
    func->setAttr("nvvm.cluster_dim",
                  b.getDenseI32ArrayAttr({int32_t(cluster), 1, 1}));
  // The LLVM function's denormal mode: NVPTX then selects the .ftz forms.
  if (flushDenormals)
    func->setAttr("denormal_fp_math_f32", b.getStringAttr("preserve-sign"));

  // Where the tile loop's extents come from (derived on cake.tiles), and
  // each argument's element type and static shape, for the launcher.
  Attribute extents = b.getArrayAttr({});
  kernel.walk([&](TilesOp t) {
    if (TileExtentsAttr e = t.getDerivedAttr()) {
      SmallVector<Attribute> pairs;
      for (auto [arg, dim] : llvm::zip(e.getArgs(), e.getDims()))
        pairs.push_back(b.getDenseI64ArrayAttr({arg, dim}));
      extents = b.getArrayAttr(pairs);
    }
  });
  // The launcher's form of the TMA descriptors (cake-translate's bundles).
  SmallVector<Attribute> tmaSpecs;
  for (Attribute a : tma) {
    auto desc = cast<TmaDescriptorAttr>(a);
    tmaSpecs.push_back(b.getDictionaryAttr({
        b.getNamedAttr("arg", b.getI64IntegerAttr(desc.getArg())),
        b.getNamedAttr("box", b.getDenseI64ArrayAttr(desc.getBox())),
        b.getNamedAttr("swizzle", b.getI64IntegerAttr(desc.getSwizzle())),
    }));
  }
  SmallVector<Attribute> args;
  for (Type t : kernel.getArgumentTypes()) {
    if (auto g = dyn_cast<GlobalType>(t))
      args.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("kind", b.getStringAttr("global")),
           b.getNamedAttr("element", TypeAttr::get(g.getElementType())),
           b.getNamedAttr("shape", b.getDenseI64ArrayAttr(g.getShape()))}));
    else
      args.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("kind", b.getStringAttr("scalar")),
           b.getNamedAttr("element", TypeAttr::get(t))}));
  }
  launch = b.getDictionaryAttr({
      b.getNamedAttr("args", b.getArrayAttr(args)),
      b.getNamedAttr("extents", extents),
      b.getNamedAttr("module", module.getSymNameAttr()),
      b.getNamedAttr("entry", kernel.getSymNameAttr()),
      b.getNamedAttr("params", b.getArrayAttr(abi)),
      b.getNamedAttr("block", block),
      b.getNamedAttr("smem_bytes", b.getI64IntegerAttr(layout.getSmemBytes())),
      b.getNamedAttr("cluster",
                     b.getI64IntegerAttr(kernel.getCluster().value_or(1))),
      b.getNamedAttr("tma", b.getArrayAttr(tmaSpecs)),
      b.getNamedAttr("schedule", kernel.getSchedule()),
      b.getNamedAttr("target", kernel.getTarget()),
  });

  Block &body = func.getBody().front();
  entryBlock = &body;
  b.setInsertionPointToStart(&body);
  curLoc = kernel.getLoc();

  // Map kernel arguments.
  unsigned p = 0;
  for (auto [i, t] : llvm::enumerate(kernel.getArgumentTypes())) {
    Value old = kernel.getBody().getArgument(i);
    if (auto g = dyn_cast<GlobalType>(t)) {
      TensorParams tp;
      tp.ptr = body.getArgument(p++);
      tp.elementType = g.getElementType();
      // A static extent is a constant (the launchers refuse tensors of
      // another extent), so bounds checks against it fold away.
      for (int64_t d = 0; d < g.getRank(); ++d) {
        Value arg = body.getArgument(p++);
        int64_t x = g.getShape()[d];
        tp.dims.push_back(ShapedType::isDynamic(x)
                              ? Value(arith::IndexCastOp::create(
                                    b, loc(), b.getIndexType(), arg))
                              : idxc(x));
      }
      tensors[old] = tp;
    } else {
      map.map(old, arith::IndexCastOp::create(b, loc(), b.getIndexType(),
                                              body.getArgument(p++)));
    }
  }
  for (size_t i = 0; i < tma.size(); ++i)
    descriptors.push_back(body.getArgument(p++));

  // Dynamic shared memory, base rounded up to 1024 bytes.
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(module.getBody());
    auto arrTy = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
    auto global = LLVM::GlobalOp::create(
        b, loc(), arrTy, /*isConstant=*/false, LLVM::Linkage::External,
        "__cake_dynamic_smem", Attribute(), /*alignment=*/16,
        /*addrSpace=*/3);
    (void)global;
  }
  Value raw =
      LLVM::AddressOfOp::create(b, loc(), smemPtrTy(), "__cake_dynamic_smem");
  Value rawInt = LLVM::PtrToIntOp::create(b, loc(), b.getI32Type(), raw);
  Value rounded = arith::AddIOp::create(b, loc(), rawInt, i32c(1023));
  Value aligned = arith::AndIOp::create(b, loc(), rounded, i32c(~1023));
  Value pad = arith::SubIOp::create(b, loc(), aligned, rawInt);
  smemBase = LLVM::GEPOp::create(b, loc(), smemPtrTy(), b.getI8Type(), raw,
                                 ValueRange{pad});

  tid = arith::IndexCastOp::create(
      b, loc(), b.getI32Type(),
      gpu::ThreadIdOp::create(b, loc(), gpu::Dimension::x));
  warp = arith::DivUIOp::create(b, loc(), tid, i32c(32));
  // Lane 0's warp index, broadcast: ptxas then knows it is warp-uniform and
  // keeps what derives from it (wgmma descriptors, shared-memory offsets)
  // in uniform registers instead of moving it there before every wgmma
  // (CUTLASS's canonical_warp_idx_sync).
  if (uniformWarp) {
    Value lane0 = i32c(0), width = i32c(32);
    warp = gpu::ShuffleOp::create(b, loc(), warp, lane0, width,
                                  gpu::ShuffleMode::IDX)
               .getShuffleResult();
  }

  // Pipes and rings: barrier init by thread 0.
  Value isT0 =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, tid, i32c(0));
  auto initIf = scf::IfOp::create(b, loc(), isT0, /*withElse=*/false);
  for (Operation &op : kernel.getBody().front()) {
    if (auto tmem = dyn_cast<TmemOp>(op)) {
      if (failed(recordTmem(tmem)))
        return failure();
    } else if (auto ring = dyn_cast<RingOp>(op)) {
      FailureOr<RingLayoutAttr> at = derived(ring);
      if (failed(at))
        return failure();
      rings[ring] = {at->getOffset(), ring.getType().getTileBytes()};
    } else if (auto pipe = dyn_cast<PipeOp>(op)) {
      FailureOr<PipeBarriersAttr> bars = derived(pipe);
      if (failed(bars))
        return failure();
      PipeInfo info{pipe.getType().getStages(),
                    bars->getFull(),
                    bars->getEmpty(),
                    bars->getFullCount(),
                    bars->getEmptyCount(),
                    bars->getTxBytes(),
                    isFilledByThreadCopies(pipe),
                    bars->getReleaseCtas(),
                    static_cast<bool>(pipe.getTmem()),
                    isThreadHandoff(pipe)};
      if (info.emptyCount <= 0)
        return pipe.emitError("pipe has no consumer role to release it");
      pipes[pipe] = info;
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(initIf.thenBlock()->getTerminator());
      for (int64_t s = 0; s < info.stages; ++s) {
        Value full = smemAt(i32c(info.full + 8 * s));
        NVVM::MBarrierInitOp::create(b, loc(), full, i32c(info.fullCount),
                                     Value());
        Value empty = smemAt(i32c(info.empty + 8 * s));
        NVVM::MBarrierInitOp::create(b, loc(), empty, i32c(info.emptyCount),
                                     Value());
      }
    }
  }
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(initIf.thenBlock()->getTerminator());
    // Without the async proxy (sm_80) the CTA barrier below publishes the
    // initialization to every reader.
    if (hasAsyncProxy)
      NVVM::FenceMbarrierInitOp::create(b, loc());
  }
  // Tensor memory: warp 0 allocates the CTA's columns; the barrier below
  // publishes their address (tcgen05 fences on both sides of it).
  emitTmemAllocation();
  if (tmemAllocation)
    fenceTmem(/*before=*/true);
  // In a cluster, another CTA's copies and releases reach this CTA's
  // barriers: every CTA's are initialized before any thread of the cluster
  // goes on (barrier.cluster also orders the CTA's own threads).
  if (cluster > 1) {
    NVVM::ClusterArriveOp::create(b, loc(), UnitAttr());
    NVVM::ClusterWaitOp::create(b, loc(), UnitAttr());
  } else {
    NVVM::Barrier0Op::create(b, loc());
  }
  if (tmemAllocation)
    fenceTmem(/*before=*/false);
  readTmemBase();

  std::string turnsError;
  FailureOr<RoleTurns> turns = getRoleTurns(kernel, turnsError);
  if (failed(turns))
    return kernel.emitError("[sync.role-turn] ") << turnsError;
  roleTurns = std::move(*turns);
  // A role that shares another's code runs in that role's emitRole.
  for (RoleOp r : kernel.getBody().getOps<RoleOp>())
    if (!r.getSharesCodeWith() && failed(emitRole(r)))
      return failure();
  if (failed(checkArrivals()))
    return failure();
  // ... and no CTA exits (freeing its shared memory) while another may
  // still write a slice into it or arrive on its barriers; nor frees its
  // tensor memory before every role is done with it.
  if (tmemAllocation)
    fenceTmem(/*before=*/true);
  if (cluster > 1) {
    NVVM::ClusterArriveOp::create(b, loc(), UnitAttr());
    NVVM::ClusterWaitOp::create(b, loc(), UnitAttr());
  } else if (tmemAllocation) {
    NVVM::Barrier0Op::create(b, loc());
  }
  emitTmemRelease();
  gpu::ReturnOp::create(b, loc());
  return success();
}

LogicalResult KernelEmitter::emitRole(RoleOp r) {
  curLoc = r.getLoc();
  FailureOr<RoleLayoutAttr> placed = derived(r);
  if (failed(placed))
    return failure();
  // The roles that run this body: r and those sharing its code, each on
  // its own warps; the warp's index among them selects what differs.
  FailureOr<SharedCodeGroup> group = sharedCodeGroup(r);
  if (failed(group))
    return failure();
  int64_t n = r.getNumWarps();
  Value inAny, index = i32c(0);
  SmallVector<Value> firsts;
  for (auto [k, member] : llvm::enumerate(group->roles)) {
    FailureOr<RoleLayoutAttr> at = derived(member);
    if (failed(at))
      return failure();
    int64_t first = at->getFirstWarp();
    firsts.push_back(i32c(first));
    Value ge = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::uge, warp,
                                     i32c(first));
    Value lt = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, warp,
                                     i32c(first + n));
    Value in = arith::AndIOp::create(b, loc(), ge, lt);
    inAny = inAny ? arith::OrIOp::create(b, loc(), inAny, in).getResult() : in;
    if (k > 0)
      index = arith::SelectOp::create(b, loc(), in, i32c(k), index);
  }
  auto inRole = scf::IfOp::create(b, loc(), inAny, /*withElse=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(inRole.thenBlock());
  if (group->roles.size() > 1) {
    group->index = index;
    sharedGroup = std::move(*group);
  }
  auto endGroup = llvm::make_scope_exit([&] { sharedGroup.reset(); });

  SetmaxnregAction action = placed->getSetmaxnreg();
  if (action != SetmaxnregAction::none) {
    if (!r.getWarpgroups())
      return r.emitError("[hw.warpgroup-alignment] regs() needs a "
                         "warpgroups(n) role: setmaxnreg is per warpgroup");
    NVVM::SetMaxRegisterOp::create(b, loc(), (uint32_t)*r.getRegs(),
                                   action == SetmaxnregAction::inc
                                       ? NVVM::SetMaxRegisterAction::increase
                                       : NVVM::SetMaxRegisterAction::decrease);
  }

  RoleState state;
  state.role = r;
  state.warpInRole = arith::SubIOp::create(b, loc(), warp, byRole(firsts));
  state.lane = arith::RemUIOp::create(b, loc(), tid, i32c(32));
  // One handoff counter per pipe and side the role uses; LLVM promotes
  // them to registers.
  r.walk([&](Operation *op) {
    if (!isa<PipeAcquireOp, PipeWaitOp>(op))
      return;
    std::pair<Value, unsigned> key{op->getOperand(0), isa<PipeAcquireOp>(op)};
    if (state.ctr.count(key))
      return;
    Value slot;
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(entryBlock);
      Value one = i32c(1);
      slot = LLVM::AllocaOp::create(b, loc(), LLVM::LLVMPointerType::get(ctx),
                                    b.getI32Type(), one);
    }
    LLVM::StoreOp::create(b, loc(), i32c(0), slot);
    state.ctr[key] = slot;
  });
  role = &state;

  // The role's leader: lane 0 of its first warp. Copy roles run on it
  // alone; a role that also computes runs everywhere and lets the leader
  // issue its TMA copies.
  Value firstWarp = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                          state.warpInRole, i32c(0));
  Value firstLane = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                          state.lane, i32c(0));
  state.leader = arith::AndIOp::create(b, loc(), firstWarp, firstLane);
  state.allLanes = placed->getLanes() == RoleLanes::all;
  r.walk([&](TmemMmaOp) { state.tcgen05Issuer = true; });
  state.rowPerThread = holdsRowPerThread(r);
  if (failed(startWarpgroupOrder(r)) || failed(startRoleTurn(r)))
    return failure();
  if (!state.allLanes) {
    auto lead = scf::IfOp::create(b, loc(), state.leader, /*withElse=*/false);
    b.setInsertionPointToStart(lead.thenBlock());
  }
  LogicalResult result = emitBlock(r.getBody().front());
  role = nullptr;
  return result;
}

LogicalResult KernelEmitter::emitBlock(Block &block, bool retireAtEnd) {
  for (Operation &op : block) {
    if (&op == turnFirst)
      waitRoleTurn();
    if (failed(emitOp(op)))
      return failure();
    if (&op == turnLast)
      passRoleTurn();
  }
  if (!retireAtEnd)
    return success();
  retirePendingGroups();
  if (turnToPass)
    passWarpgroupTurn();
  return success();
}

/// An scf.if whose branches only compute on registers and memory (fragment
/// math, loads, stores: no wgmma, no hand-off) can run while wgmma groups
/// are in flight, as long as it does not read their results: a rotated tile
/// loop's previous epilogue beside the next tile's first S = Q Kᵀ.
bool mlir::cake::nvvm::isRegisterBranch(Operation &op) {
  if (!isa<scf::IfOp>(op))
    return false;
  for (Region &region : op.getRegions())
    for (Block &block : region)
      for (Operation &inner : block)
        if (!isa<scf::YieldOp>(inner) && !isRegisterBranch(inner) &&
            (isa<MmaOp, PipeWaitOp, PipeReleaseOp>(inner) ||
             !mayIssueBesideWgmmaGroups(inner)))
          return false;
  return true;
}

const KernelEmitter::FamilyEmitter KernelEmitter::kFamilyEmitters[] = {
    &KernelEmitter::emitScheduleOp,   &KernelEmitter::emitScalarOp,
    &KernelEmitter::emitPipeOp,       &KernelEmitter::emitTmaOp,
    &KernelEmitter::emitMmaOp,        &KernelEmitter::emitFragmentOp,
    &KernelEmitter::emitSolveOp,      &KernelEmitter::emitMemoryOp,
    &KernelEmitter::emitTopKOp,       &KernelEmitter::emitGatherOp,
    &KernelEmitter::emitSmemReduceOp, &KernelEmitter::emitTmemOp,
    &KernelEmitter::emitScatterOp,
};

LogicalResult KernelEmitter::emitOp(Operation &op) {
  curLoc = op.getLoc();
  if (!pendingGroups.empty()) {
    if (mayIssueBesideWgmmaGroups(op)) {
      retirePendingThrough(lastPendingUse(op));
    } else if (isa<scf::YieldOp>(op) && op.getParentOp() &&
               isRegisterBranch(*op.getParentOp())) {
      // A register branch's yield waits only for what it yields.
      retirePendingThrough(lastPendingUse(op));
    } else if (isRegisterBranch(op)) {
      // The turn passes before the branch, as warpgroupTurnEnd says (it ends
      // turns at ops with regions); the groups stay in flight through it.
      if (turnToPass)
        passWarpgroupTurn();
      retirePendingThrough(lastPendingUse(op));
    } else {
      retirePendingGroups();
    }
  }
  if (emitSharedConstant(op))
    return success();
  for (FamilyEmitter family : kFamilyEmitters)
    if (std::optional<LogicalResult> result = (this->*family)(op))
      return *result;
  if (isa<scf::YieldOp>(op))
    return success();
  // Scalar ops of upstream dialects (arith, math) are cloned as they are.
  bool scalar = op.getNumRegions() == 0 &&
                llvm::all_of(op.getResultTypes(),
                             [](Type t) { return t.isIntOrIndexOrFloat(); });
  if (!scalar || op.getDialect()->getNamespace() == "cake")
    return op.emitError("convert-cake-to-nvvm: '")
           << op.getName() << "' is not lowered yet";
  b.clone(op, map);
  return success();
}

namespace {

struct ConvertCakeToNVVMPass
    : public mlir::cake::impl::ConvertCakeToNVVMBase<ConvertCakeToNVVMPass> {
  using ConvertCakeToNVVMBase::ConvertCakeToNVVMBase;

  void runOnOperation() override {
    ModuleOp top = getOperation();
    OpBuilder b(top.getContext());
    SmallVector<KernelOp> kernels(top.getOps<KernelOp>());
    SmallVector<Attribute> launches;
    for (KernelOp kernel : kernels) {
      b.setInsertionPoint(kernel);
      auto target = NVVM::NVVMTargetAttr::get(
          top.getContext(), /*optLevel=*/3, "nvptx64-nvidia-cuda",
          kernel.getTarget().getArch(),
          lookupTarget(kernel.getTarget().getArch())->ptxFeature);
      auto module = gpu::GPUModuleOp::create(
          b, kernel.getLoc(), (kernel.getSymName() + "_module").str(),
          b.getArrayAttr({target}));
      // A decision a tactic recorded on the kernel wins over the option.
      auto decided = [&](StringRef attrName, bool option) {
        auto attr = kernel->getAttrOfType<BoolAttr>(attrName);
        return attr ? attr.getValue() : option;
      };
      KernelEmitter emitter(kernel, module, mmaInFlight, fpContract,
                            decided(kMmaChainAttrName, mmaChain),
                            decided(kWgOrderAttrName, wgOrder),
                            decided(kWgOrderRetireAttrName, wgOrderRetire),
                            decided(kRetireLateAttrName, retireLate),
                            decided(kFenceWaitsAttrName, fenceWaits),
                            decided(kFlushDenormalsAttrName, flushDenormals),
                            decided(kUniformWarpAttrName, uniformWarp));
      if (failed(emitter.emit())) {
        module->erase();
        signalPassFailure();
        return;
      }
      launches.push_back(emitter.launch);
      kernel->erase();
    }
    top->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                 b.getUnitAttr());
    // gpu-module-to-binary drops the gpu.module's attributes, so the launch
    // metadata lives on the top-level module.
    if (!launches.empty())
      top->setAttr("cake.launch", b.getArrayAttr(launches));
  }
};

} // namespace
