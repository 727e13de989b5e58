// sync.dealt-pipe (cake-verify): a pipe of several consumer roles is dealt
// by tiles. Its one producer walks all of the CTA's tiles; consumer k takes
// slice k of n, in turn k (cake.role_turns), with its waits in one loop
// directly in its tile loop whose bounds come from outside it; per tile,
// each consumer waits as often as the producer commits.
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics

// -----

// Near miss: one filling warp, one ring dealt to two consumers in turns
// (the form of examples/gemm-variants/gemm_pp_dealt_128x128x64_s6).
cake.kernel @dealt(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>,
                cake.role_turns = ["mma", "mma_1"]} {
  %a = cake.ring : !cake.ring<4 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0 : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
  cake.role "mma_1" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0 : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// -----

// Without turns a consumer could run two phases ahead of the producer.
cake.kernel @dealt_no_turns(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>} {
  %a = cake.ring : !cake.ring<4 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }
  // expected-error @+1 {{[sync.dealt-pipe] role "mma" takes slice 0 of dealt pipe #0's tiles but not turn 0 (cake.role_turns)}}
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0 : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
  // expected-error @+1 {{[sync.dealt-pipe] role "mma_1" takes slice 1 of dealt pipe #0's tiles but not turn 1}}
  cake.role "mma_1" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0 : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// -----

// Two consumers on the same slice deal nothing.
cake.kernel @same_slice(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>} {
  %a = cake.ring : !cake.ring<4 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  // expected-error @+1 {{[sync.dealt-pipe] pipe #0 has 2 consumer roles; several consumers share a pipe only as a dealt pipe, each in one tile loop on its own slice k of n = 2 of the CTA's tiles}}
  %p = cake.pipe %a, %b : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }
  // expected-note @+1 {{consumer role "mma" takes slice 0 of 2}}
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0 : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
  // expected-note @+1 {{consumer role "mma_1" takes slice 0 of 2}}
  cake.role "mma_1" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0 : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// -----

// The producer must fill every slice's tiles.
cake.kernel @producer_slice(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>,
                cake.role_turns = ["mma", "mma_1"]} {
  %a = cake.ring : !cake.ring<4 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>
  // expected-error @+1 {{[sync.dealt-pipe] role "load" fills dealt pipe #0 but does not walk all of the CTA's tiles in one tile loop}}
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0 : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
  cake.role "mma_1" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0 : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// -----

// The consumers skip a tile's count of stages: the waits must sit in one
// loop directly in the tile loop.
cake.kernel @nested_loop(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>,
                cake.role_turns = ["mma", "mma_1"]} {
  %a = cake.ring : !cake.ring<4 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0 : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
  cake.role "mma_1" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %r0 = %c0 to %c1 step %c1 iter_args(%accr = %zero) -> (!cake.frag<64x128xf32>) {
        %acc1 = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %accr) -> (!cake.frag<64x128xf32>) {
          // expected-error @+1 {{[sync.dealt-pipe] role "mma_1" hands off dealt pipe #0, but its hand-offs on the pipe are not all in one scf.for directly in its tile loop}}
          %s = cake.pipe.wait %p : !cake.pipe<4>
          %r = cake.mma wgmma %a[%s], %b[%s], %acc0 : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
          cake.pipe.release %p, %s : !cake.pipe<4>
          scf.yield %r : !cake.frag<64x128xf32>
        }
        scf.yield %acc1 : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// -----

// Per tile, each consumer waits as often as the producer commits.
cake.kernel @dealt_counts(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>,
                cake.role_turns = ["mma", "mma_1"]} {
  %a = cake.ring : !cake.ring<4 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  // expected-error @+1 {{[sync.trip-count-mismatch] role "mma_1" waits trip(c0..dim(arg0,1) by c128) times a tile on dealt pipe #0 but role "load" commits trip(c0..dim(arg0,1) by c64) times}}
  %p = cake.pipe %a, %b : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>
  // expected-note @+1 {{producer role "load"}}
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0 : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
  // expected-note @+1 {{consumer role "mma_1"}}
  cake.role "mma_1" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c128 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0 : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}


// -----

// A consumer whose waits lie outside its turn: its hand-off loop issues no
// cake.mma (it reduces the stages), so cake.role_turns, which spans the
// ops that issue them, does not cover it, and the next consumer could pass
// a stage by parity two phases early. (Without a cake.mma in the tile body
// sync.role-turn rejects the turns too.)
cake.kernel @dealt_wait_outside_turn(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>,
                cake.role_turns = ["mma", "mma_1"]} {
  %a = cake.ring : !cake.ring<4 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    // expected-error @+1 {{[sync.role-turn] role "mma" takes turns (cake.role_turns) but its tile loop issues no cake.mma to take them over}}
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      // expected-error @+1 {{[sync.dealt-pipe] role "mma" waits on dealt pipe #0 outside its turn (cake.role_turns spans the tile body's ops from the first that issues a cake.mma to the last)}}
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %norms = cake.smem.reduce sum squared %a[%s] : !cake.ring<4 x 64x64xbf16, swizzle = 128> -> !cake.frag<1x64xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
      }
      %acc = cake.frag.zero : !cake.frag<64x128xf32>
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
  cake.role "mma_1" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    // expected-error @+1 {{[sync.role-turn] role "mma_1" takes turns (cake.role_turns) but its tile loop issues no cake.mma to take them over}}
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      // expected-error @+1 {{[sync.dealt-pipe] role "mma_1" waits on dealt pipe #0 outside its turn (cake.role_turns spans the tile body's ops from the first that issues a cake.mma to the last)}}
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %norms = cake.smem.reduce sum squared %a[%s] : !cake.ring<4 x 64x64xbf16, swizzle = 128> -> !cake.frag<1x64xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
      }
      %acc = cake.frag.zero : !cake.frag<64x128xf32>
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}
