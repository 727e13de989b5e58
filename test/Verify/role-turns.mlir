// sync.role-turn (cake-verify on kernels with cake.role_turns): roles that
// take turns over their tiles' main loops are named roles, each with one
// tile loop taking its slice and a cake.mma to take turns over, and a turn
// waits only on pipes whose filling role hands off with no other turn role.
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics

// Near miss: each turn waits only on its own pipe, filled by its own warp
// (the form of examples/gemm-variants/gemm_pp_128x128x64_s3).
cake.kernel @own_fillers(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>,
                cake.role_turns = ["mma", "mma_1"]} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b0 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0, %b0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b1 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1, %b1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s0 = cake.pipe.acquire %p0 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p0, %s0 : !cake.pipe<2>
      }
    }
  }
  cake.role "load_1" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s1 = cake.pipe.acquire %p1 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p1, %s1 : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p0 : !cake.pipe<2>
        %r = cake.mma wgmma %a0[%s], %b0[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p0, %s : !cake.pipe<2>
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
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p1 : !cake.pipe<2>
        %r = cake.mma wgmma %a1[%s], %b1[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p1, %s : !cake.pipe<2>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// -----

// One warp fills both turns' pipes, every tile: while "mma" holds its
// turn the warp can block on a stage of %p1 that "mma_1" frees only in its
// own turn, and "mma" waits for a stage of %p0 the warp never gets to.
// (The slices reject the kernel too: the warp's tiles are not the
// consumers'. A filling role shared by two turns has no legal form today;
// the rule keeps it so should one appear.)
cake.kernel @shared_filler(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>,
                cake.role_turns = ["mma", "mma_1"]} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b0 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  // expected-error@+2 {{[sync.trip-count-mismatch] role "mma" waits}}
  // expected-note@+1 {{hint: both roles must run the same loops}}
  %p0 = cake.pipe %a0, %b0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b1 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  // expected-error@+2 {{[sync.trip-count-mismatch] role "mma_1" waits}}
  // expected-note@+1 {{hint: both roles must run the same loops}}
  %p1 = cake.pipe %a1, %b1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  // expected-note@+2 {{hint: give each turn role its own filling role}}
  // expected-note@+1 {{producer role "load"}}
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s0 = cake.pipe.acquire %p0 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p0, %s0 : !cake.pipe<2>
        %s1 = cake.pipe.acquire %p1 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p1, %s1 : !cake.pipe<2>
      }
    }
  }
  // expected-error@+2 {{[sync.tiles-mismatch] role "mma" takes slice 0 of 2}}
  // expected-note@+1 {{consumer role "mma"}}
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        // expected-error@+1 {{[sync.role-turn] role "mma" waits on pipe #0 inside its turn (cake.role_turns), filled by role "load", which also hands off pipe #1 with role "mma_1": it can block on that pipe while role "mma_1" waits for this turn to end, and the CTA hangs}}
        %s = cake.pipe.wait %p0 : !cake.pipe<2>
        %r = cake.mma wgmma %a0[%s], %b0[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p0, %s : !cake.pipe<2>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
  // expected-error@+2 {{[sync.tiles-mismatch] role "mma_1" takes slice 1 of 2}}
  // expected-note@+1 {{consumer role "mma_1"}}
  cake.role "mma_1" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        // expected-error@+1 {{[sync.role-turn] role "mma_1" waits on pipe #1 inside its turn (cake.role_turns), filled by role "load", which also hands off pipe #0 with role "mma": it can block on that pipe while role "mma" waits for this turn to end, and the CTA hangs}}
        %s = cake.pipe.wait %p1 : !cake.pipe<2>
        %r = cake.mma wgmma %a1[%s], %b1[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p1, %s : !cake.pipe<2>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// -----

// The turns name a role the kernel does not have.
// expected-error@+1 {{[sync.role-turn] cake.role_turns names "mma_2", which is not a role of the kernel}}
cake.kernel @unknown_role(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>,
                cake.role_turns = ["mma", "mma_2"]} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b0 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0, %b0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b1 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1, %b1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s0 = cake.pipe.acquire %p0 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p0, %s0 : !cake.pipe<2>
      }
    }
  }
  cake.role "load_1" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s1 = cake.pipe.acquire %p1 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p1, %s1 : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p0 : !cake.pipe<2>
        %r = cake.mma wgmma %a0[%s], %b0[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p0, %s : !cake.pipe<2>
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
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p1 : !cake.pipe<2>
        %r = cake.mma wgmma %a1[%s], %b1[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p1, %s : !cake.pipe<2>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// -----

// One role takes no turns.
// expected-error@+1 {{[sync.role-turn] cake.role_turns must name two or more roles, in turn order (an array of strings)}}
cake.kernel @one_role(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>,
                cake.role_turns = ["mma"]} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b0 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0, %b0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b1 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1, %b1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s0 = cake.pipe.acquire %p0 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p0, %s0 : !cake.pipe<2>
      }
    }
  }
  cake.role "load_1" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s1 = cake.pipe.acquire %p1 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p1, %s1 : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p0 : !cake.pipe<2>
        %r = cake.mma wgmma %a0[%s], %b0[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p0, %s : !cake.pipe<2>
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
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p1 : !cake.pipe<2>
        %r = cake.mma wgmma %a1[%s], %b1[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p1, %s : !cake.pipe<2>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// -----

// Turn i must take slice i: named in the other order, the turns would
// wait for tiles in an order the slices do not run them.
cake.kernel @out_of_order(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>,
                cake.role_turns = ["mma_1", "mma"]} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b0 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0, %b0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b1 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1, %b1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s0 = cake.pipe.acquire %p0 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p0, %s0 : !cake.pipe<2>
      }
    }
  }
  cake.role "load_1" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s1 = cake.pipe.acquire %p1 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p1, %s1 : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    // expected-error@+2 {{[sync.role-turn] role "mma" is turn 1 of 2 (cake.role_turns) but its tile loop takes slice 0 of 2: the turns alternate over the CTA's tiles only if turn i takes their slice i}}
    // expected-note@+1 {{hint: slice 1 of 2}}
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p0 : !cake.pipe<2>
        %r = cake.mma wgmma %a0[%s], %b0[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p0, %s : !cake.pipe<2>
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
    %c64 = arith.constant 64 : index
    // expected-error@+2 {{[sync.role-turn] role "mma_1" is turn 0 of 2 (cake.role_turns) but its tile loop takes slice 1 of 2}}
    // expected-note@+1 {{hint: slice 0 of 2}}
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p1 : !cake.pipe<2>
        %r = cake.mma wgmma %a1[%s], %b1[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p1, %s : !cake.pipe<2>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// -----

// A turn role without a wgmma has no main loop to take turns over.
cake.kernel @no_mma(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>,
                cake.role_turns = ["mma", "mma_1"]} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b0 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0, %b0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b1 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1, %b1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s0 = cake.pipe.acquire %p0 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p0, %s0 : !cake.pipe<2>
      }
    }
  }
  cake.role "load_1" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s1 = cake.pipe.acquire %p1 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p1, %s1 : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p0 : !cake.pipe<2>
        %r = cake.mma wgmma %a0[%s], %b0[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p0, %s : !cake.pipe<2>
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
    %c64 = arith.constant 64 : index
    // expected-error@+1 {{[sync.role-turn] role "mma_1" takes turns (cake.role_turns) but its tile loop issues no cake.mma to take them over}}
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p1 : !cake.pipe<2>
        cake.pipe.release %p1, %s : !cake.pipe<2>
        scf.yield %acc0 : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// -----

// A named barrier both turns pass inside their turns: the one holding
// the turn waits there for the other, which waits for the turn. (The
// slices make the passes unequal as well, sync.named-barrier.)
cake.kernel @barrier_in_turns(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>,
                cake.role_turns = ["mma", "mma_1"]} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b0 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0, %b0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b1 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1, %b1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s0 = cake.pipe.acquire %p0 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p0, %s0 : !cake.pipe<2>
      }
    }
  }
  cake.role "load_1" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s1 = cake.pipe.acquire %p1 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p1, %s1 : !cake.pipe<2>
      }
    }
  }
  // expected-note@+1 {{the other role}}
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p0 : !cake.pipe<2>
        // expected-error@+1 {{[sync.role-turn] role "mma" passes named barrier 3 inside its turn (cake.role_turns) with role "mma_1", which reaches it only in its own turn}}
        cake.barrier.sync id(3) threads(256)
        %r = cake.mma wgmma %a0[%s], %b0[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p0, %s : !cake.pipe<2>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
  // expected-error@+1 {{[sync.named-barrier] role "mma_1" passes named barrier 3}}
  cake.role "mma_1" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p1 : !cake.pipe<2>
        // expected-error@+1 {{[sync.role-turn] role "mma_1" passes named barrier 3 inside its turn (cake.role_turns) with role "mma", which reaches it only in its own turn}}
        cake.barrier.sync id(3) threads(256)
        %r = cake.mma wgmma %a1[%s], %b1[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p1, %s : !cake.pipe<2>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// -----

// The kernel's own barrier 14 leaves the turns ids 15 and 16: a CTA has
// 16 (0..15).
// expected-error@+1 {{[sync.role-turn] the 2 role turns (cake.role_turns) need named barriers 15..16, past the 16 of a CTA on sm_90a}}
cake.kernel @too_many_barriers(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>,
                cake.role_turns = ["mma", "mma_1"]} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b0 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0, %b0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b1 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1, %b1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      cake.barrier.sync id(14) threads(32)
      scf.for %k = %c0 to %K step %c64 {
        %s0 = cake.pipe.acquire %p0 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b0[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p0, %s0 : !cake.pipe<2>
      }
    }
  }
  cake.role "load_1" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      scf.for %k = %c0 to %K step %c64 {
        %s1 = cake.pipe.acquire %p1 : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b1[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p1, %s1 : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p0 : !cake.pipe<2>
        %r = cake.mma wgmma %a0[%s], %b0[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p0, %s : !cake.pipe<2>
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
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p1 : !cake.pipe<2>
        %r = cake.mma wgmma %a1[%s], %b1[%s], %acc0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p1, %s : !cake.pipe<2>
        scf.yield %r : !cake.frag<64x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}
