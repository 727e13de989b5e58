// A ping-pong bf16 GEMM for Hopper (CUTLASS's KernelTmaWarpSpecializedPingpong
// shape): C = A * B^T, A MxK, B NxK (both K-major), C MxN, row-major bf16,
// f32 accumulation, 128x128 tiles.
//
// Two consumer warpgroups take alternate tiles of the CTA (slice 0 and 1
// of 2), each computing a whole tile, and take turns over their main loops
// (cake.role_turns): while one issues its tile's wgmmas the other converts
// and stores the tile before, so that the tensor cores need not wait for
// epilogues. One filling warp walks all of the CTA's tiles into one
// 6-stage ring, a dealt pipe (sync.dealt-pipe): the stages of a tile go to
// the consumer whose slice holds it, so the consumer in its turn has the
// whole ring ahead of it. Where each consumer's stages lie in the ring
// (it skips the other slice's tile's stages) is derived by the compiler. The
// turns' named barriers, their thread counts and where a turn starts and
// ends are derived by the compiler.
cake.kernel @gemm_bf16_pp_dealt_128x128x64_s6(%A: !cake.global<?x?xbf16>,
                                        %B: !cake.global<?x?xbf16>,
                                        %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 128], group_m = 8>,
                cake.role_turns = ["mma", "mma_1"]} {
  %a0_top = cake.ring : !cake.ring<6 x 64x64xbf16, swizzle = 128>
  %a0_bot = cake.ring : !cake.ring<6 x 64x64xbf16, swizzle = 128>
  %b0 = cake.ring : !cake.ring<6 x 128x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0_top, %a0_bot, %b0 : !cake.ring<6 x 64x64xbf16, swizzle = 128>, !cake.ring<6 x 64x64xbf16, swizzle = 128>, !cake.ring<6 x 128x64xbf16, swizzle = 128>

  // The filling warp: every tile of the CTA, in order, into the one ring;
  // each tile's stages go to the consumer whose slice holds it.
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %m64 = arith.addi %m, %c64 : index
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p0 : !cake.pipe<6>
        cake.tma.load %A[%m, %k] -> %a0_top[%s] : !cake.global<?x?xbf16> -> !cake.ring<6 x 64x64xbf16, swizzle = 128>
        cake.tma.load %A[%m64, %k] -> %a0_bot[%s] : !cake.global<?x?xbf16> -> !cake.ring<6 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b0[%s] : !cake.global<?x?xbf16> -> !cake.ring<6 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p0, %s : !cake.pipe<6>
      }
    }
  }

  // Turn 0: one warpgroup computes the whole 128x128 tile, its rows as two
  // 64-row accumulators.
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %m64 = arith.addi %m, %c64 : index
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc:2 = scf.for %k = %c0 to %K step %c64
          iter_args(%top0 = %zero, %bot0 = %zero) -> (!cake.frag<64x128xf32>, !cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p0 : !cake.pipe<6>
        %top = cake.mma wgmma %a0_top[%s], %b0[%s], %top0 : !cake.ring<6 x 64x64xbf16, swizzle = 128>, !cake.ring<6 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        %bot = cake.mma wgmma %a0_bot[%s], %b0[%s], %bot0 : !cake.ring<6 x 64x64xbf16, swizzle = 128>, !cake.ring<6 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p0, %s : !cake.pipe<6>
        scf.yield %top, %bot : !cake.frag<64x128xf32>, !cake.frag<64x128xf32>
      }
      %out_top = cake.frag.convert %acc#0 : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %out_top -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
      %out_bot = cake.frag.convert %acc#1 : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %out_bot -> %C[%m64, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }

  // Turn 1: one warpgroup computes the whole 128x128 tile, its rows as two
  // 64-row accumulators.
  cake.role "mma_1" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %m64 = arith.addi %m, %c64 : index
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc:2 = scf.for %k = %c0 to %K step %c64
          iter_args(%top0 = %zero, %bot0 = %zero) -> (!cake.frag<64x128xf32>, !cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p0 : !cake.pipe<6>
        %top = cake.mma wgmma %a0_top[%s], %b0[%s], %top0 : !cake.ring<6 x 64x64xbf16, swizzle = 128>, !cake.ring<6 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        %bot = cake.mma wgmma %a0_bot[%s], %b0[%s], %bot0 : !cake.ring<6 x 64x64xbf16, swizzle = 128>, !cake.ring<6 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p0, %s : !cake.pipe<6>
        scf.yield %top, %bot : !cake.frag<64x128xf32>, !cake.frag<64x128xf32>
      }
      %out_top = cake.frag.convert %acc#0 : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %out_top -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
      %out_bot = cake.frag.convert %acc#1 : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %out_bot -> %C[%m64, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}
