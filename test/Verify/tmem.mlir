// cake-verify on tensor memory (sm_100a): resource.tmem-capacity,
// hw.arch-feature, hw.warpgroup-alignment for tmem.load and tmem.store,
// the stage rules for tmem.mma (A from a ring or from tensor memory),
// tmem.load and tmem.store, sync.tcgen05-issuer, the fragments
// tcgen05.ld makes (dataflow.fragment-layout), and what cake-lower does
// not lower on sm_100a (hw.arch-feature). Each near miss passes every
// rule: the shipped example, and the kernels below without a diagnostic.
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics
// RUN: cake-opt --cake-verify %cake_src/examples/blackwell/gemm_tcgen05.cake.mlir -o /dev/null
// RUN: cake-opt --cake-verify %cake_src/examples/blackwell/mlp_tcgen05.cake.mlir -o /dev/null

// -----

// 128 + 160 columns round up to an allocation of 512: two CTAs an SM
// would need 1024.
// expected-error @+1 {{[resource.tmem-capacity] the CTA allocates 512 columns of tensor memory (288 used, rounded up to a power of two), times cake.ctas_per_sm = 2 makes 1024, more than the 512 an SM of sm_100a has}}
cake.kernel @two_ctas(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                     %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_100a">,
                 schedule = #cake.grid<tile = [128, 128]>,
                 cake.ctas_per_sm = 2} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<2 x 128x64xbf16, swizzle = 128>
  // expected-note @+1 {{tensor memory of 128 columns at column 0}}
  %acc = cake.tmem : !cake.tmem<1 x 128x128xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x128xf32>
  // expected-note @+1 {{tensor memory of 160 columns at column 128}}
  %x = cake.tmem : !cake.tmem<1 x 128x160xf32>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        %more = arith.cmpi ne, %k, %c0 : index
        cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %more
          : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.tmem<1 x 128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
      cake.pipe.commit %ap, %t : !cake.pipe<1>
    }
  }
  cake.role "epilogue" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %ap : !cake.pipe<1>
      scf.for %c = %c0 to %c128 step %c32 {
        %f = cake.tmem.load %acc[%t] columns %c
          : !cake.tmem<1 x 128x128xf32> -> !cake.frag<128x32xf32>
        %nc = arith.addi %n, %c : index
        cake.store %f -> %C[%m, %nc]
          : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
      }
      cake.pipe.release %ap, %t : !cake.pipe<1>
    }
  }
}

// -----

// The near miss: 128 + 96 columns, an allocation of 256, two CTAs an SM.
cake.kernel @two_ctas_fit(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                     %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_100a">,
                 schedule = #cake.grid<tile = [128, 128]>,
                 cake.ctas_per_sm = 2} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<1 x 128x128xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x128xf32>
  %x = cake.tmem : !cake.tmem<1 x 128x96xf32>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        %more = arith.cmpi ne, %k, %c0 : index
        cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %more
          : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.tmem<1 x 128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
      cake.pipe.commit %ap, %t : !cake.pipe<1>
    }
  }
  cake.role "epilogue" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %ap : !cake.pipe<1>
      scf.for %c = %c0 to %c128 step %c32 {
        %f = cake.tmem.load %acc[%t] columns %c
          : !cake.tmem<1 x 128x128xf32> -> !cake.frag<128x32xf32>
        %nc = arith.addi %n, %c : index
        cake.store %f -> %C[%m, %nc]
          : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
      }
      cake.pipe.release %ap, %t : !cake.pipe<1>
    }
  }
}

// -----

