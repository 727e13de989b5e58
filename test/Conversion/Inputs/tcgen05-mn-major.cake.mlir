// A tcgen05 GEMM whose B is stored K x N, N contiguous (torch's x @ w with
// w row-major, or V in attention's P · V): B's ring tile is 64 rows of K by
// 64 columns of N, read mn_major. The input of test/Conversion/tcgen05.test
// (the instruction descriptor's transpose-B bit, the 16-row slice advance).
cake.kernel @tcgen05_mn_major(%A: !cake.global<?x?xbf16>,
                              %B: !cake.global<?x?xbf16>,
                              %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_100a">,
                 schedule = #cake.grid<tile = [128, 64]>} {
  %a = cake.ring : !cake.ring<3 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<3 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<3 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<3 x 64x64xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<1 x 128x64xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x64xf32>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 1 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<3>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<3 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%k, %n] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<3 x 64x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<3>
      }
    }
  }
  cake.role "mma" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 1 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<3>
        %more = arith.cmpi ne, %k, %c0 : index
        cake.tmem.mma %a[%s], %b[%s] mn_major, %acc[%t] accumulate %more
          : !cake.ring<3 x 128x64xbf16, swizzle = 128>,
            !cake.ring<3 x 64x64xbf16, swizzle = 128>,
            !cake.tmem<1 x 128x64xf32>
        cake.pipe.release %p, %s : !cake.pipe<3>
      }
      cake.pipe.commit %ap, %t : !cake.pipe<1>
    }
  }
  cake.role "epilogue" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %ap : !cake.pipe<1>
      scf.for %c = %c0 to %c64 step %c32 {
        %f = cake.tmem.load %acc[%t] columns %c
          : !cake.tmem<1 x 128x64xf32> -> !cake.frag<128x32xf32>
        %nc = arith.addi %n, %c : index
        cake.store %f -> %C[%m, %nc]
          : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
      }
      cake.pipe.release %ap, %t : !cake.pipe<1>
    }
  }
}
