// The fused k-means assignment of examples/kmeans_assign.cake.mlir for
// Ampere (sm_80): for every point (a row of X), the index of the nearest
// centroid by Euclidean distance, argmin_c (||c||^2 - 2 x.c).
//
// Three decisions differ from the Hopper kernel, each one word: the load
// warpgroup's 128 threads copy the tiles with cp.async (sm_80 has no TMA),
// the products are mma_sync (each warp 16 of its warpgroup's 64 rows,
// operands through ldmatrix), and no role asks for registers (no
// setmaxnreg). Everything after the products -- the ||c||^2 map, the
// argmin across centroid tiles, the store -- is the same IR, lowered by the
// same code: mma_sync leaves the accumulator in the wgmma register layout.
// test/Conversion/mma-sync.test lowers it to an sm_80 cubin.
cake.kernel @kmeans_assign_mma_sync_f16_d128(%X: !cake.global<?x128xf16>,
                                    %Cent: !cake.global<?x128xf16>,
                                    %Cn: !cake.global<?xf32>,
                                    %Out: !cake.global<?xi32>)
    attributes {target = #cake.target<"sm_80">,
                schedule = #cake.persistent<tile = [128], group_m = 1>} {
  %x = cake.ring : !cake.ring<2 x 128x64xf16, swizzle = 128>
  %c = cake.ring : !cake.ring<4 x 128x64xf16, swizzle = 128>
  %px = cake.pipe %x : !cake.ring<2 x 128x64xf16, swizzle = 128>
  %pc = cake.pipe %c : !cake.ring<4 x 128x64xf16, swizzle = 128>

  cake.role "load" warpgroups(1) {
    %N = cake.dim %X, 0 : !cake.global<?x128xf16>
    %K = cake.dim %Cent, 0 : !cake.global<?x128xf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m) in (%N) {
      %sx0 = cake.pipe.acquire %px : !cake.pipe<2>
      cake.cp_async.load %X[%m, %c0] -> %x[%sx0]
        : !cake.global<?x128xf16> -> !cake.ring<2 x 128x64xf16, swizzle = 128>
      cake.pipe.commit %px, %sx0 : !cake.pipe<2>
      %sx1 = cake.pipe.acquire %px : !cake.pipe<2>
      cake.cp_async.load %X[%m, %c64] -> %x[%sx1]
        : !cake.global<?x128xf16> -> !cake.ring<2 x 128x64xf16, swizzle = 128>
      cake.pipe.commit %px, %sx1 : !cake.pipe<2>
      scf.for %n = %c0 to %K step %c128 {
        %s0 = cake.pipe.acquire %pc : !cake.pipe<4>
        cake.cp_async.load %Cent[%n, %c0] -> %c[%s0]
          : !cake.global<?x128xf16> -> !cake.ring<4 x 128x64xf16, swizzle = 128>
        cake.pipe.commit %pc, %s0 : !cake.pipe<4>
        %s1 = cake.pipe.acquire %pc : !cake.pipe<4>
        cake.cp_async.load %Cent[%n, %c64] -> %c[%s1]
          : !cake.global<?x128xf16> -> !cake.ring<4 x 128x64xf16, swizzle = 128>
        cake.pipe.commit %pc, %s1 : !cake.pipe<4>
      }
    }
  }

  cake.role "assign" warpgroups(2) {
    %N = cake.dim %X, 0 : !cake.global<?x128xf16>
    %K = cake.dim %Cent, 0 : !cake.global<?x128xf16>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %inf = arith.constant 0x7F800000 : f32
    %zero_i = arith.constant 0 : i32
    cake.tiles (%m) in (%N) {
      %sx0 = cake.pipe.wait %px : !cake.pipe<2>
      %sx1 = cake.pipe.wait %px : !cake.pipe<2>
      %best0 = cake.frag.splat %inf : !cake.frag<128x1xf32>
      %idx0 = cake.frag.splat %zero_i : !cake.frag<128x1xi32>
      %res:2 = scf.for %n = %c0 to %K step %c128
          iter_args(%best = %best0, %idx = %idx0)
          -> (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>) {
        %zero = cake.frag.zero : !cake.frag<128x128xf32>
        %s0 = cake.pipe.wait %pc : !cake.pipe<4>
        %d0 = cake.mma mma_sync %x[%sx0], %c[%s0], %zero
          : !cake.ring<2 x 128x64xf16, swizzle = 128>,
            !cake.ring<4 x 128x64xf16, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %pc, %s0 : !cake.pipe<4>
        %s1 = cake.pipe.wait %pc : !cake.pipe<4>
        %dot = cake.mma mma_sync %x[%sx1], %c[%s1], %d0
          : !cake.ring<2 x 128x64xf16, swizzle = 128>,
            !cake.ring<4 x 128x64xf16, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %pc, %s1 : !cake.pipe<4>
        // Centroids past K get +inf so they never win.
        %cn = cake.load %Cn[%n] pad %inf
          : !cake.global<?xf32> -> !cake.frag<1x128xf32>
        %dist = cake.frag.map %dot, %cn
            : (!cake.frag<128x128xf32>, !cake.frag<1x128xf32>)
            -> !cake.frag<128x128xf32> {
        ^bb0(%xc: f32, %c2: f32):
          %two = arith.constant 2.0 : f32
          %t = arith.mulf %xc, %two : f32
          %dd = arith.subf %c2, %t : f32
          cake.frag.yield %dd : f32
        }
        %v, %i = cake.frag.argmin %dist base %n
          : !cake.frag<128x128xf32> -> !cake.frag<128x1xf32>, !cake.frag<128x1xi32>
        %nb:2 = cake.frag.map %best, %idx, %v, %i
            : (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>,
               !cake.frag<128x1xf32>, !cake.frag<128x1xi32>)
            -> (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>) {
        ^bb0(%b: f32, %bi: i32, %nv: f32, %ni: i32):
          // Strictly less: an earlier tile keeps ties (lowest index wins).
          %lt = arith.cmpf olt, %nv, %b : f32
          %rb = arith.select %lt, %nv, %b : f32
          %ri = arith.select %lt, %ni, %bi : i32
          cake.frag.yield %rb, %ri : f32, i32
        }
        scf.yield %nb#0, %nb#1 : !cake.frag<128x1xf32>, !cake.frag<128x1xi32>
      }
      cake.pipe.release %px, %sx0 : !cake.pipe<2>
      cake.pipe.release %px, %sx1 : !cake.pipe<2>
      cake.store %res#1 -> %Out[%m] : !cake.frag<128x1xi32> -> !cake.global<?xi32>
    }
  }
}