// Hopper has no tensor memory.
cake.kernel @hopper(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                     %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_90a">,
                 schedule = #cake.grid<tile = [128, 128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<2 x 128x64xbf16, swizzle = 128>
  // expected-error @+1 {{[hw.arch-feature] 'cake.tmem' needs tensor memory and tcgen05 (sm_100a); the kernel targets sm_90a}}
  %acc = cake.tmem : !cake.tmem<1 x 128x128xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x128xf32>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        %more = arith.cmpi ne, %k, %c0 : index
        // expected-error @+1 {{[hw.arch-feature] 'cake.tmem.mma' needs tensor memory and tcgen05 (sm_100a); the kernel targets sm_90a}}
        cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %more
          : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.tmem<1 x 128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
      cake.pipe.commit %ap, %t : !cake.pipe<1>
    }
  }
  cake.role "epilogue" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %ap : !cake.pipe<1>
      scf.for %c = %c0 to %c128 step %c32 {
        // expected-error @+1 {{[hw.arch-feature] 'cake.tmem.load' needs tensor memory and tcgen05 (sm_100a); the kernel targets sm_90a}}
        %f = cake.tmem.load %acc[%t] columns %c
          : !cake.tmem<1 x 128x128xf32> -> !cake.frag<128x32xf32>
        %nc = arith.addi %n, %c : index
        cake.store %f -> %C[%m, %nc]
          : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
      }
      cake.pipe.release %ap, %t : !cake.pipe<1>
    }
  }
}

// -----

// Four warps that are not a warpgroups(1) role: each warp reads its
// quarter's lanes, and a warps(n) role need not start at a multiple of 4.
cake.kernel @warps_role(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                     %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_100a">,
                 schedule = #cake.grid<tile = [128, 128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<1 x 128x128xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x128xf32>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        %more = arith.cmpi ne, %k, %c0 : index
        cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %more
          : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.tmem<1 x 128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
      cake.pipe.commit %ap, %t : !cake.pipe<1>
    }
  }
  cake.role "epilogue" warps(4) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %ap : !cake.pipe<1>
      scf.for %c = %c0 to %c128 step %c32 {
        // expected-error @+1 {{[hw.warpgroup-alignment] 'cake.tmem.load' in role "epilogue", which is not a warpgroups(1) role: each warp reads the 32 lanes of its quarter of tensor memory}}
        %f = cake.tmem.load %acc[%t] columns %c
          : !cake.tmem<1 x 128x128xf32> -> !cake.frag<128x32xf32>
        %nc = arith.addi %n, %c : index
        cake.store %f -> %C[%m, %nc]
          : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
      }
      cake.pipe.release %ap, %t : !cake.pipe<1>
    }
  }
}

// -----

// tmem.mma writes the accumulator through the ring pipe's stage.
cake.kernel @mma_stage(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                     %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_100a">,
                 schedule = #cake.grid<tile = [128, 128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<1 x 128x128xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x128xf32>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      scf.for %k = %c0 to %K step %c64 {
        // expected-note @+1 {{stage taken here}}
        %s = cake.pipe.wait %p : !cake.pipe<2>
        %more = arith.cmpi ne, %k, %c0 : index
        // expected-error @+1 {{[dataflow.write-outside-acquire] writes tensor memory through a stage not taken with pipe.acquire}}
        cake.tmem.mma %a[%s], %b[%s], %acc[%s] accumulate %more
          : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.tmem<1 x 128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
      cake.pipe.commit %ap, %t : !cake.pipe<1>
    }
  }
  cake.role "epilogue" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %ap : !cake.pipe<1>
      scf.for %c = %c0 to %c128 step %c32 {
        %f = cake.tmem.load %acc[%t] columns %c
          : !cake.tmem<1 x 128x128xf32> -> !cake.frag<128x32xf32>
        %nc = arith.addi %n, %c : index
        cake.store %f -> %C[%m, %nc]
          : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
      }
      cake.pipe.release %ap, %t : !cake.pipe<1>
    }
  }
}

// -----

