//===- Passes.h - Cake passes -----------------------------------*- C++ -*-===//
//
// Pass constructors and registration, generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TRANSFORMS_PASSES_H
#define CAKE_TRANSFORMS_PASSES_H

#include "cake/Dialect/CakeDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace cake {

#define GEN_PASS_DECL
#include "cake/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "cake/Transforms/Passes.h.inc"

/// The kernel attribute (a bool) by which cake-set-mma-chain records
/// whether the lowering keeps straight-line wgmma chains in flight; it
/// takes precedence over convert-cake-to-nvvm's `mma-chain` option.
inline constexpr llvm::StringLiteral kMmaChainAttrName = "cake.mma_chain";

/// The kernel attribute (a bool) by which cake-set-wg-order records whether
/// a multi-warpgroup role issues its wgmma chains in turn; it takes
/// precedence over convert-cake-to-nvvm's `wg-order` option.
inline constexpr llvm::StringLiteral kWgOrderAttrName = "cake.wg_order";

/// The kernel attribute (a bool) by which cake-set-wg-order records whether
/// a turn passes when the chain's last group retires (true) or when it is
/// issued; it takes precedence over convert-cake-to-nvvm's
/// `wg-order-retire` option.
inline constexpr llvm::StringLiteral kWgOrderRetireAttrName =
    "cake.wg_order_retire";

/// The kernel attribute (a bool) by which cake-set-retire-late records
/// whether a wgmma chain's last group retires at the first op that needs
/// it; it takes precedence over convert-cake-to-nvvm's `retire-late`.
inline constexpr llvm::StringLiteral kRetireLateAttrName = "cake.retire_late";

/// Where cake-derive places each role's warps: warpgroup roles start at a
/// multiple of 4 (the warps skipped are idle padding).
struct RoleWarps {
  llvm::SmallVector<int64_t> firstWarp; ///< per role, in order
  int64_t totalWarps = 0;               ///< warps launched, padding included
};
RoleWarps computeRoleWarps(KernelOp kernel);

/// Where cake-derive places barriers and rings in shared memory.
struct SharedMemoryLayout {
  llvm::DenseMap<Operation *, int64_t> offsets; ///< pipes' barriers, rings
  int64_t totalBytes = 0; ///< dynamic shared memory to request
};
SharedMemoryLayout computeSharedMemoryLayout(KernelOp kernel);

/// Registers per thread that the fragments of a loop need in a role of
/// `threads` threads: those carried across it and the largest one its body
/// defines (an mma accumulates in place and is not counted twice).
struct LoopFragmentRegisters {
  int64_t carried = 0;
  int64_t largest = 0;
};
LoopFragmentRegisters loopFragmentRegisters(scf::ForOp loop, int64_t threads);

/// Registers per thread a role without regs() is expected to use: the
/// most any of its loops needs for fragments, plus addresses and indices.
/// An estimate (ptxas decides), used for occupancy where nothing caps it.
int64_t estimateRoleRegisters(RoleOp role);

/// The role that acquires stages of `pipe` and the role that waits on them
/// (null where none does).
std::pair<RoleOp, RoleOp> pipeRoles(PipeOp pipe);

/// The role that both acquires and waits on `pipe` (a kernel that is not
/// warp specialized), or null when producer and consumer differ.
RoleOp selfFillingRole(PipeOp pipe);

/// Whether the stage an acquire took is filled by TMA copies (their bytes
/// complete its full barrier) rather than by stores (whose producer warps
/// arrive on it).
bool isFilledByTma(PipeAcquireOp acquire);

/// Checks that a wgmma's operands can be described by shared-memory
/// descriptors ([hw.mma-smem-descriptor]).
LogicalResult verifyWgmmaOperands(MmaOp op);

/// The wgmma chains a role of several warpgroups issues in turn under
/// wg-order, as (first, last) pairs: each fresh accumulator's straight-line
/// chain within one block (a chain that goes on in another block is not
/// ordered). Empty for a role of one warpgroup.
SmallVector<std::pair<MmaOp, MmaOp>> warpgroupTurnChains(RoleOp role);

/// Checks that issuing `role`'s chains in turn cannot deadlock
/// ([sync.warpgroup-turn]): a wait inside a turn must not need the other
/// warpgroups to release a stage they release only in their own turns.
LogicalResult verifyWarpgroupTurns(RoleOp role);

/// Whether convert-cake-to-nvvm keeps wgmma groups in flight across the
/// iterations of `forOp`: a K loop of the form {wait; wgmma on the stage;
/// release; yield}. The cost model mirrors it.
bool isPipelinedMmaLoop(scf::ForOp forOp);

/// Whether convert-cake-to-nvvm overlaps the epilogue of `forOp` with its
/// wgmmas: a wgmma chain from a fresh accumulator, yielded, and the carried
/// accumulator (the previous tile's) used after the chain. The chain
/// commits without waiting; the iteration ends by retiring it and
/// releasing its stages, so they are held through the epilogue. The cost
/// model mirrors it.
bool isOverlappedEpilogueLoop(scf::ForOp forOp);

/// Registers the `cake-lower` pipeline: cake-derive, convert-cake-to-nvvm,
/// the upstream GPU/NVVM/LLVM lowering and gpu-module-to-binary (cubin by
/// default, PTX with format=ptx).
void registerLowerPipeline();

} // namespace cake
} // namespace mlir

#endif // CAKE_TRANSFORMS_PASSES_H
