// examples/tma_copy.cake.mlir retargeted to sm_80, which has no TMA:
// the input of test/Conversion/lower-unsupported.test.
cake.kernel @tma_copy_bf16(%In: !cake.global<?x?xbf16>, %Out: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_80">,
                schedule = #cake.persistent<tile = [128, 64], group_m = 1>} {
  %r = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %r : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %In, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<4>
      cake.tma.load %In[%m, %n] -> %r[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<4>
    }
  }
  cake.role "store" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %In, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.wait %p : !cake.pipe<4>
      cake.tma.store %r[%s] -> %Out[%m, %n] : !cake.ring<4 x 128x64xbf16, swizzle = 128> -> !cake.global<?x?xbf16>
      cake.pipe.release %p, %s : !cake.pipe<4>
    }
  }
}
