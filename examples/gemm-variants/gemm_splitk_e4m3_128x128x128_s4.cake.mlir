// Split-K FP8 GEMM, W += sa·sb·(A·Bᵀ) over one of S slices of K: the
// split of examples/gemm-variants/gemm_splitk_128x128x64_s4 with the
// operands and scales of gemm_e4m3_128x128x128_s6 (A M×K and B N×K float8
// e4m3, K-major; per-tensor scales Sa and Sb as one-element f32 tensors),
// for shapes with too few 128×128 output tiles to fill the GPU. W is an
// M×N f32 workspace that the host zeroes before the launch and rounds to
// bf16 after it (bench/gemm/bench.py times all three).
//
// Tile (m, j) of the (M, J) space, J = S·ceil(N / 128), computes output
// columns 128·(j / S) .. + 127 over K rows [slice·Kc, min((slice + 1)·Kc,
// K)) with slice = j mod S; Kc is a multiple of 128, one K step of a stage
// (python/cake/gemm_dispatch.py's split_plan with step 128), so no step
// reads into the next slice. Each slice's partial tile is scaled by sa·sb
// (a product is linear in its slices) and leaves through an unswizzled f32
// stage and a TMA store that adds it into W.
cake.kernel @gemm_splitk_e4m3_128x128x128_s4(%A: !cake.global<?x?xf8E4M3FN>,
                                             %B: !cake.global<?x?xf8E4M3FN>,
                                             %Sa: !cake.global<?xf32>,
                                             %Sb: !cake.global<?xf32>,
                                             %W: !cake.global<?x?xf32>,
                                             %J: index, %S: index, %Kc: index)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 1], group_m = 1>} {
  %a = cake.ring : !cake.ring<4 x 128x128xf8E4M3FN, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 128x128xf8E4M3FN, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 128x128xf8E4M3FN, swizzle = 128>,
                          !cake.ring<4 x 128x128xf8E4M3FN, swizzle = 128>
  %o = cake.ring : !cake.ring<1 x 128x128xf32>
  %po = cake.pipe %o : !cake.ring<1 x 128x128xf32>

  cake.role "load" warpgroups(1) regs(40) {
    %M = cake.dim %A, 0 : !cake.global<?x?xf8E4M3FN>
    %N = cake.dim %B, 0 : !cake.global<?x?xf8E4M3FN>
    %K = cake.dim %A, 1 : !cake.global<?x?xf8E4M3FN>
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %j) in (%M, %J) {
      %nt = arith.divui %j, %S : index
      %slice = arith.remui %j, %S : index
      %n = arith.muli %nt, %c128 : index
      %k0 = arith.muli %slice, %Kc : index
      %ke = arith.addi %k0, %Kc : index
      %k1 = arith.minui %ke, %K : index
      scf.for %k = %k0 to %k1 step %c128 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xf8E4M3FN> -> !cake.ring<4 x 128x128xf8E4M3FN, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xf8E4M3FN> -> !cake.ring<4 x 128x128xf8E4M3FN, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }

  cake.role "mma" warpgroups(2) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xf8E4M3FN>
    %N = cake.dim %B, 0 : !cake.global<?x?xf8E4M3FN>
    %K = cake.dim %A, 1 : !cake.global<?x?xf8E4M3FN>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %sa = cake.scalar.load %Sa[%c0] : !cake.global<?xf32>
    %sb = cake.scalar.load %Sb[%c0] : !cake.global<?xf32>
    %scale = arith.mulf %sa, %sb : f32
    cake.tiles (%m, %j) in (%M, %J) {
      %slice = arith.remui %j, %S : index
      %k0 = arith.muli %slice, %Kc : index
      %ke = arith.addi %k0, %Kc : index
      %k1 = arith.minui %ke, %K : index
      %zero = cake.frag.zero : !cake.frag<128x128xf32>
      %acc = scf.for %k = %k0 to %k1 step %c128 iter_args(%acc0 = %zero)
          -> (!cake.frag<128x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0
          : !cake.ring<4 x 128x128xf8E4M3FN, swizzle = 128>,
            !cake.ring<4 x 128x128xf8E4M3FN, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<128x128xf32>
      }
      %scaled = cake.frag.map %acc
          : (!cake.frag<128x128xf32>) -> !cake.frag<128x128xf32> {
      ^bb0(%x: f32):
        %y = arith.mulf %x, %scale : f32
        cake.frag.yield %y : f32
      }
      %st = cake.pipe.acquire %po : !cake.pipe<1>
      cake.smem.write %scaled -> %o[%st]
        : !cake.frag<128x128xf32> -> !cake.ring<1 x 128x128xf32>
      cake.fence.proxy_async
      cake.pipe.commit %po, %st : !cake.pipe<1>
    }
  }

  cake.role "store" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xf8E4M3FN>
    %N = cake.dim %B, 0 : !cake.global<?x?xf8E4M3FN>
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %j) in (%M, %J) {
      %nt = arith.divui %j, %S : index
      %n = arith.muli %nt, %c128 : index
      %st = cake.pipe.wait %po : !cake.pipe<1>
      cake.tma.store %o[%st] -> %W[%m, %n] reduce sum
        : !cake.ring<1 x 128x128xf32> -> !cake.global<?x?xf32>
      cake.pipe.release %po, %st : !cake.pipe<1>
    }
  }
}
