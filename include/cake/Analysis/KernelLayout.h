// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- KernelLayout.h - Where a kernel's roles and buffers go ---*- C++ -*-===//
//
// The layout facts that cake-derive attaches, cake-verify checks and the
// cost model reads, computed in one place: the warps each role occupies,
// the registers its fragments need, and the shared-memory offsets of the
// barriers and rings.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ANALYSIS_KERNELLAYOUT_H
#define CAKE_ANALYSIS_KERNELLAYOUT_H

#include "cake/Dialect/CakeDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace mlir {
namespace cake {

/// Where cake-derive places each role's warps: warpgroup roles start at a
/// multiple of 4 (the warps skipped are idle padding).
struct RoleWarps {
  llvm::SmallVector<int64_t> firstWarp; ///< per role, in order
  int64_t totalWarps = 0;               ///< warps launched, padding included
};
RoleWarps computeRoleWarps(KernelOp kernel);

/// True if the role only moves data (no fragments, no math, no named
/// barriers, which count whole warps): one elected thread then issues its
/// copies and hand-offs.
bool isCopyOnlyRole(RoleOp role);
/// True if the role holds its fragments one row a thread, as tcgen05.ld
/// gives them: a warpgroups(1) role that reads or writes tensor memory
/// (tcgen05.ld, tcgen05.st). Its 128 x N fragments hold a row's N values a
/// thread, 128 x 1 its one value, and 1 x N all N (a broadcast line).
bool holdsRowPerThread(RoleOp role);
/// The first op that makes every thread of `role` run it (null for a copy
/// role).
Operation *firstAllLanesOp(RoleOp role);

/// Alignment a ring's buffers need: a whole swizzle atom (8 rows of the
/// swizzle span) for swizzled layouts, 128 B for TMA destinations otherwise.
int64_t ringAlignment(RingType type);

/// Where cake-derive places barriers, the tensor-memory address slot,
/// rings and the scratch of fragment ops that move values between warps
/// (frag.row) in shared memory.
struct SharedMemoryLayout {
  /// pipes' barriers, rings, frag.row scratch
  llvm::DenseMap<Operation *, int64_t> offsets;
  /// The word tcgen05.alloc writes the tensor-memory address to, after the
  /// barriers (-1: the kernel has no tensor memory).
  int64_t tmemSlot = -1;
  int64_t totalBytes = 0; ///< dynamic shared memory to request
};
SharedMemoryLayout computeSharedMemoryLayout(KernelOp kernel);

/// Where cake-derive places the kernel's tensor-memory buffers: each
/// buffer's first column (buffers in declaration order, each starting on a
/// 32-column boundary) and the one allocation the CTA makes, the columns
/// used rounded up to a power of two of at least 32 (the sizes
/// tcgen05.alloc takes). Allocation 0 for a kernel without tensor memory.
struct TensorMemoryLayout {
  llvm::DenseMap<Operation *, int64_t> columns; ///< TmemOp -> first column
  int64_t usedColumns = 0;
  int64_t allocation = 0;
};
TensorMemoryLayout computeTensorMemoryLayout(KernelOp kernel);

/// Bytes of shared-memory scratch an op that moves values between the
/// warps of its role needs (0 for every other op): frag.row its row,
/// frag.scan down a row of column totals per warp of the role,
/// frag.tril_inverse its matrix (rows of kTrilInverseStride floats).
int64_t fragScratchBytes(Operation *op);
/// Whether `op` meets its role's threads at the role's derived named
/// barrier: the ops with a scratch, and topk.admits (a reduction, no bytes).
bool needsRoleBarrier(Operation *op);

/// frag.tril_inverse's scratch: 64 rows of 68 floats. 16-byte aligned rows
/// for vector loads; the padding spreads a column's rows over banks.
constexpr int64_t kTrilInverseRows = 64;
constexpr int64_t kTrilInverseStride = 68;

/// Named barrier ids the compiler derives: one per role with ops that need
/// scratch (frag.row, frag.scan down), after every cake.barrier.sync id of
/// the kernel, in role order.
/// `last` is the highest id in use, explicit or derived (0 if none).
struct DerivedBarriers {
  llvm::DenseMap<Operation *, int64_t> roleIds; ///< RoleOp -> id
  int64_t last = 0;
};
DerivedBarriers computeDerivedBarriers(KernelOp kernel);

/// The (tm, tn) coordinates of linear tile `t` of a schedule with `counts`
/// tiles along each dimension, in the lowering's raster order (group-M
/// for two-dimensional schedules; emitTiles): what the cost model replays
/// to see which operand tiles a wave shares.
std::pair<int64_t, int64_t>
rasterTile(int64_t t, llvm::ArrayRef<int64_t> counts, int64_t groupM);

/// Registers per thread that a fragment of `type` takes in a role of
/// `threads` threads.
int64_t fragmentRegisters(FragType type, int64_t threads);
/// The same for per-row top-k lists (4 k a thread of a row's quad).
int64_t fragmentRegisters(TopKType type, int64_t threads);
/// Either of the above for a register value's type; 0 for other types.
int64_t valueRegisters(Type type, int64_t threads);

/// Registers per thread that the fragments of a loop need in a role of
/// `threads` threads: those carried across it and the largest one its body
/// defines (an mma accumulates in place and is not counted twice).
struct LoopFragmentRegisters {
  int64_t carried = 0;
  int64_t largest = 0;
};
LoopFragmentRegisters loopFragmentRegisters(ValueRange iterArgs, Block *body,
                                            int64_t threads);
/// The same for a loop over k (scf.for) or over tiles (cake.tiles).
LoopFragmentRegisters loopFragmentRegisters(Operation *loop, int64_t threads);

/// Registers per thread a role without regs() is expected to use: the
/// most any of its loops needs for fragments, plus addresses and indices.
/// An estimate (ptxas decides), used for occupancy where nothing caps it.
int64_t estimateRoleRegisters(RoleOp role);

} // namespace cake
} // namespace mlir

#endif // CAKE_ANALYSIS_KERNELLAYOUT_H
