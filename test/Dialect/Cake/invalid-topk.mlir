// The top-k family's type and op verifiers.
// RUN: cake-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{[dataflow.element-type] top-k lists hold f32 values, got 'bf16'}}
module attributes {t = !cake.topk<128x10xbf16>} {}

// -----

// expected-error @+1 {{[dataflow.type-shape] expected positive rows and k, got 128x0}}
module attributes {t = !cake.topk<128x0xf32>} {}

// -----

// A shared list of more than 256 entries a row (the near miss: 256).
// expected-error @+1 {{[dataflow.type-shape] a shared top-k list holds at most 256 entries a row, got k = 257}}
module attributes {t = !cake.topk<64x257xf32, shared>, ok = !cake.topk<64x256xf32, shared>} {}

// -----

// expected-error @+1 {{expected 'shared'}}
module attributes {t = !cake.topk<64x100xf32, global>} {}

// -----

// expected-error @+1 {{expected `rows x k x type`, got 3 dimensions}}
module attributes {t = !cake.topk<2x128x10xf32>} {}

// -----

cake.kernel @insert_rows(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    %d = cake.frag.zero : !cake.frag<64x128xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] expected candidates of 128 rows (the list's) by N columns, got a rank-2 fragment with 64 rows}}
    %l1 = cake.topk.insert %l, %d base %n : !cake.topk<128x10xf32>, !cake.frag<64x128xf32>
  }
}

// -----

cake.kernel @insert_columns(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    %d = cake.frag.zero : !cake.frag<128x12xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] expected candidates in the accumulator layout (columns a multiple of 8), got 12 columns}}
    %l1 = cake.topk.insert %l, %d base %n : !cake.topk<128x10xf32>, !cake.frag<128x12xf32>
  }
}

// -----

cake.kernel @insert_wide(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    %d = cake.frag.zero : !cake.frag<128x264xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] expected at most 256 candidate columns a tile, got 264}}
    %l1 = cake.topk.insert %l, %d base %n : !cake.topk<128x10xf32>, !cake.frag<128x264xf32>
  }
}

// -----

cake.kernel @insert_type(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    %d = cake.frag.zero : !cake.frag<128x128xbf16>
    // expected-error @+1 {{[dataflow.element-type] expected 'f32' candidates (the list's values), got 'bf16'}}
    %l1 = cake.topk.insert %l, %d base %n : !cake.topk<128x10xf32>, !cake.frag<128x128xbf16>
  }
}

// -----

cake.kernel @store_k(%D: !cake.global<?x16xf32>, %I: !cake.global<?x10xi32>, %n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    // expected-error @+1 {{[dataflow.box-shape] expected the values as a [rows, 10] tensor (k static and innermost), got '!cake.global<?x16xf32>'}}
    cake.topk.store %l -> %D, %I[%n] : !cake.topk<128x10xf32> -> !cake.global<?x16xf32>, !cake.global<?x10xi32>
  }
}

// -----

cake.kernel @store_index_type(%D: !cake.global<?x10xf32>, %I: !cake.global<?x10xi64>, %n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    // expected-error @+1 {{[dataflow.element-type] expected 'i32' indices, got 'i64'}}
    cake.topk.store %l -> %D, %I[%n] : !cake.topk<128x10xf32> -> !cake.global<?x10xf32>, !cake.global<?x10xi64>
  }
}

// -----

cake.kernel @insert_both(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    %d = cake.frag.zero : !cake.frag<128x128xf32>
    %i = cake.frag.iota : !cake.frag<1x128xi32>
    // expected-error @+1 {{[dataflow.type-shape] expected the candidates' indices as exactly one of `base` (base + column) and `indices` (a fragment), got both}}
    %l1 = cake.topk.insert %l, %d base %n indices %i : !cake.topk<128x10xf32>, !cake.frag<128x128xf32>, !cake.frag<1x128xi32>
  }
}

// -----

