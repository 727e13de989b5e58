// The derived attributes check their own consistency; the lowering names an
// op cake-derive did not reach. Each case is one message.
// RUN: cake-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{expected a block of 3 positive sizes}}
module attributes {t = #cake.kernel_layout<block = [128, 1], baseline_regs = 255, smem_bytes = 0, tma = []>} {}

// -----

// expected-error @+1 {{expected non-negative baseline_regs and smem_bytes, got 255 and -1}}
module attributes {t = #cake.kernel_layout<block = [128, 1, 1], baseline_regs = 255, smem_bytes = -1, tma = []>} {}

// -----

// expected-error @+1 {{expected #cake.tma_descriptor in tma, got 3 : i64}}
module attributes {t = #cake.kernel_layout<block = [128, 1, 1], baseline_regs = 255, smem_bytes = 0, tma = [3]>} {}

// -----

// expected-error @+1 {{expected one dim per extent, got 2 args and 1 dims}}
module attributes {t = #cake.tile_extents<args = [0, 1], dims = [0]>} {}

// -----

// expected-error @+1 {{expected an argument index >= 0 and a dim >= -1, got 0 and -2}}
module attributes {t = #cake.tile_extents<args = [0], dims = [-2]>} {}

// -----

// expected-error @+2 {{expected ::mlir::cake::RoleLanes to be one of: one, all}}
// expected-error @+1 {{failed to parse Cake_RoleLayoutAttr parameter 'lanes'}}
module attributes {t = #cake.role_layout<first_warp = 0, lanes = some, setmaxnreg = none>} {}

// -----

// A derived attribute of another op family.
cake.kernel @k() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-error @+1 {{attribute 'derived' failed to satisfy constraint}}
  %a = cake.ring {derived = #cake.tma_copy<descriptor = 0>} : !cake.ring<2 x 64x64xbf16, swizzle = 128>
}
