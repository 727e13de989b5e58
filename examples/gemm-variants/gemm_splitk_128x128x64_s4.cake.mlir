// Split-K GEMM, W += A·Bᵀ over one of S slices of K, for shapes with too
// few output tiles to fill the GPU (M = 128 to 512 rows against N = 4096:
// 32 to 128 tiles of 128×128 for 132 SMs). A is M×K and B is N×K (bf16,
// K-major, as examples/gemm_ws_persistent.cake.mlir); W is an M×N f32
// workspace that the host zeroes before the launch and rounds to bf16
// after it (bench/gemm/bench.py times all three).
//
// The tile space is (M, J) with tiles of 128×1, J = S·ceil(N / 128)
// (passed, so the launcher sizes the grid from it): tile (m, j) computes
// output columns 128·(j / S) .. + 127 over K slice j mod S, K rows
// [slice·Kc, min((slice + 1)·Kc, K)). The host picks S and Kc (a multiple
// of 64) so that no slice is empty. Each slice's partial tile leaves
// through a shared-memory stage and a TMA store that adds it into W
// (`reduce sum`: the copy engine's f32 reduction, so slices may finish in
// any order). The stage has no swizzle: a 128×128 f32 box's rows are 512
// bytes, wider than any swizzle span.
cake.kernel @gemm_splitk_bf16_128x128x64_s4(%A: !cake.global<?x?xbf16>,
                                            %B: !cake.global<?x?xbf16>,
                                            %W: !cake.global<?x?xf32>,
                                            %J: index, %S: index, %Kc: index)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 1], group_m = 1>} {
  %a = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %o = cake.ring : !cake.ring<1 x 128x128xf32>
  %po = cake.pipe %o : !cake.ring<1 x 128x128xf32>

  cake.role "load" warpgroups(1) regs(40) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %j) in (%M, %J) {
      %nt = arith.divui %j, %S : index
      %slice = arith.remui %j, %S : index
      %n = arith.muli %nt, %c128 : index
      %k0 = arith.muli %slice, %Kc : index
      %ke = arith.addi %k0, %Kc : index
      %k1 = arith.minui %ke, %K : index
      scf.for %k = %k0 to %k1 step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }

  cake.role "mma" warpgroups(2) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %j) in (%M, %J) {
      %slice = arith.remui %j, %S : index
      %k0 = arith.muli %slice, %Kc : index
      %ke = arith.addi %k0, %Kc : index
      %k1 = arith.minui %ke, %K : index
      %zero = cake.frag.zero : !cake.frag<128x128xf32>
      %acc = scf.for %k = %k0 to %k1 step %c64 iter_args(%acc0 = %zero)
          -> (!cake.frag<128x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0
          : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
            !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<128x128xf32>
      }
      %st = cake.pipe.acquire %po : !cake.pipe<1>
      cake.smem.write %acc -> %o[%st]
        : !cake.frag<128x128xf32> -> !cake.ring<1 x 128x128xf32>
      cake.fence.proxy_async
      cake.pipe.commit %po, %st : !cake.pipe<1>
    }
  }

  cake.role "store" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
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
