// Whole-kernel rules on top-k lists: where a list may live
// (dataflow.fragment-layout) and whether it fits the registers
// (resource.fragment-registers), each with a near miss.
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics

cake.kernel @list_rows(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "search" warpgroups(2) regs(232) {
    cake.tiles (%m) in (%n) {
      // expected-error @+1 {{[dataflow.fragment-layout] a top-k list of 64 rows in role "search" of 2 warpgroups: expected 128 rows (64 per warpgroup)}}
      %l = cake.topk.init : !cake.topk<64x10xf32>
    }
  }
}

// -----

cake.kernel @list_in_warps_role(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "search" warps(4) {
    cake.tiles (%m) in (%n) {
      // expected-error @+1 {{[dataflow.fragment-layout] a top-k list of 64 rows in role "search", which is not a warpgroups(n) role}}
      %l = cake.topk.init : !cake.topk<64x10xf32>
    }
  }
}

// -----

// Near miss: 128 rows in two warpgroups, k = 32 (128 registers of lists,
// 64 of candidates, 16 for addresses: 208 <= 232).
cake.kernel @list_k32(%D: !cake.global<?x32xf32>, %I: !cake.global<?x32xi32>, %n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "search" warpgroups(2) regs(232) {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m) in (%n) {
      %l0 = cake.topk.init : !cake.topk<128x32xf32>
      %r = scf.for %j = %c0 to %n step %c128 iter_args(%l = %l0) -> (!cake.topk<128x32xf32>) {
        %d = cake.frag.zero : !cake.frag<128x128xf32>
        %l1 = cake.topk.insert %l, %d base %j : !cake.topk<128x32xf32>, !cake.frag<128x128xf32>
        scf.yield %l1 : !cake.topk<128x32xf32>
      }
      cake.topk.store %r -> %D, %I[%m] : !cake.topk<128x32xf32> -> !cake.global<?x32xf32>, !cake.global<?x32xi32>
    }
  }
}

// -----

cake.kernel @list_k64(%D: !cake.global<?x64xf32>, %I: !cake.global<?x64xi32>, %n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "search" warpgroups(2) regs(232) {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m) in (%n) {
      %l0 = cake.topk.init : !cake.topk<128x64xf32>
      // expected-error @+1 {{[resource.fragment-registers] role "search" keeps 256 registers of fragments across this loop and up to 64 more in its body (+16 for addresses): 336 > its budget of 232 per thread}}
      %r = scf.for %j = %c0 to %n step %c128 iter_args(%l = %l0) -> (!cake.topk<128x64xf32>) {
        %d = cake.frag.zero : !cake.frag<128x128xf32>
        %l1 = cake.topk.insert %l, %d base %j : !cake.topk<128x64xf32>, !cake.frag<128x128xf32>
        scf.yield %l1 : !cake.topk<128x64xf32>
      }
      cake.topk.store %r -> %D, %I[%m] : !cake.topk<128x64xf32> -> !cake.global<?x64xf32>, !cake.global<?x64xi32>
    }
  }
}
