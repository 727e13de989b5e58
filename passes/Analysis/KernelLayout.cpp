// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- KernelLayout.cpp - Where a kernel's roles and buffers go -----------===//
//
// Role warps, fragment registers and the shared-memory layout
// (cake/Analysis/KernelLayout.h).
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/KernelLayout.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::cake;

static int64_t alignTo(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

int64_t mlir::cake::ringAlignment(RingType t) {
  switch (t.getSwizzle()) {
  case 128:
    return 1024;
  case 64:
    return 512;
  case 32:
    return 256;
  default:
    return 128;
  }
}

int64_t mlir::cake::fragmentRegisters(FragType t, int64_t threads) {
  int64_t bytes = t.getNumElements() * getElementBytes(t.getElementType());
  return (bytes + 4 * threads - 1) / (4 * threads);
}

int64_t mlir::cake::fragmentRegisters(TopKType t, int64_t threads) {
  // A shared list: each thread keeps its two rows' largest entry (value,
  // index, slot) and the list's shared-memory offset.
  if (t.getShared())
    return 7;
  // Each of a row's four threads keeps k values and k indices.
  int64_t regs = 8 * t.getRows() * t.getK();
  return (regs + threads - 1) / threads;
}

int64_t mlir::cake::valueRegisters(Type type, int64_t threads) {
  if (auto frag = dyn_cast<FragType>(type))
    return fragmentRegisters(frag, threads);
  if (auto topk = dyn_cast<TopKType>(type))
    return fragmentRegisters(topk, threads);
  // Every warp holds a loaded index list whole: an entry per lane.
  if (auto list = dyn_cast<IndicesType>(type))
    return (list.getRows() + 31) / 32;
  return 0;
}

Operation *mlir::cake::firstAllLanesOp(RoleOp role) {
  Operation *first = nullptr;
  role.walk([&](Operation *op) {
    if (!first &&
        isa<MmaOp, FragZeroOp, FragSplatOp, FragConvertOp, FragMapOp,
            FragReduceOp, FragScanOp, FragArgminOp, FragRowOp,
            FragTrilInverseOp, LoadOp, StoreOp, SmemWriteOp, SmemReadOp,
            BarrierSyncOp, TopKInitOp, TopKInsertOp, TopKAdmitsOp, TopKStoreOp,
            GatherOp, GatherIndicesOp, CpAsyncLoadOp, SmemReduceOp, TmemLoadOp,
            TmemStoreOp, ScatterOp>(op))
      first = op;
  });
  return first;
}

bool mlir::cake::isCopyOnlyRole(RoleOp role) { return !firstAllLanesOp(role); }

bool mlir::cake::holdsRowPerThread(RoleOp role) {
  if (role.getWarpgroups() != 1)
    return false;
  bool touches = false;
  role.walk(
      [&](Operation *op) { touches |= isa<TmemLoadOp, TmemStoreOp>(op); });
  return touches;
}

RoleWarps mlir::cake::computeRoleWarps(KernelOp kernel) {
  RoleWarps w;
  for (RoleOp role : kernel.getBody().getOps<RoleOp>()) {
    // wgmma and setmaxnreg need a warpgroup to start at a multiple of 4.
    if (role.getWarpgroups())
      w.totalWarps = alignTo(w.totalWarps, 4);
    w.firstWarp.push_back(w.totalWarps);
    w.totalWarps += role.getNumWarps();
  }
  return w;
}

TensorMemoryLayout mlir::cake::computeTensorMemoryLayout(KernelOp kernel) {
  TensorMemoryLayout layout;
  int64_t column = 0;
  for (TmemOp tmem : kernel.getBody().getOps<TmemOp>()) {
    layout.columns[tmem] = column;
    column += (tmem.getType().getColumns() + 31) / 32 * 32;
  }
  layout.usedColumns = column;
  if (column > 0)
    layout.allocation = std::max<int64_t>(32, llvm::PowerOf2Ceil(column));
  return layout;
}

SharedMemoryLayout mlir::cake::computeSharedMemoryLayout(KernelOp kernel) {
  SharedMemoryLayout layout;
  int64_t offset = 0;
  for (PipeOp pipe : kernel.getBody().getOps<PipeOp>()) {
    layout.offsets[pipe] = offset;
    offset += 16 * pipe.getType().getStages();
  }
  if (!kernel.getBody().getOps<TmemOp>().empty()) {
    layout.tmemSlot = offset;
    offset += 16; // CUTLASS keeps the word 16-byte aligned
  }
  for (RingOp ring : kernel.getBody().getOps<RingOp>()) {
    offset = alignTo(offset, ringAlignment(ring.getType()));
    layout.offsets[ring] = offset;
    offset += ring.getType().getRingBytes();
  }
  kernel.walk([&](Operation *op) {
    if (int64_t bytes = fragScratchBytes(op)) {
      offset = alignTo(offset, 16);
      layout.offsets[op] = offset;
      offset += bytes;
    }
  });
  // The dynamic shared-memory base is only guaranteed 16-byte aligned; the
  // kernel rounds it up to 1024, so it asks for that much more.
  layout.totalBytes = alignTo(offset, 16) + 1024;
  return layout;
}

int64_t mlir::cake::fragScratchBytes(Operation *op) {
  if (auto row = dyn_cast<FragRowOp>(op)) {
    FragType t = row.getResult().getType();
    return t.getNumElements() * getElementBytes(t.getElementType());
  }
  if (auto scan = dyn_cast<FragScanOp>(op); scan && scan.crossesWarps()) {
    auto role = op->getParentOfType<RoleOp>();
    FragType t = scan.getInput().getType();
    if (!role || t.getRank() != 2)
      return 0;
    return role.getNumWarps() * t.getShape()[1] *
           getElementBytes(t.getElementType());
  }
  if (isa<FragTrilInverseOp>(op))
    return kTrilInverseRows * kTrilInverseStride * 4;
  // A shared top-k list: k (value, index) entries a row.
  if (auto init = dyn_cast<TopKInitOp>(op)) {
    TopKType t = init.getType();
    return t.getShared() ? t.getRows() * t.getK() * 8 : 0;
  }
  // smem.reduce: one fp32 value per tile row.
  if (auto reduce = dyn_cast<SmemReduceOp>(op))
    return reduce.getSrc().getType().getShape()[0] * 4;
  return 0;
}

bool mlir::cake::needsRoleBarrier(Operation *op) {
  return fragScratchBytes(op) > 0 || isa<TopKAdmitsOp>(op);
}

DerivedBarriers mlir::cake::computeDerivedBarriers(KernelOp kernel) {
  DerivedBarriers d;
  kernel.walk([&](BarrierSyncOp bar) {
    d.last = std::max<int64_t>(d.last, bar.getId());
  });
  for (RoleOp role : kernel.getBody().getOps<RoleOp>()) {
    bool scratch = false;
    role.walk([&](Operation *op) { scratch |= needsRoleBarrier(op); });
    if (scratch)
      d.roleIds[role] = ++d.last;
  }
  return d;
}

LoopFragmentRegisters mlir::cake::loopFragmentRegisters(Operation *loop,
                                                        int64_t threads) {
  if (auto f = dyn_cast<scf::ForOp>(loop))
    return loopFragmentRegisters(f.getRegionIterArgs(), f.getBody(), threads);
  auto t = cast<TilesOp>(loop);
  return loopFragmentRegisters(t.getRegionIterArgs(), &t.getBody().front(),
                               threads);
}

LoopFragmentRegisters mlir::cake::loopFragmentRegisters(ValueRange iterArgs,
                                                        Block *body,
                                                        int64_t threads) {
  LoopFragmentRegisters r;
  for (Value v : iterArgs)
    r.carried += valueRegisters(v.getType(), threads);
  body->walk([&](Operation *op) {
    // An mma accumulates in place, and an insert replaces its list.
    if (isa<MmaOp, TopKInsertOp>(op))
      return;
    for (Value v : op->getResults())
      r.largest = std::max(r.largest, valueRegisters(v.getType(), threads));
  });
  return r;
}

int64_t mlir::cake::estimateRoleRegisters(RoleOp role) {
  int64_t threads = role.getNumWarps() * 32;
  int64_t need = 0;
  role.walk([&](Operation *loop) {
    // A tile loop counts when it carries fragments; the cost model was
    // calibrated with the bodies of the others left out.
    auto tiles = dyn_cast<TilesOp>(loop);
    if (!isa<scf::ForOp>(loop) && !(tiles && !tiles.getInits().empty()))
      return;
    // An elementwise op's operand and result are live together.
    LoopFragmentRegisters r = loopFragmentRegisters(loop, threads);
    need = std::max(need, r.carried + 2 * r.largest);
  });
  // Addresses, indices, loop counters and the epilogue's temporaries.
  return alignTo(std::max<int64_t>(need + 32, 32), 8);
}

std::pair<int64_t, int64_t>
mlir::cake::rasterTile(int64_t t, llvm::ArrayRef<int64_t> counts,
                       int64_t groupM) {
  if (counts.size() == 1)
    return {t, 0};
  int64_t groupSize = groupM * counts[1];
  int64_t group = t / groupSize;
  int64_t firstM = group * groupM;
  int64_t rows = std::min(counts[0] - firstM, groupM);
  int64_t inGroup = t % groupSize;
  return {firstM + inGroup % rows, inGroup / rows};
}
