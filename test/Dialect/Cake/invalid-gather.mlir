// cake.gather's op verifier: hw.gather-copy (16-byte pieces, a rank-2
// source, an i32 index list, a loaded list as long as the tile) and
// dataflow.element-type; the near misses follow their cases.
// RUN: cake-opt %s -split-input-file -verify-diagnostics

cake.kernel @wide_rows(%X: !cake.global<?x?xf16>, %I: !cake.global<?xi32>, %p: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x384xf16, swizzle = 0>
  %pp = cake.pipe %x : !cake.ring<2 x 64x384xf16, swizzle = 0>
  cake.role "r" warps(1) {
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[hw.gather-copy] the ring's rows are 768 bytes; a gather copies rows of 16, 32, 64, 128, 256 or 512 bytes}}
    cake.gather %X[%I[%p], %p] -> %x[%s] : !cake.global<?x?xf16>, !cake.global<?xi32> -> !cake.ring<2 x 64x384xf16, swizzle = 0>
  }
}

// -----

cake.kernel @ragged_rows(%X: !cake.global<?x?xf16>, %I: !cake.global<?xi32>, %p: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x24xf16, swizzle = 0>
  %pp = cake.pipe %x : !cake.ring<2 x 64x24xf16, swizzle = 0>
  cake.role "r" warps(1) {
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[hw.gather-copy] the ring's rows are 48 bytes}}
    cake.gather %X[%I[%p], %p] -> %x[%s] : !cake.global<?x?xf16>, !cake.global<?xi32> -> !cake.ring<2 x 64x24xf16, swizzle = 0>
  }
}

// -----

cake.kernel @source_pitch(%X: !cake.global<?x100xf16>, %I: !cake.global<?xi32>, %p: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[hw.gather-copy] the source's rows are 200 bytes, not a multiple of 16}}
    cake.gather %X[%I[%p], %p] -> %x[%s] : !cake.global<?x100xf16>, !cake.global<?xi32> -> !cake.ring<2 x 64x64xf16, swizzle = 128>
  }
}

// -----

cake.kernel @index_type(%X: !cake.global<?x?xf16>, %I: !cake.global<?xi64>, %p: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[hw.gather-copy] expected the index list to be a rank-1 tensor of i32, got '!cake.global<?xi64>'}}
    cake.gather %X[%I[%p], %p] -> %x[%s] : !cake.global<?x?xf16>, !cake.global<?xi64> -> !cake.ring<2 x 64x64xf16, swizzle = 128>
  }
}

// -----

cake.kernel @source_rank(%X: !cake.global<?x?x?xf16>, %I: !cake.global<?xi32>, %p: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[hw.gather-copy] gathers rows of a rank-2 tensor, got rank 3}}
    cake.gather %X[%I[%p], %p] -> %x[%s] : !cake.global<?x?x?xf16>, !cake.global<?xi32> -> !cake.ring<2 x 64x64xf16, swizzle = 128>
  }
}

// -----

cake.kernel @element_type(%X: !cake.global<?x?xbf16>, %I: !cake.global<?xi32>, %p: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.element-type] expected the source and ring element types to match, got 'bf16' and 'f16'}}
    cake.gather %X[%I[%p], %p] -> %x[%s] : !cake.global<?x?xbf16>, !cake.global<?xi32> -> !cake.ring<2 x 64x64xf16, swizzle = 128>
  }
}

// -----

// Near miss: 128-byte rows from a source of 208-byte rows (D = 104).
cake.kernel @near_miss(%X: !cake.global<?x104xf16>, %I: !cake.global<?xi32>, %p: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    cake.gather %X[%I[%p], %p] -> %x[%s] : !cake.global<?x104xf16>, !cake.global<?xi32> -> !cake.ring<2 x 64x64xf16, swizzle = 128>
  }
}

// -----

cake.kernel @indices_rows(%X: !cake.global<?x?xf16>, %I: !cake.global<?xi32>, %p: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %l = cake.gather.indices %I[%p] : !cake.global<?xi32> -> !cake.indices<32>
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[hw.gather-copy] the loaded list holds 32 entries, the ring's tile 64 rows: a list covers exactly the rows it fills}}
    cake.gather %X[%l, %p] -> %x[%s] : !cake.global<?x?xf16>, !cake.indices<32> -> !cake.ring<2 x 64x64xf16, swizzle = 128>
  }
}

// -----

cake.kernel @indices_type(%X: !cake.global<?x?xf16>, %I: !cake.global<?xi64>, %p: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    // expected-error @+1 {{[hw.gather-copy] expected the index list to be a rank-1 tensor of i32, got '!cake.global<?xi64>'}}
    %l = cake.gather.indices %I[%p] : !cake.global<?xi64> -> !cake.indices<64>
  }
}

// -----

cake.kernel @indices_too_long(%X: !cake.global<?x?xf16>, %I: !cake.global<?xi32>, %p: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    // expected-error @+1 {{[hw.gather-copy] a loaded index list holds 1 to 256 entries (512 given)}}
    %l = cake.gather.indices %I[%p] : !cake.global<?xi32> -> !cake.indices<512>
  }
}

// -----

cake.kernel @no_position(%X: !cake.global<?x?xf16>, %I: !cake.global<?xi32>, %p: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[hw.gather-copy] an index list in global memory needs the position of the tile's first row in it ([%position])}}
    cake.gather %X[%I, %p] -> %x[%s] : !cake.global<?x?xf16>, !cake.global<?xi32> -> !cake.ring<2 x 64x64xf16, swizzle = 128>
  }
}

// -----

cake.kernel @loaded_position(%X: !cake.global<?x?xf16>, %I: !cake.global<?xi32>, %p: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %l = cake.gather.indices %I[%p] : !cake.global<?xi32> -> !cake.indices<64>
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    // expected-error @+1 {{[hw.gather-copy] a loaded index list already holds its position; drop [%position]}}
    cake.gather %X[%l[%p], %p] -> %x[%s] : !cake.global<?x?xf16>, !cake.indices<64> -> !cake.ring<2 x 64x64xf16, swizzle = 128>
  }
}

// -----

// Near miss: a loaded list of the tile's 64 rows (and one of 256, the most).
cake.kernel @indices_near_miss(%X: !cake.global<?x?xf16>, %I: !cake.global<?xi32>, %p: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %pp = cake.pipe %x : !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %l = cake.gather.indices %I[%p] : !cake.global<?xi32> -> !cake.indices<64>
    %w = cake.gather.indices %I[%p] : !cake.global<?xi32> -> !cake.indices<256>
    %s = cake.pipe.acquire %pp : !cake.pipe<2>
    cake.gather %X[%l, %p] -> %x[%s] : !cake.global<?x?xf16>, !cake.indices<64> -> !cake.ring<2 x 64x64xf16, swizzle = 128>
  }
}
