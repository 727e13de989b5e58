// cake.scatter's op verifier: hw.scatter-reduce (one i32 key a row, a
// rank-2 destination of 16- or 32-bit elements, reduce sum on f32 or i32,
// min and max on i32) and
// dataflow.element-type. The near misses, last, verify.
// RUN: cake-opt %s -split-input-file -verify-diagnostics

cake.kernel @keys_not_a_column(%S: !cake.global<?x128xf32>, %c0: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %x = cake.frag.zero : !cake.frag<64x128xf32>
    %k = cake.frag.zero : !cake.frag<64x8xi32>
    // expected-error @+1 {{[hw.scatter-reduce] expected the keys to be a 64x1 i32 fragment (one key a row of the value), got '!cake.frag<64x8xi32>'}}
    cake.scatter %x -> %S[%k, %c0] reduce sum : !cake.frag<64x128xf32>, !cake.frag<64x8xi32> -> !cake.global<?x128xf32>
  }
}

// -----

cake.kernel @keys_other_rows(%S: !cake.global<?x128xf32>, %c0: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(2) {
    %x = cake.frag.zero : !cake.frag<128x128xf32>
    %k = cake.frag.zero : !cake.frag<64x1xi32>
    // expected-error @+1 {{[hw.scatter-reduce] expected the keys to be a 128x1 i32 fragment}}
    cake.scatter %x -> %S[%k, %c0] reduce sum : !cake.frag<128x128xf32>, !cake.frag<64x1xi32> -> !cake.global<?x128xf32>
  }
}

// -----

cake.kernel @keys_not_i32(%S: !cake.global<?x128xf32>, %c0: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %x = cake.frag.zero : !cake.frag<64x128xf32>
    %k = cake.frag.zero : !cake.frag<64x1xf32>
    // expected-error @+1 {{[hw.scatter-reduce] expected the keys to be a 64x1 i32 fragment}}
    cake.scatter %x -> %S[%k, %c0] reduce sum : !cake.frag<64x128xf32>, !cake.frag<64x1xf32> -> !cake.global<?x128xf32>
  }
}

// -----

cake.kernel @rank3_destination(%S: !cake.global<?x?x128xf32>, %c0: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %x = cake.frag.zero : !cake.frag<64x128xf32>
    %k = cake.frag.zero : !cake.frag<64x1xi32>
    // expected-error @+1 {{[hw.scatter-reduce] writes rows of a rank-2 tensor, got rank 3}}
    cake.scatter %x -> %S[%k, %c0] reduce sum : !cake.frag<64x128xf32>, !cake.frag<64x1xi32> -> !cake.global<?x?x128xf32>
  }
}

// -----

cake.kernel @sum_of_bf16(%S: !cake.global<?x128xbf16>, %c0: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %x = cake.frag.zero : !cake.frag<64x128xbf16>
    %k = cake.frag.zero : !cake.frag<64x1xi32>
    // expected-error @+1 {{[hw.scatter-reduce] reduce sum adds f32 or i32 elements (red.global.add), got 'bf16'}}
    cake.scatter %x -> %S[%k, %c0] reduce sum : !cake.frag<64x128xbf16>, !cake.frag<64x1xi32> -> !cake.global<?x128xbf16>
  }
}

// -----

cake.kernel @max_of_f32(%S: !cake.global<?x128xf32>, %c0: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %x = cake.frag.zero : !cake.frag<64x128xf32>
    %k = cake.frag.zero : !cake.frag<64x1xi32>
    // expected-error @+1 {{[hw.scatter-reduce] reduce max compares i32 elements (red.global.max.s32), got 'f32'}}
    cake.scatter %x -> %S[%k, %c0] reduce max : !cake.frag<64x128xf32>, !cake.frag<64x1xi32> -> !cake.global<?x128xf32>
  }
}

// -----

cake.kernel @eight_bit_elements(%S: !cake.global<?x128xi8>, %c0: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %x = cake.frag.zero : !cake.frag<64x128xi8>
    %k = cake.frag.zero : !cake.frag<64x1xi32>
    // expected-error @+1 {{[hw.scatter-reduce] scatters 16- or 32-bit elements, got 'i8'}}
    cake.scatter %x -> %S[%k, %c0] : !cake.frag<64x128xi8>, !cake.frag<64x1xi32> -> !cake.global<?x128xi8>
  }
}

// -----

cake.kernel @element_types_differ(%S: !cake.global<?x128xf16>, %c0: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %x = cake.frag.zero : !cake.frag<64x128xf32>
    %k = cake.frag.zero : !cake.frag<64x1xi32>
    // expected-error @+1 {{[dataflow.element-type] expected fragment and tensor element types to match, got 'f32' and 'f16'}}
    cake.scatter %x -> %S[%k, %c0] : !cake.frag<64x128xf32>, !cake.frag<64x1xi32> -> !cake.global<?x128xf16>
  }
}

// -----

// Near misses: i32 sums, a one-column value, a plain (unreduced) bf16
// scatter, i32 min and max, keys of a two-warpgroup role's 128 rows.
cake.kernel @near_misses(%S: !cake.global<?x128xi32>, %C: !cake.global<?x1xf32>,
                         %B: !cake.global<?x128xbf16>, %W: !cake.global<?x128xf32>, %c0: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %x = cake.frag.zero : !cake.frag<64x128xi32>
    %k = cake.frag.zero : !cake.frag<64x1xi32>
    cake.scatter %x -> %S[%k, %c0] reduce sum : !cake.frag<64x128xi32>, !cake.frag<64x1xi32> -> !cake.global<?x128xi32>
    %c = cake.frag.zero : !cake.frag<64x1xf32>
    cake.scatter %c -> %C[%k, %c0] reduce sum : !cake.frag<64x1xf32>, !cake.frag<64x1xi32> -> !cake.global<?x1xf32>
    %b = cake.frag.zero : !cake.frag<64x128xbf16>
    cake.scatter %b -> %B[%k, %c0] : !cake.frag<64x128xbf16>, !cake.frag<64x1xi32> -> !cake.global<?x128xbf16>
    cake.scatter %x -> %S[%k, %c0] reduce max : !cake.frag<64x128xi32>, !cake.frag<64x1xi32> -> !cake.global<?x128xi32>
    cake.scatter %x -> %S[%k, %c0] reduce min : !cake.frag<64x128xi32>, !cake.frag<64x1xi32> -> !cake.global<?x128xi32>
  }
  cake.role "s" warpgroups(2) {
    %x = cake.frag.zero : !cake.frag<128x128xf32>
    %k = cake.frag.zero : !cake.frag<128x1xi32>
    cake.scatter %x -> %W[%k, %c0] reduce sum : !cake.frag<128x128xf32>, !cake.frag<128x1xi32> -> !cake.global<?x128xf32>
  }
}
