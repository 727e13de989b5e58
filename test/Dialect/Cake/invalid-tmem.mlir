// The tensor-memory family's type and op verifiers (hw.tmem-shape and the
// operand rules they share with cake.mma). Each case's near miss is in the
// same module or the round trip (tmem.mlir).
// RUN: cake-opt %s -split-input-file -verify-diagnostics

// A one-CTA tile has 128 rows, one a lane (the near miss: 128).
// expected-error @+1 {{[hw.tmem-shape] expected 128 rows, one a lane of tensor memory; got 64}}
module attributes {t = !cake.tmem<1 x 64x128xf32>, ok = !cake.tmem<1 x 128x128xf32>} {}

// -----

// expected-error @+1 {{[hw.tmem-shape] expected f32, i32, f16 or bf16 elements, got 'f64'}}
module attributes {t = !cake.tmem<1 x 128x128xf64>} {}

// -----

// One bf16 is half a column (the near miss: two).
// expected-error @+1 {{[hw.tmem-shape] a row of 1 x 'bf16' does not fill whole 32-bit columns}}
module attributes {t = !cake.tmem<1 x 128x1xbf16>, ok = !cake.tmem<1 x 128x2xbf16>} {}

// -----

// Three stages of 192 columns; the near miss: 2 x 256 (all 512), or 1024
// bf16 (512 columns).
// expected-error @+1 {{[hw.tmem-shape] 3 stages of 192 columns are more than the 512 columns of tensor memory}}
module attributes {t = !cake.tmem<3 x 128x192xf32>, ok = !cake.tmem<2 x 128x256xf32>, ok2 = !cake.tmem<1 x 128x1024xbf16>} {}

// -----

// expected-error @+1 {{[resource.stage-count] expected a stage count >= 1, got 0}}
module attributes {t = !cake.tmem<0 x 128x128xf32>} {}

// -----

// expected-error @+1 {{expected `stages x rows x columns x type`, got 3 tile dimensions}}
module attributes {t = !cake.tmem<1 x 2x128x128xf32>} {}

// -----

cake.kernel @ring_and_tmem(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<2 x 128x256xf32>
  // expected-error @+1 {{[sync.fill-kind] a pipe over tensor memory holds that one buffer; its stages complete with tcgen05.commit, a ring's with its copies}}
  %p = cake.pipe %a, %acc : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.tmem<2 x 128x256xf32>
  cake.role "r" warps(1) {}
}

// -----

// The accumulator's shape is A's rows by B's rows.
cake.kernel @mma_shape(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<2 x 128x256xf32>
  %ap = cake.pipe %acc : !cake.tmem<2 x 128x256xf32>
  cake.role "mma" warps(1) {
    cake.tiles (%m) in (%n) {
      %t = cake.pipe.acquire %ap : !cake.pipe<2>
      %s = cake.pipe.wait %p : !cake.pipe<2>
      %true = arith.constant true
      // expected-error @+1 {{[dataflow.mma-operands] expected a 128x128 tensor-memory tile for A 128x64 and B 128x64, got 128x256}}
      cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %true
        : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.tmem<2 x 128x256xf32>
    }
  }
}

// -----

// bf16 products accumulate in f32 only.
cake.kernel @mma_accumulator(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<1 x 128x256xi32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x256xi32>
  cake.role "mma" warps(1) {
    cake.tiles (%m) in (%n) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      %s = cake.pipe.wait %p : !cake.pipe<2>
      %true = arith.constant true
      // expected-error @+1 {{[hw.tmem-shape] 'bf16' operands cannot accumulate into 'i32'}}
      cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %true
        : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 256x64xbf16, swizzle = 128>, !cake.tmem<1 x 128x256xi32>
    }
  }
}

// -----

// N = 8 is an mma.sync width, not a tcgen05 one (M = 128 takes N in steps
// of 16; the near miss is every other case here, N = 256).
cake.kernel @mma_n(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 8x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 8x64xbf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<1 x 128x8xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x8xf32>
  cake.role "mma" warps(1) {
    cake.tiles (%m) in (%n) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      %s = cake.pipe.wait %p : !cake.pipe<2>
      %true = arith.constant true
      // expected-error @+1 {{[hw.tmem-shape] tile M=128 N=8 K=64 of 'bf16' is not a whole number of tcgen05.mma instructions (N a multiple of 16, K a multiple of 16)}}
      cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %true
        : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 8x64xbf16, swizzle = 128>, !cake.tmem<1 x 128x8xf32>
    }
  }
}

// -----

