// A product stored transposed: per 128-row block m of A, X = A · Bᵀ on
// the tensor cores (128 x 128, f32), rounded to bf16 and written as
// Y[:, m .. m + 128] = Xᵀ, so Y = B · Aᵀ ([128, rows]).
//
// The decision written here: `cake.store ... transposed` writes the
// accumulator-shaped tile as the N x M box of the tensor, the layout a
// product computed transposed needs (KDA's 16-token chain computes Oᵀ
// with the V block on wgmma's M, docs/kda.md). What the compiler derives:
// each thread's tensor rows and columns from the accumulator layout, one
// predicated 16-bit store per value, columns past the tensor's end (the
// last block of a ragged A) left alone.
//
// Checked on the GPU by bench/verify/check_store_transposed.py.
cake.kernel @store_transposed(%A: !cake.global<?x64xbf16>,
                              %B: !cake.global<128x64xbf16>,
                              %Y: !cake.global<128x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<1 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<1 x 128x64xbf16, swizzle = 128>

  cake.role "mma" warpgroups(2) {
    %T = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%T) {
      %s = cake.pipe.acquire %p : !cake.pipe<1>
      cake.tma.load %A[%m, %c0] -> %a[%s]
        : !cake.global<?x64xbf16> -> !cake.ring<1 x 128x64xbf16, swizzle = 128>
      cake.tma.load %B[%c0, %c0] -> %b[%s]
        : !cake.global<128x64xbf16> -> !cake.ring<1 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<1>
      %t = cake.pipe.wait %p : !cake.pipe<1>
      %zero = cake.frag.zero : !cake.frag<128x128xf32>
      %x = cake.mma wgmma %a[%t], %b[%t], %zero
        : !cake.ring<1 x 128x64xbf16, swizzle = 128>,
          !cake.ring<1 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
      cake.pipe.release %p, %t : !cake.pipe<1>
      %xb = cake.frag.convert %x : !cake.frag<128x128xf32> -> !cake.frag<128x128xbf16>
      cake.store %xb -> %Y[%c0, %m] transposed
        : !cake.frag<128x128xbf16> -> !cake.global<128x?xbf16>
    }
  }
}
