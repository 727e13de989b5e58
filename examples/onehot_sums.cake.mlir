// Per-cluster sums as a one-hot GEMM, the dense form: a step toward the
// k-means centroid update in Cake IR (docs/status.md). For a tile of 64
// features x 64 clusters, ST[d, k] = sum over all points p of
// XT[d, p] * (Ids[p] == k): a copy warpgroup streams 64 x 64 chunks
// of the transposed points XT (D x N, fp16) by TMA, a second warpgroup
// builds the matching one-hot tile [cluster][point] in registers (a
// frag.map of the tile's cluster indices against the chunk's ids), writes
// it into a ring stage and fences it for the async proxy, and the third
// sums with wgmma (every operand K-major, C = A * B^T). A row of ones
// appended to XT gives the clusters' counts in the same pass. The tile's
// cluster indices are a frag.iota; ids past N are padded with -1, which
// matches no cluster.
//
// Status: verifies, lowers and assembles (test/Conversion/onehot-sums.test);
// not run on the H200, and not what the runtime uses: every tile reads
// every point, so it costs about as much as the assignment. The runtime's
// form, examples/kmeans_sums.cake.mlir, walks only its clusters' segment
// of the sorted points (a work list read with cake.scalar.load) and meets
// split segments in TMA reduce-add stores.
cake.kernel @onehot_sums(%XT: !cake.global<?x?xf16>, %Ids: !cake.global<?xi32>,
                         %ST: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 64], group_m = 1>} {
  %a = cake.ring : !cake.ring<4 x 64x64xf16, swizzle = 128>
  %h = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %pa = cake.pipe %a : !cake.ring<4 x 64x64xf16, swizzle = 128>
  %ph = cake.pipe %h : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "load" warpgroups(1) {
    %D = cake.dim %XT, 0 : !cake.global<?x?xf16>
    %N = cake.dim %XT, 1 : !cake.global<?x?xf16>
    %K = cake.dim %ST, 1 : !cake.global<?x?xf32>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%d, %k) in (%D, %K) {
      scf.for %p = %c0 to %N step %c64 {
        %s = cake.pipe.acquire %pa : !cake.pipe<4>
        cake.tma.load %XT[%d, %p] -> %a[%s] : !cake.global<?x?xf16> -> !cake.ring<4 x 64x64xf16, swizzle = 128>
        cake.pipe.commit %pa, %s : !cake.pipe<4>
      }
    }
  }
  cake.role "onehot" warpgroups(1) {
    %N = cake.dim %XT, 1 : !cake.global<?x?xf16>
    %D = cake.dim %XT, 0 : !cake.global<?x?xf16>
    %K = cake.dim %ST, 1 : !cake.global<?x?xf32>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %none = arith.constant -1 : i32
    cake.tiles (%d, %k) in (%D, %K) {
      %rows = cake.frag.iota base %k : !cake.frag<64x1xi32>
      scf.for %p = %c0 to %N step %c64 {
        %ids = cake.load %Ids[%p] pad %none : !cake.global<?xi32> -> !cake.frag<1x64xi32>
        %oh = cake.frag.map %rows, %ids : (!cake.frag<64x1xi32>, !cake.frag<1x64xi32>) -> !cake.frag<64x64xf16> {
        ^bb0(%r: i32, %i: i32):
          %eq = arith.cmpi eq, %r, %i : i32
          %one = arith.constant 1.0 : f16
          %zero = arith.constant 0.0 : f16
          %v = arith.select %eq, %one, %zero : f16
          cake.frag.yield %v : f16
        }
        %sh = cake.pipe.acquire %ph : !cake.pipe<2>
        cake.smem.write %oh -> %h[%sh] : !cake.frag<64x64xf16> -> !cake.ring<2 x 64x64xf16, swizzle = 128>
        cake.fence.proxy_async
        cake.pipe.commit %ph, %sh : !cake.pipe<2>
      }
    }
  }
  cake.role "sum" warpgroups(1) {
    %D = cake.dim %XT, 0 : !cake.global<?x?xf16>
    %N = cake.dim %XT, 1 : !cake.global<?x?xf16>
    %K = cake.dim %ST, 1 : !cake.global<?x?xf32>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%d, %k) in (%D, %K) {
      %acc0 = cake.frag.zero : !cake.frag<64x64xf32>
      %res = scf.for %p = %c0 to %N step %c64 iter_args(%acc = %acc0) -> (!cake.frag<64x64xf32>) {
        %th = cake.pipe.wait %ph : !cake.pipe<2>
        %ta = cake.pipe.wait %pa : !cake.pipe<4>
        %acc2 = cake.mma wgmma %a[%ta], %h[%th], %acc
          : !cake.ring<4 x 64x64xf16, swizzle = 128>, !cake.ring<2 x 64x64xf16, swizzle = 128>, !cake.frag<64x64xf32>
        cake.pipe.release %pa, %ta : !cake.pipe<4>
        cake.pipe.release %ph, %th : !cake.pipe<2>
        scf.yield %acc2 : !cake.frag<64x64xf32>
      }
      cake.store %res -> %ST[%d, %k] : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
    }
  }
}
