// Ring, pipe, TMA and fragment load/store verifiers.
// RUN: cake-opt %s -split-input-file -verify-diagnostics

cake.kernel @pipe_depths() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %b = cake.ring : !cake.ring<3 x 64x64xf16, swizzle = 128>
  // expected-error @+1 {{[sync.pipe-depth] expected every ring to have the pipe's 2 stages, ring #1 has 3}}
  %p = cake.pipe %a, %b : !cake.ring<2 x 64x64xf16, swizzle = 128>, !cake.ring<3 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {}
}

// -----

cake.kernel @ring_in_role() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    // expected-error @+1 {{'cake.ring' op expects parent op 'cake.kernel'}}
    %a = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  }
}

// -----

cake.kernel @tma_coords(%A: !cake.global<?x?xf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-error @+1 {{[hw.tma-rank] expected 2 coordinates for a rank-2 tensor, got 1}}
    cake.tma.load %A[%c0] -> %a[%s] : !cake.global<?x?xf16> -> !cake.ring<2 x 64x64xf16, swizzle = 128>
  }
}

// -----

cake.kernel @tma_dtype(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.element-type] expected ring and tensor element types to match, got 'f16' and 'bf16'}}
    cake.tma.load %A[%c0, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xf16, swizzle = 128>
  }
}

// -----

cake.kernel @tma_rank(%A: !cake.global<?xf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-error @+1 {{expected the ring tile rank to be at most the tensor rank 1, got 2}}
    cake.tma.load %A[%c0] -> %a[%s] : !cake.global<?xf16> -> !cake.ring<2 x 64x64xf16, swizzle = 128>
  }
}

// -----

cake.kernel @tma_box_dim(%A: !cake.global<?x?xf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 512x64xf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 512x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-error @+1 {{[hw.tma-box] box dimension 512 exceeds the copy engine's limit of 256 (box [512, 64])}}
    cake.tma.load %A[%c0, %c0] -> %a[%s] : !cake.global<?x?xf16> -> !cake.ring<2 x 512x64xf16, swizzle = 128>
  }
}

// -----

cake.kernel @tma_inner_bytes(%A: !cake.global<?x?xf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x4xf16, swizzle = 0>
  %p = cake.pipe %a : !cake.ring<2 x 64x4xf16, swizzle = 0>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-error @+1 {{[hw.tma-box] the box's inner dimension spans 8 bytes, expected a multiple of 16}}
    cake.tma.load %A[%c0, %c0] -> %a[%s] : !cake.global<?x?xf16> -> !cake.ring<2 x 64x4xf16, swizzle = 0>
  }
}

// -----

// The copy engine has no f32 minimum or maximum, and sums only 32-bit
// floats and integers and 16-bit floats.
cake.kernel @tma_reduce_f32_max(%C: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<1 x 64x32xf32, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 64x32xf32, swizzle = 128>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.wait %p : !cake.pipe<1>
    // expected-error @+1 {{[hw.tma-reduce] the copy engine cannot reduce 'f32' elements by max (min and max take f16, bf16 or i32)}}
    cake.tma.store %a[%s] -> %C[%c0, %c0] reduce max : !cake.ring<1 x 64x32xf32, swizzle = 128> -> !cake.global<?x?xf32>
  }
}

// -----

cake.kernel @tma_reduce_f64_sum(%C: !cake.global<?x?xf64>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<1 x 64x16xf64, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 64x16xf64, swizzle = 128>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.wait %p : !cake.pipe<1>
    // expected-error @+1 {{[hw.tma-reduce] the copy engine cannot reduce 'f64' elements by sum (sum takes f32, f16, bf16 or i32)}}
    cake.tma.store %a[%s] -> %C[%c0, %c0] reduce sum : !cake.ring<1 x 64x16xf64, swizzle = 128> -> !cake.global<?x?xf64>
  }
}

// -----

cake.kernel @tma_store_dtype(%C: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<1 x 64x64xf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.wait %p : !cake.pipe<1>
    // expected-error @+1 {{expected ring and tensor element types to match, got 'f16' and 'f32'}}
    cake.tma.store %a[%s] -> %C[%c0, %c0] : !cake.ring<1 x 64x64xf16, swizzle = 128> -> !cake.global<?x?xf32>
  }
}