cake.kernel @insert_neither(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    %d = cake.frag.zero : !cake.frag<128x128xf32>
    // expected-error @+1 {{[dataflow.type-shape] expected the candidates' indices as exactly one of `base` (base + column) and `indices` (a fragment), got neither}}
    %l1 = cake.topk.insert %l, %d : !cake.topk<128x10xf32>, !cake.frag<128x128xf32>
  }
}

// -----

cake.kernel @insert_index_shape(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    %d = cake.frag.zero : !cake.frag<128x128xf32>
    %i = cake.frag.iota : !cake.frag<1x128xi32>
    // expected-error @+1 {{[dataflow.fragment-shape] expected indices of the candidates' shape 128x128, got '!cake.frag<1x128xi32>'}}
    %l1 = cake.topk.insert %l, %d indices %i : !cake.topk<128x10xf32>, !cake.frag<128x128xf32>, !cake.frag<1x128xi32>
  }
}

// -----

cake.kernel @insert_index_type(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    %d = cake.frag.zero : !cake.frag<128x128xf32>
    %i = cake.frag.zero : !cake.frag<128x128xf32>
    // expected-error @+1 {{[dataflow.element-type] expected i32 indices, got 'f32'}}
    %l1 = cake.topk.insert %l, %d indices %i : !cake.topk<128x10xf32>, !cake.frag<128x128xf32>, !cake.frag<128x128xf32>
  }
}

// -----

cake.kernel @store_slot_rank(%D: !cake.global<?x10xf32>, %I: !cake.global<?x10xi32>, %n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    // expected-error @+1 {{[dataflow.box-shape] expected the values as a [rows, S, 10] tensor (k static and innermost), got '!cake.global<?x10xf32>'}}
    cake.topk.store %l -> %D, %I[%n, %n] : !cake.topk<128x10xf32> -> !cake.global<?x10xf32>, !cake.global<?x10xi32>
  }
}

// -----

cake.kernel @rank_major_no_slot(%D: !cake.global<?x10xf32>, %I: !cake.global<?x10xi32>, %n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    // expected-error @+1 {{[dataflow.box-shape] rank_major orders the entries of a row's corpus splits: it needs a slot coordinate ([row, slot])}}
    cake.topk.store %l -> %D, %I[%n] rank_major : !cake.topk<128x10xf32> -> !cake.global<?x10xf32>, !cake.global<?x10xi32>
  }
}

// -----

// Split-major tensors ([rows, S, k]) under rank_major.
cake.kernel @rank_major_shape(%D: !cake.global<?x?x10xf32>, %I: !cake.global<?x?x10xi32>, %n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    // expected-error @+1 {{[dataflow.box-shape] expected the values as a [rows, 10, S] tensor (k static, rank_major), got '!cake.global<?x?x10xf32>'}}
    cake.topk.store %l -> %D, %I[%n, %n] rank_major : !cake.topk<128x10xf32> -> !cake.global<?x?x10xf32>, !cake.global<?x?x10xi32>
  }
}

// -----

cake.kernel @admits_registers(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "r" warpgroups(2) {
    %l = cake.topk.init : !cake.topk<128x10xf32>
    %d = cake.frag.zero : !cake.frag<128x128xf32>
    // expected-error @+1 {{[dataflow.type-shape] topk.admits reads a shared list's largest entries; '!cake.topk<128x10xf32>' keeps its rows in registers}}
    %b = cake.topk.admits %l, %d base %n : !cake.topk<128x10xf32>, !cake.frag<128x128xf32>
  }
}

// -----

cake.kernel @admits_rows(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %l = cake.topk.init : !cake.topk<64x100xf32, shared>
    %d = cake.frag.zero : !cake.frag<128x128xf32>
    // expected-error @+1 {{[dataflow.fragment-shape] expected candidates of 64 rows (the list's) by N columns, got a rank-2 fragment with 128 rows}}
    %b = cake.topk.admits %l, %d base %n : !cake.topk<64x100xf32, shared>, !cake.frag<128x128xf32>
  }
}
