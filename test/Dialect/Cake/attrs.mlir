// Targets and schedules round trip.
// RUN: cake-opt %s | cake-opt | FileCheck %s

// CHECK: module attributes
// CHECK-SAME: t.a = #cake.target<"sm_80">
// CHECK-SAME: t.b = #cake.target<"sm_90a">
// CHECK-SAME: t.c = #cake.target<"sm_100a">
// CHECK-SAME: t.d = #cake.persistent<tile = [128, 256], group_m = 8>
// CHECK-SAME: t.e = #cake.grid<tile = [64, 32, 16]>
// CHECK-SAME: t.f = !cake.global<?x?x128xf8E4M3FN>
// CHECK-SAME: t.g = !cake.ring<3 x 128x32xf32, swizzle = 128>
// CHECK-SAME: t.h = !cake.ring<1 x 256xi8, swizzle = 0>
// CHECK-SAME: t.i = !cake.frag<2x3x4xi16>
// CHECK-SAME: t.j = !cake.stage
module attributes {
  t.a = #cake.target<"sm_80">, t.b = #cake.target<"sm_90a">,
  t.c = #cake.target<"sm_100a">,
  t.d = #cake.persistent<tile = [128, 256], group_m = 8>,
  t.e = #cake.grid<tile = [64, 32, 16]>,
  t.f = !cake.global<?x?x128xf8E4M3FN>,
  t.g = !cake.ring<3 x 128x32xf32, swizzle = 128>,
  t.h = !cake.ring<1 x 256xi8>,
  t.i = !cake.frag<2x3x4xi16>, t.j = !cake.stage} {}
