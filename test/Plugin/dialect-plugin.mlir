// Debian's own mlir-opt loads Cake as a dialect plugin and round-trips it.
// RUN: %asan_preload %mlir_opt --load-dialect-plugin=%cake_plugin %s | FileCheck %s

// CHECK: cake.kernel @p
// CHECK: cake.role "only" warps(1)
cake.kernel @p(%A: !cake.global<?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "only" warps(1) {
    %n = cake.dim %A, 0 : !cake.global<?xf32>
  }
}
