// sync.multicast-uniform: the CTAs of a cluster differ only in their tile
// row (%m), so a multicast copy's box and the hand-offs on its pipe must
// not depend on it. The near miss is the cluster GEMM
// (examples/gemm-variants/gemm_128x256x64_s4_c2.cake.mlir: B multicast at
// [%n, %k], every hand-off under loops over K).
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics
// RUN: cake-opt --cake-verify %cake_src/examples/gemm-variants/gemm_128x256x64_s4_c2.cake.mlir -o /dev/null

// A multicast of A, whose tile differs between the CTAs of the cluster.
cake.kernel @multicast_a(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, cluster = 2 : i64,
                schedule = #cake.persistent<tile = [128, 128], group_m = 1>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      // expected-error @+1 {{[sync.multicast-uniform] coordinate #0 of a multicast copy in role "load" depends on the tile row, which differs between the CTAs of the cluster; every CTA must load the same box (multicast the operand the cluster's tiles share)}}
      cake.tma.load %A[%m, %c0] -> %a[%s] multicast : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// -----

// A K loop whose length depends on the tile row (a causal bound): one CTA
// of the cluster would stop handing off stages its peer still waits for.
cake.kernel @row_dependent_loop(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, cluster = 2 : i64,
                schedule = #cake.persistent<tile = [128, 128], group_m = 1>} {
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %m step %c64 {
        // expected-error @+1 {{[sync.multicast-uniform] 'cake.pipe.acquire' on pipe #0 in role "load" runs under 'scf.for', whose bound or condition depends on the tile row: the CTAs of the cluster would hand off different stages of a pipe they fill and release together}}
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        // %k steps to the row's bound: the copies' boxes differ too.
        // expected-error @+1 {{[sync.multicast-uniform] coordinate #1 of a multicast copy in role "load" depends on the tile row}}
        cake.tma.load %B[%n, %k] -> %b[%s] multicast : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        // expected-error @+1 {{[sync.multicast-uniform] 'cake.pipe.commit' on pipe #0}}
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "use" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %m step %c64 {
        // expected-error @+1 {{[sync.multicast-uniform] 'cake.pipe.wait' on pipe #0 in role "use"}}
        %s = cake.pipe.wait %p : !cake.pipe<2>
        // expected-error @+1 {{[sync.multicast-uniform] 'cake.pipe.release' on pipe #0 in role "use"}}
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
    }
  }
}

// -----

// Near miss: the same loop bounded by the tile column, which the CTAs of
// a cluster share, verifies.
cake.kernel @column_dependent_loop(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, cluster = 2 : i64,
                schedule = #cake.persistent<tile = [128, 128], group_m = 1>} {
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %n step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %B[%n, %k] -> %b[%s] multicast : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "use" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %n step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
    }
  }
}
