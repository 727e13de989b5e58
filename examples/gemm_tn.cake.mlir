// C = Aᵀ · B with both operands stored reduction-major: A is K×M and B is
// K×N, row-major bf16, C is M×N in f32. It is the product of a weight
// gradient (dW = Xᵀ · dY over the tokens) and of the state update of a
// chunked linear attention (KDA's S += K̄ᵀ · V_new, docs/kda.md), where
// both factors arrive token by token.
//
// The decision written here: both operands are read MN-major (`mn_major`
// after each operand), so no transpose is staged anywhere: the tensor
// cores read A as M-contiguous and B as N-contiguous rows. What the
// compiler derives: the descriptors' transpose bits, their per-k16
// advance (16 rows of the tile rather than 32 bytes along one), and the
// barriers, phases and byte counts of the ring. A tile's rows of M (or
// N) must span exactly the swizzle width [hw.wgmma-transpose]: 64 bf16
// columns under the 128-byte swizzle, so one warpgroup owns a 64×64
// output tile.
//
// Checked on the GPU by `cake-run --check gemm-tn`
// (bench/verify/run_bundles.py).
cake.kernel @gemm_tn_bf16_64x64x64_s4(%A: !cake.global<?x?xbf16>,
                                       %B: !cake.global<?x?xbf16>,
                                       %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64, 64]>} {
  %a = cake.ring : !cake.ring<4 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 64x64xbf16, swizzle = 128>,
                          !cake.ring<4 x 64x64xbf16, swizzle = 128>

  cake.role "load" warps(1) {
    %K = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %M = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.tma.load %A[%k, %m] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<4 x 64x64xbf16, swizzle = 128>
        cake.tma.load %B[%k, %n] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<4 x 64x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }

  cake.role "mma" warpgroups(1) {
    %K = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %M = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %zero = cake.frag.zero : !cake.frag<64x64xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero)
          -> (!cake.frag<64x64xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        // Both tiles are 64 (K) × 64 (M or N), M and N contiguous.
        %r = cake.mma wgmma %a[%s] mn_major, %b[%s] mn_major, %acc0
          : !cake.ring<4 x 64x64xbf16, swizzle = 128>,
            !cake.ring<4 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<64x64xf32>
      }
      cake.store %acc -> %C[%m, %n]
        : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
    }
  }
}
