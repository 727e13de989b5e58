// A tcgen05 GEMM tile over 32-column bf16 stages under the 64-byte
// swizzle: the input of test/Conversion/tcgen05.test (its descriptors'
// layout type 4 and 512-byte stride).
cake.kernel @tcgen05_sw64(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                     %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_100a">,
                 schedule = #cake.grid<tile = [128, 128]>} {
  %a = cake.ring : !cake.ring<2 x 128x32xbf16, swizzle = 64>
  %b = cake.ring : !cake.ring<2 x 128x32xbf16, swizzle = 64>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x32xbf16, swizzle = 64>,
                          !cake.ring<2 x 128x32xbf16, swizzle = 64>
  %acc = cake.tmem : !cake.tmem<1 x 128x128xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x128xf32>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c32 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x32xbf16, swizzle = 64>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x32xbf16, swizzle = 64>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      scf.for %k = %c0 to %K step %c32 {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        %more = arith.cmpi ne, %k, %c0 : index
        cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %more
          : !cake.ring<2 x 128x32xbf16, swizzle = 64>,
            !cake.ring<2 x 128x32xbf16, swizzle = 64>,
            !cake.tmem<1 x 128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
      cake.pipe.commit %ap, %t : !cake.pipe<1>
    }
  }
  cake.role "epilogue" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %ap : !cake.pipe<1>
      scf.for %c = %c0 to %c128 step %c32 {
        %f = cake.tmem.load %acc[%t] columns %c
          : !cake.tmem<1 x 128x128xf32> -> !cake.frag<128x32xf32>
        %nc = arith.addi %n, %c : index
        cake.store %f -> %C[%m, %nc]
          : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
      }
      cake.pipe.release %ap, %t : !cake.pipe<1>
    }
  }
}
