//===- LowerToNVVM.cpp - convert-cake-to-nvvm -----------------------------===//
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
// The kernel ABI (the order of parameters) and launch metadata are recorded
// in a `cake.launch` array on the top-level module for cake-translate.
//
// Kernels using ops or layouts this lowering does not handle yet are
// rejected with a diagnostic that says what is missing.
//
//===----------------------------------------------------------------------===//

#include "cake/Target/TargetInfo.h"
#include "cake/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_CONVERTCAKETONVVM
#include "cake/Transforms/Passes.h.inc"
} // namespace cake
} // namespace mlir

using namespace mlir;
using namespace mlir::cake;

namespace {

int64_t getI64(Operation *op, StringRef name) {
  auto a = op->getAttrOfType<IntegerAttr>(name);
  return a ? a.getInt() : -1;
}

/// What the lowered code knows about one global tensor argument.
struct TensorParams {
  Value ptr;               // !llvm.ptr<1>
  SmallVector<Value> dims; // index, one per dimension
  Type elementType;
};

/// What the lowered code knows about one pipe.
struct PipeInfo {
  int64_t stages, full, empty, fullCount, emptyCount, txBytes;
};

/// What the lowered code knows about one ring.
struct RingInfo {
  int64_t offset, tileBytes;
};

/// Which part of the wgmma accumulator layout a fragment occupies.
enum class FragLayout { Acc, Row, Col };
struct FragInfo {
  FragLayout layout;
  int64_t count; ///< values per thread
  Type type;     ///< the LLVM struct holding them
};

/// The role being emitted.
struct RoleState {
  RoleOp role;
  Value warpInRole;                 // i32
  Value lane;                       // i32
  Value leader;                     // i1: lane 0 of the role's first warp
  bool allLanes = false;            // every thread runs the body
  // (pipe, producer side?) -> !llvm.ptr alloca of i32: the hand-offs the
  // role has taken on that side. A role that fills its own pipe counts
  // its acquires and its waits apart.
  llvm::DenseMap<std::pair<Value, unsigned>, Value> ctr;
};

class KernelEmitter {
public:
  KernelEmitter(KernelOp kernel, gpu::GPUModuleOp module, unsigned mmaInFlight,
                bool fpContract, bool mmaChain, bool wgOrder,
                bool wgOrderRetire, bool retireLate)
      : kernel(kernel), module(module), ctx(kernel.getContext()),
        b(kernel.getContext()), mmaInFlight(mmaInFlight),
        fpContract(fpContract), mmaChain(mmaChain), wgOrder(wgOrder),
        wgOrderRetire(wgOrderRetire), retireLate(retireLate) {}

  LogicalResult emit();

  /// The launch metadata (entry, parameter order, block, shared memory,
  /// TMA specs, schedule), set by emit().
  DictionaryAttr launch;

private:
  // Helpers for constants and pointer arithmetic.
  Value i32c(int64_t v) {
    return arith::ConstantIntOp::create(b, loc(), b.getI32Type(), v);
  }
  Value i64c(int64_t v) {
    return arith::ConstantIntOp::create(b, loc(), b.getI64Type(), v);
  }
  Value idxc(int64_t v) { return arith::ConstantIndexOp::create(b, loc(), v); }
  Location loc() { return curLoc; }
  Type smemPtrTy() { return LLVM::LLVMPointerType::get(ctx, 3); }
  Type globalPtrTy() { return LLVM::LLVMPointerType::get(ctx, 1); }
  Value smemAt(Value byteOffset /*i32*/) {
    return LLVM::GEPOp::create(b, loc(), smemPtrTy(), b.getI8Type(), smemBase,
                               ValueRange{byteOffset});
  }
  Value toI32(Value index) {
    return arith::IndexCastOp::create(b, loc(), b.getI32Type(), index);
  }
  /// A TMA copy's coordinates as i32, innermost first.
  SmallVector<Value> tmaCoordinates(ValueRange coords) {
    SmallVector<Value> out;
    for (Value c : llvm::reverse(coords))
      out.push_back(toI32(map.lookupOrDefault(c)));
    return out;
  }
  /// Continues inside `if (leader)` of a role whose threads all run: the
  /// leader alone takes TMA stages and issues copies; its warp reconverges
  /// behind it (the role's wgmma are .sync.aligned). The caller holds an
  /// InsertionGuard.
  void enterLeader() {
    auto lead = scf::IfOp::create(b, loc(), role->leader, /*withElse=*/false);
    NVVM::SyncWarpOp::create(b, loc(), i32c(-1));
    b.setInsertionPointToStart(lead.thenBlock());
  }

  LogicalResult emitBlock(Block &block);
  void retirePendingChain();
  LogicalResult emitOp(Operation &op);
  LogicalResult emitRole(RoleOp role);
  LogicalResult emitTiles(TilesOp tiles);
  LogicalResult emitFor(scf::ForOp forOp);
  LogicalResult emitIf(scf::IfOp ifOp);
  LogicalResult emitHandoff(Operation *op, Value pipe, bool producer);
  LogicalResult emitRelease(PipeReleaseOp op);
  void releaseDeferred(Value pipe);
  void releaseSlot(Value pipe, Value slot);
  void arriveEmpty(Value pipe, Value stage);
  LogicalResult emitTmaLoad(TmaLoadOp op);
  LogicalResult emitTmaStore(TmaStoreOp op);
  LogicalResult emitSmemWrite(SmemWriteOp op);
  void arriveOnce(Value barrier);
  LogicalResult emitMma(MmaOp op);
  LogicalResult startWarpgroupOrder(RoleOp r);
  void orderBarrier(bool arrive, Value id);
  LogicalResult emitStore(StoreOp op);
  FailureOr<FragInfo> fragInfo(FragType type, Operation *where);
  FailureOr<Type> fragStructType(FragType type, Operation *where);
  Value splat(Type structType, Value v);
  Value quadShuffle(Value v, int32_t offset);
  Value threadRow();
  Value outerOffset(const TensorParams &tp, ValueRange coords);
  LogicalResult emitFragMap(FragMapOp op);
  LogicalResult emitArgmin(FragArgminOp op);
  LogicalResult emitIota(FragIotaOp op);
  std::pair<Value, Value> packedRowArgmin(Value acc, int64_t h, int64_t n,
                                          Value colBase);
  LogicalResult emitReduce(FragReduceOp op);
  LogicalResult emitLoad(LoadOp op);
  LogicalResult emitScalarLoad(ScalarLoadOp op);
  LogicalResult emitRowStore(StoreOp op, const FragInfo &info);

  KernelOp kernel;
  gpu::GPUModuleOp module;
  MLIRContext *ctx;
  OpBuilder b;
  Location curLoc = UnknownLoc::get(kernel.getContext());

  IRMapping map;
  llvm::DenseMap<Value, TensorParams> tensors;
  SmallVector<Value> descriptors; // !llvm.ptr, by derived index
  llvm::DenseMap<Value, PipeInfo> pipes;
  llvm::DenseMap<Value, RingInfo> rings;
  Value smemBase, tid, warp;
  RoleState *role = nullptr;
  Block *entryBlock = nullptr; // allocas go here so LLVM promotes them
  // Inside a K loop of the form {wait; wgmma on the stage; release; yield},
  // one wgmma group stays in flight: the release of a stage is deferred
  // until the next iteration's wait_group(1) has retired the mma reading it.
  Value deferredStage; // !llvm.ptr to an i32 (-1: none), or null
  unsigned mmaInFlight;
  // A straight-line chain of wgmmas on one accumulator (a K split over
  // stages, unrolled): each group but the last commits without waiting, so
  // the tensor cores never drain between stages. The stages an unretired
  // group reads (`chainStages`) are released only once a later group's
  // wait_group(1) or the chain's final wait_group(0) has retired it.
  llvm::SmallDenseSet<std::pair<Value, Value>> chainStages; // (pipe, stage)
  SmallVector<std::pair<Value, Value>> chainReleases; // (pipe, stage)
  /// Releases held back until a wait_group retired their readers.
  void releaseHeld(SmallVectorImpl<std::pair<Value, Value>> &held) {
    for (auto [pipe, stage] : held)
      arriveEmpty(pipe, stage);
    held.clear();
  }
  bool fpContract; // frag.map's float ops may fuse into FMAs
  bool mmaChain;   // straight-line wgmma chains stay in flight
  // wg-order: the first and last wgmma of each ordered chain (a fresh
  // accumulator's straight-line chain in a role of several warpgroups),
  // that role's warpgroups, and the first named barrier of the token ring.
  bool wgOrder;
  // wg-order-retire: the turn passes when the chain's last group retires,
  // not when it is issued.
  bool wgOrderRetire;
  llvm::DenseSet<Operation *> orderedFirst, orderedLast;
  int64_t orderWarpgroups = 0;
  int32_t orderBarrierBase = 0;
  // retire-late: a wgmma chain's last group retires (wait_group 0) at the
  // first op that needs it rather than at its commit, so global loads
  // (the k-means ||c||^2 row) issue while the wgmmas run; retirePending
  // marks the group not yet retired.
  bool retireLate;
  bool retirePending = false;
  // Inside a loop that overlaps the previous tile's epilogue with this
  // tile's wgmmas (overlappedEpilogueLoop): the body's wgmmas commit without
  // waiting and their stages' releases wait in `released` until the end of
  // the iteration, where wait_group(0) retires them: the epilogue, which
  // reads the accumulator the previous iteration completed, runs between.
  struct LazyMma {
    llvm::DenseSet<Operation *> mmas, releases;
    SmallVector<std::pair<Value, Value>> released; // (pipe, stage), in order
  };
  std::optional<LazyMma> lazy;
};

LogicalResult KernelEmitter::emit() {
  if (!kernel->hasAttr("block") || !kernel->hasAttr("tma"))
    return kernel.emitError("cake-derive must run before convert-cake-to-nvvm");
  if (kernel.getTarget().getArch() != "sm_90a")
    return kernel.emitError("convert-cake-to-nvvm lowers sm_90a kernels; ")
           << kernel.getTarget().getArch() << " is not lowered yet";

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
  auto tma = kernel->getAttrOfType<ArrayAttr>("tma");
  for (auto [i, d] : llvm::enumerate(tma)) {
    argTypes.push_back(LLVM::LLVMPointerType::get(ctx));
    entry("tma", i, -1);
  }

  b.setInsertionPointToEnd(module.getBody());
  auto funcType = b.getFunctionType(argTypes, {});
  auto func =
      gpu::GPUFuncOp::create(b, kernel.getLoc(), kernel.getSymName(), funcType);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  auto block = kernel->getAttrOfType<DenseI64ArrayAttr>("block");
  int32_t threads = block[0];
  func->setAttr("nvvm.maxntid", b.getDenseI32ArrayAttr({threads, 1, 1}));
  // One CTA per SM at launch is what lets ptxas honour setmaxnreg.
  func->setAttr("nvvm.minctasm", b.getI32IntegerAttr(1));

  // Where the tile loop's extents come from (derived on cake.tiles), and
  // each argument's element type and static shape, for the launcher.
  Attribute extents = b.getArrayAttr({});
  kernel.walk([&](TilesOp t) {
    if (auto e = t->getAttr("extents"))
      extents = e;
  });
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
      b.getNamedAttr("smem_bytes", kernel->getAttr("smem_bytes")),
      b.getNamedAttr("tma", tma),
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
      for (int64_t d = 0; d < g.getRank(); ++d)
        tp.dims.push_back(arith::IndexCastOp::create(b, loc(), b.getIndexType(),
                                                     body.getArgument(p++)));
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
  Value aligned = arith::AndIOp::create(
      b, loc(), arith::AddIOp::create(b, loc(), rawInt, i32c(1023)),
      i32c(~1023));
  Value pad = arith::SubIOp::create(b, loc(), aligned, rawInt);
  smemBase = LLVM::GEPOp::create(b, loc(), smemPtrTy(), b.getI8Type(), raw,
                                 ValueRange{pad});

  tid = arith::IndexCastOp::create(
      b, loc(), b.getI32Type(),
      gpu::ThreadIdOp::create(b, loc(), gpu::Dimension::x));
  warp = arith::DivUIOp::create(b, loc(), tid, i32c(32));

  // Pipes and rings: barrier init by thread 0.
  Value isT0 =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, tid, i32c(0));
  auto initIf = scf::IfOp::create(b, loc(), isT0, /*withElse=*/false);
  for (Operation &op : kernel.getBody().front()) {
    if (auto ring = dyn_cast<RingOp>(op)) {
      rings[ring] = {getI64(ring, "offset"), ring.getType().getTileBytes()};
    } else if (auto pipe = dyn_cast<PipeOp>(op)) {
      PipeInfo info{pipe.getType().getStages(),  getI64(pipe, "full"),
                    getI64(pipe, "empty"),       getI64(pipe, "full_count"),
                    getI64(pipe, "empty_count"), getI64(pipe, "tx_bytes")};
      if (info.emptyCount <= 0)
        return pipe.emitError("pipe has no consumer role to release it");
      pipes[pipe] = info;
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(initIf.thenBlock()->getTerminator());
      for (int64_t s = 0; s < info.stages; ++s) {
        NVVM::MBarrierInitOp::create(b, loc(), smemAt(i32c(info.full + 8 * s)),
                                     i32c(info.fullCount), Value());
        NVVM::MBarrierInitOp::create(b, loc(), smemAt(i32c(info.empty + 8 * s)),
                                     i32c(info.emptyCount), Value());
      }
    }
  }
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(initIf.thenBlock()->getTerminator());
    NVVM::FenceMbarrierInitOp::create(b, loc());
  }
  NVVM::Barrier0Op::create(b, loc());

  for (RoleOp r : kernel.getBody().getOps<RoleOp>())
    if (failed(emitRole(r)))
      return failure();
  gpu::ReturnOp::create(b, loc());
  return success();
}

