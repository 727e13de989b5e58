// A deliberately naive bf16 GEMM for Hopper, C = A * B^T: the seed that
// cake-evolve starts its search from (docs/agents.md).
//
// One role of two warpgroups does everything: its leader thread copies a
// 128x64 tile of A and of B into the pipe's single stage, every thread
// waits for the copy, runs wgmma and releases the stage, then the next
// copy starts. Copies and math never overlap, and each CTA computes one
// 128x128 output tile (no persistent schedule). cake-warp-specialize moves
// the copies into a producer role; cake-set-stages lets it run ahead.
cake.kernel @gemm_naive(%A: !cake.global<?x?xbf16>,
                        %B: !cake.global<?x?xbf16>,
                        %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [128, 128]>} {
  %a = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<1 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<1 x 128x64xbf16, swizzle = 128>

  cake.role "mma" warpgroups(2) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %zero = cake.frag.zero : !cake.frag<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero)
          -> (!cake.frag<128x128xf32>) {
        %s = cake.pipe.acquire %p : !cake.pipe<1>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<1 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<1 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<1>
        %t = cake.pipe.wait %p : !cake.pipe<1>
        %r = cake.mma wgmma %a[%t], %b[%t], %acc0
          : !cake.ring<1 x 128x64xbf16, swizzle = 128>,
            !cake.ring<1 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %p, %t : !cake.pipe<1>
        scf.yield %r : !cake.frag<128x128xf32>
      }
      %out = cake.frag.convert %acc
        : !cake.frag<128x128xf32> -> !cake.frag<128x128xbf16>
      cake.store %out -> %C[%m, %n]
        : !cake.frag<128x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}
