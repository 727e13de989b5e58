// A warp-specialized, persistent bf16 GEMM for Blackwell (sm_100a):
// C = A · Bᵀ with A MxK and B NxK (both K-major), C MxN in f32.
//
// The decisions written here: a load warp streams A and B tiles through a
// 4-stage TMA ring; an MMA warp issues tcgen05.mma into an accumulator in
// tensor memory, two stages of 128x256 f32 (all 512 columns), so that the
// epilogue warpgroup reads tile i's accumulator (in 32-column chunks, to
// hold one chunk in registers) while the MMA warp accumulates tile i + 1.
// What the compiler derives: the accumulator stages' columns and the one
// 512-column allocation (cake-derive), the ring's barriers, phases and byte
// counts, and that the MMA warp's hand-offs complete with tcgen05.commit
// (one arrival each, when the MMAs issued before them retire).
//
// It verifies and lowers to a cubin (ptxas -arch=sm_100a;
// test/Conversion/tcgen05.test), but has not run on hardware: Cake has
// had no Blackwell GPU (docs/blackwell.md).
cake.kernel @gemm_tcgen05_bf16_128x256x64_s4(%A: !cake.global<?x?xbf16>,
                                            %B: !cake.global<?x?xbf16>,
                                            %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_100a">,
                schedule = #cake.persistent<tile = [128, 256], group_m = 8>} {
  %a = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 256x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<4 x 256x64xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<2 x 128x256xf32>
  %ap = cake.pipe %acc : !cake.tmem<2 x 128x256xf32>

  cake.role "load" warps(1) {
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

  // One thread issues the MMAs; tensor memory is not zeroed, so a tile's
  // first K step overwrites the stage (accumulate false).
  cake.role "mma" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.acquire %ap : !cake.pipe<2>
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %more = arith.cmpi ne, %k, %c0 : index
        cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %more
          : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
            !cake.ring<4 x 256x64xbf16, swizzle = 128>,
            !cake.tmem<2 x 128x256xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
      }
      cake.pipe.commit %ap, %t : !cake.pipe<2>
    }
  }

  cake.role "epilogue" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %ap : !cake.pipe<2>
      scf.for %c = %c0 to %c256 step %c32 {
        %f = cake.tmem.load %acc[%t] columns %c
          : !cake.tmem<2 x 128x256xf32> -> !cake.frag<128x32xf32>
        %nc = arith.addi %n, %c : index
        cake.store %f -> %C[%m, %nc]
          : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
      }
      cake.pipe.release %ap, %t : !cake.pipe<2>
    }
  }
}
