// A ring where a pipe is expected is a located type error.
// RUN: not cake-opt %s 2>&1 | FileCheck %s
// CHECK: wrong-type.mlir:[[@LINE+5]]:{{[0-9]+}}: error:
cake.kernel @k() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warps(1) {
    %s = cake.pipe.acquire %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  }
}