LogicalResult KernelEmitter::emitRole(RoleOp r) {
  curLoc = r.getLoc();
  int64_t first = getI64(r, "first_warp"), n = r.getNumWarps();
  Value ge = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::uge, warp,
                                   i32c(first));
  Value lt = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, warp,
                                   i32c(first + n));
  auto inRole =
      scf::IfOp::create(b, loc(), arith::AndIOp::create(b, loc(), ge, lt),
                        /*withElse=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(inRole.thenBlock());

  StringRef action = r->getAttrOfType<StringAttr>("setmaxnreg").getValue();
  if (action != "none") {
    if (!r.getWarpgroups())
      return r.emitError("[hw.warpgroup-alignment] regs() needs a "
                         "warpgroups(n) role: setmaxnreg is per warpgroup");
    NVVM::SetMaxRegisterOp::create(b, loc(), (uint32_t)*r.getRegs(),
                                   action == "inc"
                                       ? NVVM::SetMaxRegisterAction::increase
                                       : NVVM::SetMaxRegisterAction::decrease);
  }

  RoleState state;
  state.role = r;
  state.warpInRole = arith::SubIOp::create(b, loc(), warp, i32c(first));
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
  state.leader = arith::AndIOp::create(
      b, loc(),
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                            state.warpInRole, i32c(0)),
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, state.lane,
                            i32c(0)));
  state.allLanes = r->getAttrOfType<StringAttr>("lanes").getValue() != "one";
  if (failed(startWarpgroupOrder(r)))
    return failure();
  if (!state.allLanes) {
    auto lead = scf::IfOp::create(b, loc(), state.leader, /*withElse=*/false);
    b.setInsertionPointToStart(lead.thenBlock());
  }
  LogicalResult result = emitBlock(r.getBody().front());
  role = nullptr;
  return result;
}

LogicalResult KernelEmitter::emitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(emitOp(op)))
      return failure();
  retirePendingChain();
  return success();
}

/// An op that may run while a chain's last wgmma group is in flight: it
/// touches neither the accumulator nor shared memory nor control flow. A
/// release of a stage the group reads is held (chainStages), not emitted.
static bool runsBesideWgmma(Operation &op) {
  if (isa<LoadOp, PipeReleaseOp>(op))
    return true;
  return op.getNumRegions() == 0 && isPure(&op) &&
         !op.hasTrait<OpTrait::IsTerminator>() &&
         op.getDialect()->getNamespace() != "cake" &&
         llvm::all_of(op.getResultTypes(),
                      [](Type t) { return t.isIntOrIndexOrFloat(); });
}

void KernelEmitter::retirePendingChain() {
  if (!retirePending)
    return;
  retirePending = false;
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc(), 0);
  releaseHeld(chainReleases);
  chainStages.clear();
}

LogicalResult KernelEmitter::emitOp(Operation &op) {
  curLoc = op.getLoc();
  if (retirePending && !runsBesideWgmma(op))
    retirePendingChain();
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](TilesOp t) { return emitTiles(t); })
      .Case([&](scf::ForOp f) { return emitFor(f); })
      .Case([&](scf::IfOp i) { return emitIf(i); })
      .Case([&](DimOp d) -> LogicalResult {
        auto it = tensors.find(d.getTensor());
        if (it == tensors.end())
          return d.emitError("expected a kernel argument");
        map.map(d.getResult(), it->second.dims[d.getDim()]);
        return success();
      })
      .Case([&](PipeAcquireOp a) {
        return emitHandoff(a, a.getPipe(), /*producer=*/true);
      })
      .Case([&](PipeWaitOp w) {
        return emitHandoff(w, w.getPipe(), /*producer=*/false);
      })
      .Case([&](PipeCommitOp c) {
        // A TMA-filled stage's full barrier was armed at acquire and the
        // copies finish the phase: nothing to emit. Otherwise arrive.
        auto acquire = c.getStage().getDefiningOp<PipeAcquireOp>();
        if (acquire && isFilledByTma(acquire))
          return success();
        // Stores filled the stage: one arrival per producer warp (the
        // derived full_count), after the warp converged.
        const PipeInfo &info = pipes[c.getPipe()];
        arriveOnce(smemAt(arith::AddIOp::create(
            b, loc(), i32c(info.full),
            arith::MulIOp::create(b, loc(), map.lookup(c.getStage()),
                                  i32c(8)))));
        return success();
      })
      .Case([&](PipeReleaseOp r) { return emitRelease(r); })
      .Case([&](TmaStoreOp t) { return emitTmaStore(t); })
      .Case([&](SmemWriteOp w) { return emitSmemWrite(w); })
      .Case([&](FenceProxyAsyncOp) {
        // Order this thread's generic-proxy shared-memory writes before
        // the async proxy (TMA, wgmma) reads them.
        NVVM::FenceProxyOp::create(
            b, loc(),
            NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
            NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
        return success();
      })
      .Case([&](BarrierSyncOp bar) -> LogicalResult {
        // bar.sync id, threads (barrier 0 stays the CTA-wide one).
        NVVM::BarrierOp::create(b, loc(), Type(), i32c(bar.getId()),
                                i32c(bar.getThreads()),
                                NVVM::BarrierReductionAttr(), Value());
        return success();
      })
      .Case([&](TmaLoadOp t) { return emitTmaLoad(t); })
      .Case([&](MmaOp m) { return emitMma(m); })
      .Case([&](FragZeroOp z) -> LogicalResult {
        FailureOr<FragInfo> info = fragInfo(z.getType(), z);
        if (failed(info))
          return failure();
        map.map(z.getResult(), LLVM::ZeroOp::create(b, loc(), info->type));
        return success();
      })
      .Case([&](FragSplatOp sp) -> LogicalResult {
        FailureOr<FragInfo> info = fragInfo(sp.getType(), sp);
        if (failed(info))
          return failure();
        map.map(sp.getResult(),
                splat(info->type, map.lookupOrDefault(sp.getValue())));
        return success();
      })
      .Case([&](FragIotaOp io) { return emitIota(io); })
      .Case([&](FragMapOp m) { return emitFragMap(m); })
      .Case([&](FragArgminOp a) { return emitArgmin(a); })
      .Case([&](FragReduceOp r) { return emitReduce(r); })
      .Case([&](LoadOp l) { return emitLoad(l); })
      .Case([&](ScalarLoadOp l) { return emitScalarLoad(l); })
      .Case([&](FragConvertOp c) -> LogicalResult {
        FailureOr<FragInfo> from = fragInfo(c.getInput().getType(), c);
        FailureOr<FragInfo> toInfo = fragInfo(c.getType(), c);
        if (failed(from) || failed(toInfo))
          return failure();
        Type to = toInfo->type;
        Type dst = c.getType().getElementType();
        Type srcElt = c.getInput().getType().getElementType();
        if (!srcElt.isF32() || !(dst.isBF16() || dst.isF16()))
          return c.emitError("frag.convert from ")
                 << srcElt << " to " << dst << " is not lowered yet";
        Value in = map.lookup(c.getInput());
        Value out = LLVM::UndefOp::create(b, loc(), to);
        unsigned n = cast<LLVM::LLVMStructType>(to).getBody().size();
        for (unsigned i = 0; i < n; ++i) {
          Value v = LLVM::ExtractValueOp::create(b, loc(), in, i);
          Value t = LLVM::FPTruncOp::create(b, loc(), dst, v);
          out = LLVM::InsertValueOp::create(b, loc(), out, t, i);
        }
        map.map(c.getResult(), out);
        return success();
      })
      .Case([&](StoreOp s) { return emitStore(s); })
      .Case([&](scf::YieldOp) { return success(); })
      .Default([&](Operation *other) -> LogicalResult {
        bool scalar = other->getNumRegions() == 0 &&
                      llvm::all_of(other->getResultTypes(), [](Type t) {
                        return t.isIntOrIndexOrFloat();
                      });
        if (!scalar || other->getDialect()->getNamespace() == "cake")
          return other->emitError("convert-cake-to-nvvm: '")
                 << other->getName() << "' is not lowered yet";
        b.clone(*other, map);
        return success();
      });
}