// A role that issues tcgen05.mma and also computes in registers.
cake.kernel @issuer(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                     %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_100a">,
                 schedule = #cake.grid<tile = [128, 128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<1 x 128x128xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x128xf32>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  // expected-note @+1 {{hint: move the register work to a role of its own}}
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        %more = arith.cmpi ne, %k, %c0 : index
        // expected-error @+1 {{[sync.tcgen05-issuer] cake.tmem.mma in role "mma", whose every thread runs: one thread issues the MMAs and the tcgen05.commit that releases their stages}}
        cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %more
          : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.tmem<1 x 128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
      cake.pipe.commit %ap, %t : !cake.pipe<1>
      // expected-note @+1 {{'cake.frag.zero' runs on every thread of the role}}
      %z = cake.frag.zero : !cake.frag<1x8xf32>
    }
  }
  cake.role "epilogue" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %ap : !cake.pipe<1>
      scf.for %c = %c0 to %c128 step %c32 {
        %f = cake.tmem.load %acc[%t] columns %c
          : !cake.tmem<1 x 128x128xf32> -> !cake.frag<128x32xf32>
        %nc = arith.addi %n, %c : index
        cake.store %f -> %C[%m, %nc]
          : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
      }
      cake.pipe.release %ap, %t : !cake.pipe<1>
    }
  }
}

// -----

// A warpgroup that reads tensor memory holds its fragments a row a
// thread; a packed argmin is lowered for the wgmma layout only. The near
// misses: examples/blackwell/kmeans_assign_tcgen05 (maps, an exact argmin,
// a line of Cn, a row of indices) and the kernel after this one.
cake.kernel @lane_map(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                     %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_100a">,
                 schedule = #cake.grid<tile = [128, 128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<1 x 128x128xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x128xf32>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        %more = arith.cmpi ne, %k, %c0 : index
        cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %more
          : !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.ring<2 x 128x64xbf16, swizzle = 128>,
            !cake.tmem<1 x 128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
      cake.pipe.commit %ap, %t : !cake.pipe<1>
    }
  }
  cake.role "epilogue" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %ap : !cake.pipe<1>
      scf.for %c = %c0 to %c128 step %c32 {
        %f = cake.tmem.load %acc[%t] columns %c
          : !cake.tmem<1 x 128x128xf32> -> !cake.frag<128x32xf32>
        // expected-note @+1 {{the fragment defined here}}
        %g = cake.frag.map %f : (!cake.frag<128x32xf32>) -> !cake.frag<128x32xf32> {
        ^bb0(%x: f32):
          cake.frag.yield %x : f32
        }
        %nc = arith.addi %n, %c : index
        cake.store %g -> %C[%m, %nc]
          : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
        // expected-error @+1 {{[dataflow.fragment-layout] fragment 128x32 of role "epilogue" is held a row a thread (tcgen05.ld's layout), which tmem.load, loads of lines, maps, exact argmins, float reductions, stores, tmem.store and converts take; 'cake.frag.argmin' is not lowered for it}}
        %v, %i = cake.frag.argmin %g base %nc packed
          : !cake.frag<128x32xf32> -> !cake.frag<128x1xf32>, !cake.frag<128x1xi32>
        %r = cake.frag.reduce max %g : !cake.frag<128x32xf32> -> !cake.frag<128x1xf32>
        %row = cake.frag.iota base %nc : !cake.frag<128x1xi32>
        // expected-error @+1 {{[dataflow.fragment-layout] fragment 64x32 has no register layout in role "epilogue", which reads tensor memory and holds a row a thread (tcgen05.ld's layout): expected 128xN, 128x1 or 1xN, N a multiple of 8}}
        %half = cake.frag.zero : !cake.frag<64x32xf32>
        // expected-error @+1 {{[dataflow.fragment-layout] fragment 128x32 of role "epilogue" is held a row a thread (tcgen05.ld's layout), which tmem.load, loads of lines, maps, exact argmins, float reductions, stores, tmem.store and converts take; 'cake.load' is not lowered for it}}
        %tile = cake.load %C[%m, %nc] : !cake.global<?x?xf32> -> !cake.frag<128x32xf32>
        %line = cake.load %C[%m, %nc] : !cake.global<?x?xf32> -> !cake.frag<1x32xf32>
      }
      cake.pipe.release %ap, %t : !cake.pipe<1>
    }
  }
}

