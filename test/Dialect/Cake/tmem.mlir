// Round trip of the tensor-memory family: the type, the declaration (with
// and without its derived layout), a pipe over it, tmem.mma (A from a ring
// or from tensor memory, B K-major or mn_major), tmem.load and tmem.store
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

// The chain's second MMA: A from a bf16 stage of tensor memory, written
// there by tmem.store (with and without a column offset).
// CHECK-LABEL: cake.kernel @tmem_a
// CHECK: %[[P:.*]] = cake.tmem : !cake.tmem<2 x 128x64xbf16>
// CHECK: cake.tmem.store %{{.*}} -> %[[P]][%{{.*}}] columns %{{.*}} : !cake.frag<128x32xbf16> -> !cake.tmem<2 x 128x64xbf16>
// CHECK: cake.tmem.store %{{.*}} -> %[[P]][%{{.*}}] : !cake.frag<128x32xbf16> -> !cake.tmem<2 x 128x64xbf16>
// CHECK: cake.tmem.mma %[[P]][%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}] accumulate %{{.*}} : !cake.tmem<2 x 128x64xbf16>, !cake.ring<2 x 256x64xbf16, swizzle = 128>, !cake.tmem<1 x 128x256xf32>
cake.kernel @tmem_a(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %w = cake.ring : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %wp = cake.pipe %w : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %p = cake.tmem : !cake.tmem<2 x 128x64xbf16>
  %pp = cake.pipe %p : !cake.tmem<2 x 128x64xbf16>
  %y = cake.tmem : !cake.tmem<1 x 128x256xf32>
  %yp = cake.pipe %y : !cake.tmem<1 x 128x256xf32>
  cake.role "act" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %u = cake.pipe.acquire %pp : !cake.pipe<2>
      %r = cake.frag.zero : !cake.frag<128x32xbf16>
      %c32 = arith.constant 32 : index
      cake.tmem.store %r -> %p[%u] columns %c32 : !cake.frag<128x32xbf16> -> !cake.tmem<2 x 128x64xbf16>
      cake.tmem.store %r -> %p[%u] : !cake.frag<128x32xbf16> -> !cake.tmem<2 x 128x64xbf16>
      cake.pipe.commit %pp, %u : !cake.pipe<2>
    }
  }
  cake.role "mma" warps(1) {
    cake.tiles (%m) in (%n) {
      %t = cake.pipe.acquire %yp : !cake.pipe<1>
      %u = cake.pipe.wait %pp : !cake.pipe<2>
      %s = cake.pipe.wait %wp : !cake.pipe<2>
      %false = arith.constant false
      cake.tmem.mma %p[%u], %w[%s], %y[%t] accumulate %false
        : !cake.tmem<2 x 128x64xbf16>, !cake.ring<2 x 256x64xbf16, swizzle = 128>, !cake.tmem<1 x 128x256xf32>
      cake.pipe.release %wp, %s : !cake.pipe<2>
      cake.pipe.release %pp, %u : !cake.pipe<2>
      cake.pipe.commit %yp, %t : !cake.pipe<1>
    }
  }
}

// B stored K x N, read mn_major.
// CHECK-LABEL: cake.kernel @tmem_mn_major
// CHECK: cake.tmem.mma %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}] mn_major, %{{.*}}[%{{.*}}] accumulate %{{.*}} : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.tmem<1 x 128x64xf32>
cake.kernel @tmem_mn_major(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %v = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %v : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %o = cake.tmem : !cake.tmem<1 x 128x64xf32>
  %op = cake.pipe %o : !cake.tmem<1 x 128x64xf32>
  cake.role "mma" warps(1) {
    cake.tiles (%m) in (%n) {
      %t = cake.pipe.acquire %op : !cake.pipe<1>
      %s = cake.pipe.wait %p : !cake.pipe<2>
      %false = arith.constant false
      cake.tmem.mma %a[%s], %v[%s] mn_major, %o[%t] accumulate %false
        : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.tmem<1 x 128x64xf32>
      cake.pipe.release %p, %s : !cake.pipe<2>
      cake.pipe.commit %op, %t : !cake.pipe<1>
    }
  }
}
