// Fused k-means assignment for Blackwell (sm_100a): for every point (a row
// of X), the index of the nearest centroid (a row of Cent),
//
//   argmin_c ||x - c||^2 = argmin_c (||c||^2 - 2 x.c),
//
// the Hopper kernel (examples/kmeans_assign.cake.mlir) rewritten for
// tensor memory. The decisions written here: a load warp streams the
// point tile (its two 64-wide halves, resident for the tile) and centroid
// tiles through TMA rings; an MMA warp issues tcgen05.mma for X·Cᵀ into a
// two-stage 128x128 f32 accumulator in tensor memory, so that the assign
// warpgroup scans one centroid tile's distances while the next tile's
// products accumulate; the assign warpgroup reads the accumulator in
// 32-column chunks, one point's row a thread (tcgen05.ld's layout), folds
// in ||c||^2 (Cn, one line every thread holds), and keeps each row's
// running argmin in registers: a row's scan needs no shuffles, since one
// thread holds it. What the compiler derives: the accumulator's columns
// and allocation, the rings' barriers, phases and byte counts, and that
// the MMA warp's releases (the centroid stages after each tile, the point
// stages after the last) are tcgen05.commit arrivals.
//
// X is N x 128 (D = 128), Cent is K x 128, Cn is K, Out is N. It verifies
// and lowers to a cubin (ptxas -arch=sm_100a;
// test/Conversion/tcgen05-kmeans.test), but has not run on hardware: Cake
// has had no Blackwell GPU (docs/blackwell.md).
cake.kernel @kmeans_assign_tcgen05_f16_d128(%X: !cake.global<?x128xf16>,
                                           %Cent: !cake.global<?x128xf16>,
                                           %Cn: !cake.global<?xf32>,
                                           %Out: !cake.global<?xi32>)
    attributes {target = #cake.target<"sm_100a">,
                schedule = #cake.persistent<tile = [128], group_m = 1>} {
  %x = cake.ring : !cake.ring<2 x 128x64xf16, swizzle = 128>
  %c = cake.ring : !cake.ring<4 x 128x64xf16, swizzle = 128>
  %px = cake.pipe %x : !cake.ring<2 x 128x64xf16, swizzle = 128>
  %pc = cake.pipe %c : !cake.ring<4 x 128x64xf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<2 x 128x128xf32>
  %ap = cake.pipe %acc : !cake.tmem<2 x 128x128xf32>

  cake.role "load" warps(1) {
    %N = cake.dim %X, 0 : !cake.global<?x128xf16>
    %K = cake.dim %Cent, 0 : !cake.global<?x128xf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m) in (%N) {
      %sx0 = cake.pipe.acquire %px : !cake.pipe<2>
      cake.tma.load %X[%m, %c0] -> %x[%sx0]
        : !cake.global<?x128xf16> -> !cake.ring<2 x 128x64xf16, swizzle = 128>
      cake.pipe.commit %px, %sx0 : !cake.pipe<2>
      %sx1 = cake.pipe.acquire %px : !cake.pipe<2>
      cake.tma.load %X[%m, %c64] -> %x[%sx1]
        : !cake.global<?x128xf16> -> !cake.ring<2 x 128x64xf16, swizzle = 128>
      cake.pipe.commit %px, %sx1 : !cake.pipe<2>
      scf.for %n = %c0 to %K step %c128 {
        %s0 = cake.pipe.acquire %pc : !cake.pipe<4>
        cake.tma.load %Cent[%n, %c0] -> %c[%s0]
          : !cake.global<?x128xf16> -> !cake.ring<4 x 128x64xf16, swizzle = 128>
        cake.pipe.commit %pc, %s0 : !cake.pipe<4>
        %s1 = cake.pipe.acquire %pc : !cake.pipe<4>
        cake.tma.load %Cent[%n, %c64] -> %c[%s1]
          : !cake.global<?x128xf16> -> !cake.ring<4 x 128x64xf16, swizzle = 128>
        cake.pipe.commit %pc, %s1 : !cake.pipe<4>
      }
    }
  }

  // One thread issues the MMAs: per centroid tile, the two 64-wide halves
  // of D into one accumulator stage (the first overwrites: tensor memory
  // is not zeroed).
  cake.role "mma" warps(1) {
    %N = cake.dim %X, 0 : !cake.global<?x128xf16>
    %K = cake.dim %Cent, 0 : !cake.global<?x128xf16>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %first = arith.constant false
    %then = arith.constant true
    cake.tiles (%m) in (%N) {
      %sx0 = cake.pipe.wait %px : !cake.pipe<2>
      %sx1 = cake.pipe.wait %px : !cake.pipe<2>
      scf.for %n = %c0 to %K step %c128 {
        %t = cake.pipe.acquire %ap : !cake.pipe<2>
        %s0 = cake.pipe.wait %pc : !cake.pipe<4>
        cake.tmem.mma %x[%sx0], %c[%s0], %acc[%t] accumulate %first
          : !cake.ring<2 x 128x64xf16, swizzle = 128>,
            !cake.ring<4 x 128x64xf16, swizzle = 128>,
            !cake.tmem<2 x 128x128xf32>
        cake.pipe.release %pc, %s0 : !cake.pipe<4>
        %s1 = cake.pipe.wait %pc : !cake.pipe<4>
        cake.tmem.mma %x[%sx1], %c[%s1], %acc[%t] accumulate %then
          : !cake.ring<2 x 128x64xf16, swizzle = 128>,
            !cake.ring<4 x 128x64xf16, swizzle = 128>,
            !cake.tmem<2 x 128x128xf32>
        cake.pipe.release %pc, %s1 : !cake.pipe<4>
        cake.pipe.commit %ap, %t : !cake.pipe<2>
      }
      cake.pipe.release %px, %sx0 : !cake.pipe<2>
      cake.pipe.release %px, %sx1 : !cake.pipe<2>
    }
  }

  // Thread t of warp w holds point row 32 (w mod 4) + t of the tile: its
  // distances to a chunk of 32 centroids, their ||c||^2 (the whole chunk in
  // every thread), and its running best.
  cake.role "assign" warpgroups(1) {
    %N = cake.dim %X, 0 : !cake.global<?x128xf16>
    %K = cake.dim %Cent, 0 : !cake.global<?x128xf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %inf = arith.constant 0x7F800000 : f32
    %zero_i = arith.constant 0 : i32
    cake.tiles (%m) in (%N) {
      %best0 = cake.frag.splat %inf : !cake.frag<128x1xf32>
      %idx0 = cake.frag.splat %zero_i : !cake.frag<128x1xi32>
      %res:2 = scf.for %n = %c0 to %K step %c128
          iter_args(%best = %best0, %idx = %idx0)
          -> (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>) {
        %t = cake.pipe.wait %ap : !cake.pipe<2>
        %tile:2 = scf.for %cc = %c0 to %c128 step %c32
            iter_args(%b = %best, %bi = %idx)
            -> (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>) {
          %dot = cake.tmem.load %acc[%t] columns %cc
            : !cake.tmem<2 x 128x128xf32> -> !cake.frag<128x32xf32>
          %nc = arith.addi %n, %cc : index
          // Centroids past K get +inf so they never win.
          %cn = cake.load %Cn[%nc] pad %inf
            : !cake.global<?xf32> -> !cake.frag<1x32xf32>
          %dist = cake.frag.map %dot, %cn
              : (!cake.frag<128x32xf32>, !cake.frag<1x32xf32>)
              -> !cake.frag<128x32xf32> {
          ^bb0(%xc: f32, %c2: f32):
            %two = arith.constant 2.0 : f32
            %tx = arith.mulf %xc, %two : f32
            %dd = arith.subf %c2, %tx : f32
            cake.frag.yield %dd : f32
          }
          %v, %i = cake.frag.argmin %dist base %nc
            : !cake.frag<128x32xf32> -> !cake.frag<128x1xf32>, !cake.frag<128x1xi32>
          %nb:2 = cake.frag.map %b, %bi, %v, %i
              : (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>,
                 !cake.frag<128x1xf32>, !cake.frag<128x1xi32>)
              -> (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>) {
          ^bb0(%ob: f32, %obi: i32, %nv: f32, %ni: i32):
            // Strictly less: an earlier chunk keeps ties (lowest index wins).
            %lt = arith.cmpf olt, %nv, %ob : f32
            %rb = arith.select %lt, %nv, %ob : f32
            %ri = arith.select %lt, %ni, %obi : i32
            cake.frag.yield %rb, %ri : f32, i32
          }
          scf.yield %nb#0, %nb#1 : !cake.frag<128x1xf32>, !cake.frag<128x1xi32>
        }
        cake.pipe.release %ap, %t : !cake.pipe<2>
        scf.yield %tile#0, %tile#1 : !cake.frag<128x1xf32>, !cake.frag<128x1xi32>
      }
      cake.store %res#1 -> %Out[%m] : !cake.frag<128x1xi32> -> !cake.global<?xi32>
    }
  }
}
