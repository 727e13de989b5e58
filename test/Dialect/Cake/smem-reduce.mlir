// Round trip of cake.smem.reduce: the rows of a tile in ring stages
// reduced to one value each, as a 1 x R or R x 1 fragment.
// RUN: cake-opt %s | cake-opt | FileCheck %s

// CHECK-LABEL: cake.kernel @norms
// CHECK: cake.smem.reduce sum squared %{{.*}}[%{{.*}}, %{{.*}}] : !cake.ring<4 x 128x64xbf16, swizzle = 128> -> !cake.frag<1x128xf32>
// CHECK: cake.smem.reduce max %{{.*}}[%{{.*}}] : !cake.ring<4 x 128x64xbf16, swizzle = 128> -> !cake.frag<128x1xf32>
cake.kernel @norms(%C: !cake.global<?x128xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [128], group_m = 1>} {
  %c = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %c : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %C, 0 : !cake.global<?x128xbf16>
    %d0 = arith.constant 0 : index
    %d1 = arith.constant 64 : index
    cake.tiles (%m) in (%M) {
      %s0 = cake.pipe.acquire %p : !cake.pipe<4>
      cake.tma.load %C[%m, %d0] -> %c[%s0] : !cake.global<?x128xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s0 : !cake.pipe<4>
      %s1 = cake.pipe.acquire %p : !cake.pipe<4>
      cake.tma.load %C[%m, %d1] -> %c[%s1] : !cake.global<?x128xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s1 : !cake.pipe<4>
    }
  }
  cake.role "norm" warpgroups(2) {
    %M = cake.dim %C, 0 : !cake.global<?x128xbf16>
    cake.tiles (%m) in (%M) {
      %s0 = cake.pipe.wait %p : !cake.pipe<4>
      %s1 = cake.pipe.wait %p : !cake.pipe<4>
      %n = cake.smem.reduce sum squared %c[%s0, %s1]
        : !cake.ring<4 x 128x64xbf16, swizzle = 128> -> !cake.frag<1x128xf32>
      %r = cake.smem.reduce max %c[%s0]
        : !cake.ring<4 x 128x64xbf16, swizzle = 128> -> !cake.frag<128x1xf32>
      cake.pipe.release %p, %s0 : !cake.pipe<4>
      cake.pipe.release %p, %s1 : !cake.pipe<4>
    }
  }
}