/// True if `mma`'s wgmma group may stay in flight past its commit: its
/// result feeds only the next wgmma of the same block as the accumulator,
/// and what lies between is releases, waits on pipes of two or more stages
/// (a one-stage pipe would wait for the release held back) and pure ops.
static bool chainsIntoNextMma(MmaOp mma) {
  if (mma.getKind() != MmaKind::wgmma || !mma.getResult().hasOneUse())
    return false;
  auto next = dyn_cast<MmaOp>(*mma.getResult().getUsers().begin());
  if (!next || next.getKind() != MmaKind::wgmma ||
      next->getBlock() != mma->getBlock() || next.getAcc() != mma.getResult())
    return false;
  // Releases are held back by (pipe, stage): both stages must name theirs.
  if (!mma.getAStage().getDefiningOp<PipeWaitOp>() ||
      !mma.getBStage().getDefiningOp<PipeWaitOp>())
    return false;
  for (Operation *op = mma->getNextNode(); op != next; op = op->getNextNode()) {
    if (isa<PipeReleaseOp>(op))
      continue;
    if (auto wait = dyn_cast<PipeWaitOp>(op)) {
      if (cast<PipeType>(wait.getPipe().getType()).getStages() < 2)
        return false;
      continue;
    }
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
      return false;
  }
  return true;
}

/// True if `forOp` is a consumer K loop whose stage can stay in flight for
/// one more iteration: one wait, one wgmma reading only that stage, one
/// release of it after the mma, the mma result yielded.
static bool pipelinedMmaLoop(scf::ForOp forOp) {
  PipeWaitOp wait;
  MmaOp mma;
  PipeReleaseOp release;
  for (Operation &op : forOp.getBody()->without_terminator()) {
    if (auto w = dyn_cast<PipeWaitOp>(op)) {
      if (wait)
        return false;
      wait = w;
    } else if (auto m = dyn_cast<MmaOp>(op)) {
      if (mma || !wait || m.getKind() != MmaKind::wgmma)
        return false;
      mma = m;
    } else if (auto r = dyn_cast<PipeReleaseOp>(op)) {
      if (release || !mma)
        return false;
      release = r;
    } else if (op.getNumRegions() != 0 || isa<PipeAcquireOp>(op)) {
      return false;
    }
  }
  if (!wait || !mma || !release)
    return false;
  auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
  return mma.getAStage() == wait.getStage() &&
         mma.getBStage() == wait.getStage() &&
         release.getStage() == wait.getStage() &&
         release.getPipe() == wait.getPipe() && yield.getNumOperands() == 1 &&
         yield.getOperand(0) == mma.getResult();
}

namespace {
/// A loop body that overlaps an epilogue with the next tile's wgmmas.
struct OverlapLoop {
  Value pipe;
  Operation *firstUse; ///< of the carried accumulator, after the chain
  SmallVector<MmaOp> mmas;
  SmallVector<PipeReleaseOp> releases;
};
} // namespace

/// The loop form of a software-pipelined epilogue: the body starts with a
/// chain of wgmmas from a fresh accumulator, each reading a stage waited
/// for on one pipe and released after it, and yields the chain's result as
/// iter_arg i; iter_arg i (the previous tile's accumulator) is used only
/// after the chain, and the chain's result only by the yield. The wgmmas
/// can then run while the body's epilogue computes on iter_arg i.
static std::optional<OverlapLoop> overlappedEpilogueLoop(scf::ForOp forOp) {
  OverlapLoop loop;
  Block *body = forOp.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  unsigned position = 0, chainEnd = 0;
  llvm::DenseMap<Operation *, unsigned> order;
  for (Operation &op : body->without_terminator()) {
    order[&op] = position++;
    if (isa<PipeAcquireOp, scf::ForOp, scf::WhileOp>(op))
      return std::nullopt;
    // A guarded epilogue (scf.if) may follow the chain; it holds no
    // hand-offs and no mma of its own.
    if (isa<scf::IfOp>(op)) {
      bool plain = !loop.releases.empty();
      op.walk([&](Operation *inner) {
        if (isa<PipeWaitOp, PipeReleaseOp, PipeAcquireOp, MmaOp, scf::ForOp>(
                inner))
          plain = false;
      });
      if (!plain)
        return std::nullopt;
      continue;
    }
    if (auto w = dyn_cast<PipeWaitOp>(op)) {
      if (loop.pipe && w.getPipe() != loop.pipe)
        return std::nullopt;
      loop.pipe = w.getPipe();
    } else if (auto m = dyn_cast<MmaOp>(op)) {
      if (m.getKind() != MmaKind::wgmma)
        return std::nullopt;
      Value acc = m.getAcc();
      bool chained = loop.mmas.empty()
                         ? isa_and_nonnull<FragZeroOp>(acc.getDefiningOp()) &&
                               acc.getDefiningOp()->getBlock() == body
                         : acc == loop.mmas.back().getResult();
      auto wait = m.getBStage().getDefiningOp<PipeWaitOp>();
      if (!chained || !wait || wait->getBlock() != body ||
          !m.getResult().hasOneUse())
        return std::nullopt;
      loop.mmas.push_back(m);
    } else if (auto r = dyn_cast<PipeReleaseOp>(op)) {
      auto wait = r.getStage().getDefiningOp<PipeWaitOp>();
      if (r.getPipe() != loop.pipe || !wait || wait->getBlock() != body ||
          loop.mmas.empty())
        return std::nullopt;
      loop.releases.push_back(r);
      chainEnd = position;
    }
  }
  if (loop.mmas.empty() || loop.releases.size() != loop.mmas.size())
    return std::nullopt;
  Value last = loop.mmas.back().getResult();
  unsigned index = 0;
  for (; index < yield.getNumOperands(); ++index)
    if (yield.getOperand(index) == last)
      break;
  if (index == yield.getNumOperands() ||
      *last.getUsers().begin() != yield.getOperation())
    return std::nullopt;
  // Every use of the carried accumulator comes after the chain.
  Value carried = forOp.getRegionIterArg(index);
  for (OpOperand &use : carried.getUses()) {
    Operation *user = body->findAncestorOpInBlock(*use.getOwner());
    if (!user || isa<scf::YieldOp>(user) || order.lookup(user) < chainEnd)
      return std::nullopt;
    if (!loop.firstUse || order.lookup(user) < order.lookup(loop.firstUse))
      loop.firstUse = user;
  }
  if (!loop.firstUse)
    return std::nullopt;
  return loop;
}

LogicalResult KernelEmitter::emitFor(scf::ForOp forOp) {
  std::optional<OverlapLoop> overlap;
  if (mmaInFlight > 0 && !lazy && !deferredStage)
    overlap = overlappedEpilogueLoop(forOp);
  if (overlap) {
    LazyMma state;
    for (MmaOp m : overlap->mmas)
      state.mmas.insert(m);
    for (PipeReleaseOp r : overlap->releases)
      state.releases.insert(r);
    lazy = std::move(state);
  }
  bool pipelined = !overlap && mmaInFlight > 0 && pipelinedMmaLoop(forOp);
  Value pipe;
  if (pipelined) {
    for (Operation &op : *forOp.getBody())
      if (auto r = dyn_cast<PipeReleaseOp>(op))
        pipe = r.getPipe();
    // A deferred release holds mma-in-flight stages past the next wait: a
    // pipe with no more stages than that would wait for itself forever.
    if (cast<PipeType>(pipe.getType()).getStages() <= int64_t(mmaInFlight))
      pipelined = false;
  }
  if (pipelined) {
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(entryBlock);
      Value one = i32c(1);
      deferredStage = LLVM::AllocaOp::create(
          b, loc(), LLVM::LLVMPointerType::get(ctx), b.getI32Type(), one);
    }
    LLVM::StoreOp::create(b, loc(), i32c(-1), deferredStage);
  }
  SmallVector<Value> inits;
  for (Value v : forOp.getInitArgs())
    inits.push_back(map.lookupOrDefault(v));
  auto newFor =
      scf::ForOp::create(b, loc(), map.lookupOrDefault(forOp.getLowerBound()),
                         map.lookupOrDefault(forOp.getUpperBound()),
                         map.lookupOrDefault(forOp.getStep()), inits);
  map.map(forOp.getInductionVar(), newFor.getInductionVar());
  for (auto [o, n] :
       llvm::zip(forOp.getRegionIterArgs(), newFor.getRegionIterArgs()))
    map.map(o, n);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(newFor.getBody());
    // scf.for::create adds an empty yield when there are no iter_args.
    if (!newFor.getBody()->empty())
      b.setInsertionPoint(newFor.getBody()->getTerminator());
    for (Operation &op : *forOp.getBody()) {
      if (overlap && isa<scf::YieldOp>(op)) {
        // This tile's wgmmas ran beside the epilogue; retire them, so the
        // accumulator carried to the next iteration is complete, and free
        // their stages.
        NVVM::WgmmaWaitGroupSyncOp::create(b, loc(), 0);
        releaseHeld(lazy->released);
      }
      if (failed(emitOp(op)))
        return failure();
    }
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    if (!yield.getResults().empty()) {
      SmallVector<Value> vals;
      for (Value v : yield.getResults())
        vals.push_back(map.lookupOrDefault(v));
      scf::YieldOp::create(b, loc(), vals);
    }
  }
  for (auto [o, n] : llvm::zip(forOp.getResults(), newFor.getResults()))
    map.map(o, n);
  if (pipelined) {
    // Retire the last group and release the stage it read.
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc(), 0);
    releaseDeferred(pipe);
    deferredStage = Value();
  }
  if (overlap)
    lazy.reset();
  return success();
}

LogicalResult KernelEmitter::emitIf(scf::IfOp ifOp) {
  SmallVector<Type> types;
  for (Type t : ifOp.getResultTypes()) {
    if (auto frag = dyn_cast<FragType>(t)) {
      FailureOr<FragInfo> info = fragInfo(frag, ifOp);
      if (failed(info))
        return failure();
      types.push_back(info->type);
    } else if (t.isIntOrIndexOrFloat()) {
      types.push_back(t);
    } else {
      return ifOp.emitError("convert-cake-to-nvvm: an scf.if result of type ")
             << t << " is not lowered yet";
    }
  }
  bool withElse = !ifOp.getElseRegion().empty();
  auto newIf = scf::IfOp::create(
      b, loc(), types, map.lookupOrDefault(ifOp.getCondition()), withElse);
  for (auto [from, to] : {std::pair(ifOp.thenBlock(), newIf.thenBlock()),
                          std::pair(ifOp.elseBlock(), newIf.elseBlock())}) {
    if (!from)
      continue;
    OpBuilder::InsertionGuard g(b);
    // Without results, create() already put an empty yield there.
    if (to->empty())
      b.setInsertionPointToEnd(to);
    else
      b.setInsertionPoint(to->getTerminator());
    if (failed(emitBlock(*from)))
      return failure();
    if (!types.empty()) {
      SmallVector<Value> vals;
      for (Value v : cast<scf::YieldOp>(from->getTerminator()).getResults())
        vals.push_back(map.lookupOrDefault(v));
      scf::YieldOp::create(b, loc(), vals);
    }
  }
  for (auto [o, n] : llvm::zip(ifOp.getResults(), newIf.getResults()))
    map.map(o, n);
  return success();
}

