// Fragment op verifiers: convert, map, reduce, scan, argmin, splat, iota.
// RUN: cake-opt %s -split-input-file -verify-diagnostics

cake.kernel @convert_shape() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] expected the same shape, got [64, 64] and [64, 32]}}
    %c = cake.frag.convert %z : !cake.frag<64x64xf32> -> !cake.frag<64x32xbf16>
  }
}

// -----

cake.kernel @map_broadcast() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    %b = cake.frag.zero : !cake.frag<2x64xf32>
    // expected-error @+1 {{input #1 of shape [2, 64] does not broadcast to the result shape [64, 64]}}
    %m = cake.frag.map %a, %b : (!cake.frag<64x64xf32>, !cake.frag<2x64xf32>) -> !cake.frag<64x64xf32> {
    ^bb0(%x: f32, %y: f32):
      cake.frag.yield %x : f32
    }
  }
}

// -----

cake.kernel @map_rank() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    %b = cake.frag.zero : !cake.frag<64xf32>
    // expected-error @+1 {{expected input #1 to have rank 2, got 1}}
    %m = cake.frag.map %a, %b : (!cake.frag<64x64xf32>, !cake.frag<64xf32>) -> !cake.frag<64x64xf32> {
    ^bb0(%x: f32, %y: f32):
      cake.frag.yield %x : f32
    }
  }
}

// -----

// The body is cloned once per element: an op with effects there (found by
// cake-fuzz-lower: it verified, then failed in translation) is refused.
cake.kernel @map_body_effect() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    %m = cake.frag.map %a : (!cake.frag<64x64xf32>) -> !cake.frag<64x64xf32> {
    ^bb0(%x: f32):
      // expected-error @+1 {{[dataflow.fragment-shape] frag.map's body computes one element from scalars: arith and math ops only, not cake.fence.proxy_async}}
      cake.fence.proxy_async
      cake.frag.yield %x : f32
    }
  }
}

// -----

cake.kernel @map_body_region() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    %m = cake.frag.map %a : (!cake.frag<64x64xf32>) -> !cake.frag<64x64xf32> {
    ^bb0(%x: f32):
      %c = arith.constant true
      // expected-error @+1 {{arith and math ops only, not scf.if}}
      %y = scf.if %c -> (f32) {
        scf.yield %x : f32
      } else {
        scf.yield %x : f32
      }
      cake.frag.yield %y : f32
    }
  }
}

// -----

cake.kernel @map_arg_type() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{expected body argument of type 'f32', got 'f16'}}
    %m = cake.frag.map %a : (!cake.frag<64x64xf32>) -> !cake.frag<64x64xf16> {
    ^bb0(%x: f16):
      cake.frag.yield %x : f16
    }
  }
}

// -----

cake.kernel @map_yield_type() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    %m = cake.frag.map %a : (!cake.frag<64x64xf32>) -> !cake.frag<64x64xf16> {
    ^bb0(%x: f32):
      // expected-error @+1 {{expected a value of type 'f16', got 'f32'}}
      cake.frag.yield %x : f32
    }
  }
}

// -----

cake.kernel @map_yield_count() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    %m:2 = cake.frag.map %a : (!cake.frag<64x64xf32>) -> (!cake.frag<64x64xf32>, !cake.frag<64x64xf32>) {
    ^bb0(%x: f32):
      // expected-error @+1 {{expected to yield 2 values, got 1}}
      cake.frag.yield %x : f32
    }
  }
}

// -----

cake.kernel @reduce_shape() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{expected the result shape [64, 1], got [64]}}
    %s = cake.frag.reduce sum %a : !cake.frag<64x64xf32> -> !cake.frag<64xf32>
  }
}

// -----

cake.kernel @reduce_kind() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [sum, min, max]}}
    %s = cake.frag.reduce prod %a : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>
  }
}

// -----

cake.kernel @argmin_index_type() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{expected integer indices, got 'f32'}}
    %v, %i = cake.frag.argmin %a : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>, !cake.frag<64x1xf32>
  }
}

