// A ring type without its `x` between stages and tile.
// RUN: not cake-opt %s 2>&1 | FileCheck %s
// CHECK: bad-type-syntax.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected 'x'
module attributes {t.r = !cake.ring<4 128x64xbf16, swizzle = 128>} {}
