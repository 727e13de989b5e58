// The k-means assignment software-pipelined by one centroid tile
// (scripts/gen-kmeans-variants.py --overlap): each iteration issues the
// wgmmas of tile n and then runs the epilogue of tile n - 1 on the carried
// accumulator. The lowering commits the body's wgmmas without waiting,
// keeps their stages' releases in slots, and at the carried accumulator's
// first use waits for all but this iteration's 2 groups and releases the
// previous iteration's stages; after the loop it retires the last groups.
// RUN: cake-opt --cake-verify --cake-derive --convert-cake-to-nvvm %s | FileCheck %s
// With no wgmma in flight allowed, or a ring too shallow to hold two tiles'
// stages (3 < 2 x 2), every wgmma is waited for at once, as before.
// RUN: cake-opt --cake-derive --convert-cake-to-nvvm="mma-in-flight=0" %s | FileCheck %s --check-prefix=EAGER
// RUN: cake-opt --cake-set-stages="pipe=1 stages=3" --cake-derive --convert-cake-to-nvvm %s | FileCheck %s --check-prefix=EAGER
// The cost model runs the epilogue's ALU work beside the wgmmas, and
// counts the held stages out of the ring's depth (2 of 4 ahead).
// RUN: cake-opt --cake-cost="shapes=1048576x128,1024x128,1024,1048576" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST

// CHECK:      %[[CUR0:.*]] = llvm.alloca
// CHECK:      %[[PREV0:.*]] = llvm.alloca
// CHECK:      %[[CUR1:.*]] = llvm.alloca
// CHECK:      %[[PREV1:.*]] = llvm.alloca
// CHECK:      llvm.store %{{.*}}, %[[PREV0]]
// CHECK:      llvm.store %{{.*}}, %[[PREV1]]
// CHECK-NEXT: scf.for {{.*}} iter_args
// CHECK:      nvvm.wgmma.mma_async
// CHECK:      nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT:  nvvm.wgmma.wait.group
// CHECK:      llvm.store %{{.*}}, %[[CUR0]]
// CHECK-NOT:  nvvm.wgmma.wait.group
// CHECK:      nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT:  nvvm.wgmma.wait.group
// CHECK:      llvm.store %{{.*}}, %[[CUR1]]
// CHECK-NOT:  nvvm.wgmma.wait.group
// CHECK:      nvvm.wgmma.wait.group.sync.aligned 2
// CHECK-NEXT: llvm.load %[[PREV0]]
// CHECK:      nvvm.mbarrier.arrive
// CHECK:      %[[S0:.*]] = llvm.load %[[CUR0]]
// CHECK-NEXT: llvm.store %[[S0]], %[[PREV0]]
// CHECK-NEXT: llvm.load %[[PREV1]]
// CHECK:      nvvm.mbarrier.arrive
// CHECK:      %[[S1:.*]] = llvm.load %[[CUR1]]
// CHECK-NEXT: llvm.store %[[S1]], %[[PREV1]]
// The epilogue (2 x.c subtracted from ||c||^2) after the wait.
// CHECK:      arith.mulf
// CHECK:      scf.yield
// CHECK:      nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: llvm.load %[[PREV0]]
// CHECK:      llvm.load %[[PREV1]]

// EAGER:      scf.for {{.*}} iter_args
// EAGER:      nvvm.wgmma.commit.group.sync.aligned
// EAGER-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// EAGER:      nvvm.wgmma.commit.group.sync.aligned
// EAGER-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// EAGER-NOT:  nvvm.wgmma.wait.group.sync.aligned 2

// COST: role "assign" (8 warps), per tile: mma {{.*}} alu
// COST: pipe #1: 4 stages (2 filled ahead), 16 steps per tile