// -----

cake.kernel @argmin_packed_f16() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf16>
    // expected-error @+1 {{[dataflow.fragment-shape] a packed argmin needs f32 values, got 'f16'}}
    %v, %i = cake.frag.argmin %a packed : !cake.frag<64x64xf16> -> !cake.frag<64x1xf16>, !cake.frag<64x1xi32>
  }
}

// -----

cake.kernel @argmin_packed_wide() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x2048xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] a packed argmin covers at most 1024 columns, got 2048}}
    %v, %i = cake.frag.argmin %a packed : !cake.frag<64x2048xf32> -> !cake.frag<64x1xf32>, !cake.frag<64x1xi32>
  }
}

// -----

cake.kernel @argmin_shape() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{expected results of shape [64, 1]}}
    %v, %i = cake.frag.argmin %a : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>, !cake.frag<1x64xi32>
  }
}

// -----

cake.kernel @splat_type() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    // expected-note @+1 {{prior use here}}
    %c = arith.constant 1.0 : f16
    // expected-error @+1 {{use of value '%c' expects different type than prior uses: 'f32' vs 'f16'}}
    %s = cake.frag.splat %c : !cake.frag<64xf32>
  }
}

// -----

cake.kernel @iota_tile() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    // expected-error @+1 {{[dataflow.fragment-shape] frag.iota makes one row or one column, not [64, 64]}}
    %i = cake.frag.iota : !cake.frag<64x64xi32>
  }
}

// -----

cake.kernel @iota_type() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    // expected-error @+1 {{[dataflow.fragment-shape] frag.iota makes i32 indices, not 'f32'}}
    %i = cake.frag.iota : !cake.frag<1x64xf32>
  }
}

// -----

cake.kernel @scan_integer() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %c0 = arith.constant 0 : index
    %a = cake.frag.iota base %c0 : !cake.frag<1x64xi32>
    // expected-error @+1 {{[dataflow.element-type] frag.scan takes float fragments, not 'i32'}}
    %s = cake.frag.scan sum %a : !cake.frag<1x64xi32>
  }
}

// -----

// Near miss: a bf16 fragment scans (float), and the result has the input's type.
cake.kernel @scan_bf16() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xbf16>
    %s = cake.frag.scan min %a : !cake.frag<64x64xbf16>
  }
}

// -----

cake.kernel @scan_kind() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [sum, min, max]}}
    %s = cake.frag.scan prod %a : !cake.frag<64x64xf32>
  }
}

// -----

cake.kernel @row_out_of_range() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x128xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] row 64 is not a row of a fragment of 64 rows}}
    %r = cake.frag.row %z[64] : !cake.frag<64x128xf32> -> !cake.frag<1x128xf32>
  }
}

// -----

cake.kernel @row_shape() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x128xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] expected a result of shape [1, 128], got [1, 64]}}
    %r = cake.frag.row %z[3] : !cake.frag<64x128xf32> -> !cake.frag<1x64xf32>
  }
}

// -----

cake.kernel @row_type() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x128xf32>
    // expected-error @+1 {{[dataflow.element-type] frag.row keeps the element type: expected 'f32', got 'i32'}}
    %r = cake.frag.row %z[3] : !cake.frag<64x128xf32> -> !cake.frag<1x128xi32>
  }
}

// -----

cake.kernel @row_bf16() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x128xbf16>
    // expected-error @+1 {{[dataflow.element-type] frag.row moves 32-bit values (f32, i32), not 'bf16'}}
    %r = cake.frag.row %z[3] : !cake.frag<64x128xbf16> -> !cake.frag<1x128xbf16>
  }
}

// -----

// Near miss: the last row of an i32 fragment.
cake.kernel @row_i32() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x128xi32>
    %r = cake.frag.row %z[63] : !cake.frag<64x128xi32> -> !cake.frag<1x128xi32>
  }
}

// -----

