// cake.store ... every(16): rows 0, 16, 32 and 48 of each 64 x 64 tile of X
// land as four consecutive rows of G, stored by the lanes that hold them
// (a thread's first row, when it is a multiple of 16: four lanes a warp)
// with predicated 32-bit stores; no shared memory, no barrier.
// RUN: cake-opt --cake-verify --cake-lower=format=ptx %s | cake-translate --cake-to-ptx | FileCheck %s
// RUN: cake-opt --cake-cost="shapes=4096x256,256x256" %s | FileCheck %s --check-prefix=COST

// CHECK-LABEL: .entry every
// The prologue's barrier (after the barriers' initialization), then none.
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK-COUNT-16: @p st.global.b32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
// CHECK-NOT: st.global
// CHECK-NOT: bar.sync
// The cost model counts the rows written: 4096 / 16 x 256 x 4 bytes.
// COST: memory: HBM {{.*}} stores 262.1 KB
cake.kernel @every(%X: !cake.global<?x?xf32>, %G: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64, 64]>} {
  cake.role "r" warpgroups(1) {
    %M = cake.dim %X, 0 : !cake.global<?x?xf32>
    %N = cake.dim %X, 1 : !cake.global<?x?xf32>
    %c16 = arith.constant 16 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %v = cake.load %X[%m, %n] : !cake.global<?x?xf32> -> !cake.frag<64x64xf32>
      %r = arith.divui %m, %c16 : index
      cake.store %v -> %G[%r, %n] every(16) : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
    }
  }
}
