// A tile through registers: the copy engine brings a 64 x 64 bf16 box of
// In into a 128-byte-swizzled ring stage (zero-filling past the edges),
// the warpgroup reads the stage into an accumulator-layout fragment with
// cake.smem.read (no per-element bounds work) and stores it to the same box
// of Out. `cake-run --check copy` compares Out with In, ragged edges
// included: a wrong swizzle or layout shows as a permutation.
cake.kernel @smem_read_bf16(%In: !cake.global<?x?xbf16>, %Out: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64, 64]>} {
  %x = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %x : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  cake.role "copy" warpgroups(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %In, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<1>
      cake.tma.load %In[%m, %n] -> %x[%s] : !cake.global<?x?xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<1>
      %t = cake.pipe.wait %p : !cake.pipe<1>
      %v = cake.smem.read %x[%t] : !cake.ring<1 x 64x64xbf16, swizzle = 128> -> !cake.frag<64x64xbf16>
      cake.pipe.release %p, %t : !cake.pipe<1>
      cake.store %v -> %Out[%m, %n] : !cake.frag<64x64xbf16> -> !cake.global<?x?xbf16>
    }
  }
}
