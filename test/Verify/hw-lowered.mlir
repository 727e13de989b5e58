// The near miss of hw.mlir's last case: the same plain kernel for sm_90a
// verifies and lowers.
// RUN: cake-opt --cake-verify %s | FileCheck %s --check-prefix=CHECK-OK
// RUN: cake-opt --cake-verify --cake-lower=format=ptx %s -o /dev/null
// CHECK-OK: cake.kernel @plain_on_hopper
cake.kernel @plain_on_hopper(%X: !cake.global<?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %n = cake.dim %X, 0 : !cake.global<?xf32>
    cake.tiles (%m) in (%n) {
      %v = cake.load %X[%m] : !cake.global<?xf32> -> !cake.frag<64x1xf32>
      cake.store %v -> %X[%m] : !cake.frag<64x1xf32> -> !cake.global<?xf32>
    }
  }
}
