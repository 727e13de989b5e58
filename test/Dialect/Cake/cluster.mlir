// A kernel's thread-block cluster (`cluster = n`, hw.cluster): it round
// trips, the near misses of invalid-cluster.mlir verify (16, the largest
// non-portable size; 1), and the lowering derives the rest: PTX's
// .reqnctapercluster n, 1, 1, the bundle's cluster and whether the runtime
// must allow a non-portable size, and the C header's grid in whole
// clusters (the tile rows rounded up to a multiple of n; persistent: at
// most the clusters resident at once, as cuOccupancyMaxActiveClusters
// says). The tile loop walks cluster
// tiles: the cluster's index and count (block / n, grid / n), the tile
// rows rounded up, and CTA r of a cluster on row n * row + r.
// RUN: cake-opt %s | cake-opt | FileCheck %s
// RUN: sed 's/cluster = 2 : i64/cluster = 16 : i64/' %s | cake-opt --cake-verify | FileCheck %s --check-prefix=CHECK-16
// RUN: sed 's/cluster = 2 : i64/cluster = 1 : i64/' %s | cake-opt --cake-verify | FileCheck %s --check-prefix=CHECK-1
// RUN: cake-opt --cake-verify --cake-lower=format=ptx %s | cake-translate --cake-to-ptx | FileCheck %s --check-prefix=CHECK-PTX
// RUN: cake-opt --cake-lower=format=ptx %cake_src/examples/tma_copy.cake.mlir | cake-translate --cake-to-ptx | FileCheck %s --check-prefix=CHECK-NONE
// RUN: cake-opt --cake-verify --cake-lower %s | cake-translate --cake-to-c-header | FileCheck %s --check-prefix=CHECK-HEADER
// RUN: cake-translate --cake-to-summary-json %s | FileCheck %s --check-prefix=CHECK-SUMMARY
// RUN: sed 's/#cake.persistent<tile = \[128, 64\], group_m = 1>/#cake.grid<tile = [128, 64]>/' %s | cake-opt --cake-verify --cake-lower | cake-translate --cake-to-c-header | FileCheck %s --check-prefix=CHECK-GRID

// CHECK: cake.kernel @tma_copy_cluster2
// CHECK-SAME: cluster = 2 : i64
// CHECK-16: cluster = 16 : i64
// CHECK-1: cluster = 1 : i64
// CHECK-PTX: .entry tma_copy_cluster2
// CHECK-PTX: .reqnctapercluster 2, 1, 1
// CHECK-NONE-NOT: .reqnctapercluster
// CHECK-HEADER: cuOccupancyMaxActiveClusters(&clusters, fn, &cfg)
// CHECK-HEADER: if (clusters * 2 < num_sms) num_sms = clusters * 2;
// CHECK-HEADER: tiles *= (((arg0_shape[0] + 127) / 128 + 1) / 2) * 2;
// CHECK-HEADER-NEXT: tiles *= (arg0_shape[1] + 63) / 64;
// CHECK-HEADER: if (tiles > num_sms / 2 * 2) tiles = num_sms / 2 * 2;
// CHECK-HEADER-NEXT: if (tiles < 2) tiles = 2;
// CHECK-GRID: tiles *= (((arg0_shape[0] + 127) / 128 + 1) / 2) * 2;
// CHECK-GRID-NEXT: tiles *= (arg0_shape[1] + 63) / 64;
// CHECK-GRID-NEXT: if (tiles == 0) return CUDA_SUCCESS;
// CHECK-GRID-NEXT: CUtensorMap maps
// CHECK-SUMMARY: "kind": "persistent"
// CHECK-SUMMARY: "cluster": 2

cake.kernel @tma_copy_cluster2(%In: !cake.global<?x?xbf16>, %Out: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 64], group_m = 1>,
                cluster = 2 : i64} {
  %r = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %r : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %In, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<4>
      cake.tma.load %In[%m, %n] -> %r[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<4>
    }
  }
  cake.role "store" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %In, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.wait %p : !cake.pipe<4>
      cake.tma.store %r[%s] -> %Out[%m, %n] : !cake.ring<4 x 128x64xbf16, swizzle = 128> -> !cake.global<?x?xbf16>
      cake.pipe.release %p, %s : !cake.pipe<4>
    }
  }
}
