// FP8 GEMM with per-tensor scales, C = sa·sb·(A·Bᵀ), the contract of
// torch._scaled_mm: A is M×K and B is N×K in float8 e4m3 (K-major: wgmma
// reads 8-bit operands K-major only), Sa and Sb one-element f32 tensors in
// GPU memory, C bf16. The schedule is examples/gemm_ws_persistent's:
// 128×256 tiles, one TMA load warpgroup and two wgmma warpgroups, 4
// stages, persistent CTAs in groups of 8 tile rows.
//
// What changes with the element type is derived: a stage's rows are 128
// elements (128 bytes, one 128-byte swizzle span, as bf16's 64), and each
// 128-wide K step is four wgmma.m64n256k32.e4m3 (32 bytes of K per
// instruction, whatever the type). The scales are read once per CTA
// (cake.scalar.load) and applied to the f32 accumulator in the epilogue,
// before the rounding to bf16.
cake.kernel @gemm_e4m3_128x256x128_s4(%A: !cake.global<?x?xf8E4M3FN>,
                                      %B: !cake.global<?x?xf8E4M3FN>,
                                      %Sa: !cake.global<?xf32>,
                                      %Sb: !cake.global<?xf32>,
                                      %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 256], group_m = 8>} {
  %a = cake.ring : !cake.ring<4 x 128x128xf8E4M3FN, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 256x128xf8E4M3FN, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 128x128xf8E4M3FN, swizzle = 128>,
                          !cake.ring<4 x 256x128xf8E4M3FN, swizzle = 128>

  cake.role "load" warpgroups(1) regs(40) {
    %M = cake.dim %A, 0 : !cake.global<?x?xf8E4M3FN>
    %N = cake.dim %B, 0 : !cake.global<?x?xf8E4M3FN>
    %K = cake.dim %A, 1 : !cake.global<?x?xf8E4M3FN>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c128 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xf8E4M3FN> -> !cake.ring<4 x 128x128xf8E4M3FN, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xf8E4M3FN> -> !cake.ring<4 x 256x128xf8E4M3FN, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }

  cake.role "mma" warpgroups(2) regs(232) {
    %M = cake.dim %A, 0 : !cake.global<?x?xf8E4M3FN>
    %N = cake.dim %B, 0 : !cake.global<?x?xf8E4M3FN>
    %K = cake.dim %A, 1 : !cake.global<?x?xf8E4M3FN>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %sa = cake.scalar.load %Sa[%c0] : !cake.global<?xf32>
    %sb = cake.scalar.load %Sb[%c0] : !cake.global<?xf32>
    %scale = arith.mulf %sa, %sb : f32
    cake.tiles (%m, %n) in (%M, %N) {
      %zero = cake.frag.zero : !cake.frag<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c128 iter_args(%acc0 = %zero)
          -> (!cake.frag<128x256xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0
          : !cake.ring<4 x 128x128xf8E4M3FN, swizzle = 128>,
            !cake.ring<4 x 256x128xf8E4M3FN, swizzle = 128>, !cake.frag<128x256xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<128x256xf32>
      }
      %scaled = cake.frag.map %acc
          : (!cake.frag<128x256xf32>) -> !cake.frag<128x256xf32> {
      ^bb0(%x: f32):
        %y = arith.mulf %x, %scale : f32
        cake.frag.yield %y : f32
      }
      %out = cake.frag.convert %scaled
          : !cake.frag<128x256xf32> -> !cake.frag<128x256xbf16>
      cake.store %out -> %C[%m, %n]
        : !cake.frag<128x256xbf16> -> !cake.global<?x?xbf16>
    }
  }
}