cake.kernel @mma_elements(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 256x64xf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 256x64xf16, swizzle = 128>
  %acc = cake.tmem : !cake.tmem<1 x 128x256xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x256xf32>
  cake.role "mma" warps(1) {
    cake.tiles (%m) in (%n) {
      %t = cake.pipe.acquire %ap : !cake.pipe<1>
      %s = cake.pipe.wait %p : !cake.pipe<2>
      %true = arith.constant true
      // expected-error @+1 {{[dataflow.element-type] expected A and B element types to match, got 'bf16' and 'f16'}}
      cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %true
        : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 256x64xf16, swizzle = 128>, !cake.tmem<1 x 128x256xf32>
    }
  }
}

// -----

// Loads read whole 8-column pieces: 12 columns is not (the near misses:
// 8 and 32 columns, in tmem.mlir).
cake.kernel @load_width(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %acc = cake.tmem : !cake.tmem<1 x 128x256xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x256xf32>
  cake.role "epilogue" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %w = cake.pipe.wait %ap : !cake.pipe<1>
      // expected-error @+1 {{[hw.tmem-shape] expected a width of whole 8-element pieces up to 256, got 12}}
      %f = cake.tmem.load %acc[%w] : !cake.tmem<1 x 128x256xf32> -> !cake.frag<128x12xf32>
    }
  }
}

// -----

// A constant column past the stage (the near miss: columns 224 to 256).
cake.kernel @load_columns(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %acc = cake.tmem : !cake.tmem<1 x 128x256xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x256xf32>
  cake.role "epilogue" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %w = cake.pipe.wait %ap : !cake.pipe<1>
      %c224 = arith.constant 224 : index
      %c240 = arith.constant 240 : index
      %ok = cake.tmem.load %acc[%w] columns %c224 : !cake.tmem<1 x 128x256xf32> -> !cake.frag<128x32xf32>
      // expected-error @+1 {{[hw.tmem-shape] 32 columns from column 240 are not whole 8-element pieces within the 256 of a stage}}
      %f = cake.tmem.load %acc[%w] columns %c240 : !cake.tmem<1 x 128x256xf32> -> !cake.frag<128x32xf32>
    }
  }
}

// -----

cake.kernel @load_rows(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %acc = cake.tmem : !cake.tmem<1 x 128x256xf32>
  %ap = cake.pipe %acc : !cake.tmem<1 x 128x256xf32>
  cake.role "epilogue" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %w = cake.pipe.wait %ap : !cake.pipe<1>
      // expected-error @+1 {{[dataflow.fragment-shape] expected a fragment of the buffer's 128 rows}}
      %f = cake.tmem.load %acc[%w] : !cake.tmem<1 x 128x256xf32> -> !cake.frag<64x32xf32>
    }
  }
}

// -----

// An A operand in tensor memory holds 16-bit elements (the near miss, in
// tmem.mlir: bf16).
cake.kernel @a_in_tmem_f32(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %w = cake.ring : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %wp = cake.pipe %w : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %p = cake.tmem : !cake.tmem<1 x 128x64xf32>
  %pp = cake.pipe %p : !cake.tmem<1 x 128x64xf32>
  %y = cake.tmem : !cake.tmem<1 x 128x256xf32>
  %yp = cake.pipe %y : !cake.tmem<1 x 128x256xf32>
  cake.role "mma" warps(1) {
    cake.tiles (%m) in (%n) {
      %t = cake.pipe.acquire %yp : !cake.pipe<1>
      %u = cake.pipe.wait %pp : !cake.pipe<1>
      %s = cake.pipe.wait %wp : !cake.pipe<2>
      %false = arith.constant false
      // expected-error @+1 {{[hw.tmem-shape] an A operand in tensor memory holds f16 or bf16 (two a column), got 'f32'}}
      cake.tmem.mma %p[%u], %w[%s], %y[%t] accumulate %false
        : !cake.tmem<1 x 128x64xf32>, !cake.ring<2 x 256x64xbf16, swizzle = 128>, !cake.tmem<1 x 128x256xf32>
    }
  }
}

// -----

// A's K (columns of its stage) must be B's (the near miss: 64 and 64).
cake.kernel @a_in_tmem_k(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %w = cake.ring : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %wp = cake.pipe %w : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %p = cake.tmem : !cake.tmem<1 x 128x128xbf16>
  %pp = cake.pipe %p : !cake.tmem<1 x 128x128xbf16>
  %y = cake.tmem : !cake.tmem<1 x 128x256xf32>
  %yp = cake.pipe %y : !cake.tmem<1 x 128x256xf32>
  cake.role "mma" warps(1) {
    cake.tiles (%m) in (%n) {
      %t = cake.pipe.acquire %yp : !cake.pipe<1>
      %u = cake.pipe.wait %pp : !cake.pipe<1>
      %s = cake.pipe.wait %wp : !cake.pipe<2>
      %false = arith.constant false
      // expected-error @+1 {{[dataflow.mma-operands] expected A and B to share K, got A 128x128 and B 256x64}}
      cake.tmem.mma %p[%u], %w[%s], %y[%t] accumulate %false
        : !cake.tmem<1 x 128x128xbf16>, !cake.ring<2 x 256x64xbf16, swizzle = 128>, !cake.tmem<1 x 128x256xf32>
    }
  }
}

