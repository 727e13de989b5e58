// hw.tma-multicast: a multicast load needs a cluster, and its box's rows
// split into one slice per CTA of the cluster, each a whole period of the
// swizzle pattern (8 rows of the swizzle span) and of 128 bytes. The near
// miss, 256 rows in two 16 KiB slices, is
// examples/gemm-variants/gemm_128x256x64_s4_c2.cake.mlir
// (test/Conversion/tma-multicast.test).
// RUN: cake-opt %s -split-input-file -verify-diagnostics

cake.kernel @no_cluster(%B: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 64], group_m = 1>} {
  %r = cake.ring : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %p = cake.pipe %r : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-error @+1 {{[hw.tma-multicast] a multicast copy needs a cluster of 2 or more CTAs to write into; the kernel has no cluster}}
    cake.tma.load %B[%c0, %c0] -> %r[%s] multicast : !cake.global<?x?xbf16> -> !cake.ring<2 x 256x64xbf16, swizzle = 128>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
}

// -----

cake.kernel @cluster_of_one(%B: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, cluster = 1 : i64,
                schedule = #cake.persistent<tile = [128, 64], group_m = 1>} {
  %r = cake.ring : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %p = cake.pipe %r : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-error @+1 {{[hw.tma-multicast] a multicast copy needs a cluster of 2 or more CTAs to write into; the kernel has cluster = 1}}
    cake.tma.load %B[%c0, %c0] -> %r[%s] multicast : !cake.global<?x?xbf16> -> !cake.ring<2 x 256x64xbf16, swizzle = 128>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
}

// -----

cake.kernel @uneven(%B: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, cluster = 3 : i64,
                schedule = #cake.persistent<tile = [128, 64], group_m = 1>} {
  %r = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %r : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-error @+1 {{[hw.tma-multicast] the box's 128 rows do not split into 3 equal slices, one per CTA of the cluster}}
    cake.tma.load %B[%c0, %c0] -> %r[%s] multicast : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
}

// -----

// 64 rows in 16 slices of 4: 512 bytes, half the 128-byte swizzle's period.
cake.kernel @slice_off_the_swizzle(%B: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, cluster = 16 : i64,
                schedule = #cake.persistent<tile = [128, 64], group_m = 1>} {
  %r = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %r : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-error @+1 {{[hw.tma-multicast] each CTA's slice of 4 rows is 512 bytes, not a multiple of 1024 (the swizzle pattern's period and the copy's destination alignment): use fewer CTAs or a larger box}}
    cake.tma.load %B[%c0, %c0] -> %r[%s] multicast : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
}

// -----

cake.kernel @one_dimensional(%B: !cake.global<?xbf16>)
    attributes {target = #cake.target<"sm_90a">, cluster = 2 : i64,
                schedule = #cake.persistent<tile = [128], group_m = 1>} {
  %r = cake.ring : !cake.ring<2 x 256xbf16>
  %p = cake.pipe %r : !cake.ring<2 x 256xbf16>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-error @+1 {{[hw.tma-multicast] a multicast copy splits the box's rows among the cluster's CTAs; the ring tile [256] has no rows}}
    cake.tma.load %B[%c0] -> %r[%s] multicast : !cake.global<?xbf16> -> !cake.ring<2 x 256xbf16>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
}
