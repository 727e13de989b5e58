// "h1" differs from "h0" in its constants (the column block it loads, the
// addend of its map) and in its pipe and ring only.
cake.kernel @shares(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %O: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "h0" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 0 : index
      %k = arith.constant 1.0 : bf16
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %k : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p0 : !cake.pipe<2>
      cake.smem.write %y -> %a0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p0, %s : !cake.pipe<2>
    }
  }
  cake.role "h1" warpgroups(1) regs(168) shares_code_with("h0") {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 64 : index
      %k = arith.constant 2.0 : bf16
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %k : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p1 : !cake.pipe<2>
      cake.smem.write %y -> %a1[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p1, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%M) {
      %s0 = cake.pipe.wait %p0 : !cake.pipe<2>
      %s1 = cake.pipe.wait %p1 : !cake.pipe<2>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %r = cake.mma wgmma %a0[%s0], %a1[%s1], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.store %r -> %O[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
      cake.pipe.release %p0, %s0 : !cake.pipe<2>
      cake.pipe.release %p1, %s1 : !cake.pipe<2>
    }
  }
}

