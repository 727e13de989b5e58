// topk.store rank_major: a row's entry of rank j goes to element
// (row * k + j) * S + slot of the [rows, k, S] tensors, S their last
// extent, and only where the slot is within it; for shared lists (the
// rank from the store's ranking loop) and register lists (the rank
// static) alike.
// RUN: cake-opt --cake-derive --convert-cake-to-nvvm %s | FileCheck %s

// CHECK-LABEL: gpu.func @shared_lists
// CHECK:      %[[S:.*]] = arith.index_cast %arg3 : i64 to index
// CHECK:      %[[SLOT:.*]] = arith.index_cast %arg9 : i64 to index
// CHECK:      arith.cmpi ult, %[[SLOT]], %[[S]] : index
// CHECK:      %[[RANK:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK:      %[[ROWK:.*]] = arith.muli %[[ROW:.*]], %c100{{.*}} : index
// CHECK-NEXT: %[[J:.*]] = arith.addi %[[ROWK]], %[[RANK]] : index
// CHECK-NEXT: %[[JS:.*]] = arith.muli %[[J]], %[[S]] : index
// CHECK-NEXT: arith.addi %[[JS]], %[[SLOT]] : index
cake.kernel @shared_lists(%D: !cake.global<?x100x?xf32>, %I: !cake.global<?x100x?xi32>, %n: index, %s: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "search" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %l0 = cake.topk.init : !cake.topk<64x100xf32, shared>
      cake.topk.store %l0 -> %D, %I[%m, %s] rank_major : !cake.topk<64x100xf32, shared> -> !cake.global<?x100x?xf32>, !cake.global<?x100x?xi32>
    }
  }
}

// CHECK-LABEL: gpu.func @register_lists
// CHECK:      %[[S:.*]] = arith.index_cast %arg3 : i64 to index
// CHECK:      %[[SLOT:.*]] = arith.index_cast %arg9 : i64 to index
// CHECK:      arith.cmpi ult, %[[SLOT]], %[[S]] : index
// The entry of rank 3.
// CHECK:      %[[C3:.*]] = arith.constant 3 : index
// CHECK:      %[[ROWK:.*]] = arith.muli %[[ROW:.*]], %c10{{.*}} : index
// CHECK-NEXT: %[[J:.*]] = arith.addi %[[ROWK]], %[[C3]] : index
// CHECK-NEXT: %[[JS:.*]] = arith.muli %[[J]], %[[S]] : index
// CHECK-NEXT: arith.addi %[[JS]], %[[SLOT]] : index
cake.kernel @register_lists(%D: !cake.global<?x10x?xf32>, %I: !cake.global<?x10x?xi32>, %n: index, %s: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "search" warpgroups(2) {
    cake.tiles (%m) in (%n) {
      %l0 = cake.topk.init : !cake.topk<128x10xf32>
      cake.topk.store %l0 -> %D, %I[%m, %s] rank_major : !cake.topk<128x10xf32> -> !cake.global<?x10x?xf32>, !cake.global<?x10x?xi32>
    }
  }
}
