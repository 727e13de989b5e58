// A stage count that does not fit 64 bits is an error, not an overflow.
// RUN: not cake-opt %s 2>&1 | FileCheck %s
// CHECK: huge-integer.mlir:[[@LINE+1]]:{{[0-9]+}}: error: integer value too large
module attributes {t.r = !cake.ring<99999999999999999999999 x 64x64xbf16, swizzle = 128>} {}
