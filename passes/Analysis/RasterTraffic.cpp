// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- RasterTraffic.cpp - HBM reads of a tile raster under L2 reuse ------===//

#include "cake/Analysis/RasterTraffic.h"
#include "cake/Analysis/KernelLayout.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <unordered_set>
#include <utility>

using namespace mlir;
using namespace mlir::cake;

double mlir::cake::rasterHbmLoadBytes(llvm::ArrayRef<LoadSite> sites,
                                      int64_t tiles, int64_t wave,
                                      llvm::ArrayRef<int64_t> counts,
                                      int64_t groupM, int64_t l2Bytes) {
  if (sites.empty() || tiles <= 0)
    return 0;
  wave = std::max<int64_t>(wave, 1);
  std::unordered_set<uint64_t> prev, cur;
  double prevBytes = 0;
  int64_t simulated = std::min<int64_t>(tiles, int64_t(1) << 22);
  double scale = double(tiles) / double(simulated);
  double loaded = 0;
  for (int64_t start = 0; start < simulated; start += wave) {
    cur.clear();
    double curBytes = 0, hitBytes = 0;
    int64_t end = std::min(simulated, start + wave);
    for (int64_t t = start; t < end; ++t) {
      auto [tm, tn] = rasterTile(t, counts, groupM);
      for (auto [li, site] : llvm::enumerate(sites)) {
        uint64_t key = uint64_t(li) << 48;
        if (site.tileMask & 1u)
          key ^= uint64_t(tm) << 24;
        if (site.tileMask & 2u)
          key ^= uint64_t(tn) + 1;
        if (!cur.insert(key).second)
          continue;
        curBytes += site.bytesPerTile;
        if (prev.count(key))
          hitBytes += site.bytesPerTile;
      }
    }
    double fit =
        std::min(1.0, double(l2Bytes) / std::max(1.0, prevBytes + curBytes));
    loaded += curBytes - hitBytes * fit;
    std::swap(prev, cur);
    prevBytes = curBytes;
  }
  return loaded * scale;
}
