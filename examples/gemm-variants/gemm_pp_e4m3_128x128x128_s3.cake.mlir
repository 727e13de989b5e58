// A ping-pong FP8 GEMM with per-tensor scales (the contract of
// examples/gemm-variants/gemm_e4m3_128x128x128_s6: C = sa·sb·(A·Bᵀ), A and
// B float8 e4m3 K-major, C bf16) in the ping-pong form of
// gemm_pp_128x128x64_s3: 128 K elements a stage.
//
// Two consumer warpgroups take alternate tiles of the CTA (slice 0 and 1
// of 2), each computing a whole tile, and take turns over their main loops
// (cake.role_turns): while one issues its tile's wgmmas the other converts
// and stores the tile before, so that the tensor cores need not wait for
// epilogues. Each consumer has its own 3-stage pipe and a filling warp;
// a pipe shared by the two turns could deadlock (sync.role-turn). The
// turns' named barriers, their thread counts and where a turn starts and
// ends are derived by the compiler.
cake.kernel @gemm_e4m3_pp_128x128x128_s3(%A: !cake.global<?x?xf8E4M3FN>,
    %B: !cake.global<?x?xf8E4M3FN>, %Sa: !cake.global<?xf32>, %Sb: !cake.global<?xf32>,
    %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 128], group_m = 8>,
                cake.role_turns = ["mma", "mma_1"]} {
  %a0_top = cake.ring : !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>
  %a0_bot = cake.ring : !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>
  %b0 = cake.ring : !cake.ring<3 x 128x128xf8E4M3FN, swizzle = 128>
  %p0 = cake.pipe %a0_top, %a0_bot, %b0 : !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>, !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>, !cake.ring<3 x 128x128xf8E4M3FN, swizzle = 128>
  %a1_top = cake.ring : !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>
  %a1_bot = cake.ring : !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>
  %b1 = cake.ring : !cake.ring<3 x 128x128xf8E4M3FN, swizzle = 128>
  %p1 = cake.pipe %a1_top, %a1_bot, %b1 : !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>, !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>, !cake.ring<3 x 128x128xf8E4M3FN, swizzle = 128>

  // The filling warp of turn 0: its own pipe, so that it never waits on
  // the other turn's stages.
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xf8E4M3FN>
    %N = cake.dim %B, 0 : !cake.global<?x?xf8E4M3FN>
    %K = cake.dim %A, 1 : !cake.global<?x?xf8E4M3FN>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %m64 = arith.addi %m, %c64 : index
      scf.for %k = %c0 to %K step %c128 {
        %s = cake.pipe.acquire %p0 : !cake.pipe<3>
        cake.tma.load %A[%m, %k] -> %a0_top[%s] : !cake.global<?x?xf8E4M3FN> -> !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>
        cake.tma.load %A[%m64, %k] -> %a0_bot[%s] : !cake.global<?x?xf8E4M3FN> -> !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b0[%s] : !cake.global<?x?xf8E4M3FN> -> !cake.ring<3 x 128x128xf8E4M3FN, swizzle = 128>
        cake.pipe.commit %p0, %s : !cake.pipe<3>
      }
    }
  }

  // The filling warp of turn 1: its own pipe, so that it never waits on
  // the other turn's stages.
  cake.role "load_1" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xf8E4M3FN>
    %N = cake.dim %B, 0 : !cake.global<?x?xf8E4M3FN>
    %K = cake.dim %A, 1 : !cake.global<?x?xf8E4M3FN>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %m64 = arith.addi %m, %c64 : index
      scf.for %k = %c0 to %K step %c128 {
        %s = cake.pipe.acquire %p1 : !cake.pipe<3>
        cake.tma.load %A[%m, %k] -> %a1_top[%s] : !cake.global<?x?xf8E4M3FN> -> !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>
        cake.tma.load %A[%m64, %k] -> %a1_bot[%s] : !cake.global<?x?xf8E4M3FN> -> !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b1[%s] : !cake.global<?x?xf8E4M3FN> -> !cake.ring<3 x 128x128xf8E4M3FN, swizzle = 128>
        cake.pipe.commit %p1, %s : !cake.pipe<3>
      }
    }
  }

  // Turn 0: one warpgroup computes the whole 128x128 tile, its rows as two
  // 64-row accumulators.
  cake.role "mma" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xf8E4M3FN>
    %N = cake.dim %B, 0 : !cake.global<?x?xf8E4M3FN>
    %K = cake.dim %A, 1 : !cake.global<?x?xf8E4M3FN>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %sa = cake.scalar.load %Sa[%c0] : !cake.global<?xf32>
    %sb = cake.scalar.load %Sb[%c0] : !cake.global<?xf32>
    %scale = arith.mulf %sa, %sb : f32
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %m64 = arith.addi %m, %c64 : index
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc:2 = scf.for %k = %c0 to %K step %c128
          iter_args(%top0 = %zero, %bot0 = %zero) -> (!cake.frag<64x128xf32>, !cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p0 : !cake.pipe<3>
        %top = cake.mma wgmma %a0_top[%s], %b0[%s], %top0 : !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>, !cake.ring<3 x 128x128xf8E4M3FN, swizzle = 128>, !cake.frag<64x128xf32>
        %bot = cake.mma wgmma %a0_bot[%s], %b0[%s], %bot0 : !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>, !cake.ring<3 x 128x128xf8E4M3FN, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p0, %s : !cake.pipe<3>
        scf.yield %top, %bot : !cake.frag<64x128xf32>, !cake.frag<64x128xf32>
      }
      %out_top_f = cake.frag.map %acc#0 : (!cake.frag<64x128xf32>) -> !cake.frag<64x128xf32> {
      ^bb0(%x: f32):
        %y = arith.mulf %x, %scale : f32
        cake.frag.yield %y : f32
      }
      %out_top = cake.frag.convert %out_top_f : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %out_top -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
      %out_bot_f = cake.frag.map %acc#1 : (!cake.frag<64x128xf32>) -> !cake.frag<64x128xf32> {
      ^bb0(%x: f32):
        %y = arith.mulf %x, %scale : f32
        cake.frag.yield %y : f32
      }
      %out_bot = cake.frag.convert %out_bot_f : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %out_bot -> %C[%m64, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }

  // Turn 1: one warpgroup computes the whole 128x128 tile, its rows as two
  // 64-row accumulators.
  cake.role "mma_1" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xf8E4M3FN>
    %N = cake.dim %B, 0 : !cake.global<?x?xf8E4M3FN>
    %K = cake.dim %A, 1 : !cake.global<?x?xf8E4M3FN>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %sa = cake.scalar.load %Sa[%c0] : !cake.global<?xf32>
    %sb = cake.scalar.load %Sb[%c0] : !cake.global<?xf32>
    %scale = arith.mulf %sa, %sb : f32
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %m64 = arith.addi %m, %c64 : index
      %zero = cake.frag.zero : !cake.frag<64x128xf32>
      %acc:2 = scf.for %k = %c0 to %K step %c128
          iter_args(%top0 = %zero, %bot0 = %zero) -> (!cake.frag<64x128xf32>, !cake.frag<64x128xf32>) {
        %s = cake.pipe.wait %p1 : !cake.pipe<3>
        %top = cake.mma wgmma %a1_top[%s], %b1[%s], %top0 : !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>, !cake.ring<3 x 128x128xf8E4M3FN, swizzle = 128>, !cake.frag<64x128xf32>
        %bot = cake.mma wgmma %a1_bot[%s], %b1[%s], %bot0 : !cake.ring<3 x 64x128xf8E4M3FN, swizzle = 128>, !cake.ring<3 x 128x128xf8E4M3FN, swizzle = 128>, !cake.frag<64x128xf32>
        cake.pipe.release %p1, %s : !cake.pipe<3>
        scf.yield %top, %bot : !cake.frag<64x128xf32>, !cake.frag<64x128xf32>
      }
      %out_top_f = cake.frag.map %acc#0 : (!cake.frag<64x128xf32>) -> !cake.frag<64x128xf32> {
      ^bb0(%x: f32):
        %y = arith.mulf %x, %scale : f32
        cake.frag.yield %y : f32
      }
      %out_top = cake.frag.convert %out_top_f : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %out_top -> %C[%m, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
      %out_bot_f = cake.frag.map %acc#1 : (!cake.frag<64x128xf32>) -> !cake.frag<64x128xf32> {
      ^bb0(%x: f32):
        %y = arith.mulf %x, %scale : f32
        cake.frag.yield %y : f32
      }
      %out_bot = cake.frag.convert %out_bot_f : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %out_bot -> %C[%m64, %n] : !cake.frag<64x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}
