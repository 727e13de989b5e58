// What cake-derive attaches (CakeDerived.td) round trips: a derived kernel
// written out and read back is the same, and the lowering takes it.
// RUN: cake-opt --cake-derive %cake_src/examples/gemm_ws_persistent.cake.mlir | cake-opt | cake-opt | FileCheck %s
// RUN: cake-opt --cake-derive %cake_src/examples/gemm_ws_persistent.cake.mlir | cake-opt | cake-opt --convert-cake-to-nvvm | FileCheck %s --check-prefix=LOWERED
// RUN: cake-opt %s | cake-opt | FileCheck %s --check-prefix=ATTRS

// CHECK: cake.kernel @gemm_bf16_128x256x64_s4
// CHECK-SAME: derived = #cake.kernel_layout<block = [{{[0-9]+}}, 1, 1], baseline_regs = {{[0-9]+}}, smem_bytes = {{[0-9]+}}, tma = [#cake.tma_descriptor<arg = 0,
// CHECK: cake.ring {derived = #cake.ring_layout<offset = 1024, align = 1024>}
// CHECK: cake.pipe {{.*}} {derived = #cake.pipe_barriers<full = 0,
// CHECK: cake.role "load" {{.*}}attributes {derived = #cake.role_layout<first_warp = 0, lanes = one, setmaxnreg = dec>}
// CHECK: cake.tiles {{.*}}attributes {derived = #cake.tile_extents<args = [{{.*}}], dims = [{{.*}}]>}
// CHECK: cake.pipe.acquire {{.*}} {derived = #cake.handoff<barrier = empty, parity = inverted_phase>}
// CHECK: cake.tma.load {{.*}} {derived = #cake.tma_copy<descriptor = 0>}
// CHECK: cake.pipe.wait {{.*}} {derived = #cake.handoff<barrier = full, parity = phase>}
// CHECK: cake.mma wgmma {{.*}} {derived = #cake.wgmma_layout<wg_rows = 64,
// LOWERED: gpu.func @gemm_bf16_128x256x64_s4
// LOWERED: nvvm.wgmma.mma_async

// ATTRS: module attributes
// ATTRS-SAME: t.a = #cake.kernel_layout<block = [128, 1, 1], baseline_regs = 255, smem_bytes = 0, tma = []>
// ATTRS-SAME: t.b = #cake.tma_descriptor<arg = 2, box = [1, 64, 32], swizzle = 64>
// ATTRS-SAME: t.c = #cake.role_layout<first_warp = 8, lanes = all, setmaxnreg = none>
// ATTRS-SAME: t.d = #cake.ring_layout<offset = 2048, align = 512>
// ATTRS-SAME: t.e = #cake.pipe_barriers<full = 8, empty = 16, full_count = 4, empty_count = 1, tx_bytes = 0>
// ATTRS-SAME: t.f = #cake.handoff<barrier = full, parity = phase>
// ATTRS-SAME: t.g = #cake.tma_copy<descriptor = 3>
// ATTRS-SAME: t.h = #cake.wgmma_layout<wg_rows = 128, instr_n = 256, instr_k = 8, sbo = 512, swizzle_mode = 2>
// ATTRS-SAME: t.i = #cake.tile_extents<args = [3], dims = [-1]>
module attributes {
  t.a = #cake.kernel_layout<block = [128, 1, 1], baseline_regs = 255, smem_bytes = 0, tma = []>,
  t.b = #cake.tma_descriptor<arg = 2, box = [1, 64, 32], swizzle = 64>,
  t.c = #cake.role_layout<first_warp = 8, lanes = all, setmaxnreg = none>,
  t.d = #cake.ring_layout<offset = 2048, align = 512>,
  t.e = #cake.pipe_barriers<full = 8, empty = 16, full_count = 4, empty_count = 1, tx_bytes = 0>,
  t.f = #cake.handoff<barrier = full, parity = phase>,
  t.g = #cake.tma_copy<descriptor = 3>,
  t.h = #cake.wgmma_layout<wg_rows = 128, instr_n = 256, instr_k = 8, sbo = 512, swizzle_mode = 2>,
  t.i = #cake.tile_extents<args = [3], dims = [-1]>
} {}
