// Round trip of the tensor-memory family: the type, the declaration (with
// and without its derived layout), a pipe over it, tmem.mma and tmem.load
// (with and without a column offset).
// RUN: cake-opt %s | cake-opt | FileCheck %s

// CHECK-LABEL: cake.kernel @tmem
// CHECK: %[[ACC:.*]] = cake.tmem : !cake.tmem<2 x 128x256xf32>
// CHECK: %[[H:.*]] = cake.tmem {derived = #cake.tmem_layout<column = 0, allocation = 32, slot = 16>} : !cake.tmem<1 x 128x64xbf16>
// CHECK: %[[AP:.*]] = cake.pipe %[[ACC]] : !cake.tmem<2 x 128x256xf32>
// CHECK: cake.tmem.mma %{{.*}}[%[[S:.*]]], %{{.*}}[%[[S]]], %[[ACC]][%[[T:.*]]] accumulate %{{.*}} : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 256x64xbf16, swizzle = 128>, !cake.tmem<2 x 128x256xf32>
// CHECK: cake.tmem.load %[[ACC]][%[[W:.*]]] columns %{{.*}} : !cake.tmem<2 x 128x256xf32> -> !cake.frag<128x32xf32>
// CHECK: cake.tmem.load %[[ACC]][%[[W]]] : !cake.tmem<2 x 128x256xf32> -> !cake.frag<128x8xf32>
cake.kernel @tmem(%C: !cake.global<?x?xf32>, %n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<2 x 128x256xf32>
  %h = cake.tmem {derived = #cake.tmem_layout<column = 0, allocation = 32, slot = 16>} : !cake.tmem<1 x 128x64xbf16>
  %ap = cake.pipe %acc : !cake.tmem<2 x 128x256xf32>
  cake.role "mma" warps(1) {
    cake.tiles (%m) in (%n) {
      %t = cake.pipe.acquire %ap : !cake.pipe<2>
      %s = cake.pipe.wait %p : !cake.pipe<2>
      %false = arith.constant false
      cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %false
        : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 256x64xbf16, swizzle = 128>, !cake.tmem<2 x 128x256xf32>
      cake.pipe.release %p, %s : !cake.pipe<2>
      cake.pipe.commit %ap, %t : !cake.pipe<2>
    }
  }
  cake.role "epilogue" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %w = cake.pipe.wait %ap : !cake.pipe<2>
      %c32 = arith.constant 32 : index
      %f = cake.tmem.load %acc[%w] columns %c32 : !cake.tmem<2 x 128x256xf32> -> !cake.frag<128x32xf32>
      %g = cake.tmem.load %acc[%w] : !cake.tmem<2 x 128x256xf32> -> !cake.frag<128x8xf32>
      cake.pipe.release %ap, %w : !cake.pipe<2>
    }
  }
}
