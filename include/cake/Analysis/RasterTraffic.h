// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- RasterTraffic.h - HBM reads of a tile raster under L2 reuse -*- C++
//-*-===//
//
// Which operand boxes a kernel's TMA loads read from HBM and which hit in
// L2, given the order its tiles run in: the cost model simulates the
// raster wave by wave (docs/cost-model.md, "Memory traffic").
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ANALYSIS_RASTERTRAFFIC_H
#define CAKE_ANALYSIS_RASTERTRAFFIC_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace mlir {
namespace cake {

/// A TMA load as the raster simulation needs it.
struct LoadSite {
  unsigned argIndex = 0;
  unsigned tileMask = 0;   ///< tile coordinates its box depends on (1: m, 2: n)
  double bytesPerTile = 0; ///< over every trip of its loops, per tile
};

/// The bytes `sites` read from HBM when `tiles` tiles (`counts` along m and
/// n, grouped `groupM` rows at a time) run a wave of `wave` CTAs after
/// another: a box a CTA of the previous wave also read hits in L2 when
/// both waves' boxes fit in `l2Bytes`. Past 2^22 tiles it simulates that
/// many and scales by the rest, to bound the analysis time.
double rasterHbmLoadBytes(llvm::ArrayRef<LoadSite> sites, int64_t tiles,
                          int64_t wave, llvm::ArrayRef<int64_t> counts,
                          int64_t groupM, int64_t l2Bytes);

} // namespace cake
} // namespace mlir

#endif // CAKE_ANALYSIS_RASTERTRAFFIC_H
