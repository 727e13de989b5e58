// Type verifiers: each case is one message.
// RUN: cake-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{[resource.stage-count] expected a stage count >= 1, got 0}}
module attributes {t = !cake.ring<0 x 64x64xbf16, swizzle = 128>} {}

// -----

// expected-error @+1 {{[hw.swizzle-mode] expected a swizzle of 0, 32, 64 or 128 bytes, got 96}}
module attributes {t = !cake.ring<2 x 64x64xbf16, swizzle = 96>} {}

// -----

// A 128-wide bf16 row is 256 bytes: wider than the 128-byte swizzle.
// expected-error @+1 {{[hw.tma-box] the tile's inner dimension spans 256 bytes, more than the 128-byte swizzle span}}
module attributes {t = !cake.ring<2 x 64x128xbf16, swizzle = 128>} {}

// -----

// expected-error @+1 {{[hw.tma-element-type] expected an element type the copy engine can move}}
module attributes {t = !cake.ring<2 x 64x64xi4, swizzle = 0>} {}

// -----

// expected-error @+1 {{expected a stage count >= 1, got 0}}
module attributes {t = !cake.pipe<0>} {}

// -----

// expected-error @+1 {{[dataflow.type-shape] expected a global tensor of rank 1 to 5, got rank 6}}
module attributes {t = !cake.global<1x1x1x1x1x1xf32>} {}

// -----

// expected-error @+1 {{expected an integer or float element type, got 'index'}}
module attributes {t = !cake.global<?xindex>} {}

// -----

// expected-error @+1 {{expected a fragment of rank 1 to 3, got rank 4}}
module attributes {t = !cake.frag<2x2x2x2xf32>} {}

// -----

// expected-error @+1 {{expected static}}
module attributes {t = !cake.frag<?x4xf32>} {}

// -----

// expected-error @+1 {{[hw.arch-feature] unknown target 'sm_70', expected one of 'sm_80' 'sm_90a' 'sm_100a'}}
module attributes {t = #cake.target<"sm_70">} {}

// -----

// expected-error @+1 {{expected group_m >= 1, got 0}}
module attributes {s = #cake.persistent<tile = [128, 128], group_m = 0>} {}

// -----

// expected-error @+1 {{expected a tile of rank 1 to 3, got rank 4}}
module attributes {s = #cake.grid<tile = [1, 2, 3, 4]>} {}

// -----

// expected-error @+1 {{expected positive tile sizes, got 0}}
module attributes {s = #cake.grid<tile = [128, 0]>} {}
