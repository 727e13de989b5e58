// FP8 GEMM with per-tensor scales on 128×128 tiles, 6 stages: the
// contract of examples/gemm-variants/gemm_e4m3_128x256x128_s4 (C =
// sa·sb·(A·Bᵀ), A and B float8 e4m3 K-major, C bf16) with the tile and
// depth of gemm_128x128x64_s6, for shapes whose 128×256 tiles would not
// fill the GPU. A stage holds 128 K elements of each operand (32 KB).
cake.kernel @gemm_e4m3_128x128x128_s6(%A: !cake.global<?x?xf8E4M3FN>,
                                      %B: !cake.global<?x?xf8E4M3FN>,
                                      %Sa: !cake.global<?xf32>,
                                      %Sb: !cake.global<?xf32>,
                                      %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 128], group_m = 8>} {
  %a = cake.ring : !cake.ring<6 x 128x128xf8E4M3FN, swizzle = 128>
  %b = cake.ring : !cake.ring<6 x 128x128xf8E4M3FN, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<6 x 128x128xf8E4M3FN, swizzle = 128>,
                          !cake.ring<6 x 128x128xf8E4M3FN, swizzle = 128>

  cake.role "load" warpgroups(1) regs(40) {
    %M = cake.dim %A, 0 : !cake.global<?x?xf8E4M3FN>
    %N = cake.dim %B, 0 : !cake.global<?x?xf8E4M3FN>
    %K = cake.dim %A, 1 : !cake.global<?x?xf8E4M3FN>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c128 {
        %s = cake.pipe.acquire %p : !cake.pipe<6>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xf8E4M3FN> -> !cake.ring<6 x 128x128xf8E4M3FN, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xf8E4M3FN> -> !cake.ring<6 x 128x128xf8E4M3FN, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<6>
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
      %zero = cake.frag.zero : !cake.frag<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %c128 iter_args(%acc0 = %zero)
          -> (!cake.frag<128x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<6>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0
          : !cake.ring<6 x 128x128xf8E4M3FN, swizzle = 128>,
            !cake.ring<6 x 128x128xf8E4M3FN, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<6>
        scf.yield %r : !cake.frag<128x128xf32>
      }
      %scaled = cake.frag.map %acc
          : (!cake.frag<128x128xf32>) -> !cake.frag<128x128xf32> {
      ^bb0(%x: f32):
        %y = arith.mulf %x, %scale : f32
        cake.frag.yield %y : f32
      }
      %out = cake.frag.convert %scaled
          : !cake.frag<128x128xf32> -> !cake.frag<128x128xbf16>
      cake.store %out -> %C[%m, %n]
        : !cake.frag<128x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}
