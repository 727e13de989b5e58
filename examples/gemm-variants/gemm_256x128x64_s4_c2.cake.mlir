// The rank study's fastest GEMM tile (bench/cost/gen_candidates.py's
// gemm_256x128x64_s4_g1: four consumer warpgroups of 64 rows, one copy
// warpgroup) in clusters of two CTAs with B multicast: the two CTAs of a
// cluster compute tile rows 2r and 2r+1 of one output column, each loads
// half of the shared 128x64 B tile into the stage of both (see
// gemm_128x256x64_s4_c2.cake.mlir for what the compiler derives).
cake.kernel @gemm_256x128x64_s4_c2(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [256, 128], group_m = 1>,
                cluster = 2 : i64} {
  %a = cake.ring : !cake.ring<4 x 256x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 256x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>
  cake.role "load" warpgroups(1) regs(40) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<4>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 256x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s] multicast : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<4>
      }
    }
  }
  cake.role "mma" warpgroups(4) regs(104) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %zero = cake.frag.zero : !cake.frag<256x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%x = %zero) -> (!cake.frag<256x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<4>
        %r = cake.mma wgmma %a[%s], %b[%s], %x : !cake.ring<4 x 256x64xbf16, swizzle = 128>, !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.frag<256x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<4>
        scf.yield %r : !cake.frag<256x128xf32>
      }
      %out = cake.frag.convert %acc : !cake.frag<256x128xf32> -> !cake.frag<256x128xbf16>
      cake.store %out -> %C[%m, %n] : !cake.frag<256x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}