void KernelEmitter::releaseSlot(Value pipe, Value slot) {
  Value prev = LLVM::LoadOp::create(b, loc(), b.getI32Type(), slot);
  Value any =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::sge, prev, i32c(0));
  auto ifAny = scf::IfOp::create(b, loc(), any, /*withElse=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(ifAny.thenBlock()->getTerminator());
  arriveEmpty(pipe, prev);
}

void KernelEmitter::releaseDeferred(Value pipe) {
  releaseSlot(pipe, deferredStage);
}

void KernelEmitter::arriveEmpty(Value pipe, Value stage) {
  const PipeInfo &info = pipes[pipe];
  arriveOnce(smemAt(
      arith::AddIOp::create(b, loc(), i32c(info.empty),
                            arith::MulIOp::create(b, loc(), stage, i32c(8)))));
}

void KernelEmitter::arriveOnce(Value barrier) {
  // One arrival per warp of the role (the derived counts): the warp
  // converges first so every lane is done with the stage. A copy role runs
  // on its leader alone, which arrives for its one warp.
  OpBuilder::InsertionGuard g(b);
  if (role->allLanes) {
    NVVM::SyncWarpOp::create(b, loc(), i32c(-1));
    Value lane0 = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                        role->lane, i32c(0));
    auto ifLane0 = scf::IfOp::create(b, loc(), lane0, /*withElse=*/false);
    b.setInsertionPoint(ifLane0.thenBlock()->getTerminator());
  }
  NVVM::MBarrierArriveOp::create(b, loc(), Type(), barrier, Value());
}

LogicalResult KernelEmitter::emitTiles(TilesOp tiles) {
  ArrayRef<int64_t> tile = kernel.getTileShape();
  size_t rank = tile.size();
  if (rank > 2)
    return tiles.emitError("3-D tile schedules are not lowered yet");
  SmallVector<Value> counts;
  for (auto [e, t] : llvm::zip(tiles.getExtents(), tile)) {
    Value ext = map.lookupOrDefault(e);
    counts.push_back(arith::CeilDivUIOp::create(b, loc(), ext, idxc(t)));
  }
  Value total = counts[0];
  if (rank == 2)
    total = arith::MulIOp::create(b, loc(), counts[0], counts[1]);
  Value start = gpu::BlockIdOp::create(b, loc(), gpu::Dimension::x);
  Value step = gpu::GridDimOp::create(b, loc(), gpu::Dimension::x);
  // slice k of n: the CTA's k-th, (k+n)-th, ... tile of its sequence.
  if (auto [k, n] = tiles.getSliceOrWhole(); n > 1) {
    start = arith::AddIOp::create(
        b, loc(), start, arith::MulIOp::create(b, loc(), step, idxc(k)));
    step = arith::MulIOp::create(b, loc(), step, idxc(n));
  }
  auto loop = scf::ForOp::create(b, loc(), start, total, step);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value t = loop.getInductionVar();
  if (rank == 1) {
    map.map(tiles.getBody().getArgument(0),
            arith::MulIOp::create(b, loc(), t, idxc(tile[0])));
  } else {
    // Group-M rasterization: walk `groupM` tile rows at a time so that
    // consecutive tiles share B columns and A rows in L2.
    int64_t groupM = 1;
    if (auto p = dyn_cast<PersistentAttr>(kernel.getSchedule()))
      groupM = p.getGroupM();
    Value gm = idxc(groupM);
    Value groupSize = arith::MulIOp::create(b, loc(), gm, counts[1]);
    Value group = arith::DivUIOp::create(b, loc(), t, groupSize);
    Value firstM = arith::MulIOp::create(b, loc(), group, gm);
    Value rows = arith::MinUIOp::create(
        b, loc(), arith::SubIOp::create(b, loc(), counts[0], firstM), gm);
    Value inGroup = arith::RemUIOp::create(b, loc(), t, groupSize);
    Value tm = arith::AddIOp::create(
        b, loc(), firstM, arith::RemUIOp::create(b, loc(), inGroup, rows));
    Value tn = arith::DivUIOp::create(b, loc(), inGroup, rows);
    map.map(tiles.getBody().getArgument(0),
            arith::MulIOp::create(b, loc(), tm, idxc(tile[0])));
    map.map(tiles.getBody().getArgument(1),
            arith::MulIOp::create(b, loc(), tn, idxc(tile[1])));
  }
  return emitBlock(tiles.getBody().front());
}

LogicalResult KernelEmitter::emitHandoff(Operation *op, Value pipe,
                                         bool producer) {
  if (!role)
    return op->emitError("pipe handoffs must be inside a role");
  const PipeInfo &info = pipes[pipe];
  // A stage filled by TMA arms its full barrier with the bytes the copies
  // will deliver; their completion ends the phase. A stage without copies
  // is a pure signal: its commit arrives instead.
  auto acquire = dyn_cast<PipeAcquireOp>(op);
  bool filledByTma = acquire && isFilledByTma(acquire);
  // In a role whose threads all run (it also consumes), only the leader
  // takes a stage TMA fills; every thread counts the hand-off, so all agree
  // on the stage index and phase. A stage filled by stores is taken by
  // every thread that writes it.
  bool leaderOnly = producer && role->allLanes && filledByTma;
  Value slot = role->ctr.lookup({pipe, unsigned(producer)});
  Value n = LLVM::LoadOp::create(b, loc(), b.getI32Type(), slot);
  LLVM::StoreOp::create(b, loc(), arith::AddIOp::create(b, loc(), n, i32c(1)),
                        slot);
  Value stage = arith::RemUIOp::create(b, loc(), n, i32c(info.stages));
  Value phase = arith::AndIOp::create(
      b, loc(), arith::DivUIOp::create(b, loc(), n, i32c(info.stages)),
      i32c(1));
  Value stageOff = arith::MulIOp::create(b, loc(), stage, i32c(8));
  // A producer waits for the consumers to have released the stage, i.e. for
  // the completion of the empty barrier's previous phase: parity ^ 1, which
  // a freshly initialized barrier reports complete.
  Value parity =
      producer ? arith::XOrIOp::create(b, loc(), phase, i32c(1)) : phase;
  OpBuilder::InsertionGuard g(b);
  if (leaderOnly)
    enterLeader();
  Value bar = smemAt(arith::AddIOp::create(
      b, loc(), i32c(producer ? info.empty : info.full), stageOff));
  NVVM::MBarrierTryWaitParityOp::create(b, loc(), bar, parity, i32c(10000000));
  if (producer && filledByTma) {
    Value full =
        smemAt(arith::AddIOp::create(b, loc(), i32c(info.full), stageOff));
    NVVM::MBarrierArriveExpectTxOp::create(
        b, loc(), Type(), full, i32c(info.txBytes), NVVM::MemScopeKind::CTA,
        /*relaxed=*/false, Value());
  }
  map.map(op->getResult(0), stage);
  return success();
}

LogicalResult KernelEmitter::emitRelease(PipeReleaseOp op) {
  Value stage = map.lookup(op.getStage());
  if (chainStages.contains({op.getPipe(), stage})) {
    // A chained wgmma still in flight reads it.
    chainReleases.push_back({op.getPipe(), stage});
    return success();
  }
  if (lazy && lazy->releases.count(op)) {
    // The wgmma reading `stage` may still run: released at the end of the
    // iteration, after it retires.
    lazy->released.push_back({op.getPipe(), stage});
    return success();
  }
  if (deferredStage) {
    // The mma just issued may still read `stage`; the previous one has
    // retired (wait_group 1), so release its stage and remember this one.
    releaseDeferred(op.getPipe());
    LLVM::StoreOp::create(b, loc(), stage, deferredStage);
    return success();
  }
  arriveEmpty(op.getPipe(), stage);
  return success();
}

LogicalResult KernelEmitter::emitTmaLoad(TmaLoadOp op) {
  int64_t desc = getI64(op, "desc");
  if (desc < 0 || desc >= (int64_t)descriptors.size())
    return op.emitError("missing derived descriptor index");
  const RingInfo &ring = rings[op.getDst()];
  const PipeInfo *pipe = nullptr;
  for (auto &[v, info] : pipes)
    for (Value r : cast<PipeOp>(v.getDefiningOp()).getRings())
      if (r == op.getDst())
        pipe = &info;
  if (!pipe)
    return op.emitError("the ring is not in any pipe; its copies could not "
                        "signal a barrier");
  Value stage = map.lookup(op.getStage());
  Value dst = smemAt(arith::AddIOp::create(
      b, loc(), i32c(ring.offset),
      arith::MulIOp::create(b, loc(), stage, i32c(ring.tileBytes))));
  Value mbar = smemAt(
      arith::AddIOp::create(b, loc(), i32c(pipe->full),
                            arith::MulIOp::create(b, loc(), stage, i32c(8))));
  SmallVector<Value> coords = tmaCoordinates(op.getCoords());
  // The copy writes through the shared::cluster window (address space 7);
  // a CTA's own shared memory is part of it.
  OpBuilder::InsertionGuard g(b);
  if (role && role->allLanes)
    enterLeader();
  Value dstCluster = LLVM::AddrSpaceCastOp::create(
      b, loc(), LLVM::LLVMPointerType::get(ctx, 7), dst);
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc(), dstCluster, descriptors[desc], coords, mbar, ValueRange{},
      Value(), Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
      NVVM::CTAGroupKindAttr(), Value());
  return success();
}

