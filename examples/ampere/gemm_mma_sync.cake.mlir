// A warp-specialized bf16 GEMM for Ampere (sm_80): C = A · Bᵀ with A MxK
// and B NxK (both K-major, any K that is a multiple of 8), C MxN in f32.
//
// The decisions written here: a load warpgroup copies A and B tiles into a
// 4-stage ring with cp.async (sm_80 has no TMA), 16-byte pieces shared
// over its 128 threads; two MMA warpgroups each compute 64 rows of the
// 128x128 tile with mma.sync, and store the accumulator directly. What the
// compiler derives: the ring's barriers and phases (each copy thread
// arrives when its pieces land: cp.async.mbarrier.arrive.noinc, so the full
// barrier counts 128 arrivals), the swizzled addresses both sides use (the
// 128-byte pattern TMA would write, so ldmatrix reads without bank
// conflicts), the ldmatrix and m16n8k16 instructions of each warp's 16 rows,
// and the polling waits (sm_80's mbarrier.test_wait).
//
// The accumulator keeps the wgmma register layout, so the same fragment
// code (stores, maps, reductions) serves sm_80 and sm_90a.
// test/Conversion/mma-sync.test lowers it to PTX and to an sm_80 cubin.
cake.kernel @gemm_mma_sync_bf16_128x128x64_s4(%A: !cake.global<?x?xbf16>,
                                             %B: !cake.global<?x?xbf16>,
                                             %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_80">,
                schedule = #cake.grid<tile = [128, 128]>} {
  %a = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<4 x 128x64xbf16, swizzle = 128>

  cake.role "load" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.cp_async.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
        cake.cp_async.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }

  cake.role "mma" warpgroups(2) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %zero = cake.frag.zero : !cake.frag<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero)
          -> (!cake.frag<128x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma mma_sync %a[%s], %b[%s], %acc0
          : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
            !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<128x128xf32>
      }
      cake.store %acc -> %C[%m, %n]
        : !cake.frag<128x128xf32> -> !cake.global<?x?xf32>
    }
  }
}
