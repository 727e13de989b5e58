// The tactics: each rewrites one decision; op verifiers and cake-verify
// judge the result.
// RUN: %cake_bin/cake-opt %s --cake-set-stages="pipe=0 stages=3" | FileCheck %s
// RUN: %cake_bin/cake-opt %s --cake-set-raster="group-m=16" --cake-set-regs="role=mma regs=224" | FileCheck %s --check-prefix=RASTER
// RUN: %cake_bin/cake-opt %s --cake-set-regs="role=load regs=0" | FileCheck %s --check-prefix=NOREGS
// RUN: %cake_bin/cake-opt %s --cake-set-schedule="kind=grid" | FileCheck %s --check-prefix=GRID
// RUN: %cake_bin/cake-opt %s --cake-set-schedule="kind=grid" --cake-set-schedule="kind=persistent" | FileCheck %s --check-prefix=PERSISTENT
// RUN: not %cake_bin/cake-opt %s --cake-set-stages="pipe=0 stages=6" --cake-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOODEEP
// RUN: not %cake_bin/cake-opt %s --cake-set-stages="pipe=1 stages=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPIPE
// RUN: not %cake_bin/cake-opt %s --cake-set-swizzle="ring=1 swizzle=64" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SWIZZLE
// RUN: not %cake_bin/cake-opt %s --cake-set-regs="role=mma regs=248" --cake-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGS
// RUN: not %cake_bin/cake-opt %s --cake-set-regs="role=nobody regs=40" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOROLE
// RUN: not %cake_bin/cake-opt %s --cake-set-schedule="kind=grid" --cake-set-raster="group-m=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RASTERGRID
// RUN: %cake_bin/cake-opt %s --cake-set-schedule="kind=grid" --cake-set-schedule="kind=persistent group-m=16" | FileCheck %s --check-prefix=SCHEDGROUP
// RUN: not %cake_bin/cake-opt %s --cake-set-schedule="kind=grid group-m=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GRIDGROUP
// RUN: %cake_bin/cake-opt %s --cake-set-tile="m=256 n=128" --cake-set-regs="role=mma regs=104" --cake-verify | FileCheck %s --check-prefix=TILE
// RUN: not %cake_bin/cake-opt %s --cake-set-tile="m=96" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILE96
// RUN: not %cake_bin/cake-opt %s --cake-set-tile="m=256 n=128" --cake-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILEREGS

// CHECK: cake.ring : !cake.ring<3 x 128x64xbf16, swizzle = 128>
// CHECK: cake.ring : !cake.ring<3 x 256x64xbf16, swizzle = 128>
// CHECK: cake.pipe.acquire %{{.*}} : !cake.pipe<3>
// CHECK: cake.pipe.wait %{{.*}} : !cake.pipe<3>
// RASTER: schedule = #cake.persistent<tile = [128, 256], group_m = 16>
// RASTER: cake.role "mma" warpgroups(2) regs(224)
// NOREGS: cake.role "load" warpgroups(1) {
// GRID: schedule = #cake.grid<tile = [128, 256]>
// PERSISTENT: schedule = #cake.persistent<tile = [128, 256], group_m = 1>
// SCHEDGROUP: schedule = #cake.persistent<tile = [128, 256], group_m = 16>
// GRIDGROUP: error: cake-set-schedule: group-m applies to a persistent schedule
// TOODEEP: error: [resource.smem-capacity] barriers and rings need 296960 bytes
// NOPIPE: error: cake-set-stages: the kernel has 1 pipes, no pipe #1
// SWIZZLE: 53:8: error: [hw.tma-box] the tile's inner dimension spans 128 bytes, more than the 64-byte swizzle span
// REGS: error: [resource.register-budget] the roles' register budgets add up to 68608 registers
// NOROLE: error: cake-set-regs: no role named "nobody"
// RASTERGRID: error: cake-set-raster: the raster order is a persistent schedule's; this kernel has a grid schedule
// The tile follows into the rings its coordinates index, the fragments
// and the mma role's warpgroups.
// TILE: schedule = #cake.persistent<tile = [256, 128], group_m = 8>
// TILE: cake.ring : !cake.ring<4 x 256x64xbf16, swizzle = 128>
// TILE: cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
// TILE: cake.role "mma" warpgroups(4) regs(104)
// TILE: cake.frag.zero : !cake.frag<256x128xf32>
// TILE: cake.frag.convert %{{.*}} : !cake.frag<256x128xf32> -> !cake.frag<256x128xbf16>
// TILE96: error: cake-set-tile: m must be a multiple of 64 (one mma warpgroup per 64 rows), got 96
// Four warpgroups at the old budget do not fit the CTA's registers.
// TILEREGS: error: [resource.register-budget]
cake.kernel @gemm(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                  %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 256], group_m = 8>} {
  %a = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 256x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<4 x 256x64xbf16, swizzle = 128>
  cake.role "load" warpgroups(1) regs(40) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<4 x 256x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }
  cake.role "mma" warpgroups(2) regs(232) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %zero = cake.frag.zero : !cake.frag<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero)
          -> (!cake.frag<128x256xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0
          : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
            !cake.ring<4 x 256x64xbf16, swizzle = 128>, !cake.frag<128x256xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<128x256xf32>
      }
      %out = cake.frag.convert %acc
        : !cake.frag<128x256xf32> -> !cake.frag<128x256xbf16>
      cake.store %out -> %C[%m, %n]
        : !cake.frag<128x256xbf16> -> !cake.global<?x?xbf16>
    }
  }
}
