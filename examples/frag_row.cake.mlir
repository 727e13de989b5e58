// One row of a fragment against every row: Y = X - X[127] + X[5] per
// 128-row block, with X = A · Bᵀ on the tensor cores. It is the step of a
// chunked linear attention (KDA, docs/kda.md) that relates every token's
// cumulative gate to the chunk's last one (Γ_i - Γ_C) or to a sub-block's
// reference row.
//
// The decision written here: `cake.frag.row` takes rows 127 and 5 as
// values per column, which `frag.map` broadcasts against every row. Row
// 127 lives in the last warp of the second warpgroup, row 5 in the first
// warp: every other warp needs them. What the compiler derives: a
// shared-memory scratch per row after the rings, the owner lanes'
// stores, a named barrier among the role's 256 threads (its id after
// every explicit one), the reads of each thread's columns, and a second
// meeting before the scratch can be reused.
//
// Checked on the GPU by bench/verify/check_row.py.
cake.kernel @frag_row(%A: !cake.global<?x64xbf16>,
                      %B: !cake.global<128x64xbf16>,
                      %Y: !cake.global<?x128xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<1 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<1 x 128x64xbf16, swizzle = 128>

  cake.role "rows" warpgroups(2) {
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
      %last = cake.frag.row %x[127] : !cake.frag<128x128xf32> -> !cake.frag<1x128xf32>
      %ref = cake.frag.row %x[5] : !cake.frag<128x128xf32> -> !cake.frag<1x128xf32>
      %y = cake.frag.map %x, %last, %ref
          : (!cake.frag<128x128xf32>, !cake.frag<1x128xf32>, !cake.frag<1x128xf32>)
          -> !cake.frag<128x128xf32> {
      ^bb0(%v: f32, %l: f32, %r: f32):
        %d = arith.subf %v, %l : f32
        %e = arith.addf %d, %r : f32
        cake.frag.yield %e : f32
      }
      cake.store %y -> %Y[%m, %c0]
        : !cake.frag<128x128xf32> -> !cake.global<?x128xf32>
    }
  }
}
