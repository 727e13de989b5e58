// Named barriers lower to bar.sync with their id and thread count; roles
// that pass one run on all their threads (lanes = all).
// RUN: cake-opt --cake-verify --cake-derive %s | FileCheck %s --check-prefix=DERIVE
// RUN: cake-opt --cake-verify --cake-lower="format=ptx" %s | FileCheck %s
// DERIVE: cake.role "even" warpgroups(1) attributes {derived = #cake.role_layout<first_warp = 0, lanes = all,
// CHECK: bar.sync {{.}}090;
// CHECK: bar.sync {{.}}091, 256;
// CHECK: bar.sync {{.}}091, 256;
cake.kernel @pingpong(%C: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64, 64]>} {
  cake.role "even" warpgroups(1) {
    %M = cake.dim %C, 0 : !cake.global<?x?xf32>
    %N = cake.dim %C, 1 : !cake.global<?x?xf32>
    cake.tiles (%m, %n) in (%M, %N) {
      cake.barrier.sync id(1) threads(256)
    }
  }
  cake.role "odd" warpgroups(1) {
    %M = cake.dim %C, 0 : !cake.global<?x?xf32>
    %N = cake.dim %C, 1 : !cake.global<?x?xf32>
    cake.tiles (%m, %n) in (%M, %N) {
      cake.barrier.sync id(1) threads(256)
    }
  }
}