// -----

// cake.mma's tcgen05 kind (a register accumulator) has no lowering; the
// near miss is cake.tmem.mma (the example).
cake.kernel @mma_kind(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    cake.tiles (%m) in (%n) {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "mma" warpgroups(2) {
    cake.tiles (%m) in (%n) {
      %z = cake.frag.zero : !cake.frag<128x128xf32>
      %s = cake.pipe.wait %p : !cake.pipe<2>
      // expected-error @+1 {{[hw.arch-feature] cake-lower has no lowering of cake.mma tcgen05; on sm_100a, accumulate in tensor memory with cake.tmem.mma}}
      %r = cake.mma tcgen05 %a[%s], %a[%s], %z : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// -----

// A 32-column bf16 tile under the 128-byte swizzle: its rows are not one swizzle atom.
cake.kernel @rows_narrower_than_swizzle(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                     %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_100a">,
                 schedule = #cake.grid<tile = [128, 128]>} {
  %a = cake.ring : !cake.ring<2 x 128x32xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x32xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x32xbf16, swizzle = 128>,
                          !cake.ring<2 x 128x32xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<1 x 128x128xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x128xf32>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c32 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x32xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x32xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      scf.for %k = %c0 to %K step %c32 {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        %more = arith.cmpi ne, %k, %c0 : index
        // expected-error @+1 {{[hw.mma-smem-descriptor] tcgen05.mma operands must be K-major rows that span exactly the swizzle width; got 64-byte rows with swizzle 128}}
        cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %more
          : !cake.ring<2 x 128x32xbf16, swizzle = 128>,
            !cake.ring<2 x 128x32xbf16, swizzle = 128>,
            !cake.tmem<1 x 128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
      cake.pipe.commit %ap, %t : !cake.pipe<1>
    }
  }
  cake.role "epilogue" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %ap : !cake.pipe<1>
      scf.for %c = %c0 to %c128 step %c32 {
        %f = cake.tmem.load %acc[%t] columns %c
          : !cake.tmem<1 x 128x128xf32> -> !cake.frag<128x32xf32>
        %nc = arith.addi %n, %c : index
        cake.store %f -> %C[%m, %nc]
          : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
      }
      cake.pipe.release %ap, %t : !cake.pipe<1>
    }
  }
}

// -----

// The near miss: the same tile under the 64-byte swizzle.
cake.kernel @rows_span_swizzle(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                     %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_100a">,
                 schedule = #cake.grid<tile = [128, 128]>} {
  %a = cake.ring : !cake.ring<2 x 128x32xbf16, swizzle = 64>
  %b = cake.ring : !cake.ring<2 x 128x32xbf16, swizzle = 64>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x32xbf16, swizzle = 64>,
                          !cake.ring<2 x 128x32xbf16, swizzle = 64>
  %acc = cake.tmem : !cake.tmem<1 x 128x128xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x128xf32>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c32 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x32xbf16, swizzle = 64>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x32xbf16, swizzle = 64>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      scf.for %k = %c0 to %K step %c32 {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        %more = arith.cmpi ne, %k, %c0 : index
        cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %more
          : !cake.ring<2 x 128x32xbf16, swizzle = 64>,
            !cake.ring<2 x 128x32xbf16, swizzle = 64>,
            !cake.tmem<1 x 128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
      cake.pipe.commit %ap, %t : !cake.pipe<1>
    }
  }
  cake.role "epilogue" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %ap : !cake.pipe<1>
      scf.for %c = %c0 to %c128 step %c32 {
        %f = cake.tmem.load %acc[%t] columns %c
          : !cake.tmem<1 x 128x128xf32> -> !cake.frag<128x32xf32>
        %nc = arith.addi %n, %c : index
        cake.store %f -> %C[%m, %nc]
          : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
      }
      cake.pipe.release %ap, %t : !cake.pipe<1>
    }
  }
}


