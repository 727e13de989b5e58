// cake-to-summary-json: the kernel interface, written with cJSON.
// RUN: cake-translate --cake-to-summary-json %s | FileCheck %s
// RUN: cake-translate --cake-to-summary-json %cake_src/examples/blackwell/gemm_tcgen05.cake.mlir | FileCheck %s --check-prefix=TMEM

// Tensor memory (sm_100a), and the pipe over it.
// TMEM: "tmem": [{
// TMEM-NEXT: "index": 0
// TMEM-NEXT: "stages": 2
// TMEM-NEXT: "tile": [128, 256]
// TMEM-NEXT: "element": "f32"
// TMEM-NEXT: "columns": 512
// TMEM: "index": 1
// TMEM-NEXT: "stages": 2
// TMEM-NEXT: "rings": []
// TMEM-NEXT: "tmem": 0

// CHECK: "kernels": [{
// CHECK-NEXT: "name": "tiny"
// CHECK-NEXT: "target": "sm_80"
// CHECK-NEXT: "schedule": {
// CHECK-NEXT: "kind": "grid"
// CHECK-NEXT: "tile": [32, 32]
// CHECK-NEXT: "cluster": 1
// CHECK: "arguments": [{
// CHECK-NEXT: "index": 0
// CHECK-NEXT: "kind": "global"
// CHECK-NEXT: "shape": [null, 64]
// CHECK-NEXT: "element": "f16"
// CHECK: "index": 1
// CHECK-NEXT: "kind": "scalar"
// CHECK-NEXT: "element": "index"
// CHECK: "rings": [{
// CHECK-NEXT: "index": 0
// CHECK-NEXT: "stages": 3
// CHECK-NEXT: "tile": [32, 64]
// CHECK-NEXT: "element": "f16"
// CHECK-NEXT: "swizzle": 128
// CHECK-NEXT: "stage_bytes": 4096
// CHECK-NEXT: "bytes": 12288
// CHECK: "pipes": [{
// CHECK-NEXT: "index": 0
// CHECK-NEXT: "stages": 3
// CHECK-NEXT: "rings": [0]
// CHECK: "roles": [{
// CHECK-NEXT: "name": "only"
// CHECK-NEXT: "warps": 2
// CHECK-NEXT: "regs": null
// CHECK: "threads": 64
// CHECK-NEXT: "ring_bytes": 12288
cake.kernel @tiny(%A: !cake.global<?x64xf16>, %n: index)
    attributes {target = #cake.target<"sm_80">, schedule = #cake.grid<tile = [32, 32]>} {
  %a = cake.ring : !cake.ring<3 x 32x64xf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<3 x 32x64xf16, swizzle = 128>
  cake.role "only" warps(2) {}
}
