// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- TmaMulticast.h - How a multicast TMA box splits ----------*- C++ -*-===//
//
// hw.tma-multicast's slicing contract, in one place: the op verifier of
// cake.tma.load reports it, cake-set-cluster (cake/Analysis/ClusterRow.h)
// multicasts only the loads it admits.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_DIALECT_TMAMULTICAST_H
#define CAKE_DIALECT_TMAMULTICAST_H

#include "cake/Dialect/CakeDialect.h"

namespace mlir {
namespace cake {

/// The bytes each CTA's slice of a multicast box must be a multiple of:
/// the swizzle pattern's period (8 rows of the swizzle span) and the
/// copy's 128-byte destination alignment.
int64_t multicastSlicePeriod(RingType ring);

/// Whether the ring tile's rows split into `ctas` equal multicast slices,
/// each a multiple of multicastSlicePeriod (hw.tma-multicast).
bool splitsIntoMulticastSlices(RingType ring, int64_t ctas);

} // namespace cake
} // namespace mlir

#endif // CAKE_DIALECT_TMAMULTICAST_H
