// Round trip of the top-k family: the list type, init, insert (indices
// from the column or from a fragment) and store (to [rows, k], to a slot
// of [rows, S, k], or rank-major to a slot of [rows, k, S]).
// RUN: cake-opt %s | cake-opt | FileCheck %s

// CHECK-LABEL: cake.kernel @lists
// CHECK: %[[L0:.*]] = cake.topk.init : !cake.topk<128x10xf32>
// CHECK: %[[D:.*]] = cake.frag.zero : !cake.frag<128x128xf32>
// CHECK: %[[L1:.*]] = cake.topk.insert %[[L0]], %[[D]] base %{{.*}} : !cake.topk<128x10xf32>, !cake.frag<128x128xf32>
// CHECK: cake.topk.store %[[L1]] -> %{{.*}}, %{{.*}}[%{{.*}}] : !cake.topk<128x10xf32> -> !cake.global<?x10xf32>, !cake.global<?x10xi32>
// CHECK: cake.topk.store %[[L1]] -> %{{.*}}, %{{.*}}[%{{.*}}] rows %{{.*}} : !cake.topk<128x10xf32> -> !cake.global<?x10xf32>, !cake.global<?x10xi32>
cake.kernel @lists(%D: !cake.global<?x10xf32>, %I: !cake.global<?x10xi32>, %n: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "search" warpgroups(2) {
    cake.tiles (%m) in (%n) {
      %l0 = cake.topk.init : !cake.topk<128x10xf32>
      %d = cake.frag.zero : !cake.frag<128x128xf32>
      %l1 = cake.topk.insert %l0, %d base %m : !cake.topk<128x10xf32>, !cake.frag<128x128xf32>
      cake.topk.store %l1 -> %D, %I[%m] : !cake.topk<128x10xf32> -> !cake.global<?x10xf32>, !cake.global<?x10xi32>
      cake.topk.store %l1 -> %D, %I[%m] rows %n : !cake.topk<128x10xf32> -> !cake.global<?x10xf32>, !cake.global<?x10xi32>
    }
  }
}

// CHECK-LABEL: cake.kernel @merge
// CHECK: %[[L1:.*]] = cake.topk.insert %{{.*}}, %[[PD:.*]] indices %[[PI:.*]] : !cake.topk<64x10xf32>, !cake.frag<64x128xf32>, !cake.frag<64x128xi32>
// CHECK: cake.topk.store %[[L1]] -> %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows %{{.*}} : !cake.topk<64x10xf32> -> !cake.global<?x?x10xf32>, !cake.global<?x?x10xi32>
cake.kernel @merge(%PD: !cake.global<?x?xf32>, %PI: !cake.global<?x?xi32>,
    %D: !cake.global<?x?x10xf32>, %I: !cake.global<?x?x10xi32>, %n: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "merge" warpgroups(1) {
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%n) {
      %l0 = cake.topk.init : !cake.topk<64x10xf32>
      %pd = cake.load %PD[%m, %c0] : !cake.global<?x?xf32> -> !cake.frag<64x128xf32>
      %pi = cake.load %PI[%m, %c0] : !cake.global<?x?xi32> -> !cake.frag<64x128xi32>
      %l1 = cake.topk.insert %l0, %pd indices %pi : !cake.topk<64x10xf32>, !cake.frag<64x128xf32>, !cake.frag<64x128xi32>
      cake.topk.store %l1 -> %D, %I[%m, %c0] rows %n : !cake.topk<64x10xf32> -> !cake.global<?x?x10xf32>, !cake.global<?x?x10xi32>
    }
  }
}

// A shared list (k past the registers): the same ops, the type says where.
// CHECK-LABEL: cake.kernel @shared
// CHECK: %[[L0:.*]] = cake.topk.init : !cake.topk<64x100xf32, shared>
// CHECK: %[[L1:.*]] = cake.topk.insert %[[L0]], %{{.*}} base %{{.*}} : !cake.topk<64x100xf32, shared>, !cake.frag<64x128xf32>
// CHECK: cake.topk.store %[[L1]] -> %{{.*}}, %{{.*}}[%{{.*}}] : !cake.topk<64x100xf32, shared> -> !cake.global<?x100xf32>, !cake.global<?x100xi32>
cake.kernel @shared(%D: !cake.global<?x100xf32>, %I: !cake.global<?x100xi32>, %n: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "search" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %l0 = cake.topk.init : !cake.topk<64x100xf32, shared>
      %d = cake.frag.zero : !cake.frag<64x128xf32>
      %l1 = cake.topk.insert %l0, %d base %m : !cake.topk<64x100xf32, shared>, !cake.frag<64x128xf32>
      cake.topk.store %l1 -> %D, %I[%m] : !cake.topk<64x100xf32, shared> -> !cake.global<?x100xf32>, !cake.global<?x100xi32>
    }
  }
}

// Whether a tile has a candidate a shared list would take, and rank-major
// partial lists: a split's j-th best at [row, j, slot].
// CHECK-LABEL: cake.kernel @rank_major
// CHECK: %{{.*}} = cake.topk.admits %{{.*}}, %{{.*}} indices %{{.*}} : !cake.topk<64x100xf32, shared>, !cake.frag<64x64xf32>, !cake.frag<64x64xi32>
// CHECK: cake.topk.store %{{.*}} -> %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rank_major : !cake.topk<64x100xf32, shared> -> !cake.global<?x100x?xf32>, !cake.global<?x100x?xi32>
cake.kernel @rank_major(%D: !cake.global<?x100x?xf32>, %I: !cake.global<?x100x?xi32>, %n: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "search" warpgroups(1) {
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%n) {
      %l0 = cake.topk.init : !cake.topk<64x100xf32, shared>
      %pd = cake.frag.zero : !cake.frag<64x64xf32>
      %pi = cake.frag.zero : !cake.frag<64x64xi32>
      %more = cake.topk.admits %l0, %pd indices %pi : !cake.topk<64x100xf32, shared>, !cake.frag<64x64xf32>, !cake.frag<64x64xi32>
      cake.topk.store %l0 -> %D, %I[%m, %c0] rank_major : !cake.topk<64x100xf32, shared> -> !cake.global<?x100x?xf32>, !cake.global<?x100x?xi32>
    }
  }
}
