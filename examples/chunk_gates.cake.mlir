// The cumulative gate of a linear-attention chunk, relative to its end:
// per 128-row block (a chunk of 128 tokens), Γ = the prefix sum of X down
// the rows and Y = Γ - Γ[127], with X = A · Bᵀ on the tensor cores
// standing in for the per-token, per-channel log-gates. It is KDA's
// Γ_i - Γ_C (docs/kda.md): every token's decay to the chunk's end.
//
// The decisions written here: `frag.scan sum ... down` scans each column
// down the rows (tokens are rows as the tile is loaded), and
// `frag.row ...[127]` takes the chunk's last row as a value per column.
// What the compiler derives: the in-warp shuffles of the scan, a
// shared-memory scratch for each warp's column totals and one for the
// row, and the named barrier the role's 256 threads meet on around each.
//
// Checked on the GPU by bench/verify/check_gates.py (sum here; the script
// also runs the min and max variants, the kind replaced).
cake.kernel @chunk_gates(%A: !cake.global<?x64xbf16>,
                         %B: !cake.global<128x64xbf16>,
                         %Y: !cake.global<?x128xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<1 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<1 x 128x64xbf16, swizzle = 128>

  cake.role "gates" warpgroups(2) {
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
      %gamma = cake.frag.scan sum %x down : !cake.frag<128x128xf32>
      %end = cake.frag.row %gamma[127] : !cake.frag<128x128xf32> -> !cake.frag<1x128xf32>
      %y = cake.frag.map %gamma, %end
          : (!cake.frag<128x128xf32>, !cake.frag<1x128xf32>) -> !cake.frag<128x128xf32> {
      ^bb0(%g: f32, %e: f32):
        %d = arith.subf %g, %e : f32
        cake.frag.yield %d : f32
      }
      cake.store %y -> %Y[%m, %c0]
        : !cake.frag<128x128xf32> -> !cake.global<?x128xf32>
    }
  }
}
