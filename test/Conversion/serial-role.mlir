// A role that fills its own pipe (not warp specialized): every thread
// runs the role, the leader (lane 0 of its first warp) alone waits for a
// free stage, arms the full barrier and issues the copies, its warp
// reconverges behind it before the wgmma (.sync.aligned), and the role
// counts its acquires and its waits with two counters. (One shared counter
// made the wait use the next phase's parity and pass before the copy
// landed: a launch failure on the H200.)
// RUN: cake-opt --cake-verify --cake-derive --convert-cake-to-nvvm %s | FileCheck %s

// CHECK:      %[[WAITS:.*]] = llvm.alloca
// CHECK:      %[[ACQUIRES:.*]] = llvm.alloca
// CHECK:      scf.for
// CHECK:        llvm.load %[[ACQUIRES]]
// CHECK:        scf.if %[[LEADER:.*]] {
// CHECK-NEXT:     arith.constant 8
// CHECK:          nvvm.mbarrier.try_wait.parity
// CHECK:          nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
// CHECK-NEXT:   }
// CHECK-NEXT:   arith.constant -1
// CHECK-NEXT:   nvvm.bar.warp.sync
// CHECK:        scf.if %[[LEADER]] {
// CHECK:          nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NEXT:   }
// CHECK-NEXT:   arith.constant -1
// CHECK-NEXT:   nvvm.bar.warp.sync
// CHECK:        llvm.load %[[WAITS]]
// CHECK:        nvvm.mbarrier.try_wait.parity
// CHECK:        nvvm.wgmma.fence.aligned
// CHECK:        nvvm.wgmma.mma_async

cake.kernel @serial(%A: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  cake.role "main" warpgroups(2) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%M) {
      %s = cake.pipe.acquire %p : !cake.pipe<1>
      cake.tma.load %A[%m, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<1 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<1>
      %t = cake.pipe.wait %p : !cake.pipe<1>
      %z = cake.frag.zero : !cake.frag<128x128xf32>
      %r = cake.mma wgmma %a[%t], %a[%t], %z : !cake.ring<1 x 128x64xbf16, swizzle = 128>, !cake.ring<1 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
      cake.pipe.release %p, %t : !cake.pipe<1>
    }
  }
}