// -----

cake.kernel @smem_write_shape() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<1 x 64x64xf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<1>
    %z = cake.frag.zero : !cake.frag<64x32xf16>
    // expected-error @+1 {{[dataflow.box-shape] expected the fragment shape [64, 32] to equal the ring tile [64, 64]}}
    cake.smem.write %z -> %a[%s] : !cake.frag<64x32xf16> -> !cake.ring<1 x 64x64xf16, swizzle = 128>
  }
}

// -----

cake.kernel @smem_read_shape() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<1 x 64x64xf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 64x64xf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<1>
    // expected-error @+1 {{[dataflow.box-shape] expected the fragment shape [64, 32] to equal the ring tile [64, 64]}}
    %v = cake.smem.read %a[%s] : !cake.ring<1 x 64x64xf16, swizzle = 128> -> !cake.frag<64x32xf16>
  }
}

// -----

cake.kernel @smem_read_type() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<1 x 64x64xf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 64x64xf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<1>
    // expected-error @+1 {{[dataflow.element-type] expected fragment and ring element types to match, got 'f32' and 'f16'}}
    %v = cake.smem.read %a[%s] : !cake.ring<1 x 64x64xf16, swizzle = 128> -> !cake.frag<64x64xf32>
  }
}

// -----

cake.kernel @rows_of_a_line(%V: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : index
    %r = cake.frag.zero : !cake.frag<1x64xf32>
    // expected-error @+1 {{[dataflow.box-shape] `rows` bounds the rows of a tile (a fragment of two non-unit dimensions in a tensor of rank 2 or more), got [1, 64] in a rank-2 tensor}}
    cake.store %r -> %V[%c0, %c0] rows %c7 : !cake.frag<1x64xf32> -> !cake.global<?x?xf32>
  }
}

// -----

cake.kernel @transposed_line(%V: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %r = cake.frag.zero : !cake.frag<1x64xf32>
    // expected-error @+1 {{[dataflow.box-shape] a transposed store writes a tile (a fragment of two non-unit dimensions in a tensor of rank 2 or more), got [1, 64] in a rank-2 tensor}}
    cake.store %r -> %V[%c0, %c0] transposed : !cake.frag<1x64xf32> -> !cake.global<?x?xf32>
  }
}

// -----

cake.kernel @transposed_bytes(%V: !cake.global<?x?xi8>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %r = cake.frag.zero : !cake.frag<64x64xi8>
    // expected-error @+1 {{[dataflow.element-type] a transposed store writes 16- or 32-bit elements, not 'i8'}}
    cake.store %r -> %V[%c0, %c0] transposed : !cake.frag<64x64xi8> -> !cake.global<?x?xi8>
  }
}

// -----

// Near miss: a transposed tile of f32 and one of bf16.
cake.kernel @transposed_tiles(%V: !cake.global<?x?xf32>, %W: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %r = cake.frag.zero : !cake.frag<64x16xf32>
    cake.store %r -> %V[%c0, %c0] transposed : !cake.frag<64x16xf32> -> !cake.global<?x?xf32>
    %h = cake.frag.zero : !cake.frag<64x16xbf16>
    cake.store %h -> %W[%c0, %c0] transposed : !cake.frag<64x16xbf16> -> !cake.global<?x?xbf16>
  }
}

// -----

cake.kernel @every_not_a_warp(%G: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %r = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.box-shape] every(8) must be a multiple of 16 (a warp's rows) dividing the 64 rows of the tile}}
    cake.store %r -> %G[%c0, %c0] every(8) : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
  }
}

// -----

cake.kernel @every_not_dividing(%G: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %r = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.box-shape] every(48) must be a multiple of 16 (a warp's rows) dividing the 64 rows of the tile}}
    cake.store %r -> %G[%c0, %c0] every(48) : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
  }
}

// -----

cake.kernel @every_transposed(%G: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %r = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.box-shape] every(16) keeps rows of an accumulator-shaped tile (64·W rows, a multiple of 8 columns, not transposed), got [64, 64] transposed}}
    cake.store %r -> %G[%c0, %c0] transposed every(16) : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
  }
}

// -----