LogicalResult KernelEmitter::emitTmaStore(TmaStoreOp op) {
  int64_t desc = getI64(op, "desc");
  if (desc < 0 || desc >= (int64_t)descriptors.size())
    return op.emitError("missing derived descriptor index");
  const RingInfo &ring = rings[op.getSrc()];
  Value stage = map.lookup(op.getStage());
  Value src = smemAt(arith::AddIOp::create(
      b, loc(), i32c(ring.offset),
      arith::MulIOp::create(b, loc(), stage, i32c(ring.tileBytes))));
  SmallVector<Value> coords = tmaCoordinates(op.getCoords());
  OpBuilder::InsertionGuard g(b);
  if (role && role->allLanes)
    enterLeader();
  if (std::optional<ReduceKind> kind = op.getReduce()) {
    NVVM::TMAReduxKind redux = *kind == ReduceKind::sum   ? NVVM::TMAReduxKind::ADD
                               : *kind == ReduceKind::min ? NVVM::TMAReduxKind::MIN
                                                          : NVVM::TMAReduxKind::MAX;
    NVVM::CpAsyncBulkTensorReduceOp::create(
        b, loc(), descriptors[desc], src, redux, NVVM::TMAStoreMode::TILE,
        coords, /*l2CacheHint=*/Value());
  } else {
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        b, loc(), descriptors[desc], src, coords, /*l2CacheHint=*/Value(),
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

LogicalResult KernelEmitter::emitSmemWrite(SmemWriteOp op) {
  FailureOr<FragInfo> info = fragInfo(op.getValue().getType(), op);
  if (failed(info))
    return failure();
  RingType rt = op.getDst().getType();
  ArrayRef<int64_t> shape = rt.getShape();
  if (info->layout != FragLayout::Acc || shape.size() != 2)
    return op.emitError("smem.write of this fragment into a rank-")
           << shape.size() << " ring tile is not lowered yet";
  Type elt = rt.getElementType();
  int64_t eltBytes = elt.getIntOrFloatBitWidth() / 8;
  int64_t pitch = shape[1] * eltBytes;
  // The ring's swizzle as TMA and wgmma read it: the 16-byte chunk index
  // (address bits 4..) XOR the 128-byte line index (bits 7..),
  // log2(swizzle / 16) bits wide, on the shared-memory address (its base
  // is 1024-byte aligned).
  int64_t swizzleBits = 0;
  for (int64_t span = rt.getSwizzle(); span > 16; span /= 2)
    ++swizzleBits;
  const RingInfo &ring = rings[op.getDst()];
  Value stageBase = arith::AddIOp::create(
      b, loc(), i32c(ring.offset),
      arith::MulIOp::create(b, loc(), map.lookup(op.getStage()),
                            i32c(ring.tileBytes)));
  Value frag = map.lookup(op.getValue());
  Value row0 = threadRow();
  Value col0 = arith::MulIOp::create(
      b, loc(), arith::RemUIOp::create(b, loc(), role->lane, i32c(4)),
      i32c(2));
  auto pairTy = VectorType::get({2}, elt);
  for (int64_t h = 0; h < 2; ++h) {
    Value row = arith::AddIOp::create(b, loc(), row0, i32c(8 * h));
    for (int64_t j = 0; j < shape[1] / 8; ++j) {
      // Columns 8 j + 2 (lane % 4) + {0, 1}: one 2-element store.
      Value col = arith::AddIOp::create(b, loc(), col0, i32c(8 * j));
      Value off = arith::AddIOp::create(
          b, loc(), stageBase,
          arith::AddIOp::create(
              b, loc(), arith::MulIOp::create(b, loc(), row, i32c(pitch)),
              arith::MulIOp::create(b, loc(), col, i32c(eltBytes))));
      if (swizzleBits) {
        Value line = arith::AndIOp::create(
            b, loc(), arith::ShRUIOp::create(b, loc(), off, i32c(7)),
            i32c((1 << swizzleBits) - 1));
        off = arith::XOrIOp::create(
            b, loc(), off, arith::ShLIOp::create(b, loc(), line, i32c(4)));
      }
      Value pair = LLVM::UndefOp::create(b, loc(), pairTy);
      for (int64_t e = 0; e < 2; ++e)
        pair = LLVM::InsertElementOp::create(
            b, loc(), pair,
            LLVM::ExtractValueOp::create(b, loc(), frag, 4 * j + 2 * h + e),
            i32c(e));
      LLVM::StoreOp::create(b, loc(), pair, smemAt(off),
                            /*alignment=*/2 * eltBytes);
    }
  }
  return success();
}

FailureOr<FragInfo> KernelEmitter::fragInfo(FragType type, Operation *where) {
  // Fragments live in the register layout of a wgmma accumulator of the
  // role (M = 64 W rows over W warpgroups): thread (warpgroup g, warp w,
  // lane l) holds rows 64 g + 16 w + l/4 + 8 h, h in {0, 1}, and columns
  // 8 j + 2 (l % 4) + e, e in {0, 1}. An M x N fragment holds N / 2 values
  // (index 4 j + 2 h + e), an M x 1 "row" fragment the 2 rows (index h),
  // a 1 x N "column" fragment the N / 4 columns (index 2 j + e).
  if (!role || !role->role.getWarpgroups() || type.getRank() != 2)
    return where->emitError("register fragments are lowered in the wgmma "
                            "accumulator layout (rank 2, in a warpgroups "
                            "role) today");
  int64_t wgs = role->role.getNumWarps() / 4;
  int64_t m = type.getShape()[0], n = type.getShape()[1];
  FragInfo info;
  if (m == 1 && n % 8 == 0) {
    info.layout = FragLayout::Col;
    info.count = n / 4;
  } else if (m == 64 * wgs && n == 1) {
    info.layout = FragLayout::Row;
    info.count = 2;
  } else if (m == 64 * wgs && n % 8 == 0) {
    info.layout = FragLayout::Acc;
    info.count = n / 2;
  } else {
    return where->emitError("fragment ")
           << m << "x" << n << " has no register layout in a role of " << wgs
           << " warpgroups (expected " << 64 * wgs << "xN, " << 64 * wgs
           << "x1 or 1xN with N a multiple of 8)";
  }
  SmallVector<Type> elts(info.count, type.getElementType());
  info.type = LLVM::LLVMStructType::getLiteral(ctx, elts);
  return info;
}

FailureOr<Type> KernelEmitter::fragStructType(FragType type, Operation *where) {
  FailureOr<FragInfo> info = fragInfo(type, where);
  if (failed(info))
    return failure();
  if (info->layout != FragLayout::Acc)
    return where->emitError("expected an accumulator-shaped fragment here");
  return info->type;
}

Value KernelEmitter::splat(Type structType, Value v) {
  Value out = LLVM::UndefOp::create(b, loc(), structType);
  unsigned n = cast<LLVM::LLVMStructType>(structType).getBody().size();
  for (unsigned i = 0; i < n; ++i)
    out = LLVM::InsertValueOp::create(b, loc(), out, v, i);
  return out;
}

/// The element of an input of layout `in` that broadcasts to element `i` of
/// a result of layout `out`, or -1 if it does not broadcast.
static int64_t broadcastIndex(FragLayout out, FragLayout in, int64_t i) {
  if (in == out)
    return i;
  if (out == FragLayout::Acc && in == FragLayout::Row)
    return (i / 2) % 2;
  if (out == FragLayout::Acc && in == FragLayout::Col)
    return (i / 4) * 2 + i % 2;
  return -1;
}

LogicalResult KernelEmitter::emitFragMap(FragMapOp op) {
  SmallVector<FragInfo> ins;
  for (Value v : op.getInputs()) {
    FailureOr<FragInfo> info = fragInfo(cast<FragType>(v.getType()), op);
    if (failed(info))
      return failure();
    ins.push_back(*info);
  }
  SmallVector<FragInfo> outs;
  for (Value v : op.getResults()) {
    FailureOr<FragInfo> info = fragInfo(cast<FragType>(v.getType()), op);
    if (failed(info))
      return failure();
    outs.push_back(*info);
  }
  SmallVector<Value> results;
  for (const FragInfo &o : outs)
    results.push_back(LLVM::UndefOp::create(b, loc(), o.type));
  Block &body = op.getBody().front();
  for (int64_t i = 0; i < outs[0].count; ++i) {
    IRMapping scalar;
    for (auto [k, in] : llvm::enumerate(ins)) {
      int64_t j = broadcastIndex(outs[0].layout, in.layout, i);
      if (j < 0)
        return op.emitError("broadcast between these fragment layouts is "
                            "not lowered yet");
      scalar.map(body.getArgument(k),
                 LLVM::ExtractValueOp::create(
                     b, loc(), map.lookup(op.getInputs()[k]), j));
    }
    for (Operation &inner : body.without_terminator()) {
      for (Value v : inner.getOperands())
        if (!scalar.contains(v) && map.contains(v))
          scalar.map(v, map.lookup(v));
      Operation *copy = b.clone(inner, scalar);
      if (auto fm = dyn_cast<arith::ArithFastMathInterface>(copy);
          fm && fpContract)
        copy->setAttr(fm.getFastMathAttrName(),
                      arith::FastMathFlagsAttr::get(
                          ctx, fm.getFastMathFlagsAttr().getValue() |
                                   arith::FastMathFlags::contract));
    }
    auto yield = cast<FragYieldOp>(body.getTerminator());
    for (auto [r, v] : llvm::enumerate(yield.getValues()))
      results[r] = LLVM::InsertValueOp::create(b, loc(), results[r],
                                               scalar.lookupOrDefault(v), i);
  }
  for (auto [r, v] : llvm::zip(op.getResults(), results))
    map.map(r, v);
  return success();
}

/// Each element's row (an M x 1 fragment) or column (1 x N) plus `base`,
/// in the accumulator layout: thread (warpgroup g, warp w, lane l) holds
/// rows 64 g + 16 w + l / 4 + 8 h (h = 0, 1) and columns
/// 8 j + 2 (l % 4) + e (position 2 j + e).
LogicalResult KernelEmitter::emitIota(FragIotaOp op) {
  FailureOr<FragInfo> info = fragInfo(op.getType(), op);
  if (failed(info))
    return failure();
  if (info->layout == FragLayout::Acc)
    return op.emitError("frag.iota makes one row or one column");
  Value base =
      op.getBase() ? toI32(map.lookupOrDefault(op.getBase())) : i32c(0);
  Value l = role->lane, first;
  if (info->layout == FragLayout::Row) {
    Value wg = arith::DivUIOp::create(b, loc(), role->warpInRole, i32c(4));
    Value w = arith::RemUIOp::create(b, loc(), role->warpInRole, i32c(4));
    first = arith::AddIOp::create(
        b, loc(),
        arith::AddIOp::create(b, loc(),
                              arith::MulIOp::create(b, loc(), wg, i32c(64)),
                              arith::MulIOp::create(b, loc(), w, i32c(16))),
        arith::DivUIOp::create(b, loc(), l, i32c(4)));
  } else {
    first = arith::MulIOp::create(
        b, loc(), arith::RemUIOp::create(b, loc(), l, i32c(4)), i32c(2));
  }
  first = arith::AddIOp::create(b, loc(), base, first);
  Value out = LLVM::UndefOp::create(b, loc(), info->type);
  for (int64_t i = 0; i < info->count; ++i) {
    int64_t offset = info->layout == FragLayout::Row ? 8 * i
                                                     : 8 * (i / 2) + i % 2;
    out = LLVM::InsertValueOp::create(
        b, loc(), out, arith::AddIOp::create(b, loc(), first, i32c(offset)),
        i);
  }
  map.map(op.getResult(), out);
  return success();
}

/// Butterfly-combines a per-quad partial over the 4 lanes sharing a row.
Value KernelEmitter::quadShuffle(Value v, int32_t offset) {
  return gpu::ShuffleOp::create(b, loc(), v, offset, 32, gpu::ShuffleMode::XOR)
      .getShuffleResult();
}

/// One thread's minimum of accumulator row half `h` (n columns) and its
/// column, for `cake.frag.argmin ... packed`: each value's low `bits`
/// mantissa bits are replaced by its position among the thread's n/4
/// columns (2j + e), so min.f32 alone compares and selects. The position
/// is decoded once after the row, and the bits are cleared from the value
/// so the quad merge compares the same truncated values in every lane.
/// min.f32 ignores the NaNs that packing +inf (a padded column) makes; a
/// thread whose columns are all padded gets +inf back.
std::pair<Value, Value> KernelEmitter::packedRowArgmin(Value acc, int64_t h,
                                                       int64_t n,
                                                       Value colBase) {
  int64_t positions = n / 4;
  int32_t bits = llvm::Log2_64_Ceil(std::max<int64_t>(positions, 2));
  int32_t low = (1 << bits) - 1;
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  // (raw & keep) | position is one LOP3 only if `keep` sits in a register:
  // with both constants as immediates ptxas emits two (the H200 SASS of
  // run 15a). colBase >> 31 is 0 (columns are i32 indices) but ptxas cannot
  // prove it, so the mask stays a register, computed once per argmin.
  Value keep = arith::OrIOp::create(
      b, loc(), i32c(~low), arith::ShRUIOp::create(b, loc(), colBase, i32c(31)));
  Value best;
  for (int64_t j = 0; j < n / 8; ++j)
    for (int64_t e = 0; e < 2; ++e) {
      Value v = LLVM::ExtractValueOp::create(b, loc(), acc, 4 * j + 2 * h + e);
      Value raw = arith::BitcastOp::create(b, loc(), i32, v);
      Value packed = arith::OrIOp::create(
          b, loc(), arith::AndIOp::create(b, loc(), raw, keep),
          i32c(int32_t(2 * j + e)));
      Value p = arith::BitcastOp::create(b, loc(), f32, packed);
      best = best ? arith::MinNumFOp::create(b, loc(), best, p).getResult() : p;
    }
  Value raw = arith::BitcastOp::create(b, loc(), i32, best);
  Value pos = arith::AndIOp::create(b, loc(), raw, i32c(low));
  // Position 2j + e is column 8j + e of the thread's quad.
  Value col = arith::AddIOp::create(
      b, loc(),
      arith::ShLIOp::create(
          b, loc(), arith::ShRUIOp::create(b, loc(), pos, i32c(1)), i32c(3)),
      arith::AndIOp::create(b, loc(), pos, i32c(1)));
  Value value = arith::BitcastOp::create(
      b, loc(), f32, arith::AndIOp::create(b, loc(), raw, keep));
  Value isNan = arith::CmpFOp::create(b, loc(), arith::CmpFPredicate::UNO,
                                      value, value);
  Value inf = arith::ConstantOp::create(
      b, loc(), b.getF32FloatAttr(std::numeric_limits<float>::infinity()));
  value = arith::SelectOp::create(b, loc(), isNan, inf, value);
  return {value, arith::AddIOp::create(b, loc(), colBase, col)};
}

LogicalResult KernelEmitter::emitArgmin(FragArgminOp op) {
  FailureOr<FragInfo> in = fragInfo(op.getInput().getType(), op);
  FailureOr<FragInfo> vo = fragInfo(op.getValues().getType(), op);
  FailureOr<FragInfo> io = fragInfo(op.getIndices().getType(), op);
  if (failed(in) || failed(vo) || failed(io))
    return failure();
  if (in->layout != FragLayout::Acc)
    return op.emitError("argmin of this fragment layout is not lowered yet");
  Type idxTy = op.getIndices().getType().getElementType();
  if (!idxTy.isInteger(32))
    return op.emitError("argmin indices are lowered as i32 today");
  Value acc = map.lookup(op.getInput());
  Value quad = arith::MulIOp::create(
      b, loc(), arith::RemUIOp::create(b, loc(), role->lane, i32c(4)), i32c(2));
  Value base =
      op.getBase() ? toI32(map.lookupOrDefault(op.getBase())) : i32c(0);
  Value colBase = arith::AddIOp::create(b, loc(), base, quad);
  Value vals = LLVM::UndefOp::create(b, loc(), vo->type);
  Value idxs = LLVM::UndefOp::create(b, loc(), io->type);
  int64_t n = op.getInput().getType().getShape()[1];
  for (int64_t h = 0; h < 2; ++h) {
    Value best, bestIdx;
    if (op.getPacked()) {
      std::tie(best, bestIdx) = packedRowArgmin(acc, h, n, colBase);
    } else {
      // The scan selects the column's constant offset in the quad's columns
      // (an immediate operand of SEL) and adds colBase once per row: the
      // column indices themselves would cost n/4 adds and as many registers
      // per argmin.
      Value bestOff;
      for (int64_t j = 0; j < n / 8; ++j)
        for (int64_t e = 0; e < 2; ++e) {
          Value v =
              LLVM::ExtractValueOp::create(b, loc(), acc, 4 * j + 2 * h + e);
          Value c = i32c(8 * j + e);
          if (!best) {
            best = v;
            bestOff = c;
            continue;
          }
          // Strictly less: the first (lowest) column wins ties.
          Value lt = arith::CmpFOp::create(b, loc(), arith::CmpFPredicate::OLT,
                                           v, best);
          best = arith::SelectOp::create(b, loc(), lt, v, best);
          bestOff = arith::SelectOp::create(b, loc(), lt, c, bestOff);
        }
      bestIdx = arith::AddIOp::create(b, loc(), colBase, bestOff);
    }
    for (int32_t off : {1, 2}) {
      Value ov = quadShuffle(best, off), oi = quadShuffle(bestIdx, off);
      Value lt =
          arith::CmpFOp::create(b, loc(), arith::CmpFPredicate::OLT, ov, best);
      Value eq =
          arith::CmpFOp::create(b, loc(), arith::CmpFPredicate::OEQ, ov, best);
      Value lower = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::slt,
                                          oi, bestIdx);
      Value take = arith::OrIOp::create(
          b, loc(), lt, arith::AndIOp::create(b, loc(), eq, lower));
      best = arith::SelectOp::create(b, loc(), take, ov, best);
      bestIdx = arith::SelectOp::create(b, loc(), take, oi, bestIdx);
    }
    vals = LLVM::InsertValueOp::create(b, loc(), vals, best, h);
    idxs = LLVM::InsertValueOp::create(b, loc(), idxs, bestIdx, h);
  }
  map.map(op.getValues(), vals);
  map.map(op.getIndices(), idxs);
  return success();
}

LogicalResult KernelEmitter::emitReduce(FragReduceOp op) {
  FailureOr<FragInfo> in = fragInfo(op.getInput().getType(), op);
  FailureOr<FragInfo> out = fragInfo(op.getResult().getType(), op);
  if (failed(in) || failed(out))
    return failure();
  Type elt = op.getInput().getType().getElementType();
  if (in->layout != FragLayout::Acc || !isa<FloatType>(elt))
    return op.emitError("this reduction is not lowered yet (float rows of an "
                        "accumulator-shaped fragment are)");
  auto combine = [&](Value a, Value c) -> Value {
    switch (op.getKind()) {
    case ReduceKind::sum:
      return arith::AddFOp::create(b, loc(), a, c);
    case ReduceKind::min:
      return arith::MinimumFOp::create(b, loc(), a, c);
    case ReduceKind::max:
      return arith::MaximumFOp::create(b, loc(), a, c);
    }
    return a;
  };
  Value acc = map.lookup(op.getInput());
  Value res = LLVM::UndefOp::create(b, loc(), out->type);
  int64_t n = op.getInput().getType().getShape()[1];
  for (int64_t h = 0; h < 2; ++h) {
    Value r;
    for (int64_t j = 0; j < n / 8; ++j)
      for (int64_t e = 0; e < 2; ++e) {
        Value v =
            LLVM::ExtractValueOp::create(b, loc(), acc, 4 * j + 2 * h + e);
        r = r ? combine(r, v) : v;
      }
    for (int32_t off : {1, 2})
      r = combine(r, quadShuffle(r, off));
    res = LLVM::InsertValueOp::create(b, loc(), res, r, h);
  }
  map.map(op.getResult(), res);
  return success();
}

/// Linear element offset of the line selected by all coordinates but the
/// innermost (row-major, contiguous): 0 for rank-1 tensors.
Value KernelEmitter::outerOffset(const TensorParams &tp, ValueRange coords) {
  Value off = idxc(0);
  for (size_t i = 0; i + 1 < coords.size(); ++i) {
    Value stride = idxc(1);
    for (size_t j = i + 1; j < tp.dims.size(); ++j)
      stride = arith::MulIOp::create(b, loc(), stride, tp.dims[j]);
    off = arith::AddIOp::create(
        b, loc(), off,
        arith::MulIOp::create(b, loc(), map.lookupOrDefault(coords[i]),
                              stride));
  }
  return off;
}

/// Row (within the role's 64 W rows) and column offsets of this thread.
Value KernelEmitter::threadRow() {
  Value wg = arith::DivUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value w = arith::RemUIOp::create(b, loc(), role->warpInRole, i32c(4));
  return arith::AddIOp::create(
      b, loc(),
      arith::AddIOp::create(b, loc(),
                            arith::MulIOp::create(b, loc(), wg, i32c(64)),
                            arith::MulIOp::create(b, loc(), w, i32c(16))),
      arith::DivUIOp::create(b, loc(), role->lane, i32c(4)));
}

/// Every thread reads the element itself (one cached line for the warp);
/// coordinates past the tensor read 0.
LogicalResult KernelEmitter::emitScalarLoad(ScalarLoadOp op) {
  auto it = tensors.find(op.getSrc());
  if (it == tensors.end())
    return op.emitError("expected a kernel argument");
  const TensorParams &tp = it->second;
  Type elt = op.getSrc().getType().getElementType();
  Value lin = idxc(0);
  Value inBounds;
  for (auto [i, c] : llvm::enumerate(op.getCoords())) {
    Value coord = map.lookupOrDefault(c);
    lin = arith::AddIOp::create(
        b, loc(), arith::MulIOp::create(b, loc(), lin, tp.dims[i]), coord);
    Value in = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                     coord, tp.dims[i]);
    inBounds = inBounds ? arith::AndIOp::create(b, loc(), inBounds, in) : in;
  }
  auto ifOp = scf::IfOp::create(b, loc(), TypeRange{elt}, inBounds,
                                /*withElse=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value ptr = LLVM::GEPOp::create(
        b, loc(), globalPtrTy(), elt, tp.ptr,
        ValueRange{arith::IndexCastOp::create(b, loc(), b.getI64Type(), lin)});
    scf::YieldOp::create(
        b, loc(), ValueRange{LLVM::LoadOp::create(b, loc(), elt, ptr)});
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(
        b, loc(),
        ValueRange{arith::ConstantOp::create(b, loc(), elt, b.getZeroAttr(elt))
                       .getResult()});
  }
  map.map(op.getResult(), arith::IndexCastOp::create(
                              b, loc(), b.getIndexType(), ifOp.getResult(0)));
  return success();
}

LogicalResult KernelEmitter::emitLoad(LoadOp op) {
  FailureOr<FragInfo> info = fragInfo(op.getType(), op);
  if (failed(info))
    return failure();
  if (info->layout == FragLayout::Acc)
    return op.emitError("loads into accumulator-shaped fragments are not "
                        "lowered yet (row and column fragments are)");
  const TensorParams &tp = tensors[op.getSrc()];
  // The fragment runs along the innermost dimension; the outer coordinates
  // select one line of the tensor.
  Value lineBase = outerOffset(tp, op.getCoords());
  Value extent = tp.dims.back();
  Type elt = op.getType().getElementType();
  Value pad = op.getPad()
                  ? map.lookupOrDefault(op.getPad())
                  : arith::ConstantOp::create(b, loc(), elt, b.getZeroAttr(elt))
                        .getResult();
  Value start = map.lookupOrDefault(op.getCoords().back());
  auto idx = [&](Value v) {
    return arith::IndexCastOp::create(b, loc(), b.getIndexType(), v);
  };
  auto elementAt = [&](Value pos, Type type) {
    Value lin = arith::AddIOp::create(b, loc(), lineBase, pos);
    Value ptr = LLVM::GEPOp::create(
        b, loc(), globalPtrTy(), elt, tp.ptr,
        ValueRange{arith::IndexCastOp::create(b, loc(), b.getI64Type(), lin)});
    return LLVM::LoadOp::create(b, loc(), type, ptr).getResult();
  };
  // Element k's offset from `start` in this thread: the wgmma accumulator
  // layout's columns (pairs 8 apart) or rows (8 apart).
  bool col = info->layout == FragLayout::Col;
  auto offsetOf = [&](int64_t k) -> Value {
    if (col)
      return arith::AddIOp::create(
          b, loc(),
          arith::MulIOp::create(
              b, loc(), arith::RemUIOp::create(b, loc(), role->lane, i32c(4)),
              i32c(2)),
          i32c(8 * (k / 2) + k % 2));
    return arith::AddIOp::create(b, loc(), threadRow(), i32c(8 * k));
  };
  // Each element checked against the extent, the pad where it is past it.
  auto maskedLoads = [&]() {
    Value out = LLVM::UndefOp::create(b, loc(), info->type);
    for (int64_t k = 0; k < info->count; ++k) {
      Value pos = arith::AddIOp::create(b, loc(), start, idx(offsetOf(k)));
      Value inBounds = arith::CmpIOp::create(
          b, loc(), arith::CmpIPredicate::ult, pos, extent);
      auto ifOp = scf::IfOp::create(b, loc(), TypeRange{elt}, inBounds,
                                    /*withElse=*/true);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(b, loc(), ValueRange{elementAt(pos, elt)});
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, loc(), ValueRange{pad});
      b.setInsertionPointAfter(ifOp);
      out = LLVM::InsertValueOp::create(b, loc(), out, ifOp.getResult(0), k);
    }
    return out;
  };
  // A fragment wholly inside the tensor (every tile but the last) loads
  // without masks, a column fragment's pairs as one vector load each
  // where the line's start keeps them aligned: the masks and 64-bit
  // compares were most of the k-means epilogue's integer work.
  int64_t span = op.getType().getShape()[col ? 1 : 0];
  Value end = arith::AddIOp::create(
      b, loc(), start, arith::ConstantIndexOp::create(b, loc(), span));
  Value full =
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ule, end, extent);
  bool pairs = col && info->count % 2 == 0;
  if (pairs) {
    // The pair's address, not just its index: a caller's tensor may be a
    // view that starts off the vector's alignment.
    Value first = arith::IndexCastOp::create(
        b, loc(), b.getI64Type(),
        arith::AddIOp::create(b, loc(), lineBase, start));
    Value addr = LLVM::PtrToIntOp::create(
        b, loc(), b.getI64Type(),
        LLVM::GEPOp::create(b, loc(), globalPtrTy(), elt, tp.ptr,
                            ValueRange{first}));
    int64_t pairBytes = 2 * getElementBytes(elt);
    Value aligned = arith::CmpIOp::create(
        b, loc(), arith::CmpIPredicate::eq,
        arith::AndIOp::create(b, loc(), addr, i64c(pairBytes - 1)), i64c(0));
    full = arith::AndIOp::create(b, loc(), full, aligned);
  }
  auto ifFull = scf::IfOp::create(b, loc(), TypeRange{info->type}, full,
                                  /*withElse=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifFull.thenBlock());
    Value out = LLVM::UndefOp::create(b, loc(), info->type);
    auto pairTy = VectorType::get({2}, elt);
    for (int64_t k = 0; k < info->count; k += pairs ? 2 : 1) {
      Value pos = arith::AddIOp::create(b, loc(), start, idx(offsetOf(k)));
      if (!pairs) {
        out = LLVM::InsertValueOp::create(b, loc(), out, elementAt(pos, elt),
                                          k);
        continue;
      }
      Value v = elementAt(pos, pairTy);
      for (int64_t e = 0; e < 2; ++e)
        out = LLVM::InsertValueOp::create(
            b, loc(), out,
            LLVM::ExtractElementOp::create(b, loc(), v, i32c(e)), k + e);
    }
    scf::YieldOp::create(b, loc(), ValueRange{out});
    b.setInsertionPointToStart(ifFull.elseBlock());
    scf::YieldOp::create(b, loc(), ValueRange{maskedLoads()});
  }
  Value out = ifFull.getResult(0);
  map.map(op.getResult(), out);
  return success();
}

LogicalResult KernelEmitter::emitRowStore(StoreOp op, const FragInfo &info) {
  const TensorParams &tp = tensors[op.getDst()];
  Type elt = op.getValue().getType().getElementType();
  Value lineBase = outerOffset(tp, op.getCoords());
  // The 4 lanes of a quad hold the same rows: lane l % 4 == 0 writes.
  Value writer = arith::CmpIOp::create(
      b, loc(), arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc(), role->lane, i32c(4)), i32c(0));
  Value start = map.lookupOrDefault(op.getCoords().back());
  Value row0 = threadRow();
  Value val = map.lookup(op.getValue());
  for (int64_t h = 0; h < 2; ++h) {
    Value pos = arith::AddIOp::create(
        b, loc(), start,
        arith::IndexCastOp::create(
            b, loc(), b.getIndexType(),
            arith::AddIOp::create(b, loc(), row0, i32c(8 * h))));
    Value ok = arith::AndIOp::create(
        b, loc(), writer,
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, pos,
                              tp.dims.back()));
    auto ifOp = scf::IfOp::create(b, loc(), ok, /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Value lin = arith::AddIOp::create(b, loc(), lineBase, pos);
    Value ptr = LLVM::GEPOp::create(
        b, loc(), globalPtrTy(), elt, tp.ptr,
        ValueRange{arith::IndexCastOp::create(b, loc(), b.getI64Type(), lin)});
    LLVM::StoreOp::create(b, loc(),
                          LLVM::ExtractValueOp::create(b, loc(), val, h), ptr);
  }
  return success();
}

static FailureOr<NVVM::WGMMATypes> wgmmaType(Type t) {
  if (t.isBF16())
    return NVVM::WGMMATypes::bf16;
  if (t.isF16())
    return NVVM::WGMMATypes::f16;
  if (t.isF32())
    return NVVM::WGMMATypes::f32;
  if (t.isTF32())
    return NVVM::WGMMATypes::tf32;
  return failure();
}

/// bar.sync (or bar.arrive) on named barrier `id` between two consecutive
/// warpgroups of the ordered role: 256 threads, the one that waits for its
/// turn and the one that hands it over.
void KernelEmitter::orderBarrier(bool arrive, Value id) {
  if (arrive)
    NVVM::BarrierArriveOp::create(b, loc(), id, i32c(256));
  else
    NVVM::BarrierOp::create(b, loc(), Type(), id, i32c(256),
                            NVVM::BarrierReductionAttr(), Value());
}

/// wg-order (FlashAttention-3's warp-scheduler barriers): in a role of W > 1
/// warpgroups, warpgroup i waits on named barrier base+i before the first
/// wgmma of each fresh accumulator's chain and arrives on base+(i+1)%W
/// after its last commit, so the chains issue in warpgroup order, one at a
/// time, and a warpgroup's epilogue runs while the next ones' wgmmas do.
/// Only straight-line chains from a frag.zero within one block are ordered
/// (every warpgroup of a role runs the same loops, so turns stay
/// balanced); the last warpgroup hands the first its turn at the start.
/// With wg-order-retire the turn passes after the chain's wait_group 0
/// instead: the tensor cores interleave chains issued together, so only
/// then do the chains also run one at a time (k-means run 17c).
LogicalResult KernelEmitter::startWarpgroupOrder(RoleOp r) {
  orderedFirst.clear();
  orderedLast.clear();
  orderWarpgroups = r.getNumWarps() / 4;
  if (!wgOrder || !r.getWarpgroups() || orderWarpgroups < 2)
    return success();
  if (failed(verifyWarpgroupTurns(r)))
    return failure();
  for (auto [first, last] : warpgroupTurnChains(r)) {
    orderedFirst.insert(first);
    orderedLast.insert(last);
  }
  if (orderedFirst.empty())
    return success();
  int32_t maxId = 0;
  kernel.walk(
      [&](BarrierSyncOp bar) { maxId = std::max<int32_t>(maxId, bar.getId()); });
  orderBarrierBase = maxId + 1;
  const TargetInfo *target = lookupTarget(kernel.getTarget().getArch());
  if (target && orderBarrierBase + orderWarpgroups > target->namedBarriers)
    return r.emitError("wg-order: role \"")
           << r.getName() << "\" needs " << orderWarpgroups
           << " named barriers after id " << maxId << ", past the "
           << target->namedBarriers << " of a CTA";
  // The last warpgroup gives the first its first turn.
  Value wg = arith::DivUIOp::create(b, loc(), role->warpInRole, i32c(4));
  auto last = scf::IfOp::create(
      b, loc(),
      arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq, wg,
                            i32c(orderWarpgroups - 1)),
      /*withElse=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(last.thenBlock());
  orderBarrier(/*arrive=*/true, i32c(orderBarrierBase));
  return success();
}

