// cake.smem.reduce's op verifier: dataflow.fragment-shape (a stage at
// least, rank-2 tiles, 16..256 rows in slabs of 16, one value per row)
// and dataflow.element-type (bf16, f16 or f32 elements, an f32 result);
// the near misses follow their cases.
// RUN: cake-opt %s -split-input-file -verify-diagnostics

cake.kernel @no_stage(%C: !cake.global<?x64xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %c = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %c : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(2) {
    // expected-error @+1 {{[dataflow.fragment-shape] expected at least one stage (the tile's column blocks)}}
    %n = cake.smem.reduce sum squared %c[] : !cake.ring<2 x 128x64xbf16, swizzle = 128> -> !cake.frag<1x128xf32>
  }
}

// -----

cake.kernel @rank3(%C: !cake.global<?x64xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %c = cake.ring : !cake.ring<2 x 2x64x64xbf16, swizzle = 128>
  %p = cake.pipe %c : !cake.ring<2 x 2x64x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(2) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.fragment-shape] expected a rank-2 ring tile, got rank 3}}
    %n = cake.smem.reduce sum %c[%s] : !cake.ring<2 x 2x64x64xbf16, swizzle = 128> -> !cake.frag<1x2xf32>
  }
}

// -----

cake.kernel @ragged_rows(%C: !cake.global<?x64xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %c = cake.ring : !cake.ring<2 x 24x64xbf16, swizzle = 128>
  %p = cake.pipe %c : !cake.ring<2 x 24x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(2) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.fragment-shape] expected the tile's rows to be a multiple of 16 up to 256, got 24}}
    %n = cake.smem.reduce sum %c[%s] : !cake.ring<2 x 24x64xbf16, swizzle = 128> -> !cake.frag<1x24xf32>
  }
}

// -----

cake.kernel @too_many_rows(%C: !cake.global<?x8xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %c = cake.ring : !cake.ring<2 x 512x8xbf16, swizzle = 0>
  %p = cake.pipe %c : !cake.ring<2 x 512x8xbf16, swizzle = 0>
  cake.role "r" warpgroups(2) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.fragment-shape] expected the tile's rows to be a multiple of 16 up to 256, got 512}}
    %n = cake.smem.reduce sum %c[%s] : !cake.ring<2 x 512x8xbf16, swizzle = 0> -> !cake.frag<1x512xf32>
  }
}

// -----

cake.kernel @int_elements(%C: !cake.global<?x64xi8>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %c = cake.ring : !cake.ring<2 x 128x64xi8, swizzle = 64>
  %p = cake.pipe %c : !cake.ring<2 x 128x64xi8, swizzle = 64>
  cake.role "r" warpgroups(2) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.element-type] expected bf16, f16 or f32 ring elements, got 'i8'}}
    %n = cake.smem.reduce sum %c[%s] : !cake.ring<2 x 128x64xi8, swizzle = 64> -> !cake.frag<1x128xf32>
  }
}

// -----

cake.kernel @short_rows(%C: !cake.global<?x4xf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %c = cake.ring : !cake.ring<2 x 128x4xf16, swizzle = 0>
  %p = cake.pipe %c : !cake.ring<2 x 128x4xf16, swizzle = 0>
  cake.role "r" warpgroups(2) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.fragment-shape] expected the tile's rows to be a multiple of 16 bytes (read in 16-byte pieces), got 8}}
    %n = cake.smem.reduce sum %c[%s] : !cake.ring<2 x 128x4xf16, swizzle = 0> -> !cake.frag<1x128xf32>
  }
}

// -----

cake.kernel @half_result(%C: !cake.global<?x64xf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %c = cake.ring : !cake.ring<2 x 128x64xf16, swizzle = 128>
  %p = cake.pipe %c : !cake.ring<2 x 128x64xf16, swizzle = 128>
  cake.role "r" warpgroups(2) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.element-type] expected an f32 result (rows are reduced in fp32), got 'f16'}}
    %n = cake.smem.reduce sum squared %c[%s] : !cake.ring<2 x 128x64xf16, swizzle = 128> -> !cake.frag<1x128xf16>
  }
}

// -----

cake.kernel @not_a_row_each(%C: !cake.global<?x64xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %c = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %c : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(2) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.fragment-shape] expected a 1x128 or 128x1 result (one value per tile row), got '!cake.frag<1x64xf32>'}}
    %n = cake.smem.reduce sum squared %c[%s] : !cake.ring<2 x 128x64xbf16, swizzle = 128> -> !cake.frag<1x64xf32>
  }
}

// -----

// Near miss of the three above: f16 elements, 48 rows, either orientation.
cake.kernel @near_miss(%C: !cake.global<?x64xf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %c = cake.ring : !cake.ring<2 x 48x64xf16, swizzle = 128>
  %p = cake.pipe %c : !cake.ring<2 x 48x64xf16, swizzle = 128>
  cake.role "r" warpgroups(2) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %n = cake.smem.reduce min squared %c[%s] : !cake.ring<2 x 48x64xf16, swizzle = 128> -> !cake.frag<1x48xf32>
    %r = cake.smem.reduce sum %c[%s] : !cake.ring<2 x 48x64xf16, swizzle = 128> -> !cake.frag<48x1xf32>
  }
}
