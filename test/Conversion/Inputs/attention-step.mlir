// One attention step in one role: S = Q Kᵀ (both K-major from rings),
// P = bf16(S), O = P V with P from registers and V read MN-major.
cake.kernel @rs(%Q: !cake.global<?x64xbf16>, %K: !cake.global<?x64xbf16>,
                %V: !cake.global<?x64xbf16>, %O: !cake.global<?x64xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64]>} {
  %q = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %k = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %v = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %q, %k, %v : !cake.ring<1 x 64x64xbf16, swizzle = 128>,
                              !cake.ring<1 x 64x64xbf16, swizzle = 128>,
                              !cake.ring<1 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %N = cake.dim %Q, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%N) {
      %s = cake.pipe.acquire %p : !cake.pipe<1>
      cake.tma.load %Q[%m, %c0] -> %q[%s] : !cake.global<?x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.tma.load %K[%c0, %c0] -> %k[%s] : !cake.global<?x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.tma.load %V[%c0, %c0] -> %v[%s] : !cake.global<?x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<1>
    }
  }
  cake.role "attn" warpgroups(1) {
    %N = cake.dim %Q, 0 : !cake.global<?x64xbf16>
    cake.tiles (%m) in (%N) {
      %c0 = arith.constant 0 : index
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %t = cake.pipe.wait %p : !cake.pipe<1>
      %s = cake.mma wgmma %q[%t], %k[%t], %z : !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      %pb = cake.frag.convert %s : !cake.frag<64x64xf32> -> !cake.frag<64x64xbf16>
      %o = cake.mma wgmma %pb, %v[%t] mn_major, %z : !cake.frag<64x64xbf16>, !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.pipe.release %p, %t : !cake.pipe<1>
      cake.store %o -> %O[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x64xf32>
    }
  }
}