LogicalResult KernelEmitter::emitMma(MmaOp op) {
  if (op.getKind() != MmaKind::wgmma)
    return op.emitError("only wgmma is lowered on sm_90a today");
  FailureOr<Type> accTy = fragStructType(op.getAcc().getType(), op);
  if (failed(accTy))
    return failure();
  RingType a = op.getA().getType();
  auto ta = wgmmaType(a.getElementType());
  auto td = wgmmaType(op.getAcc().getType().getElementType());
  if (failed(ta) || failed(td))
    return op.emitError("wgmma operand types are not lowered yet");
  int64_t wgRows = getI64(op, "wg_rows"), instrN = getI64(op, "instr_n"),
          instrK = getI64(op, "instr_k"), sbo = getI64(op, "sbo"),
          mode = getI64(op, "swizzle_mode");
  int64_t k = a.getShape()[1];
  int64_t eltBytes = getElementBytes(a.getElementType());
  int64_t rowBytes = k * eltBytes;

  const RingInfo &ra = rings[op.getA()], &rb = rings[op.getB()];
  Value wg = arith::DivUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value aBase = arith::AddIOp::create(
      b, loc(),
      arith::AddIOp::create(b, loc(), i32c(ra.offset),
                            arith::MulIOp::create(b, loc(),
                                                  map.lookup(op.getAStage()),
                                                  i32c(ra.tileBytes))),
      arith::MulIOp::create(b, loc(), wg, i32c(wgRows * rowBytes)));
  Value bBase = arith::AddIOp::create(
      b, loc(), i32c(rb.offset),
      arith::MulIOp::create(b, loc(), map.lookup(op.getBStage()),
                            i32c(rb.tileBytes)));
  // Shared-memory matrix descriptor: start address >> 4 in bits 0-13,
  // leading byte offset (unused for swizzled K-major, 1) in 16-29, stride
  // byte offset >> 4 in 32-45, swizzle mode in 62-63. The address field is
  // computed once per operand in 32 bits and each k step adds its offset
  // >> 4 to it (CUTLASS's descriptor iterator): shared offsets stay below
  // 2^18, so the field cannot carry, and the other fields are constants. In
  // 64 bits, per wgmma, it cost ptxas ten uniform-datapath instructions
  // (the H200 SASS of run 17).
  Value smemAddr = LLVM::PtrToIntOp::create(b, loc(), b.getI32Type(), smemBase);
  auto field = [&](Value base32) {
    return arith::AndIOp::create(
               b, loc(),
               arith::ShRUIOp::create(
                   b, loc(), arith::AddIOp::create(b, loc(), smemAddr, base32),
                   i32c(4)),
               i32c(0x3FFF))
        .getResult();
  };
  Value aField = field(aBase), bField = field(bBase);
  Value fixedBits = i64c((1ll << 16) | ((sbo >> 4) << 32) | (mode << 62));
  auto descAt = [&](Value field32, int64_t extra) {
    Value lo = arith::AddIOp::create(b, loc(), field32, i32c(extra >> 4));
    return arith::OrIOp::create(
               b, loc(), arith::ExtUIOp::create(b, loc(), b.getI64Type(), lo),
               fixedBits)
        .getResult();
  };

  Value acc = map.lookup(op.getAcc());
  // wg-order: wait for this warpgroup's turn before the chain's first
  // wgmma (the previous warpgroup has issued its chain).
  if (orderedFirst.contains(op))
    orderBarrier(/*arrive=*/false,
                 arith::AddIOp::create(b, loc(), i32c(orderBarrierBase), wg));
  NVVM::WgmmaFenceAlignedOp::create(b, loc());
  auto shape = NVVM::MMAShapeAttr::get(ctx, 64, instrN, instrK);
  for (int64_t kk = 0; kk < k / instrK; ++kk) {
    Value da = descAt(aField, kk * instrK * eltBytes);
    Value db = descAt(bField, kk * instrK * eltBytes);
    acc = NVVM::WgmmaMmaAsyncOp::create(
        b, loc(), *accTy, acc, da, db, shape, *ta, *ta, *td,
        NVVM::WGMMAScaleOut::one,
        op.getNegate() ? NVVM::WGMMAScaleIn::neg : NVVM::WGMMAScaleIn::one,
        NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row, NVVM::MMALayout::col,
        NVVM::MMAIntOverflowAttr());
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc());
  // wg-order: the next warpgroup's turn, now that the chain is issued or,
  // with wg-order-retire, once its last group has retired below.
  auto passTurn = [&] {
    Value next = arith::RemUIOp::create(
        b, loc(), arith::AddIOp::create(b, loc(), wg, i32c(1)),
        i32c(orderWarpgroups));
    orderBarrier(/*arrive=*/true,
                 arith::AddIOp::create(b, loc(), i32c(orderBarrierBase), next));
  };
  bool passAtRetire = wgOrderRetire && orderedLast.contains(op);
  if (orderedLast.contains(op) && !passAtRetire)
    passTurn();
  // A group retired elsewhere (at the end of an overlapped epilogue's
  // iteration, or late) would never pass the turn here: the other
  // warpgroups would wait forever.
  auto retiresElsewhere = [&] {
    return op.emitError("wg-order-retire: the chain's last wgmma must "
                        "retire at its commit (not in an overlapped "
                        "epilogue loop, with retire-late or a deferred "
                        "stage)");
  };
  if (passAtRetire && lazy && lazy->mmas.count(op))
    return retiresElsewhere();
  // Retire groups before their stages can be released: all of them, all
  // but this one inside a pipelined K loop or a straight-line chain, or
  // none yet in an overlapped epilogue loop (retired at the end of the
  // iteration).
  if (!lazy || !lazy->mmas.count(op)) {
    bool chained = mmaChain && !lazy && !deferredStage &&
                   mmaInFlight > 0 && chainsIntoNextMma(op);
    bool lastOfChain = llvm::none_of(op.getResult().getUsers(),
                                     [](Operation *u) { return isa<MmaOp>(u); });
    if (passAtRetire && (chained || deferredStage ||
                         (retireLate && !lazy && lastOfChain)))
      return retiresElsewhere();
    if (retireLate && !chained && !lazy && !deferredStage && lastOfChain) {
      // The chain's last group: retired by the first op that needs it
      // (retirePendingChain); until then its stages' releases are held.
      retirePending = true;
      for (Value stage : {op.getAStage(), op.getBStage()})
        chainStages.insert({stage.getDefiningOp<PipeWaitOp>().getPipe(),
                            map.lookup(stage)});
      map.map(op.getResult(), acc);
      return success();
    }
    if (!chained || !chainReleases.empty())
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc(),
                                         deferredStage || chained ? 1 : 0);
    if (passAtRetire)
      passTurn();
    // Every group before this one has retired.
    releaseHeld(chainReleases);
    chainStages.clear();
    if (chained)
      for (Value stage : {op.getAStage(), op.getBStage()})
        chainStages.insert({stage.getDefiningOp<PipeWaitOp>().getPipe(),
                            map.lookup(stage)});
  }
  map.map(op.getResult(), acc);
  return success();
}

