// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// topk.store of a shared list (TopKShared.cpp). Where the store is the
// list's last use, each of the thread's two rows is sorted in place by a
// bitonic network run by its quad: loops over the network's phases and
// steps (at k = 100 a network of 128 slots: phases 1..7), 16 comparators a
// thread a step, each moving the smaller 64-bit key to the lower slot and
// skipped where the upper slot is past k, a warp barrier after each step;
// then slot e is written to rank e. A list still used after the store
// keeps its slots (its registers name the slot of the row's largest
// entry), so each entry is ranked against its row instead.
// RUN: cake-opt --cake-derive --convert-cake-to-nvvm %s | FileCheck %s

// CHECK-LABEL: gpu.func @last_use
// CHECK:      scf.for %{{.*}} = %c0{{.*}} to %c2{{.*}} step
// CHECK:      scf.for %[[PHASE:.*]] = %c1{{.*}} to %c8{{.*}} step
// CHECK:      scf.for %{{.*}} = %c0{{.*}} to %[[PHASE]] step
// CHECK-COUNT-16: arith.cmpi ult, %{{.*}}, %{{.*}} : i64
// CHECK:      nvvm.bar.warp.sync
// CHECK-NOT:  -> (i32)
// CHECK:      scf.for %{{.*}} = %c0{{.*}} to %c25{{.*}} step
// CHECK-NOT:  -> (i32)
// CHECK:      gpu.return
cake.kernel @last_use(%D: !cake.global<?x100xf32>, %I: !cake.global<?x100xi32>, %n: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "search" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %l0 = cake.topk.init : !cake.topk<64x100xf32, shared>
      cake.topk.store %l0 -> %D, %I[%m] : !cake.topk<64x100xf32, shared> -> !cake.global<?x100xf32>, !cake.global<?x100xi32>
    }
  }
}

// Stored twice: no sort; the rank of each entry (a loop carrying its
// count over the row, four entries an iteration).
// CHECK-LABEL: gpu.func @stored_twice
// CHECK-NOT:  to %c8
// CHECK:      scf.for {{.*}} -> (i32)
// CHECK:      scf.for {{.*}} -> (i32)
// CHECK:      gpu.return
cake.kernel @stored_twice(%D: !cake.global<?x100xf32>, %I: !cake.global<?x100xi32>, %n: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "search" warpgroups(1) {
    cake.tiles (%m) in (%n) {
      %l0 = cake.topk.init : !cake.topk<64x100xf32, shared>
      cake.topk.store %l0 -> %D, %I[%m] : !cake.topk<64x100xf32, shared> -> !cake.global<?x100xf32>, !cake.global<?x100xi32>
      cake.topk.store %l0 -> %D, %I[%m] : !cake.topk<64x100xf32, shared> -> !cake.global<?x100xf32>, !cake.global<?x100xi32>
    }
  }
}
