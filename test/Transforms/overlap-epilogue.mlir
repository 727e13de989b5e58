// cake-overlap-epilogue on the k-means assignment (the kernel of
// libs/kmeans/kernels/gen-kmeans-variants.py, f16, D = 128, 128-centroid tiles, a
// 4-stage ring): each iteration of the centroid loop now issues tile n's
// wgmmas first, then runs tile n - 1's epilogue on the accumulator carried
// from the previous iteration (skipped in the first); the last tile's
// epilogue follows the loop when the loop ran.
// RUN: cake-opt --cake-overlap-epilogue %s | FileCheck %s
// RUN: cake-opt --cake-overlap-epilogue="role=assign" --cake-verify %s -o /dev/null
//
// CHECK:      %[[ZERO:.*]] = cake.frag.zero : !cake.frag<128x128xf32>
// CHECK-NEXT: %[[LOOP:.*]]:4 = scf.for %[[N:.*]] = %[[LB:.*]] to %[[UB:.*]] step %{{.*}} iter_args(%[[BEST:.*]] = %{{.*}}, %[[IDX:.*]] = %{{.*}}, %[[ACC:.*]] = %[[ZERO]], %[[NP:.*]] = %[[LB]])
// CHECK:      cake.mma wgmma
// CHECK:      %[[NEXT:.*]] = cake.mma wgmma
// CHECK-NEXT: cake.pipe.release
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[N]], %[[LB]]
// CHECK-NEXT: %[[EPI:.*]]:2 = scf.if %[[FIRST]]
// CHECK-NEXT:   scf.yield %[[BEST]], %[[IDX]]
// CHECK-NEXT: } else {
// CHECK-NEXT:   cake.load %{{.*}}[%[[NP]]] pad
// CHECK-NEXT:   cake.frag.map %[[ACC]],
// CHECK:        cake.frag.argmin %{{.*}} base %[[NP]]
// CHECK:      scf.yield %[[EPI]]#0, %[[EPI]]#1, %[[NEXT]], %[[N]]
// CHECK:      %[[RAN:.*]] = arith.cmpi slt, %[[LB]], %[[UB]]
// CHECK-NEXT: %[[TAIL:.*]]:2 = scf.if %[[RAN]]
// CHECK-NEXT:   cake.load %{{.*}}[%[[LOOP]]#3] pad
// CHECK-NEXT:   cake.frag.map %[[LOOP]]#2,
// CHECK:      } else {
// CHECK-NEXT:   scf.yield %[[LOOP]]#0, %[[LOOP]]#1
// CHECK:      cake.store %[[TAIL]]#1

// A loop whose mma accumulates into a carried value (the GEMM's K loop) is
// not of this form and stays; an unknown role is an error.
// RUN: cake-opt --cake-overlap-epilogue %cake_src/examples/gemm_ws_persistent.cake.mlir | FileCheck %s --check-prefix=GEMM
// GEMM-NOT: scf.if
// RUN: not cake-opt --cake-overlap-epilogue="role=nope" %s 2>&1 | FileCheck %s --check-prefix=ROLE
// ROLE: error: cake-overlap-epilogue: no role named "nope"

// The lowering commits the loop's wgmmas without waiting and holds their
// stages; the guarded epilogue runs on the accumulator the previous
// iteration completed while they run; the iteration ends by retiring them
// (wait_group 0, so the accumulator it carries on is complete) and
// releasing their two stages. ptxas compiles this without serializing the
// wgmmas (a wait at the carried accumulator's first use instead made the
// back edge copy a wgmma's registers in flight: ptxas C7518).
// RUN: cake-opt --cake-overlap-epilogue --cake-verify --cake-derive --convert-cake-to-nvvm %s | FileCheck %s --check-prefix=LOWER
// LOWER:      scf.for {{.*}} iter_args
// LOWER:      nvvm.wgmma.commit.group.sync.aligned
// LOWER-NOT:  nvvm.wgmma.wait.group
// LOWER:      nvvm.wgmma.commit.group.sync.aligned
// LOWER-NOT:  nvvm.wgmma.wait.group
// LOWER:      scf.if %{{.*}} -> (!llvm.struct<(f32, f32)>, !llvm.struct<(i32, i32)>)
// LOWER:      arith.mulf
// LOWER-NOT:  nvvm.wgmma.wait.group
// LOWER:      nvvm.wgmma.wait.group.sync.aligned 0
// LOWER:      nvvm.mbarrier.arrive
// LOWER:      nvvm.mbarrier.arrive
// LOWER-NEXT: }
// LOWER-NEXT: scf.yield
// The tail epilogue needs no wait of its own.
// LOWER-NOT:  nvvm.wgmma.wait.group
// LOWER:      gpu.return

