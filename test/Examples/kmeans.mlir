// The k-means assignment example parses, verifies, round-trips and summarizes.
// RUN: cake-opt --cake-verify %cake_src/examples/kmeans_assign.cake.mlir | cake-opt --cake-verify | FileCheck %s
// RUN: cake-translate --cake-to-summary-json %cake_src/examples/kmeans_assign.cake.mlir | FileCheck %s --check-prefix=JSON

// CHECK-LABEL: cake.kernel @kmeans_assign_f16_d128
// CHECK: cake.role "load" warpgroups(1) regs(40)
// CHECK: cake.role "assign" warpgroups(2) regs(232)
// CHECK: cake.mma wgmma
// CHECK: cake.load %{{.*}}[%{{.*}}] pad
// CHECK: cake.frag.map
// CHECK: arith.subf
// CHECK: cake.frag.argmin %{{.*}} base
// CHECK: arith.cmpf olt
// CHECK: cake.store %{{.*}}#1 -> %{{.*}} : !cake.frag<128x1xi32> -> !cake.global<?xi32>

// JSON: "kind": "persistent"
// JSON-NEXT: "tile": [128]
// JSON: "element": "i32"
// JSON: "stages": 2
// JSON: "stages": 4
// JSON: "threads": 384
// JSON-NEXT: "ring_bytes": 98304
