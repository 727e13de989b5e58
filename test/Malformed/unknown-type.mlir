// A type Cake does not have is reported where it is.
// RUN: not cake-opt %s 2>&1 | FileCheck %s
// CHECK: unknown-type.mlir:[[@LINE+1]]:{{[0-9]+}}: error: unknown type `tensor` in dialect `cake`
cake.kernel @k(%A: !cake.tensor<4xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {}
}
