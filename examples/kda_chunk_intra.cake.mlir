// One chunk of KDA's intra-chunk work (docs/kda.md), per 64 tokens: the
// cumulative gate Γ, L = strict_tril(Diag(β)·K̃K̂ᵀ) with the pairwise
// decays formed around two reference rows, T = (I + L)⁻¹, and then
// W = T·(β ⊙ k ⊙ e^Γ) and U = T·(β ⊙ v): what the chunk's recurrence
// step reads (V_new = U − W·S). The keys come L2-normalized and the gates
// as the log decay a (the caller's preprocessing, for now).
//
// The decisions written here: the chunk's rows are the tokens and its
// columns the channels, in two halves of 64 (one 128-byte swizzle atom
// each); Γ is a scan down the rows in fp32; the decays e^(Γ_i − Γ_j) are
// split around row 16 for rows 0..31 and row 48 for rows 32..63, so every
// factor stays below e^80 with gates down to −5 (the whole chunk's e^−Γ
// would reach e^320); the A operand k ⊙ e^(Γ − Γ_ref) comes from
// registers, the B operands k ⊙ e^(Γ_ref − Γ), β ⊙ K̃ and β ⊙ v are
// staged by this warpgroup in a one-stage pipe; the solve is fp32; T is
// the A operand of W and U from registers. What the compiler derives: the
// scratch and named barrier of the scans, rows and solve, the stage's
// swizzled stores and full-barrier count, the descriptors (K-major for
// K̂, MN-major for β ⊙ K̃ and β ⊙ v), the packing of the register A
// operands.
//
// Checked on the GPU by bench/verify/check_kda_intra.py.
cake.kernel @kda_chunk_intra(%K: !cake.global<?x128xbf16>,
                             %G: !cake.global<?x128xf32>,
                             %Beta: !cake.global<?xf32>,
                             %V: !cake.global<?x64xbf16>,
                             %W: !cake.global<?x128xf32>,
                             %U: !cake.global<?x64xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64]>} {
  %s_kx0 = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %s_kx1 = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %s_ky0 = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %s_ky1 = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %s_kt0 = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %s_kt1 = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %s_bv = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %s_kx0, %s_kx1, %s_ky0, %s_ky1, %s_kt0, %s_kt1, %s_bv : !cake.ring<1 x 64x64xbf16, swizzle = 128>,
                 !cake.ring<1 x 64x64xbf16, swizzle = 128>,
                 !cake.ring<1 x 64x64xbf16, swizzle = 128>,
                 !cake.ring<1 x 64x64xbf16, swizzle = 128>,
                 !cake.ring<1 x 64x64xbf16, swizzle = 128>,
                 !cake.ring<1 x 64x64xbf16, swizzle = 128>,
                 !cake.ring<1 x 64x64xbf16, swizzle = 128>

  cake.role "intra" warpgroups(1) {
    %T = cake.dim %K, 0 : !cake.global<?x128xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c32i = arith.constant 32 : i32
    %log2e = arith.constant 1.44269504 : f32
    cake.tiles (%m) in (%T) {
      // The stage this warpgroup fills for its own products; each operand
      // goes in as soon as it is computed.
      %s = cake.pipe.acquire %p : !cake.pipe<1>
      %beta = cake.load %Beta[%m] : !cake.global<?xf32> -> !cake.frag<64x1xf32>
      %rows = cake.frag.iota : !cake.frag<64x1xi32>
      // Channels 0..63: Γ, its reference rows, the gated keys.
      %a0 = cake.load %G[%m, %c0] : !cake.global<?x128xf32> -> !cake.frag<64x64xf32>
      %g0 = cake.frag.scan sum %a0 down : !cake.frag<64x64xf32>
      %x0 = cake.frag.row %g0[16] : !cake.frag<64x64xf32> -> !cake.frag<1x64xf32>
      %y0 = cake.frag.row %g0[48] : !cake.frag<64x64xf32> -> !cake.frag<1x64xf32>
      %k0 = cake.load %K[%m, %c0] : !cake.global<?x128xbf16> -> !cake.frag<64x64xbf16>
      %ka0 = cake.frag.map %k0, %g0, %x0, %y0, %rows
          : (!cake.frag<64x64xbf16>, !cake.frag<64x64xf32>, !cake.frag<1x64xf32>, !cake.frag<1x64xf32>, !cake.frag<64x1xi32>) -> !cake.frag<64x64xbf16> {
      ^bb0(%k: bf16, %g: f32, %x: f32, %y: f32, %r: i32):
        %top = arith.cmpi ult, %r, %c32i : i32
        %ref = arith.select %top, %x, %y : f32
        %d = arith.subf %g, %ref : f32
        %e = arith.mulf %d, %log2e : f32
        %f = math.exp2 %e : f32
        %kf = arith.extf %k : bf16 to f32
        %v = arith.mulf %kf, %f : f32
        %t = arith.truncf %v : f32 to bf16
        cake.frag.yield %t : bf16
      }
      %kx0 = cake.frag.map %k0, %g0, %x0 : (!cake.frag<64x64xbf16>, !cake.frag<64x64xf32>, !cake.frag<1x64xf32>) -> !cake.frag<64x64xbf16> {
      ^bb0(%k: bf16, %g: f32, %x: f32):
        %d = arith.subf %x, %g : f32
        %e = arith.mulf %d, %log2e : f32
        %f = math.exp2 %e : f32
        %kf = arith.extf %k : bf16 to f32
        %v = arith.mulf %kf, %f : f32
        %t = arith.truncf %v : f32 to bf16
        cake.frag.yield %t : bf16
      }
      cake.smem.write %kx0 -> %s_kx0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      %ky0 = cake.frag.map %k0, %g0, %y0 : (!cake.frag<64x64xbf16>, !cake.frag<64x64xf32>, !cake.frag<1x64xf32>) -> !cake.frag<64x64xbf16> {
      ^bb0(%k: bf16, %g: f32, %y: f32):
        %d = arith.subf %y, %g : f32
        %e = arith.mulf %d, %log2e : f32
        %f = math.exp2 %e : f32
        %kf = arith.extf %k : bf16 to f32
        %v = arith.mulf %kf, %f : f32
        %t = arith.truncf %v : f32 to bf16
        cake.frag.yield %t : bf16
      }
      cake.smem.write %ky0 -> %s_ky0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      %kt0 = cake.frag.map %k0, %g0, %beta : (!cake.frag<64x64xbf16>, !cake.frag<64x64xf32>, !cake.frag<64x1xf32>) -> !cake.frag<64x64xbf16> {
      ^bb0(%k: bf16, %g: f32, %b: f32):
        %e = arith.mulf %g, %log2e : f32
        %f = math.exp2 %e : f32
        %kf = arith.extf %k : bf16 to f32
        %bk = arith.mulf %kf, %b : f32
        %v = arith.mulf %bk, %f : f32
        %t = arith.truncf %v : f32 to bf16
        cake.frag.yield %t : bf16
      }
      cake.smem.write %kt0 -> %s_kt0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      // Channels 64..127: Γ, its reference rows, the gated keys.
      %a1 = cake.load %G[%m, %c64] : !cake.global<?x128xf32> -> !cake.frag<64x64xf32>
      %g1 = cake.frag.scan sum %a1 down : !cake.frag<64x64xf32>
      %x1 = cake.frag.row %g1[16] : !cake.frag<64x64xf32> -> !cake.frag<1x64xf32>
      %y1 = cake.frag.row %g1[48] : !cake.frag<64x64xf32> -> !cake.frag<1x64xf32>
      %k1 = cake.load %K[%m, %c64] : !cake.global<?x128xbf16> -> !cake.frag<64x64xbf16>
      %ka1 = cake.frag.map %k1, %g1, %x1, %y1, %rows
          : (!cake.frag<64x64xbf16>, !cake.frag<64x64xf32>, !cake.frag<1x64xf32>, !cake.frag<1x64xf32>, !cake.frag<64x1xi32>) -> !cake.frag<64x64xbf16> {
      ^bb0(%k: bf16, %g: f32, %x: f32, %y: f32, %r: i32):
        %top = arith.cmpi ult, %r, %c32i : i32
        %ref = arith.select %top, %x, %y : f32
        %d = arith.subf %g, %ref : f32
        %e = arith.mulf %d, %log2e : f32
        %f = math.exp2 %e : f32
        %kf = arith.extf %k : bf16 to f32
        %v = arith.mulf %kf, %f : f32
        %t = arith.truncf %v : f32 to bf16
        cake.frag.yield %t : bf16
      }
      %kx1 = cake.frag.map %k1, %g1, %x1 : (!cake.frag<64x64xbf16>, !cake.frag<64x64xf32>, !cake.frag<1x64xf32>) -> !cake.frag<64x64xbf16> {
      ^bb0(%k: bf16, %g: f32, %x: f32):
        %d = arith.subf %x, %g : f32
        %e = arith.mulf %d, %log2e : f32
        %f = math.exp2 %e : f32
        %kf = arith.extf %k : bf16 to f32
        %v = arith.mulf %kf, %f : f32
        %t = arith.truncf %v : f32 to bf16
        cake.frag.yield %t : bf16
      }
      cake.smem.write %kx1 -> %s_kx1[%s] : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      %ky1 = cake.frag.map %k1, %g1, %y1 : (!cake.frag<64x64xbf16>, !cake.frag<64x64xf32>, !cake.frag<1x64xf32>) -> !cake.frag<64x64xbf16> {
      ^bb0(%k: bf16, %g: f32, %y: f32):
        %d = arith.subf %y, %g : f32
        %e = arith.mulf %d, %log2e : f32
        %f = math.exp2 %e : f32
        %kf = arith.extf %k : bf16 to f32
        %v = arith.mulf %kf, %f : f32
        %t = arith.truncf %v : f32 to bf16
        cake.frag.yield %t : bf16
      }
      cake.smem.write %ky1 -> %s_ky1[%s] : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      %kt1 = cake.frag.map %k1, %g1, %beta : (!cake.frag<64x64xbf16>, !cake.frag<64x64xf32>, !cake.frag<64x1xf32>) -> !cake.frag<64x64xbf16> {
      ^bb0(%k: bf16, %g: f32, %b: f32):
        %e = arith.mulf %g, %log2e : f32
        %f = math.exp2 %e : f32
        %kf = arith.extf %k : bf16 to f32
        %bk = arith.mulf %kf, %b : f32
        %v = arith.mulf %bk, %f : f32
        %t = arith.truncf %v : f32 to bf16
        cake.frag.yield %t : bf16
      }
      cake.smem.write %kt1 -> %s_kt1[%s] : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      %v = cake.load %V[%m, %c0] : !cake.global<?x64xbf16> -> !cake.frag<64x64xbf16>
      %bvv = cake.frag.map %v, %beta : (!cake.frag<64x64xbf16>, !cake.frag<64x1xf32>) -> !cake.frag<64x64xbf16> {
      ^bb0(%x: bf16, %b: f32):
        %xf = arith.extf %x : bf16 to f32
        %y = arith.mulf %xf, %b : f32
        %t = arith.truncf %y : f32 to bf16
        cake.frag.yield %t : bf16
      }
      cake.smem.write %bvv -> %s_bv[%s] : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p, %s : !cake.pipe<1>
      %t = cake.pipe.wait %p : !cake.pipe<1>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      // K̃K̂ᵀ around row 16 and around row 48, both channel halves.
      %px = cake.mma wgmma %ka0, %s_kx0[%t], %z : !cake.frag<64x64xbf16>, !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      %lx = cake.mma wgmma %ka1, %s_kx1[%t], %px : !cake.frag<64x64xbf16>, !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      %py = cake.mma wgmma %ka0, %s_ky0[%t], %z : !cake.frag<64x64xbf16>, !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      %ly = cake.mma wgmma %ka1, %s_ky1[%t], %py : !cake.frag<64x64xbf16>, !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      // Rows 0..31 from the first, 32..63 from the second, times β; the
      // solve reads the strictly lower triangle only.
      %l = cake.frag.map %lx, %ly, %rows, %beta
          : (!cake.frag<64x64xf32>, !cake.frag<64x64xf32>, !cake.frag<64x1xi32>, !cake.frag<64x1xf32>) -> !cake.frag<64x64xf32> {
      ^bb0(%x: f32, %y: f32, %r: i32, %b: f32):
        %top = arith.cmpi ult, %r, %c32i : i32
        %e = arith.select %top, %x, %y : f32
        %o = arith.mulf %e, %b : f32
        cake.frag.yield %o : f32
      }
      %inv = cake.frag.tril_inverse %l : !cake.frag<64x64xf32>
      %inv16 = cake.frag.convert %inv : !cake.frag<64x64xf32> -> !cake.frag<64x64xbf16>
      %w0 = cake.mma wgmma %inv16, %s_kt0[%t] mn_major, %z : !cake.frag<64x64xbf16>, !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      %w1 = cake.mma wgmma %inv16, %s_kt1[%t] mn_major, %z : !cake.frag<64x64xbf16>, !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      %u = cake.mma wgmma %inv16, %s_bv[%t] mn_major, %z : !cake.frag<64x64xbf16>, !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.pipe.release %p, %t : !cake.pipe<1>
      cake.store %w0 -> %W[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x128xf32>
      cake.store %w1 -> %W[%m, %c64] : !cake.frag<64x64xf32> -> !cake.global<?x128xf32>
      cake.store %u -> %U[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x64xf32>
    }
  }
}