cake.kernel @scan_down_bf16() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %a = cake.frag.zero : !cake.frag<64x64xbf16>
    // expected-error @+1 {{[dataflow.element-type] frag.scan down shuffles and moves 32-bit values (f32), not 'bf16'}}
    %s = cake.frag.scan sum %a down : !cake.frag<64x64xbf16>
  }
}

// -----

cake.kernel @scan_segment_across() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] frag.scan segment(16) restarts a scan down the rows: add `down`}}
    %s = cake.frag.scan sum %a segment(16) : !cake.frag<64x64xf32>
  }
}

// -----

cake.kernel @scan_reverse_across() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] frag.scan reverse is lowered up the rows only: add `down`}}
    %s = cake.frag.scan sum %a reverse : !cake.frag<64x64xf32>
  }
}

// -----

cake.kernel @scan_segment_inside_warp() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] frag.scan segment(8) must be a multiple of 16 rows (one warp's) that divides the fragment's 64 rows}}
    %s = cake.frag.scan sum %a down segment(8) : !cake.frag<64x64xf32>
  }
}

// -----

cake.kernel @scan_segment_not_dividing() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] frag.scan segment(48) must be a multiple of 16 rows (one warp's) that divides the fragment's 64 rows}}
    %s = cake.frag.scan sum %a down segment(48) : !cake.frag<64x64xf32>
  }
}

// -----

// Near miss: segments of one warp and of two, one of the whole tile, and
// a reversed scan.
cake.kernel @scan_segments() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %a = cake.frag.zero : !cake.frag<64x64xf32>
    %s = cake.frag.scan sum %a down segment(16) : !cake.frag<64x64xf32>
    %t = cake.frag.scan max %a down segment(32) : !cake.frag<64x64xf32>
    %u = cake.frag.scan min %a down segment(64) : !cake.frag<64x64xf32>
    %v = cake.frag.scan sum %a down reverse segment(16) : !cake.frag<64x64xf32>
  }
}

// -----

cake.kernel @scan_row_fragment() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %a = cake.frag.zero : !cake.frag<1x64xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] frag.scan takes an accumulator-shaped fragment (M x N, both above 1), not [1, 64]}}
    %s = cake.frag.scan sum %a down : !cake.frag<1x64xf32>
  }
}

// -----

cake.kernel @row_of_row_fragment() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %a = cake.frag.zero : !cake.frag<1x128xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] frag.row takes an accumulator-shaped fragment (M x N, both above 1), not [1, 128]}}
    %r = cake.frag.row %a[0] : !cake.frag<1x128xf32> -> !cake.frag<1x128xf32>
  }
}

// -----

cake.kernel @tril_inverse_not_square() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "s" warpgroups(1) {
    %a = cake.frag.zero : !cake.frag<64x128xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] frag.tril_inverse takes a 64 x 64 fragment (one warpgroup's rows, square), not [64, 128]}}
    %t = cake.frag.tril_inverse %a : !cake.frag<64x128xf32>
  }
}

// -----

cake.kernel @tril_inverse_two_slabs() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "s" warpgroups(2) {
    %a = cake.frag.zero : !cake.frag<128x128xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] frag.tril_inverse takes a 64 x 64 fragment (one warpgroup's rows, square), not [128, 128]}}
    %t = cake.frag.tril_inverse %a : !cake.frag<128x128xf32>
  }
}

// -----

cake.kernel @tril_inverse_diagonal_not_square() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "s" warpgroups(1) {
    %a = cake.frag.zero : !cake.frag<64x128xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] frag.tril_inverse takes a 64 x 64 fragment (one warpgroup's rows, square), not [64, 128]}}
    %t = cake.frag.tril_inverse %a diagonal : !cake.frag<64x128xf32>
  }
}

// -----

cake.kernel @tril_inverse_bf16() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "s" warpgroups(1) {
    %a = cake.frag.zero : !cake.frag<64x64xbf16>
    // expected-error @+1 {{[dataflow.element-type] frag.tril_inverse solves in f32, not 'bf16'}}
    %t = cake.frag.tril_inverse %a : !cake.frag<64x64xbf16>
  }
}
