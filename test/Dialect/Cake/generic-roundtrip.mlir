// The generic form of Cake IR parses back to the same custom form.
// RUN: cake-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: cake-opt %s -mlir-print-op-generic | cake-opt | FileCheck %s

// GENERIC: "cake.kernel"()
// GENERIC: "cake.role"() <{name = "load", warps = 1 : i32}>
// GENERIC: "cake.pipe.acquire"(%{{.*}}) : (!cake.pipe<2>) -> !cake.stage
// GENERIC: "cake.mma"({{.*}}) <{kind = 0 : i32}>

// CHECK-LABEL: cake.kernel @g
// CHECK: cake.role "load" warps(1) {
// CHECK: cake.mma wgmma
cake.kernel @g() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "mma" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    %r = cake.mma wgmma %a[%s], %a[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}
