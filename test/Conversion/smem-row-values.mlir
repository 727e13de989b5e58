// Per-row values (a 64 x 1 fragment) handed from one warpgroup to another
// through a one-column ring stage: the four threads of a quad hold the
// same two rows, so the quad's first thread stores them (rows r and r + 8,
// 4 bytes each, 32 bytes apart); every thread of the reader loads its two.
// The hand-over stays in the generic proxy (only smem.read reads the
// ring): no fence.proxy.async, and every thread of either side arrives for
// itself (no warp convergence and lane-0 arrival): both barriers count the
// warpgroup's 128 threads.
// RUN: cake-opt --cake-verify --cake-derive %s | FileCheck %s --check-prefix=DERIVE
// RUN: cake-opt --cake-verify --cake-derive --convert-cake-to-nvvm %s | FileCheck %s
// RUN: cake-opt --cake-verify "--cake-lower=format=ptx" %s | cake-translate --cake-to-ptx | FileCheck %s --check-prefix=PTX

// DERIVE: cake.pipe {{.*}}full_count = 128, empty_count = 128, tx_bytes = 256>

// CHECK-LABEL: gpu.func @row_values
// The writer, after its wait for a free stage: lane % 4 == 0 stores the
// thread's row and the row 8 below.
// CHECK:      nvvm.mbarrier.try_wait.parity
// CHECK:      %[[LEAD:.*]] = arith.cmpi eq, %{{.*}}, %c0_i32{{.*}} : i32
// CHECK-NEXT: scf.if %[[LEAD]] {
// CHECK-NEXT:   llvm.extractvalue %{{.*}}[0] : !llvm.struct<(f32, f32)>
// CHECK-NEXT:   llvm.getelementptr
// CHECK-NEXT:   llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT:   llvm.extractvalue %{{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK-NEXT:   llvm.getelementptr
// CHECK-NEXT:   llvm.store %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NOT:  nvvm.bar.warp.sync
// CHECK:      nvvm.mbarrier.arrive
// The reader: two loads a thread after the wait.
// CHECK:      nvvm.mbarrier.try_wait.parity
// CHECK:      llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK:      llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:  llvm.load %{{.*}} : !llvm.ptr<3>
// CHECK-NOT:  nvvm.bar.warp.sync
// CHECK:      nvvm.mbarrier.arrive

// Rows r and r + 8 of the stage at offset 128: 32 bytes apart.
// PTX-NOT:     fence.proxy.async
// PTX:         st.shared.b32 [%rd[[W:[0-9]+]]+128]
// PTX-NEXT:    st.shared.b32 [%rd[[W]]+160]
// PTX-NOT:     fence.proxy.async
// PTX-COUNT-2: ld.shared.b32
// PTX-NOT:     fence.proxy.async
cake.kernel @row_values(%In: !cake.global<?x?xf32>, %Out: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64, 1]>} {
  %r = cake.ring : !cake.ring<1 x 64x1xf32>
  %p = cake.pipe %r : !cake.ring<1 x 64x1xf32>
  cake.role "write" warpgroups(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xf32>
    %N = cake.dim %In, 1 : !cake.global<?x?xf32>
    cake.tiles (%m, %n) in (%M, %N) {
      %v = cake.load %In[%m, %n] : !cake.global<?x?xf32> -> !cake.frag<64x1xf32>
      %s = cake.pipe.acquire %p : !cake.pipe<1>
      cake.smem.write %v -> %r[%s] : !cake.frag<64x1xf32> -> !cake.ring<1 x 64x1xf32>
      cake.pipe.commit %p, %s : !cake.pipe<1>
    }
  }
  cake.role "read" warpgroups(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xf32>
    %N = cake.dim %In, 1 : !cake.global<?x?xf32>
    cake.tiles (%m, %n) in (%M, %N) {
      %t = cake.pipe.wait %p : !cake.pipe<1>
      %w = cake.smem.read %r[%t] : !cake.ring<1 x 64x1xf32> -> !cake.frag<64x1xf32>
      cake.pipe.release %p, %t : !cake.pipe<1>
      cake.store %w -> %Out[%m, %n] : !cake.frag<64x1xf32> -> !cake.global<?x?xf32>
    }
  }
}