LogicalResult KernelEmitter::emitStore(StoreOp op) {
  FragType ft = op.getValue().getType();
  FailureOr<FragInfo> info = fragInfo(ft, op);
  if (failed(info))
    return failure();
  if (info->layout == FragLayout::Row)
    return emitRowStore(op, *info);
  if (info->layout != FragLayout::Acc)
    return op.emitError("stores of column fragments are not lowered yet");
  GlobalType gt = op.getDst().getType();
  if (gt.getRank() != 2)
    return op.emitError("stores of accumulators go to rank-2 tensors");
  const TensorParams &tp = tensors[op.getDst()];
  Type elt = ft.getElementType();
  int64_t n = ft.getShape()[1];

  // wgmma accumulator layout: thread (warp w of its warpgroup, lane l) holds
  // for i in [0, N/2): row 16 w + l/4 + 8 ((i/2) % 2),
  // col 8 (i/4) + 2 (l%4) + (i%2).
  Value wg = arith::DivUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value w = arith::RemUIOp::create(b, loc(), role->warpInRole, i32c(4));
  Value l = role->lane;
  auto idx = [&](Value v) {
    return arith::IndexCastOp::create(b, loc(), b.getIndexType(), v);
  };
  Value row0 = arith::AddIOp::create(
      b, loc(), map.lookupOrDefault(op.getCoords()[0]),
      idx(arith::AddIOp::create(
          b, loc(),
          arith::AddIOp::create(b, loc(),
                                arith::MulIOp::create(b, loc(), wg, i32c(64)),
                                arith::MulIOp::create(b, loc(), w, i32c(16))),
          arith::DivUIOp::create(b, loc(), l, i32c(4)))));
  Value col0 = arith::AddIOp::create(
      b, loc(), map.lookupOrDefault(op.getCoords()[1]),
      idx(arith::MulIOp::create(
          b, loc(), arith::RemUIOp::create(b, loc(), l, i32c(4)), i32c(2))));
  Value rows = tp.dims[0], cols = tp.dims[1];
  Value ldEven = arith::CmpIOp::create(
      b, loc(), arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc(), cols, idxc(2)), idxc(0));
  Value acc = map.lookup(op.getValue());
  auto pairTy = VectorType::get({2}, elt);
  for (int64_t h = 0; h < 2; ++h) {
    Value row = arith::AddIOp::create(b, loc(), row0, idxc(8 * h));
    Value rowOk =
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, row, rows);
    Value rowBase = arith::MulIOp::create(b, loc(), row, cols);
    auto rowIf = scf::IfOp::create(b, loc(), rowOk, /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(rowIf.thenBlock());
    for (int64_t j = 0; j < n / 8; ++j) {
      Value col = arith::AddIOp::create(b, loc(), col0, idxc(8 * j));
      Value v0 = LLVM::ExtractValueOp::create(b, loc(), acc, 4 * j + 2 * h);
      Value v1 = LLVM::ExtractValueOp::create(b, loc(), acc, 4 * j + 2 * h + 1);
      Value off = arith::IndexCastOp::create(
          b, loc(), b.getI64Type(),
          arith::AddIOp::create(b, loc(), rowBase, col));
      Value ptr = LLVM::GEPOp::create(b, loc(), globalPtrTy(), elt, tp.ptr,
                                      ValueRange{off});
      Value col1 = arith::AddIOp::create(b, loc(), col, idxc(1));
      Value both = arith::AndIOp::create(
          b, loc(),
          arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, col1,
                                cols),
          ldEven);
      auto pairIf = scf::IfOp::create(b, loc(), both, /*withElse=*/true);
      {
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPointToStart(pairIf.thenBlock());
        Value vec = LLVM::UndefOp::create(b, loc(), pairTy);
        vec = LLVM::InsertElementOp::create(b, loc(), vec, v0, i32c(0));
        vec = LLVM::InsertElementOp::create(b, loc(), vec, v1, i32c(1));
        LLVM::StoreOp::create(b, loc(), vec, ptr, /*alignment=*/4);
        b.setInsertionPointToStart(pairIf.elseBlock());
        Value ok0 = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                          col, cols);
        auto if0 = scf::IfOp::create(b, loc(), ok0, false);
        b.setInsertionPointToStart(if0.thenBlock());
        LLVM::StoreOp::create(b, loc(), v0, ptr);
        b.setInsertionPointAfter(if0);
        Value ok1 = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult,
                                          col1, cols);
        auto if1 = scf::IfOp::create(b, loc(), ok1, false);
        b.setInsertionPointToStart(if1.thenBlock());
        Value ptr1 = LLVM::GEPOp::create(b, loc(), globalPtrTy(), elt, ptr,
                                         ValueRange{i32c(1)});
        LLVM::StoreOp::create(b, loc(), v1, ptr1);
      }
    }
  }
  return success();
}

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
          kernel.getTarget().getArch(), "+ptx80");
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
                            decided(kRetireLateAttrName, retireLate));
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

bool mlir::cake::isPipelinedMmaLoop(scf::ForOp forOp) {
  return pipelinedMmaLoop(forOp);
}

bool mlir::cake::isOverlappedEpilogueLoop(scf::ForOp forOp) {
  return overlappedEpilogueLoop(forOp).has_value();
}
