// Round trip of cake.gather: rows of a global matrix chosen by an index
// list, into a ring stage.
// RUN: cake-opt %s | cake-opt | FileCheck %s

// CHECK-LABEL: cake.kernel @rows
// CHECK: cake.gather %{{.*}}[%{{.*}}[%{{.*}}], %{{.*}}] -> %{{.*}}[%{{.*}}] : !cake.global<?x?xbf16>, !cake.global<?xi32> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
cake.kernel @rows(%X: !cake.global<?x?xbf16>, %Order: !cake.global<?xi32>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %x : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "gather" warps(1) {
    %N = cake.dim %Order, 0 : !cake.global<?xi32>
    %c0 = arith.constant 0 : index
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.gather %X[%Order[%n], %c0] -> %x[%s]
        : !cake.global<?x?xbf16>, !cake.global<?xi32> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warps(1) {
    %N = cake.dim %Order, 0 : !cake.global<?xi32>
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}
