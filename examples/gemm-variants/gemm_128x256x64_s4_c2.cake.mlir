// The persistent bf16 GEMM of gemm_ws_persistent.cake.mlir (C = A * B^T,
// 128x256x64 tiles, 4 stages, one producer and two consumer warpgroups) in
// clusters of two CTAs with B multicast.
//
// `cluster = 2` gives the two CTAs of a cluster the tile rows 2r and 2r+1
// of one output column: they read different A tiles but the same B tile.
// `multicast` on B's copy makes each CTA load one half of it (128 of the
// 256 rows) into the stage of both, so L2 serves B once per cluster. The
// compiler derives the rest: the half-box descriptor, each CTA's slice
// offset and coordinate, the CTA mask, the cluster-wide release (each
// consumer warp arrives on the empty barrier of both CTAs, so a stage is
// refilled only once both have used it), and the cluster barriers that
// order barrier initialization and exit.
cake.kernel @gemm_bf16_128x256x64_s4_c2(%A: !cake.global<?x?xbf16>,
                                        %B: !cake.global<?x?xbf16>,
                                        %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 256], group_m = 8>,
                cluster = 2 : i64} {
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
        cake.tma.load %B[%n, %k] -> %b[%s] multicast
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