// -----

// A stage of 16-bit elements takes them in pieces of 16 (8 columns; the
// near miss, in tmem.mlir: 32).
cake.kernel @store_width(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %p = cake.tmem : !cake.tmem<1 x 128x64xbf16>
  %pp = cake.pipe %p : !cake.tmem<1 x 128x64xbf16>
  cake.role "act" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %u = cake.pipe.acquire %pp : !cake.pipe<1>
      %r = cake.frag.zero : !cake.frag<128x8xbf16>
      // expected-error @+1 {{[hw.tmem-shape] expected a width of whole 16-element pieces up to 64, got 8}}
      cake.tmem.store %r -> %p[%u] : !cake.frag<128x8xbf16> -> !cake.tmem<1 x 128x64xbf16>
    }
  }
}

// -----

// A constant column past the stage (the near miss: from column 32).
cake.kernel @store_columns(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %p = cake.tmem : !cake.tmem<1 x 128x64xbf16>
  %pp = cake.pipe %p : !cake.tmem<1 x 128x64xbf16>
  cake.role "act" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %u = cake.pipe.acquire %pp : !cake.pipe<1>
      %r = cake.frag.zero : !cake.frag<128x32xbf16>
      %c32 = arith.constant 32 : index
      %c48 = arith.constant 48 : index
      cake.tmem.store %r -> %p[%u] columns %c32 : !cake.frag<128x32xbf16> -> !cake.tmem<1 x 128x64xbf16>
      // expected-error @+1 {{[hw.tmem-shape] 32 columns from column 48 are not whole 16-element pieces within the 64 of a stage}}
      cake.tmem.store %r -> %p[%u] columns %c48 : !cake.frag<128x32xbf16> -> !cake.tmem<1 x 128x64xbf16>
    }
  }
}

// -----

cake.kernel @store_type(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %p = cake.tmem : !cake.tmem<1 x 128x64xbf16>
  %pp = cake.pipe %p : !cake.tmem<1 x 128x64xbf16>
  cake.role "act" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %u = cake.pipe.acquire %pp : !cake.pipe<1>
      %r = cake.frag.zero : !cake.frag<128x32xf32>
      // expected-error @+1 {{[dataflow.element-type] expected 'bf16' elements, got 'f32'}}
      cake.tmem.store %r -> %p[%u] : !cake.frag<128x32xf32> -> !cake.tmem<1 x 128x64xbf16>
    }
  }
}

// -----

// f16 operands may accumulate into f16, so A could name D's own buffer.
cake.kernel @a_is_d(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %w = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %wp = cake.pipe %w : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %d = cake.tmem : !cake.tmem<1 x 128x64xf16>
  %dp = cake.pipe %d : !cake.tmem<1 x 128x64xf16>
  cake.role "mma" warps(1) {
    cake.tiles (%m) in (%n) {
      %t = cake.pipe.acquire %dp : !cake.pipe<1>
      %s = cake.pipe.wait %wp : !cake.pipe<2>
      %false = arith.constant false
      // expected-error @+1 {{[dataflow.mma-operands] A and D are the same tensor-memory buffer}}
      cake.tmem.mma %d[%t], %w[%s], %d[%t] accumulate %false
        : !cake.tmem<1 x 128x64xf16>, !cake.ring<2 x 64x64xf16, swizzle = 128>, !cake.tmem<1 x 128x64xf16>
    }
  }
}

// -----

// An mn_major B is K x N: its rows count K (the near miss, in tmem.mlir:
// a 64 x 64 tile for K = 64).
cake.kernel @mn_major_k(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %v = cake.ring : !cake.ring<2 x 32x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %v : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 32x64xbf16, swizzle = 128>
  %o = cake.tmem : !cake.tmem<1 x 128x64xf32>
  %op = cake.pipe %o : !cake.tmem<1 x 128x64xf32>
  cake.role "mma" warps(1) {
    cake.tiles (%m) in (%n) {
      %t = cake.pipe.acquire %op : !cake.pipe<1>
      %s = cake.pipe.wait %p : !cake.pipe<2>
      %false = arith.constant false
      // expected-error @+1 {{[dataflow.mma-operands] expected A and B to share K, got A 128x64 and B 32x64 (mn_major: K x N)}}
      cake.tmem.mma %a[%s], %v[%s] mn_major, %o[%t] accumulate %false
        : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 32x64xbf16, swizzle = 128>, !cake.tmem<1 x 128x64xf32>
    }
  }
}
