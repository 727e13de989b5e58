// cake-derive on tensor memory: each buffer's first column (in order, on
// 32-column boundaries), the CTA's one power-of-two allocation (at least
// 32 columns) and the shared-memory word its address goes to (after the
// barriers: 96 bytes of them in the GEMM, none below), and the barriers of
// a pipe over tensor memory (one tcgen05.commit completes a stage an MMA
// fills, one arrival per producer warp one that tcgen05.st fills; one
// arrival per consumer warp, or one commit of an MMA warp, frees it) and
// of a ring pipe read by tcgen05.mma (one commit frees a stage).
// RUN: not cake-opt --cake-derive %s -split-input-file 2>/dev/null | FileCheck %s
// RUN: cake-opt --cake-derive %cake_src/examples/blackwell/gemm_tcgen05.cake.mlir | FileCheck %s --check-prefix=CHECK-GEMM
// RUN: not cake-opt --cake-derive %s -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-ERR
// RUN: cake-opt --cake-derive %cake_src/examples/blackwell/mlp_tcgen05.cake.mlir | FileCheck %s --check-prefix=CHECK-MLP

// CHECK-GEMM: cake.pipe %{{.*}}, %{{.*}} {derived = #cake.pipe_barriers<full = 0, empty = 32, full_count = 1, empty_count = 1, tx_bytes = 49152>}
// CHECK-GEMM: cake.tmem {derived = #cake.tmem_layout<column = 0, allocation = 512, slot = 96>} : !cake.tmem<2 x 128x256xf32>
// CHECK-GEMM: cake.pipe %{{.*}} {derived = #cake.pipe_barriers<full = 64, empty = 80, full_count = 1, empty_count = 4, tx_bytes = 0>} : !cake.tmem<2 x 128x256xf32>

// The MLP's chain: H (2 x 64 columns) is filled by an MMA warp's commit and
// freed by the activation warpgroup's four warps; the bf16 slices (2 x 32
// columns) go the other way, filled by the warpgroup's tcgen05.st (an
// arrival a warp) and freed by the second MMA warp's one commit; Y (256)
// like the GEMM's accumulator. 448 columns: an allocation of 512.
// CHECK-MLP: cake.tmem {derived = #cake.tmem_layout<column = 0, allocation = 512, slot = 176>} : !cake.tmem<2 x 128x64xf32>
// CHECK-MLP: cake.pipe %{{.*}} {derived = #cake.pipe_barriers<full = 96, empty = 112, full_count = 1, empty_count = 4, tx_bytes = 0>} : !cake.tmem<2 x 128x64xf32>
// CHECK-MLP: cake.tmem {derived = #cake.tmem_layout<column = 128, allocation = 512, slot = 176>} : !cake.tmem<2 x 128x64xbf16>
// CHECK-MLP: cake.pipe %{{.*}} {derived = #cake.pipe_barriers<full = 128, empty = 144, full_count = 4, empty_count = 1, tx_bytes = 0>} : !cake.tmem<2 x 128x64xbf16>
// CHECK-MLP: cake.tmem {derived = #cake.tmem_layout<column = 192, allocation = 512, slot = 176>} : !cake.tmem<1 x 128x256xf32>
// CHECK-MLP: cake.pipe %{{.*}} {derived = #cake.pipe_barriers<full = 160, empty = 168, full_count = 1, empty_count = 4, tx_bytes = 0>} : !cake.tmem<1 x 128x256xf32>

// 96 + 8 + 64 columns (the 8-column buffer takes 32): 192 used, 256
// allocated. 128 bf16 are 64 columns.
// CHECK-LABEL: cake.kernel @columns
// CHECK: cake.tmem {derived = #cake.tmem_layout<column = 0, allocation = 256, slot = 0>} : !cake.tmem<1 x 128x96xf32>
// CHECK: cake.tmem {derived = #cake.tmem_layout<column = 96, allocation = 256, slot = 0>} : !cake.tmem<1 x 128x8xi32>
// CHECK: cake.tmem {derived = #cake.tmem_layout<column = 128, allocation = 256, slot = 0>} : !cake.tmem<1 x 128x128xbf16>
cake.kernel @columns(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %x = cake.tmem : !cake.tmem<1 x 128x96xf32>
  %y = cake.tmem : !cake.tmem<1 x 128x8xi32>
  %z = cake.tmem : !cake.tmem<1 x 128x128xbf16>
  cake.role "r" warpgroups(1) {}
}

// -----

// The smallest allocation tcgen05.alloc takes is 32 columns.
// CHECK-LABEL: cake.kernel @smallest
// CHECK: cake.tmem {derived = #cake.tmem_layout<column = 0, allocation = 32, slot = 0>} : !cake.tmem<1 x 128x16xf32>
cake.kernel @smallest(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %x = cake.tmem : !cake.tmem<1 x 128x16xf32>
  cake.role "r" warpgroups(1) {}
}

// -----

// Past 512 columns cake-derive refuses the kernel, as cake-verify does.
// CHECK-ERR: error: [resource.tmem-capacity] the CTA allocates 1024 columns of tensor memory (544 used, rounded up to a power of two), more than the 512 an SM of sm_100a has
cake.kernel @too_many(%n: index)
    attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [128]>} {
  %x = cake.tmem : !cake.tmem<1 x 128x512xf32>
  %y = cake.tmem : !cake.tmem<1 x 128x32xf32>
  cake.role "r" warpgroups(1) {}
}