// -----

// The chain's hand-offs: tmem.store writes a stage taken with pipe.wait,
// and the MMA reads its A operand through a stage taken with
// pipe.acquire. The near miss: examples/blackwell/mlp_tcgen05.
cake.kernel @chain_stages(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %w = cake.ring : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %wp = cake.pipe %w : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %p = cake.tmem : !cake.tmem<2 x 128x64xbf16>
  %pp = cake.pipe %p : !cake.tmem<2 x 128x64xbf16>
  %y = cake.tmem : !cake.tmem<1 x 128x256xf32>
  %yp = cake.pipe %y : !cake.tmem<1 x 128x256xf32>
  cake.role "load" warps(1) {
    cake.tiles (%m) in (%n) {
      %s = cake.pipe.acquire %wp : !cake.pipe<2>
      cake.pipe.commit %wp, %s : !cake.pipe<2>
    }
  }
  cake.role "act" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      // expected-note @+1 {{stage taken here}}
      %u = cake.pipe.wait %pp : !cake.pipe<2>
      %r = cake.frag.zero : !cake.frag<128x64xbf16>
      // expected-error @+1 {{[dataflow.write-outside-acquire] writes tensor memory through a stage not taken with pipe.acquire}}
      cake.tmem.store %r -> %p[%u] : !cake.frag<128x64xbf16> -> !cake.tmem<2 x 128x64xbf16>
      cake.pipe.release %pp, %u : !cake.pipe<2>
      %t = cake.pipe.wait %yp : !cake.pipe<1>
      cake.pipe.release %yp, %t : !cake.pipe<1>
    }
  }
  cake.role "mma" warps(1) {
    cake.tiles (%m) in (%n) {
      %t = cake.pipe.acquire %yp : !cake.pipe<1>
      // expected-note @+1 {{stage taken here}}
      %u = cake.pipe.acquire %pp : !cake.pipe<2>
      %s = cake.pipe.wait %wp : !cake.pipe<2>
      %false = arith.constant false
      // expected-error @+1 {{[dataflow.read-outside-wait] reads tensor memory through a stage not taken with pipe.wait}}
      cake.tmem.mma %p[%u], %w[%s], %y[%t] accumulate %false
        : !cake.tmem<2 x 128x64xbf16>, !cake.ring<2 x 256x64xbf16, swizzle = 128>, !cake.tmem<1 x 128x256xf32>
      cake.pipe.release %wp, %s : !cake.pipe<2>
      cake.pipe.commit %pp, %u : !cake.pipe<2>
      cake.pipe.commit %yp, %t : !cake.pipe<1>
    }
  }
}

// -----

// tcgen05.st, like tcgen05.ld, takes one aligned warpgroup (the near miss:
// the example's warpgroups(1) activation role); two warpgroups would
// reach each lane quarter twice.
cake.kernel @store_role(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %p = cake.tmem : !cake.tmem<1 x 128x64xf32>
  %pp = cake.pipe %p : !cake.tmem<1 x 128x64xf32>
  cake.role "act" warpgroups(2) {
    cake.tiles (%m) in (%n) {
      %u = cake.pipe.acquire %pp : !cake.pipe<1>
      %r = cake.frag.zero : !cake.frag<128x64xf32>
      // expected-error @+1 {{[hw.warpgroup-alignment] 'cake.tmem.store' in role "act", which is not a warpgroups(1) role: each warp writes the 32 lanes of its quarter of tensor memory}}
      cake.tmem.store %r -> %p[%u] : !cake.frag<128x64xf32> -> !cake.tmem<1 x 128x64xf32>
      cake.pipe.commit %pp, %u : !cake.pipe<1>
    }
  }
  cake.role "use" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %u = cake.pipe.wait %pp : !cake.pipe<1>
      %f = cake.tmem.load %p[%u] : !cake.tmem<1 x 128x64xf32> -> !cake.frag<128x32xf32>
      cake.pipe.release %pp, %u : !cake.pipe<1>
    }
  }
}

