// cake-warp-specialize: the producer side of a role that fills its own pipe
// (acquire, TMA copies, commit, the loops around them and what computes
// their coordinates) moves into a new one-warpgroup role placed before it;
// the role keeps the rest, loop-carried accumulators included.
// RUN: cake-opt %s --cake-warp-specialize --cake-verify | FileCheck %s
// RUN: cake-opt %s --cake-warp-specialize="producer-regs=0 producer-name=tma" | FileCheck %s --check-prefix=NOREGS
// RUN: cake-opt %s --cake-warp-specialize --cake-warp-specialize | FileCheck %s --check-prefix=TWICE
// RUN: cake-opt %s --cake-warp-specialize --cake-set-stages="pipe=0 stages=4" --cake-verify | FileCheck %s --check-prefix=DEEP
// RUN: not cake-opt %s --cake-warp-specialize="role=nobody" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOROLE

// CHECK-LABEL: cake.kernel @serial_gemm
// CHECK:       cake.role "load" warpgroups(1) regs(40) {
// CHECK:         cake.tiles (%[[M:.*]], %[[N:.*]]) in
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[S:.*]] = cake.pipe.acquire
// CHECK-NEXT:        cake.tma.load %{{.*}}[%[[M]], %[[K]]] -> %{{.*}}[%[[S]]]
// CHECK-NEXT:        cake.tma.load %{{.*}}[%[[N]], %[[K]]] -> %{{.*}}[%[[S]]]
// CHECK-NEXT:        cake.pipe.commit %{{.*}}, %[[S]]
// CHECK-NEXT:      }
// CHECK-NOT:     cake.frag
// CHECK:       cake.role "mma" warpgroups(2) {
// CHECK-NOT:     cake.pipe.acquire
// CHECK-NOT:     cake.tma.load
// CHECK:         scf.for {{.*}} iter_args
// CHECK-NEXT:      cake.pipe.wait
// CHECK-NEXT:      cake.mma wgmma
// CHECK-NEXT:      cake.pipe.release
// CHECK:         cake.store

// NOREGS: cake.role "tma" warpgroups(1) {
// NOREGS: cake.role "mma" warpgroups(2) {

// Already specialized: the second application changes nothing.
// TWICE-COUNT-1: cake.role "load"
// TWICE-NOT: cake.role "load"

// DEEP: cake.pipe.acquire %{{.*}} : !cake.pipe<4>

// NOROLE: error: cake-warp-specialize: no role named "nobody"

cake.kernel @serial_gemm(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                         %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128, 128]>} {
  %a = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<1 x 128x64xbf16, swizzle = 128>, !cake.ring<1 x 128x64xbf16, swizzle = 128>
  cake.role "mma" warpgroups(2) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %zero = cake.frag.zero : !cake.frag<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (!cake.frag<128x128xf32>) {
        %s = cake.pipe.acquire %p : !cake.pipe<1>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<1 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s] : !cake.global<?x?xbf16> -> !cake.ring<1 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<1>
        %t = cake.pipe.wait %p : !cake.pipe<1>
        %r = cake.mma wgmma %a[%t], %b[%t], %acc0 : !cake.ring<1 x 128x64xbf16, swizzle = 128>, !cake.ring<1 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
        cake.pipe.release %p, %t : !cake.pipe<1>
        scf.yield %r : !cake.frag<128x128xf32>
      }
      %out = cake.frag.convert %acc : !cake.frag<128x128xf32> -> !cake.frag<128x128xbf16>
      cake.store %out -> %C[%m, %n] : !cake.frag<128x128xbf16> -> !cake.global<?x?xbf16>
    }
  }
}
