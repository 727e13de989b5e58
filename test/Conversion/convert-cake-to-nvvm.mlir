// convert-cake-to-nvvm on a small GEMM: what each Cake op becomes.
// RUN: cake-opt --cake-derive --convert-cake-to-nvvm %s | FileCheck %s

// CHECK: module attributes {cake.launch = [{
// CHECK-SAME: block = array<i64: 384, 1, 1>
// CHECK-SAME: entry = "small"
// CHECK-SAME: params = [{arg = 0 : i64, dim = -1 : i64, kind = "ptr"}, {arg = 0 : i64, dim = 0 : i64, kind = "dim"}, {arg = 0 : i64, dim = 1 : i64, kind = "dim"}
// CHECK-SAME: {arg = 0 : i64, dim = -1 : i64, kind = "tma"}, {arg = 1 : i64, dim = -1 : i64, kind = "tma"}]
// CHECK-SAME: smem_bytes = 100352
// CHECK-SAME: gpu.container_module
// CHECK: gpu.module @small_module [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// CHECK: llvm.mlir.global external @__cake_dynamic_smem() {addr_space = 3 : i32, alignment = 16 : i64}
// CHECK: gpu.func @small(%{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: i64, {{.*}}, %[[DA:.*]]: !llvm.ptr, %[[DB:.*]]: !llvm.ptr) kernel
// CHECK-SAME: nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32
// Thread 0 initializes full (1 arrival) and empty (8: one per consumer warp)
// per stage.
// CHECK: scf.if
// CHECK-COUNT-6: nvvm.mbarrier.init %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.barrier0
// Producer: one elected thread; acquire waits on empty with parity ^ 1 and
// arms full with 32768 bytes; the copies complete on full.
// CHECK: scf.for
// CHECK: %[[N:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: %[[ST:.*]] = arith.remui %[[N]], %c3_i32
// CHECK: %[[PH:.*]] = arith.andi
// CHECK: %[[PAR:.*]] = arith.xori %[[PH]], %c1_i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PAR]], %{{.*}} : !llvm.ptr<3>, i32, i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[DA]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[DB]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// Consumers: setmaxnreg up, wait on full, 4 x m64n128k16 per 64-wide K tile,
// retire, release.
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: llvm.mlir.zero : !llvm.struct<(f32
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.bar.warp.sync
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// Epilogue: f32 -> bf16, masked stores.
// CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<1>
// CHECK: gpu.return
cake.kernel @small(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [128, 128], group_m = 4>} {
  %a = cake.ring : !cake.ring<3 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<3 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<3 x 128x64xbf16, swizzle = 128>, !cake.ring<3 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<3>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<3 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s] : !cake.global<?x?xbf16> -> !cake.ring<3 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<3>
      }
    }
  }
  cake.role "mma" warpgroups(2) regs(232) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %z = cake.frag.zero : !cake.frag<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%x = %z) -> (!cake.frag<128x128xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<3>
        %r = cake.mma wgmma %a[%s], %b[%s], %x : !cake.ring<3 x 128x64xbf16, swizzle = 128>, !cake.ring<3 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %p, %s : !cake.pipe<3>
        scf.yield %r : !cake.frag<128x128xf32>
      }
      %o = cake.frag.convert %acc : !cake.frag<128x128xf32> -> !cake.frag<128x128xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<128x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// The K loop keeps one wgmma group in flight: it waits for all but the last
// group and releases the previous iteration's stage; after the loop the last
// group retires and its stage is released. mma-in-flight=0 retires each
// group at once.
// RUN: cake-opt --cake-derive --convert-cake-to-nvvm %s | FileCheck %s --check-prefix=DEPTH1
// RUN: cake-opt --cake-derive --convert-cake-to-nvvm="mma-in-flight=0" %s | FileCheck %s --check-prefix=DEPTH0
// DEPTH1: llvm.store %c-1_i32, %[[PREV:.*]] : i32, !llvm.ptr
// DEPTH1: scf.for
// DEPTH1: nvvm.wgmma.commit.group.sync.aligned
// DEPTH1-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// DEPTH1: %[[P:.*]] = llvm.load %[[PREV]] : !llvm.ptr -> i32
// DEPTH1: arith.cmpi sge, %[[P]], %c0_i32
// DEPTH1: nvvm.mbarrier.arrive
// DEPTH1: llvm.store %{{.*}}, %[[PREV]] : i32, !llvm.ptr
// DEPTH1: scf.yield
// DEPTH1: nvvm.wgmma.wait.group.sync.aligned 0
// DEPTH1: nvvm.mbarrier.arrive
// DEPTH0-NOT: nvvm.wgmma.wait.group.sync.aligned 1
// DEPTH0: nvvm.wgmma.wait.group.sync.aligned 0
// DEPTH0-NOT: nvvm.wgmma.wait.group.sync.aligned 1

// A one-stage pipe cannot keep a group in flight: the deferred release
// would hold the only stage while the next iteration waits for it to be
// refilled (found by cake-evolve's grid, which ranked one-stage variants).
// RUN: cake-opt --cake-set-stages="pipe=0 stages=1" --cake-derive --convert-cake-to-nvvm %s | FileCheck %s --check-prefix=STAGE1
// STAGE1-NOT: nvvm.wgmma.wait.group.sync.aligned 1
// STAGE1: nvvm.wgmma.wait.group.sync.aligned 0
// STAGE1-NOT: nvvm.wgmma.wait.group.sync.aligned 1
