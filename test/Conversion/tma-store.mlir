// A TMA store from a ring stage (examples/tma_copy.cake.mlir: a copy role
// loads boxes into a 4-stage ring, a store role writes them out). The
// store role runs on its leader alone: it waits for the stage, issues the
// bulk tensor store from shared memory, commits the bulk group and waits
// until the copy has read the stage (.read: the global writes may still
// be under way), then arrives on the stage's empty barrier itself, with no
// warp convergence (its other lanes do not run).
// RUN: cake-opt --cake-verify --cake-derive --convert-cake-to-nvvm %cake_src/examples/tma_copy.cake.mlir | FileCheck %s
// RUN: cake-opt --cake-verify --cake-lower="format=ptx" %cake_src/examples/tma_copy.cake.mlir | cake-translate --cake-to-ptx | FileCheck %s --check-prefix=PTX

// CHECK:      nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK:      nvvm.mbarrier.try_wait.parity
// CHECK-NOT:  nvvm.bar.warp.sync
// CHECK:      nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NOT:  nvvm.bar.warp.sync
// CHECK:      nvvm.mbarrier.arrive
// CHECK-NOT:  nvvm.bar.warp.sync
// CHECK:      gpu.return

// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX-NEXT: cp.async.bulk.commit_group;
// PTX-NEXT: cp.async.bulk.wait_group.read 0;
