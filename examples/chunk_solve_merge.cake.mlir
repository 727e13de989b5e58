// The solve of examples/chunk_solve, with the exact fp32 work confined to
// the 16 x 16 diagonal blocks and the rest of T formed on the tensor
// cores. Per 64-row chunk: L = strict_tril(A · Bᵀ), T = (I + L)⁻¹,
// U = T · V.
//
// The decisions written here: `cake.frag.tril_inverse ... diagonal`
// inverts only the diagonal blocks, D = (I + L_d)⁻¹; with L_off the part
// of L below them, I + L = D⁻¹ (I + N) for N = D · L_off, strictly block
// lower (N⁴ = 0), so T = (I − N) · (I + N²) · D: four 64 x 64 wgmmas
// whose operands are rounded to f16 (T's entries are of order one, where
// f16 holds three more bits than the bf16 T is stored and used in). The
// B operands (L_off, N, I + N², D) go through shared memory, staged by the
// warpgroup itself; the A operands stay in registers. What the compiler
// derives: the scratch and named barrier of the block inverses, the
// stages' barriers (one arrival per warp), the f16 A-register packing and
// the transposed descriptors of the MN-major B operands.
//
// Checked on the GPU by bench/verify/check_solve.py --merge.
cake.kernel @chunk_solve_merge(%A: !cake.global<?x64xbf16>,
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
  // The merge's B operands: D for the last product, and one stage that
  // holds L_off, then N, then I + N².
  %md = cake.ring : !cake.ring<1 x 64x64xf16, swizzle = 128>
  %pd = cake.pipe %md : !cake.ring<1 x 64x64xf16, swizzle = 128>
  %mb = cake.ring : !cake.ring<1 x 64x64xf16, swizzle = 128>
  %pm = cake.pipe %mb : !cake.ring<1 x 64x64xf16, swizzle = 128>

  cake.role "solve" warpgroups(1) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    %rows = cake.frag.iota : !cake.frag<64x1xi32>
    %cols = cake.frag.iota : !cake.frag<1x64xi32>
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
      %d = cake.frag.tril_inverse %l diagonal : !cake.frag<64x64xf32>
      %d16 = cake.frag.convert %d : !cake.frag<64x64xf32> -> !cake.frag<64x64xf16>
      // L below the diagonal blocks (row block > column block).
      %loff = cake.frag.map %l, %rows, %cols
          : (!cake.frag<64x64xf32>, !cake.frag<64x1xi32>, !cake.frag<1x64xi32>) -> !cake.frag<64x64xf16> {
      ^bb0(%x: f32, %r: i32, %c: i32):
        %c4 = arith.constant 4 : i32
        %rb = arith.shrui %r, %c4 : i32
        %cb = arith.shrui %c, %c4 : i32
        %below = arith.cmpi ugt, %rb, %cb : i32
        %zf = arith.constant 0.0 : f32
        %y = arith.select %below, %x, %zf : f32
        %h = arith.truncf %y : f32 to f16
        cake.frag.yield %h : f16
      }
      %sd = cake.pipe.acquire %pd : !cake.pipe<1>
      cake.smem.write %d16 -> %md[%sd] : !cake.frag<64x64xf16> -> !cake.ring<1 x 64x64xf16, swizzle = 128>
      %s1 = cake.pipe.acquire %pm : !cake.pipe<1>
      cake.smem.write %loff -> %mb[%s1] : !cake.frag<64x64xf16> -> !cake.ring<1 x 64x64xf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %pd, %sd : !cake.pipe<1>
      cake.pipe.commit %pm, %s1 : !cake.pipe<1>
      %wd = cake.pipe.wait %pd : !cake.pipe<1>
      %w1 = cake.pipe.wait %pm : !cake.pipe<1>
      // N = D · L_off
      %n = cake.mma wgmma %d16, %mb[%w1] mn_major, %zero
        : !cake.frag<64x64xf16>, !cake.ring<1 x 64x64xf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.pipe.release %pm, %w1 : !cake.pipe<1>
      %n16 = cake.frag.convert %n : !cake.frag<64x64xf32> -> !cake.frag<64x64xf16>
      %s2 = cake.pipe.acquire %pm : !cake.pipe<1>
      cake.smem.write %n16 -> %mb[%s2] : !cake.frag<64x64xf16> -> !cake.ring<1 x 64x64xf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %pm, %s2 : !cake.pipe<1>
      %w2 = cake.pipe.wait %pm : !cake.pipe<1>
      // N² = N · N
      %n2 = cake.mma wgmma %n16, %mb[%w2] mn_major, %zero
        : !cake.frag<64x64xf16>, !cake.ring<1 x 64x64xf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.pipe.release %pm, %w2 : !cake.pipe<1>
      %ipn2, %imn = cake.frag.map %n2, %n, %rows, %cols
          : (!cake.frag<64x64xf32>, !cake.frag<64x64xf32>, !cake.frag<64x1xi32>, !cake.frag<1x64xi32>) -> (!cake.frag<64x64xf16>, !cake.frag<64x64xf16>) {
      ^bb0(%x2: f32, %x: f32, %r: i32, %c: i32):
        %diag = arith.cmpi eq, %r, %c : i32
        %one = arith.constant 1.0 : f32
        %zf = arith.constant 0.0 : f32
        %id = arith.select %diag, %one, %zf : f32
        %p2 = arith.addf %id, %x2 : f32
        %m1 = arith.subf %id, %x : f32
        %hp = arith.truncf %p2 : f32 to f16
        %hm = arith.truncf %m1 : f32 to f16
        cake.frag.yield %hp, %hm : f16, f16
      }
      %s3 = cake.pipe.acquire %pm : !cake.pipe<1>
      cake.smem.write %ipn2 -> %mb[%s3] : !cake.frag<64x64xf16> -> !cake.ring<1 x 64x64xf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %pm, %s3 : !cake.pipe<1>
      %w3 = cake.pipe.wait %pm : !cake.pipe<1>
      // M = (I − N) · (I + N²), then T = M · D
      %mm = cake.mma wgmma %imn, %mb[%w3] mn_major, %zero
        : !cake.frag<64x64xf16>, !cake.ring<1 x 64x64xf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.pipe.release %pm, %w3 : !cake.pipe<1>
      %m16 = cake.frag.convert %mm : !cake.frag<64x64xf32> -> !cake.frag<64x64xf16>
      %inv = cake.mma wgmma %m16, %md[%wd] mn_major, %zero
        : !cake.frag<64x64xf16>, !cake.ring<1 x 64x64xf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.pipe.release %pd, %wd : !cake.pipe<1>
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
