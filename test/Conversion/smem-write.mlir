// A stage filled by ordinary stores (examples/epilogue_smem.cake.mlir): a
// warpgroup writes a 64x64 bf16 fragment into a 128-byte-swizzled ring
// stage, fences the writes for the async proxy and commits; a store role
// writes the stage out by TMA.
// RUN: cake-opt --cake-verify --cake-derive %cake_src/examples/epilogue_smem.cake.mlir | FileCheck %s --check-prefix=DERIVE
// RUN: cake-opt --cake-verify --cake-derive --convert-cake-to-nvvm %cake_src/examples/epilogue_smem.cake.mlir | FileCheck %s

// The full barrier completes with one arrival per producer warp.
// DERIVE: full_count = 4

// Every thread of the producer waits for a free stage (no copy to arm).
// CHECK:      nvvm.mbarrier.try_wait.parity
// CHECK-NOT:  nvvm.mbarrier.arrive.expect_tx
// Each thread stores its column pairs at stage + (row * 128 + col * 2,
// its 16-byte chunk bits XOR its 128-byte line bits 7..9): the stage
// starts on a whole swizzle pattern, so the swizzle is computed on the
// offset within the tile, which every ring of the shape shares.
// CHECK:      %[[SOFF:.*]] = arith.muli %{{.*}}, %c8192_i32 : i32
// CHECK-NEXT: %[[STAGE:.*]] = arith.addi %c1024_i32, %[[SOFF]] : i32
// CHECK:      %[[ROW:.*]] = arith.muli %{{.*}}, %c128_i32 : i32
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[COL:.*]] = arith.muli %{{.*}}, %[[TWO]] : i32
// CHECK-NEXT: %[[IN:.*]] = arith.addi %[[ROW]], %[[COL]] : i32
// CHECK-NEXT: %[[SEVEN:.*]] = arith.constant 7 : i32
// CHECK-NEXT: %[[LINE:.*]] = arith.shrui %[[IN]], %[[SEVEN]] : i32
// CHECK-NEXT: %[[MASK:.*]] = arith.constant 7 : i32
// CHECK-NEXT: %[[ROWBITS:.*]] = arith.andi %[[LINE]], %[[MASK]] : i32
// CHECK-NEXT: %[[FOUR:.*]] = arith.constant 4 : i32
// CHECK-NEXT: %[[X:.*]] = arith.shli %[[ROWBITS]], %[[FOUR]] : i32
// CHECK-NEXT: %[[SW:.*]] = arith.xori %[[IN]], %[[X]] : i32
// CHECK-NEXT: arith.addi %[[STAGE]], %[[SW]] : i32
// CHECK:      llvm.extractvalue %{{.*}}[0]
// CHECK:      llvm.extractvalue %{{.*}}[1]
// CHECK:      llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<3>
// 16 pairs per thread (64 columns x 2 rows / 2 / 4 lanes of a row).
// CHECK-COUNT-15: llvm.store %{{.*}} : vector<2xbf16>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// The commit: the warp converges, lane 0 arrives on the full barrier.
// CHECK:      nvvm.bar.warp.sync
// CHECK:      scf.if
// CHECK-NEXT:   nvvm.mbarrier.arrive
// The store role: wait, TMA store, wait for the read, release.
// CHECK:      nvvm.mbarrier.try_wait.parity
// CHECK:      nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK:      nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK:      nvvm.mbarrier.arrive
