// The device copy of tma_copy.cake.mlir by two producer/consumer pairs,
// the ping-pong form: each pair has its own 2-stage ring and pipe and
// takes every other tile of its CTA's sequence (`slice 0 of 2`, `slice 1
// of 2`), so one pair's copies run while the other's stores drain. Roles
// that share a pipe take the same slice (sync.tiles-mismatch).
cake.kernel @tma_copy_pingpong_bf16(%In: !cake.global<?x?xbf16>, %Out: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 64], group_m = 1>} {
  %r0 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %r1 = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p0 = cake.pipe %r0 : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p1 = cake.pipe %r1 : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load0" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %In, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %s = cake.pipe.acquire %p0 : !cake.pipe<2>
      cake.tma.load %In[%m, %n] -> %r0[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %p0, %s : !cake.pipe<2>
    }
  }
  cake.role "store0" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %In, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) slice 0 of 2 {
      %s = cake.pipe.wait %p0 : !cake.pipe<2>
      cake.tma.store %r0[%s] -> %Out[%m, %n] : !cake.ring<2 x 128x64xbf16, swizzle = 128> -> !cake.global<?x?xbf16>
      cake.pipe.release %p0, %s : !cake.pipe<2>
    }
  }
  cake.role "load1" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %In, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %s = cake.pipe.acquire %p1 : !cake.pipe<2>
      cake.tma.load %In[%m, %n] -> %r1[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %p1, %s : !cake.pipe<2>
    }
  }
  cake.role "store1" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %In, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      %s = cake.pipe.wait %p1 : !cake.pipe<2>
      cake.tma.store %r1[%s] -> %Out[%m, %n] : !cake.ring<2 x 128x64xbf16, swizzle = 128> -> !cake.global<?x?xbf16>
      cake.pipe.release %p1, %s : !cake.pipe<2>
    }
  }
}
