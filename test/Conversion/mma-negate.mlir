// cake.mma negate: result = acc - A·Bᵀ, through wgmma's operand scale of -1
// on A (the accumulator scale stays 1).
// RUN: cake-opt --cake-verify --cake-lower="format=ptx" %s | FileCheck %s
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: p, -1, 1, 0, 0
// CHECK-NOT: p, 1, 1, 0, 0

cake.kernel @negate(%A: !cake.global<?x64xbf16>, %C: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  cake.role "main" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%M) {
      %s = cake.pipe.acquire %p : !cake.pipe<1>
      cake.tma.load %A[%m, %c0] -> %a[%s] : !cake.global<?x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<1>
      %t = cake.pipe.wait %p : !cake.pipe<1>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %r = cake.mma wgmma negate %a[%t], %a[%t], %z : !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.pipe.release %p, %t : !cake.pipe<1>
      cake.store %r -> %C[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
    }
  }
}