// With no wgmma in flight allowed, every wgmma is waited for at once.
// RUN: cake-opt --cake-overlap-epilogue --cake-derive --convert-cake-to-nvvm="mma-in-flight=0" %s | FileCheck %s --check-prefix=EAGER
// EAGER:      scf.for {{.*}} iter_args
// EAGER:      nvvm.wgmma.commit.group.sync.aligned
// EAGER-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// EAGER:      nvvm.wgmma.commit.group.sync.aligned
// EAGER-NEXT: nvvm.wgmma.wait.group.sync.aligned 0

// The cost model runs the guarded epilogue's ALU work beside the wgmmas
// (the role's path is no longer mma + alu) and holds the stages through
// the epilogue (a longer round trip per step than without the tactic).
// RUN: cake-opt --cake-cost="shapes=1048576x128,1024x128,1024,1048576" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST-SERIAL
// RUN: cake-opt --cake-overlap-epilogue --cake-cost="shapes=1048576x128,1024x128,1024,1048576" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST
// COST-SERIAL: pipe #1: 4 stages (4 filled ahead), 16 steps per tile of 16.4 KB, round trip [[SERIAL:[0-9]+]] ns per step
// COST:        pipe #1: 4 stages (4 filled ahead), 16 steps per tile of 16.4 KB, round trip {{[0-9.]+}} us per step

// of examples/kmeans_assign.cake.mlir for f16, D = 128.
cake.kernel @kmeans_serial(%X: !cake.global<?x128xf16>, %Cent: !cake.global<?x128xf16>,
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
      %res:2 = scf.for %n = %c0 to %K step %c128
          iter_args(%best = %best0, %idx = %idx0)
          -> (!cake.frag<128x1xf32>, !cake.frag<128x1xi32>) {
        %a0 = cake.frag.zero : !cake.frag<128x128xf32>
        %t0 = cake.pipe.wait %pc : !cake.pipe<4>
        %a1 = cake.mma wgmma %x[%sx0], %c[%t0], %a0
          : !cake.ring<2 x 128x64xf16, swizzle = 128>, !cake.ring<4 x 128x64xf16, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %pc, %t0 : !cake.pipe<4>
        %t1 = cake.pipe.wait %pc : !cake.pipe<4>
        %a2 = cake.mma wgmma %x[%sx1], %c[%t1], %a1
          : !cake.ring<2 x 128x64xf16, swizzle = 128>, !cake.ring<4 x 128x64xf16, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %pc, %t1 : !cake.pipe<4>
        %cn = cake.load %Cn[%n] pad %inf : !cake.global<?xf32> -> !cake.frag<1x128xf32>
        %dist = cake.frag.map %a2, %cn
            : (!cake.frag<128x128xf32>, !cake.frag<1x128xf32>) -> !cake.frag<128x128xf32> {
        ^bb0(%xc: f32, %c2: f32):
          %two = arith.constant 2.0 : f32
          %t = arith.mulf %xc, %two : f32
          %dd = arith.subf %c2, %t : f32
          cake.frag.yield %dd : f32
        }
        %v, %i = cake.frag.argmin %dist base %n
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
        scf.yield %nb#0, %nb#1 : !cake.frag<128x1xf32>, !cake.frag<128x1xi32>
      }
      cake.pipe.release %px, %sx0 : !cake.pipe<2>
      cake.pipe.release %px, %sx1 : !cake.pipe<2>
      cake.store %res#1 -> %Out[%m] : !cake.frag<128x1xi32> -> !cake.global<?xi32>
    }
  }
}
