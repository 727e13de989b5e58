// cake-set-cluster: the kernel's cluster, and multicast on exactly the
// loads the cluster's CTAs share (sync.multicast-uniform and
// hw.tma-multicast accept them): in the persistent GEMM, B at [%n, %k];
// not A at [%m, %k], whose box is the CTA's own tile row.
// RUN: cake-opt --cake-set-cluster="ctas=2" --cake-verify %cake_src/examples/gemm_ws_persistent.cake.mlir | FileCheck %s
// RUN: cake-opt --cake-set-cluster="ctas=2 multicast=false" --cake-verify %cake_src/examples/gemm_ws_persistent.cake.mlir | FileCheck %s --check-prefix=CHECK-PLAIN
// RUN: cake-opt --cake-set-cluster="ctas=1" --cake-verify %cake_src/examples/gemm-variants/gemm_128x256x64_s4_c2.cake.mlir | FileCheck %s --check-prefix=CHECK-NONE
// 256 rows in three CTAs' slices do not split: the cluster, no multicast.
// RUN: cake-opt --cake-set-cluster="ctas=3" --cake-verify %cake_src/examples/gemm_ws_persistent.cake.mlir | FileCheck %s --check-prefix=CHECK-THREE
// RUN: not cake-opt --cake-set-cluster="ctas=0" %cake_src/examples/gemm_ws_persistent.cake.mlir 2>&1 | FileCheck %s --check-prefix=CHECK-ZERO

// CHECK: cluster = 2 : i64
// CHECK: cake.tma.load %{{.*}}[%{{.*}}, %{{.*}}] -> %{{.*}}[%{{.*}}] :
// CHECK-NEXT: cake.tma.load %{{.*}}[%{{.*}}, %{{.*}}] -> %{{.*}}[%{{.*}}] multicast :

// CHECK-PLAIN: cluster = 2 : i64
// CHECK-PLAIN-NOT: multicast

// CHECK-NONE-NOT: cluster =
// CHECK-NONE-NOT: multicast

// CHECK-THREE: cluster = 3 : i64
// CHECK-THREE-NOT: multicast

// CHECK-ZERO: cake-set-cluster: ctas must be at least 1, got 0