cake.kernel @every_of_a_line(%G: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %r = cake.frag.zero : !cake.frag<1x64xf32>
    // expected-error @+1 {{[dataflow.box-shape] every(16) keeps rows of an accumulator-shaped tile (64·W rows, a multiple of 8 columns, not transposed), got [1, 64]}}
    cake.store %r -> %G[%c0, %c0] every(16) : !cake.frag<1x64xf32> -> !cake.global<?x?xf32>
  }
}

// -----

cake.kernel @every_of_a_column(%G: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %r = cake.frag.zero : !cake.frag<64x1xf32>
    // expected-error @+1 {{[dataflow.box-shape] every(16) keeps rows of an accumulator-shaped tile (64·W rows, a multiple of 8 columns, not transposed), got [64, 1]}}
    cake.store %r -> %G[%c0, %c0] every(16) : !cake.frag<64x1xf32> -> !cake.global<?x?xf32>
  }
}

// -----

cake.kernel @every_bytes(%G: !cake.global<?x?xi8>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %r = cake.frag.zero : !cake.frag<64x64xi8>
    // expected-error @+1 {{[dataflow.element-type] an every(S) store writes 16- or 32-bit elements, not 'i8'}}
    cake.store %r -> %G[%c0, %c0] every(16) : !cake.frag<64x64xi8> -> !cake.global<?x?xi8>
  }
}

// -----

// Near miss: every 16th row, every 32nd and every 64th (one row), bounded.
cake.kernel @every_rows(%G: !cake.global<?x?xf32>, %H: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %r = cake.frag.zero : !cake.frag<64x64xf32>
    cake.store %r -> %G[%c0, %c0] every(16) : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
    cake.store %r -> %G[%c0, %c0] every(32) rows %c3 : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
    %h = cake.frag.zero : !cake.frag<64x64xbf16>
    cake.store %h -> %H[%c0, %c0] every(64) : !cake.frag<64x64xbf16> -> !cake.global<?x?xbf16>
  }
}

// -----

cake.kernel @rows_of_a_rank1_load(%V: !cake.global<?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %c7 = arith.constant 7 : index
    // expected-error @+1 {{[dataflow.box-shape] `rows` bounds the rows of a tile (a fragment of two non-unit dimensions in a tensor of rank 2 or more), got [64, 1] in a rank-1 tensor}}
    %r = cake.load %V[%c0] rows %c7 : !cake.global<?xf32> -> !cake.frag<64x1xf32>
  }
}

// -----

cake.kernel @load_box(%V: !cake.global<?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{expected a fragment whose non-unit dimensions fit a rank-1 box, got [64, 64]}}
    %v = cake.load %V[%c0] : !cake.global<?xf32> -> !cake.frag<64x64xf32>
  }
}

// -----

cake.kernel @load_pad(%V: !cake.global<?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    // expected-note @+1 {{prior use here}}
    %p = arith.constant 0 : i32
    // expected-error @+1 {{use of value '%p' expects different type than prior uses: 'f32' vs 'i32'}}
    %v = cake.load %V[%c0] pad %p : !cake.global<?xf32> -> !cake.frag<64xf32>
  }
}

// -----

cake.kernel @store_dtype(%V: !cake.global<?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %z = cake.frag.zero : !cake.frag<64xf16>
    // expected-error @+1 {{expected fragment and tensor element types to match, got 'f16' and 'f32'}}
    cake.store %z -> %V[%c0] : !cake.frag<64xf16> -> !cake.global<?xf32>
  }
}

// -----

cake.kernel @scalar_load_coords(%W: !cake.global<?x4xi32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{[dataflow.box-shape] expected 2 coordinates for a rank-2 tensor, got 1}}
    %v = cake.scalar.load %W[%c0] : !cake.global<?x4xi32>
  }
}

// -----

cake.kernel @scalar_load_half(%W: !cake.global<?xf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{[dataflow.element-type] expected an i32 or i64 tensor (for an index) or an f32 one, got 'f16'}}
    %v = cake.scalar.load %W[%c0] : !cake.global<?xf16>
  }
}

// -----

// A pipe over a value that is not a ring says so (the parser reported
// nothing before: found by the cost fuzz target, 2026-12-01).
cake.kernel @pipe_of_index() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-error @+1 {{'cake.pipe' op expected rings or tensor memory, got 'index'}}
  %p = cake.pipe %undefined : index
}
