// dataflow.topk-linear: a shared top-k list's entries live in one scratch
// that each insert updates in place, so each list value is used once. The
// near misses: the KNN merge of 100-entry lists (a list carried by a loop)
// and the cake.topk round trip's kernels.
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics
// RUN: mkdir -p %t
// RUN: python3 %cake_src/examples/knn/gen-knn.py %t --d 128 --k 100 --wgs 1
// RUN: cake-opt --cake-verify %t/knn_merge_k100.cake.mlir -o /dev/null
// RUN: cake-opt --cake-verify %t/knn_search_bf16_d128_k100_w1_bn64_fused.cake.mlir -o /dev/null

// Stored, then inserted into: the store would have to see the list before
// the insert, but the scratch holds the one after it.
cake.kernel @used_twice(%D: !cake.global<?x100xf32>, %I: !cake.global<?x100xi32>, %n: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "search" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      // expected-note @+1 {{the list defined here}}
      %l0 = cake.topk.init : !cake.topk<64x100xf32, shared>
      %d = cake.frag.zero : !cake.frag<64x128xf32>
      // expected-note @+1 {{first use here}}
      %l1 = cake.topk.insert %l0, %d base %m : !cake.topk<64x100xf32, shared>, !cake.frag<64x128xf32>
      // expected-error @+1 {{[dataflow.topk-linear] a shared top-k list is used again after its entries were handed on: its shared memory holds only the newest list}}
      cake.topk.store %l0 -> %D, %I[%m] : !cake.topk<64x100xf32, shared> -> !cake.global<?x100xf32>, !cake.global<?x100xi32>
      cake.topk.store %l1 -> %D, %I[%m] : !cake.topk<64x100xf32, shared> -> !cake.global<?x100xf32>, !cake.global<?x100xi32>
    }
  }
}

// -----

// The same with a list in registers is fine: each value is its own.
cake.kernel @registers_twice(%D: !cake.global<?x10xf32>, %I: !cake.global<?x10xi32>, %n: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "search" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %l0 = cake.topk.init : !cake.topk<64x10xf32>
      %d = cake.frag.zero : !cake.frag<64x128xf32>
      %l1 = cake.topk.insert %l0, %d base %m : !cake.topk<64x10xf32>, !cake.frag<64x128xf32>
      cake.topk.store %l0 -> %D, %I[%m] : !cake.topk<64x10xf32> -> !cake.global<?x10xf32>, !cake.global<?x10xi32>
      cake.topk.store %l1 -> %D, %I[%m] : !cake.topk<64x10xf32> -> !cake.global<?x10xf32>, !cake.global<?x10xi32>
    }
  }
}

// -----

// Near misses: topk.admits reads the list's registers only (it does not
// count as a use), and the two branches of an scf.if are one path each.
cake.kernel @admits_and_branches(%D: !cake.global<?x100xf32>, %I: !cake.global<?x100xi32>, %n: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "search" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %l0 = cake.topk.init : !cake.topk<64x100xf32, shared>
      %d = cake.frag.zero : !cake.frag<64x128xf32>
      %more = cake.topk.admits %l0, %d base %m : !cake.topk<64x100xf32, shared>, !cake.frag<64x128xf32>
      %l1 = scf.if %more -> (!cake.topk<64x100xf32, shared>) {
        %l2 = cake.topk.insert %l0, %d base %m : !cake.topk<64x100xf32, shared>, !cake.frag<64x128xf32>
        scf.yield %l2 : !cake.topk<64x100xf32, shared>
      } else {
        scf.yield %l0 : !cake.topk<64x100xf32, shared>
      }
      cake.topk.store %l1 -> %D, %I[%m] : !cake.topk<64x100xf32, shared> -> !cake.global<?x100xf32>, !cake.global<?x100xi32>
    }
  }
}

// -----

// Two uses in the same branch both run.
cake.kernel @twice_in_a_branch(%D: !cake.global<?x100xf32>, %I: !cake.global<?x100xi32>, %n: index, %c: i1)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "search" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      // expected-note @+1 {{the list defined here}}
      %l0 = cake.topk.init : !cake.topk<64x100xf32, shared>
      %d = cake.frag.zero : !cake.frag<64x128xf32>
      %l1 = scf.if %c -> (!cake.topk<64x100xf32, shared>) {
        // expected-note @+1 {{first use here}}
        %l2 = cake.topk.insert %l0, %d base %m : !cake.topk<64x100xf32, shared>, !cake.frag<64x128xf32>
        // expected-error @+1 {{[dataflow.topk-linear] a shared top-k list is used again after its entries were handed on: its shared memory holds only the newest list}}
        cake.topk.store %l0 -> %D, %I[%m] : !cake.topk<64x100xf32, shared> -> !cake.global<?x100xf32>, !cake.global<?x100xi32>
        scf.yield %l2 : !cake.topk<64x100xf32, shared>
      } else {
        scf.yield %l0 : !cake.topk<64x100xf32, shared>
      }
      cake.topk.store %l1 -> %D, %I[%m] : !cake.topk<64x100xf32, shared> -> !cake.global<?x100xf32>, !cake.global<?x100xi32>
    }
  }
}
