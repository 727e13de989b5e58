// The GEMM example parses, verifies, round-trips and summarizes.
// RUN: cake-opt --cake-verify %cake_src/examples/gemm_ws_persistent.cake.mlir | cake-opt --cake-verify | FileCheck %s
// RUN: cake-translate --cake-to-summary-json %cake_src/examples/gemm_ws_persistent.cake.mlir | FileCheck %s --check-prefix=JSON

// CHECK-LABEL: cake.kernel @gemm_bf16_128x256x64_s4
// CHECK: cake.role "load" warpgroups(1) regs(40)
// CHECK: cake.tma.load
// CHECK: cake.role "mma" warpgroups(2) regs(232)
// CHECK: scf.for {{.*}} iter_args
// CHECK: cake.mma wgmma

// JSON: "name": "gemm_bf16_128x256x64_s4"
// JSON: "kind": "persistent"
// JSON: "group_m": 8
// JSON: "stage_bytes": 16384
// JSON: "bytes": 65536
// JSON: "stage_bytes": 32768
// JSON: "bytes": 131072
// JSON: "name": "load"
// JSON-NEXT: "warps": 4
// JSON-NEXT: "regs": 40
// JSON: "name": "mma"
// JSON-NEXT: "warps": 8
// JSON-NEXT: "regs": 232
// JSON: "threads": 384
// JSON-NEXT: "ring_bytes": 196608
