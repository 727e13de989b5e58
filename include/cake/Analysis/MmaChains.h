// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- MmaChains.h - Which wgmma groups stay in flight ----------*- C++ -*-===//
//
// The forms of wgmma chains and K loops that convert-cake-to-nvvm keeps in
// flight, that cake-verify checks under wg-order and that the cost model
// mirrors: one definition of each form, read by all three.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ANALYSIS_MMACHAINS_H
#define CAKE_ANALYSIS_MMACHAINS_H

#include "cake/Dialect/CakeDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>

namespace mlir {
namespace cake {

/// The wgmma chains a role of several warpgroups issues in turn under
/// wg-order, as (first, last) pairs: each fresh accumulator's straight-line
/// chain within one block (a chain that goes on in another block is not
/// ordered), and chains issued back to back (nothing but frag.zero between
/// them, as attention's two query slabs) as one turn. Empty for a role of
/// one warpgroup.
llvm::SmallVector<std::pair<MmaOp, MmaOp>> warpgroupTurnChains(RoleOp role);

/// Whether an op may issue while wgmma groups of its role are in flight
/// (retire-late), once the groups whose results it reads have retired: it
/// touches registers, global memory or a pipe's full barrier only, not
/// control flow, shared memory, barriers or the producer's side of a pipe.
bool mayIssueBesideWgmmaGroups(Operation &op);

/// Where a wg-order turn that starts at `first` and whose chain ends at
/// `last` passes to the next warpgroup: right after `last`, or under
/// retire-late before the first later op of the block that reads a result
/// of a wgmma issued in the turn or cannot issue beside it (so the turn
/// spans every wgmma a step issues together: attention's S = Q Kᵀ and the
/// previous step's O += P V, as FlashAttention-3's warp-scheduler
/// barriers do). Null: the end of the block.
Operation *warpgroupTurnEnd(MmaOp first, MmaOp last, bool retireLate);

/// True if `mma`'s wgmma group may stay in flight past its commit: its
/// result feeds only the next wgmma of the same block as the accumulator,
/// and what lies between is releases, waits on pipes of two or more stages
/// (a one-stage pipe would wait for the release held back) and pure ops.
bool chainsIntoNextMma(MmaOp mma);

/// Whether convert-cake-to-nvvm keeps wgmma groups in flight across the
/// iterations of `forOp`: a K loop of the form {wait; wgmma on the stage;
/// release; yield}. The cost model mirrors it.
bool isPipelinedMmaLoop(scf::ForOp forOp);

/// A loop body that overlaps an epilogue with the next tile's wgmmas.
struct OverlappedEpilogueLoop {
  Value pipe;                 ///< the pipe the chain's stages come from
  Operation *firstUse;        ///< of the carried accumulator, after the chain
  llvm::SmallVector<MmaOp> mmas;
  llvm::SmallVector<PipeReleaseOp> releases;
};

/// The loop form of a software-pipelined epilogue: the body starts with a
/// chain of wgmmas from a fresh accumulator, each reading a stage waited
/// for on one pipe and released after it, and yields the chain's result as
/// iter_arg i; iter_arg i (the previous tile's accumulator) is used only
/// after the chain, and the chain's result only by the yield. The wgmmas
/// can then run while the body's epilogue computes on iter_arg i. The
/// chain commits without waiting; the iteration ends by retiring it and
/// releasing its stages, so they are held through the epilogue.
std::optional<OverlappedEpilogueLoop> matchOverlappedEpilogueLoop(
    scf::ForOp forOp);

/// Whether `forOp` has the form matchOverlappedEpilogueLoop accepts.
bool isOverlappedEpilogueLoop(scf::ForOp forOp);

} // namespace cake
} // namespace mlir

#endif // CAKE_ANALYSIS_MMACHAINS_H
