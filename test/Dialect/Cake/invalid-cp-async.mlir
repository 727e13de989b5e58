// cake.cp_async.load's op verifier: hw.cp-async-copy (a rank-2 source, or
// a plane of a rank-3 one, with a pitch of a whole number of 4-byte
// pieces; ring rows of 16 to 512 bytes, a power of two, in at most 32
// pieces), dataflow.box-shape (a coordinate per dimension) and
// dataflow.element-type. The near misses: 200-byte rows in 8-byte pieces
// and a rank-3 plane (cp-async.mlir), 204-byte rows into 128-byte ring
// rows below.
// RUN: cake-opt %s -split-input-file -verify-diagnostics

cake.kernel @rank4(%X: !cake.global<?x?x?x64xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[hw.cp-async-copy] copies a box of a rank-2 tensor, or of a plane of a rank-3 one, got rank 4}}
    cake.cp_async.load %X[%c0, %c0, %c0, %c0] -> %x[%s] : !cake.global<?x?x?x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
  }
}

// -----

cake.kernel @rank3_two_coordinates(%X: !cake.global<?x?x64xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.box-shape] expected 3 coordinates for a rank-3 tensor, got 2}}
    cake.cp_async.load %X[%c0, %c0] -> %x[%s] : !cake.global<?x?x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
  }
}
// -----

// A pitch known only at launch takes 16-byte pieces (the near miss, the
// same copy into 128-byte rows, is in cp-async.mlir): 1024-byte rows would
// need 64 of them.
cake.kernel @dynamic_pitch(%X: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x512xbf16>
  %pp = cake.pipe %x : !cake.ring<2 x 64x512xbf16>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[hw.cp-async-copy] the ring's rows are 1024 bytes in 16-byte pieces}}
    cake.cp_async.load %X[%c0, %c0] -> %x[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x512xbf16>
  }
}

// -----

cake.kernel @odd_pitch(%X: !cake.global<?x3xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[hw.cp-async-copy] the source's rows are 6 bytes, not a multiple of 4}}
    cake.cp_async.load %X[%c0, %c0] -> %x[%s] : !cake.global<?x3xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
  }
}

// -----

cake.kernel @too_many_pieces(%X: !cake.global<?x102xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x128xbf16, swizzle = 0>
  %pp = cake.pipe %x : !cake.ring<2 x 64x128xbf16, swizzle = 0>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[hw.cp-async-copy] the ring's rows are 256 bytes in 4-byte pieces}}
    cake.cp_async.load %X[%c0, %c0] -> %x[%s] : !cake.global<?x102xbf16> -> !cake.ring<2 x 64x128xbf16, swizzle = 0>
  }
}

// -----

cake.kernel @narrow_ring(%X: !cake.global<?x100xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x4xbf16, swizzle = 0>
  %pp = cake.pipe %x : !cake.ring<2 x 64x4xbf16, swizzle = 0>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[hw.cp-async-copy] the ring's rows are 8 bytes in 8-byte pieces}}
    cake.cp_async.load %X[%c0, %c0] -> %x[%s] : !cake.global<?x100xbf16> -> !cake.ring<2 x 64x4xbf16, swizzle = 0>
  }
}

// -----

cake.kernel @element_type(%X: !cake.global<?x100xf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.element-type] expected the source and ring element types to match}}
    cake.cp_async.load %X[%c0, %c0] -> %x[%s] : !cake.global<?x100xf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
  }
}

// -----

cake.kernel @near_miss_4_byte_pieces(%X: !cake.global<?x102xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    cake.cp_async.load %X[%c0, %c0] -> %x[%s] : !cake.global<?x102xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
  }
}
