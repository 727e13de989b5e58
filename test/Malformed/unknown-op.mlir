// An op Cake does not have is reported where it is.
// RUN: not cake-opt %s 2>&1 | FileCheck %s
// CHECK: unknown-op.mlir:[[@LINE+3]]:5: error: custom op 'cake.frobnicate' is unknown
cake.kernel @k() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    cake.frobnicate
  }
}
