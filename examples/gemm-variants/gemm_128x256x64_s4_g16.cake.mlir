// A warp-specialized, persistent bf16 GEMM for Hopper: C = A * B^T.
//
// A is MxK, B is NxK (both K-major), C is MxN, all row-major bf16 with f32
// accumulation. One producer warpgroup streams A and B tiles through a
// 4-stage TMA ring; two consumer warpgroups run wgmma on each stage and
// write their 128x256 output tile. Barriers, phases, byte counts and
// shared-memory offsets are derived by the compiler.
cake.kernel @gemm_bf16_128x256x64_s4_g16(%A: !cake.global<?x?xbf16>,
                                     %B: !cake.global<?x?xbf16>,
                                     %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 256], group_m = 16>} {
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
