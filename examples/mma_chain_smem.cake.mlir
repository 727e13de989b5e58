// Two chained MMAs whose intermediate goes through shared memory, written
// by the role that reads it: Y = E · (A · Bᵀ), per 64-row block of A, E
// and Y. It is the step of a linear-attention recurrence (KDA's W · S,
// docs/kda.md) where a state held in registers becomes the B operand of
// the next product: the tensor cores read B only from shared memory.
//
// The decisions written here: X is rounded to bf16 and staged in a
// one-stage ring `x` that this role both fills (cake.smem.write) and
// reads (as an MN-major B: X is K×N with N contiguous). What the compiler
// derives: the ring's swizzled layout for the stores and the descriptor,
// the full barrier's count (one arrival per warp, after each warp's lanes
// converged: a barrier among the role's own warps) and holding the
// stage's release until the wgmma reading it has retired.
// cake-verify asks for the proxy fence between the stores and the
// tensor cores' read (sync.proxy-fence).
//
// Checked on the GPU by bench/verify/check_chain.py.
cake.kernel @mma_chain_smem(%A: !cake.global<?x64xbf16>,
                            %B: !cake.global<64x64xbf16>,
                            %E: !cake.global<?x64xbf16>,
                            %Y: !cake.global<?x64xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %e = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b, %e : !cake.ring<1 x 64x64xbf16, swizzle = 128>,
                              !cake.ring<1 x 64x64xbf16, swizzle = 128>,
                              !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %x = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %q = cake.pipe %x : !cake.ring<1 x 64x64xbf16, swizzle = 128>

  cake.role "chain" warpgroups(1) {
    %T = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%T) {
      %s = cake.pipe.acquire %p : !cake.pipe<1>
      cake.tma.load %A[%m, %c0] -> %a[%s]
        : !cake.global<?x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.tma.load %B[%c0, %c0] -> %b[%s]
        : !cake.global<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.tma.load %E[%m, %c0] -> %e[%s]
        : !cake.global<?x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<1>
      %t = cake.pipe.wait %p : !cake.pipe<1>
      %zero = cake.frag.zero : !cake.frag<64x64xf32>
      // X = A · Bᵀ, rounded to bf16 and staged for the tensor cores.
      %x32 = cake.mma wgmma %a[%t], %b[%t], %zero
        : !cake.ring<1 x 64x64xbf16, swizzle = 128>,
          !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      %x16 = cake.frag.convert %x32
        : !cake.frag<64x64xf32> -> !cake.frag<64x64xbf16>
      %u = cake.pipe.acquire %q : !cake.pipe<1>
      cake.smem.write %x16 -> %x[%u]
        : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %q, %u : !cake.pipe<1>
      // Y = E · X: X is the K×N operand, N contiguous.
      %v = cake.pipe.wait %q : !cake.pipe<1>
      %y = cake.mma wgmma %e[%t], %x[%v] mn_major, %zero
        : !cake.ring<1 x 64x64xbf16, swizzle = 128>,
          !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.pipe.release %q, %v : !cake.pipe<1>
      cake.pipe.release %p, %t : !cake.pipe<1>
      cake.store %y -> %Y[%m, %c0]
        : !cake.frag<64x64xf32> -> !cake.global<?x64xf32>
    }
  }
}
