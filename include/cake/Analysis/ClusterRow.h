// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- ClusterRow.h - What differs between the CTAs of a cluster -*- C++
//-*-===//
//
// The CTAs of a cluster take neighbouring tiles along the schedule's first
// dimension (the lowering's cluster-tile walk), so the tile index there is
// the one value that differs between them. A multicast copy writes one
// slice of every CTA's stage and its pipe is released by every CTA's
// consumers, so its box and its pipe's hand-offs must not depend on that
// index. Read by sync.multicast-uniform and by cake-set-cluster, which
// multicasts only the copies the rule accepts.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ANALYSIS_CLUSTERROW_H
#define CAKE_ANALYSIS_CLUSTERROW_H

#include "cake/Dialect/CakeDialect.h"

namespace mlir {
namespace cake {

/// Whether `v` may depend on a tile index along the cluster's dimension
/// (the first block argument of a cake.tiles). Conservative: through an op
/// with regions, every value used inside counts.
bool dependsOnClusterRow(Value v);

/// The first loop or branch around `op`, inside its role, whose bound or
/// condition may depend on the tile row; null where none does.
Operation *clusterRowDependentControl(Operation *op);

/// The pipe whose rings include `ring`, or null.
PipeOp pipeOfRing(Value ring);

/// Whether `load` may be multicast to a cluster of `ctas` CTAs: its box
/// splits into equal slices at the swizzle's period (hw.tma-multicast),
/// its coordinates and every hand-off on its pipe do not depend on the
/// tile row (sync.multicast-uniform).
bool canMulticast(TmaLoadOp load, int64_t ctas);

} // namespace cake
} // namespace mlir

#endif // CAKE_ANALYSIS_CLUSTERROW_H
