// Round trip of the top-k family: the list type, init, insert and store.
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