// -----

// Hopper has no tcgen05.st.
cake.kernel @store_on_hopper(%n: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  // expected-error @+1 {{[hw.arch-feature] 'cake.tmem' needs tensor memory and tcgen05 (sm_100a); the kernel targets sm_90a}}
  %p = cake.tmem : !cake.tmem<1 x 128x64xf32>
  %pp = cake.pipe %p : !cake.tmem<1 x 128x64xf32>
  cake.role "act" warpgroups(2) {
    cake.tiles (%m) in (%n) {
      %u = cake.pipe.acquire %pp : !cake.pipe<1>
      %r = cake.frag.zero : !cake.frag<128x64xf32>
      // expected-error @+1 {{[hw.arch-feature] 'cake.tmem.store' needs tensor memory and tcgen05 (sm_100a); the kernel targets sm_90a}}
      cake.tmem.store %r -> %p[%u] : !cake.frag<128x64xf32> -> !cake.tmem<1 x 128x64xf32>
      cake.pipe.commit %pp, %u : !cake.pipe<1>
    }
  }
  cake.role "use" warpgroups(2) {
    cake.tiles (%m) in (%n) {
      %u = cake.pipe.wait %pp : !cake.pipe<1>
      // expected-error @+1 {{[hw.arch-feature] 'cake.tmem.load' needs tensor memory and tcgen05 (sm_100a); the kernel targets sm_90a}}
      %f = cake.tmem.load %p[%u] : !cake.tmem<1 x 128x64xf32> -> !cake.frag<128x32xf32>
      cake.pipe.release %pp, %u : !cake.pipe<1>
    }
  }
}

// -----

// An mn_major B of 32 columns under the 128-byte swizzle: its rows of N are
// not one swizzle atom (the near miss: 64 columns,
// test/Conversion/Inputs/tcgen05-mn-major.cake.mlir, verified by
// test/Conversion/tcgen05.test).
cake.kernel @mn_major_rows(%A: !cake.global<?x?xbf16>,
                              %B: !cake.global<?x?xbf16>,
                              %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_100a">,
                 schedule = #cake.grid<tile = [128, 32]>} {
  %a = cake.ring : !cake.ring<3 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<3 x 64x32xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<3 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<3 x 64x32xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<1 x 128x32xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x32xf32>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 1 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<3>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<3 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%k, %n] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<3 x 64x32xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<3>
      }
    }
  }
  cake.role "mma" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 1 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<3>
        %more = arith.cmpi ne, %k, %c0 : index
        // expected-error @+1 {{[hw.wgmma-transpose] an mn_major B's rows of N must span exactly the swizzle width; got 64-byte rows with swizzle 128}}
        cake.tmem.mma %a[%s], %b[%s] mn_major, %acc[%t] accumulate %more
          : !cake.ring<3 x 128x64xbf16, swizzle = 128>,
            !cake.ring<3 x 64x32xbf16, swizzle = 128>,
            !cake.tmem<1 x 128x32xf32>
        cake.pipe.release %p, %s : !cake.pipe<3>
      }
      cake.pipe.commit %ap, %t : !cake.pipe<1>
    }
  }
  cake.role "epilogue" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %ap : !cake.pipe<1>
      %f = cake.tmem.load %acc[%t]
        : !cake.tmem<1 x 128x32xf32> -> !cake.frag<128x32xf32>
      cake.store %f -> %C[%m, %n]
        : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
      cake.pipe.release %ap, %t : !cake.pipe<1>
    }
  }
}
