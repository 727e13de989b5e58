// The solve of a chunked delta rule, per 64-row chunk: T = (I + L)⁻¹ with
// L the strictly lower triangle of A · Bᵀ, then U = T · V on the tensor
// cores. It is KDA's T = (I + strict_tril(Diag(β)·K̃K̂ᵀ))⁻¹ and
// U = T · βV (docs/kda.md), with the gates and β left to the caller.
//
// The decisions written here: L's product runs over the whole 64 x 64
// tile (its upper triangle is ignored, not masked); the inverse is
// solved in fp32 (`cake.frag.tril_inverse`); T, rounded to bf16, is the
// A operand of the next wgmma straight from registers, V the MN-major B
// (tokens are its rows). What the compiler derives: the solve's
// shared-memory scratch after the rings (64 rows of 68 floats) and the
// named barrier the warpgroup meets on between its steps, T's packing
// into wgmma's A registers and V's transposed descriptor.
//
// Checked on the GPU by bench/verify/check_solve.py.
cake.kernel @chunk_solve(%A: !cake.global<?x64xbf16>,
                         %B: !cake.global<?x64xbf16>,
                         %V: !cake.global<?x64xbf16>,
                         %T: !cake.global<?x64xf32>,
                         %U: !cake.global<?x64xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %v = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b, %v : !cake.ring<1 x 64x64xbf16, swizzle = 128>,
                              !cake.ring<1 x 64x64xbf16, swizzle = 128>,
                              !cake.ring<1 x 64x64xbf16, swizzle = 128>

  cake.role "solve" warpgroups(1) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%N) {
      %s = cake.pipe.acquire %p : !cake.pipe<1>
      cake.tma.load %A[%m, %c0] -> %a[%s]
        : !cake.global<?x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.tma.load %B[%m, %c0] -> %b[%s]
        : !cake.global<?x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.tma.load %V[%m, %c0] -> %v[%s]
        : !cake.global<?x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<1>
      %t = cake.pipe.wait %p : !cake.pipe<1>
      %zero = cake.frag.zero : !cake.frag<64x64xf32>
      %l = cake.mma wgmma %a[%t], %b[%t], %zero
        : !cake.ring<1 x 64x64xbf16, swizzle = 128>,
          !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      %inv = cake.frag.tril_inverse %l : !cake.frag<64x64xf32>
      %inv16 = cake.frag.convert %inv
        : !cake.frag<64x64xf32> -> !cake.frag<64x64xbf16>
      %u = cake.mma wgmma %inv16, %v[%t] mn_major, %zero
        : !cake.frag<64x64xbf16>, !cake.ring<1 x 64x64xbf16, swizzle = 128>,
          !cake.frag<64x64xf32>
      cake.pipe.release %p, %t : !cake.pipe<1>
      cake.store %inv -> %T[%m, %c0]
        : !cake.frag<64x64xf32> -> !cake.global<?x64xf32>
      cake.store %u -> %U[%m, %c0]
        : !cake.frag<64x64xf32> -> !cake.global<?x64xf32>
    }
  }
}
