// A deliberately naive k-means assignment for Hopper (fp16, D = 128): the
// seed of cake-evolve's k-means search (docs/agents.md). Same math as
// examples/kmeans_assign.cake.mlir (argmin_c ||c||^2 - 2 x.c on the tensor
// cores, the running best kept in registers), but one role does everything:
// its leader thread copies the point tile and then each 128-centroid tile
// (in two 64-wide halves) into single-stage pipes, and all its threads
// wait for every copy before the math. Copies and math never overlap; one
// CTA per 128-point tile. cake-warp-specialize, cake-set-stages and
// cake-set-schedule are the moves that make it fast.
cake.kernel @kmeans_naive_f16_d128(%X: !cake.global<?x128xf16>,
                                   %Cent: !cake.global<?x128xf16>,
                                   %Cn: !cake.global<?xf32>,
                                   %Out: !cake.global<?xi32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [128]>} {
  %x = cake.ring : !cake.ring<2 x 128x64xf16, swizzle = 128>
  %c = cake.ring : !cake.ring<1 x 128x64xf16, swizzle = 128>
  %px = cake.pipe %x : !cake.ring<2 x 128x64xf16, swizzle = 128>
  %pc = cake.pipe %c : !cake.ring<1 x 128x64xf16, swizzle = 128>

  cake.role "assign" warpgroups(2) {
    %N = cake.dim %X, 0 : !cake.global<?x128xf16>
    %K = cake.dim %Cent, 0 : !cake.global<?x128xf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %inf = arith.constant 0x7F800000 : f32
    %zero_i = arith.constant 0 : i32
    cake.tiles (%m) in (%N) {
      // The point tile: both 64-wide halves, held for the whole tile.
      %ax0 = cake.pipe.acquire %px : !cake.pipe<2>
      cake.tma.load %X[%m, %c0] -> %x[%ax0]
        : !cake.global<?x128xf16> -> !cake.ring<2 x 128x64xf16, swizzle = 128>
      cake.pipe.commit %px, %ax0 : !cake.pipe<2>
      %ax1 = cake.pipe.acquire %px : !cake.pipe<2>
      cake.tma.load %X[%m, %c64] -> %x[%ax1]
        : !cake.global<?x128xf16> -> !cake.ring<2 x 128x64xf16, swizzle = 128>
      cake.pipe.commit %px, %ax1 : !cake.pipe<2>
      %sx0 = cake.pipe.wait %px : !cake.pipe<2>
      %sx1 = cake.pipe.wait %px : !cake.pipe<2>
      %best0 = cake.frag.splat %inf : !cake.frag<128x1xf32>
      %idx0 = cake.frag.splat %zero_i : !cake.frag<128x1xi32>
      %res:2 = scf.for %n = %c0 to %K step %c128
          iter_args(%best = %best0, %idx = %idx0)
          -> (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>) {
        %zero = cake.frag.zero : !cake.frag<128x128xf32>
        %a0 = cake.pipe.acquire %pc : !cake.pipe<1>
        cake.tma.load %Cent[%n, %c0] -> %c[%a0]
          : !cake.global<?x128xf16> -> !cake.ring<1 x 128x64xf16, swizzle = 128>
        cake.pipe.commit %pc, %a0 : !cake.pipe<1>
        %s0 = cake.pipe.wait %pc : !cake.pipe<1>
        %d0 = cake.mma wgmma %x[%sx0], %c[%s0], %zero
          : !cake.ring<2 x 128x64xf16, swizzle = 128>,
            !cake.ring<1 x 128x64xf16, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %pc, %s0 : !cake.pipe<1>
        %a1 = cake.pipe.acquire %pc : !cake.pipe<1>
        cake.tma.load %Cent[%n, %c64] -> %c[%a1]
          : !cake.global<?x128xf16> -> !cake.ring<1 x 128x64xf16, swizzle = 128>
        cake.pipe.commit %pc, %a1 : !cake.pipe<1>
        %s1 = cake.pipe.wait %pc : !cake.pipe<1>
        %dot = cake.mma wgmma %x[%sx1], %c[%s1], %d0
          : !cake.ring<2 x 128x64xf16, swizzle = 128>,
            !cake.ring<1 x 128x64xf16, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %pc, %s1 : !cake.pipe<1>
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