// of examples/kmeans_assign.cake.mlir for f16, D = 128.
cake.kernel @kmeans_overlap(%X: !cake.global<?x128xf16>, %Cent: !cake.global<?x128xf16>,
    %Cn: !cake.global<?xf32>, %Out: !cake.global<?xi32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128], group_m = 1>} {
  %x = cake.ring : !cake.ring<2 x 128x64xf16, swizzle = 128>
  %c = cake.ring : !cake.ring<4 x 128x64xf16, swizzle = 128>
  %px = cake.pipe %x : !cake.ring<2 x 128x64xf16, swizzle = 128>
  %pc = cake.pipe %c : !cake.ring<4 x 128x64xf16, swizzle = 128>
  cake.role "load" warpgroups(1) regs(40) {
    %N = cake.dim %X, 0 : !cake.global<?x128xf16>
    %K = cake.dim %Cent, 0 : !cake.global<?x128xf16>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %d0 = arith.constant 0 : index
    %d1 = arith.constant 64 : index
    cake.tiles (%m) in (%N) {
      %sx0 = cake.pipe.acquire %px : !cake.pipe<2>
      cake.tma.load %X[%m, %d0] -> %x[%sx0] : !cake.global<?x128xf16> -> !cake.ring<2 x 128x64xf16, swizzle = 128>
      cake.pipe.commit %px, %sx0 : !cake.pipe<2>
      %sx1 = cake.pipe.acquire %px : !cake.pipe<2>
      cake.tma.load %X[%m, %d1] -> %x[%sx1] : !cake.global<?x128xf16> -> !cake.ring<2 x 128x64xf16, swizzle = 128>
      cake.pipe.commit %px, %sx1 : !cake.pipe<2>
      scf.for %n = %c0 to %K step %c128 {
        %s0 = cake.pipe.acquire %pc : !cake.pipe<4>
        cake.tma.load %Cent[%n, %d0] -> %c[%s0] : !cake.global<?x128xf16> -> !cake.ring<4 x 128x64xf16, swizzle = 128>
        cake.pipe.commit %pc, %s0 : !cake.pipe<4>
        %s1 = cake.pipe.acquire %pc : !cake.pipe<4>
        cake.tma.load %Cent[%n, %d1] -> %c[%s1] : !cake.global<?x128xf16> -> !cake.ring<4 x 128x64xf16, swizzle = 128>
        cake.pipe.commit %pc, %s1 : !cake.pipe<4>
      }
    }
  }
  cake.role "assign" warpgroups(2) regs(232) {
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
      %acc0 = cake.frag.zero : !cake.frag<128x128xf32>
      %res:4 = scf.for %n = %c0 to %K step %c128
          iter_args(%best = %best0, %idx = %idx0, %acc = %acc0, %np = %K)
          -> (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>, !cake.frag<128x128xf32>, index) {
        %a0 = cake.frag.zero : !cake.frag<128x128xf32>
        %t0 = cake.pipe.wait %pc : !cake.pipe<4>
        %a1 = cake.mma wgmma %x[%sx0], %c[%t0], %a0
          : !cake.ring<2 x 128x64xf16, swizzle = 128>, !cake.ring<4 x 128x64xf16, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %pc, %t0 : !cake.pipe<4>
        %t1 = cake.pipe.wait %pc : !cake.pipe<4>
        %a2 = cake.mma wgmma %x[%sx1], %c[%t1], %a1
          : !cake.ring<2 x 128x64xf16, swizzle = 128>, !cake.ring<4 x 128x64xf16, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %pc, %t1 : !cake.pipe<4>
        %cn = cake.load %Cn[%np] pad %inf : !cake.global<?xf32> -> !cake.frag<1x128xf32>
        %dist = cake.frag.map %acc, %cn
            : (!cake.frag<128x128xf32>, !cake.frag<1x128xf32>) -> !cake.frag<128x128xf32> {
        ^bb0(%xc: f32, %c2: f32):
          %two = arith.constant 2.0 : f32
          %t = arith.mulf %xc, %two : f32
          %dd = arith.subf %c2, %t : f32
          cake.frag.yield %dd : f32
        }
        %v, %i = cake.frag.argmin %dist base %np
          : !cake.frag<128x128xf32> -> !cake.frag<128x1xf32>, !cake.frag<128x1xi32>
        %nb:2 = cake.frag.map %best, %idx, %v, %i
            : (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>, !cake.frag<128x1xf32>, !cake.frag<128x1xi32>)
            -> (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>) {
        ^bb0(%ob: f32, %bi: i32, %nv: f32, %ni: i32):
          %lt = arith.cmpf olt, %nv, %ob : f32
          %rb = arith.select %lt, %nv, %ob : f32
          %ri = arith.select %lt, %ni, %bi : i32
          cake.frag.yield %rb, %ri : f32, i32
        }
        scf.yield %nb#0, %nb#1, %a2, %n : !cake.frag<128x1xf32>, !cake.frag<128x1xi32>, !cake.frag<128x128xf32>, index
      }
      %cn_last = cake.load %Cn[%res#3] pad %inf : !cake.global<?xf32> -> !cake.frag<1x128xf32>
      %dist_last = cake.frag.map %res#2, %cn_last
          : (!cake.frag<128x128xf32>, !cake.frag<1x128xf32>) -> !cake.frag<128x128xf32> {
      ^bb0(%xc: f32, %c2: f32):
        %two = arith.constant 2.0 : f32
        %t = arith.mulf %xc, %two : f32
        %dd = arith.subf %c2, %t : f32
        cake.frag.yield %dd : f32
      }
      %v_last, %i_last = cake.frag.argmin %dist_last base %res#3
        : !cake.frag<128x128xf32> -> !cake.frag<128x1xf32>, !cake.frag<128x1xi32>
      %last:2 = cake.frag.map %res#0, %res#1, %v_last, %i_last
          : (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>, !cake.frag<128x1xf32>, !cake.frag<128x1xi32>)
          -> (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>) {
      ^bb0(%ob: f32, %bi: i32, %nv: f32, %ni: i32):
        %lt = arith.cmpf olt, %nv, %ob : f32
        %rb = arith.select %lt, %nv, %ob : f32
        %ri = arith.select %lt, %ni, %bi : i32
        cake.frag.yield %rb, %ri : f32, i32
      }
      cake.pipe.release %px, %sx0 : !cake.pipe<2>
      cake.pipe.release %px, %sx1 : !cake.pipe<2>
      cake.store %last#1 -> %Out[%m] : !cake.frag<128x1xi32> -> !cake.global<?xi32>
    }
  }
}
