// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Handoffs.h - Who produces and consumes each pipe ---------*- C++ -*-===//
//
// The sides of a pipe's hand-offs and how a stage is filled, read by the
// rules (sync.pipe-roles, sync.trip-count-mismatch), by cake-derive (the
// barriers' arrival counts), by the tactics and by the lowering.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ANALYSIS_HANDOFFS_H
#define CAKE_ANALYSIS_HANDOFFS_H

#include "cake/Dialect/CakeDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>

namespace mlir {
namespace cake {

/// The role that acquires stages of `pipe` and the role that waits on them
/// (null where none does; of a dealt pipe, its last consumer).
std::pair<RoleOp, RoleOp> pipeRoles(PipeOp pipe);

/// Every role that waits on `pipe`, in the kernel's order.
llvm::SmallVector<RoleOp> pipeConsumers(PipeOp pipe);

/// A pipe dealt by tiles (the shared ring of CUTLASS's ping-pong GEMM): its
/// producer walks all of the CTA's tiles and each of n >= 2 consumer roles
/// takes slice k of n of them, so the stages of a tile go to the consumer
/// whose slice holds it, in the producer's order. Each consumer skips the
/// stages of the other slices' tiles (the lowering advances its hand-off
/// counter past them); sync.dealt-pipe checks the contract that makes
/// that exact.
struct DealtPipe {
  RoleOp producer;
  /// consumers[k] takes slice k of n = consumers.size().
  llvm::SmallVector<RoleOp> consumers;
};

/// The role's one tile loop, or null (none, or several).
TilesOp roleTileLoop(RoleOp role);

/// The dealing of a pipe with several consumer roles that each walk one
/// tile loop, slices k of the same n, every slice taken once; nothing for
/// any other pipe.
std::optional<DealtPipe> dealtPipe(PipeOp pipe);

/// The role that both acquires and waits on `pipe` (a kernel that is not
/// warp specialized), or null when producer and consumer differ.
RoleOp selfFillingRole(PipeOp pipe);

/// Whether the stage an acquire took is filled by TMA copies (their bytes
/// complete its full barrier) rather than by stores (whose producer warps
/// arrive on it).
bool isFilledByTma(PipeAcquireOp acquire);

/// Whether the stage an acquire took (or any stage of `pipe`) is filled by
/// cp.async copies of its threads (cake.gather, cake.cp_async.load): their
/// pieces complete on the full barrier besides the
/// producer warps' arrivals, and its readers order them before the async
/// proxy.
bool isFilledByThreadCopies(PipeAcquireOp acquire);
bool isFilledByThreadCopies(PipeOp pipe);

/// Whether `pipe`'s stages pass from thread to thread through ordinary
/// stores and loads: its producer fills them with smem.write and its
/// consumer reads them with smem.read or smem.reduce. Each thread then
/// arrives for itself on both barriers (the derived counts count threads),
/// so every access is ordered by its own thread's arrival: the form
/// compute-sanitizer's racecheck models, where one arrival per warp after
/// the warp converged is reported as a hazard for the other lanes.
bool isThreadHandoff(PipeOp pipe);

} // namespace cake
} // namespace mlir

#endif // CAKE_ANALYSIS_HANDOFFS_H
