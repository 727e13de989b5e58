// hw.* rules of cake-verify.
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics

cake.kernel @wgmma_on_ampere() attributes {target = #cake.target<"sm_80">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.arch-feature] wgmma is not available on sm_80}}
    %r = cake.mma wgmma %a[%s], %a[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

cake.kernel @tma_on_ampere(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_80">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-error @+1 {{[hw.arch-feature] TMA copies need sm_90a or newer; the kernel targets sm_80}}
    cake.tma.load %A[%c0, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warps(4) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

cake.kernel @tcgen05_on_hopper() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warps(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.arch-feature] tcgen05 is not available on sm_90a}}
    %r = cake.mma tcgen05 %a[%s], %a[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

cake.kernel @wgmma_in_warps_role() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warps(4) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.warpgroup-alignment] wgmma in role "use", which is not a warpgroups(n) role}}
    %r = cake.mma wgmma %a[%s], %a[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

cake.kernel @regs_on_warps_role() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-error @+1 {{[hw.warpgroup-alignment] role "load" asks for regs() but is not a warpgroups(n) role: setmaxnreg applies to whole warpgroups}}
  cake.role "load" warps(2) regs(40) {}
}

// -----

cake.kernel @wgmma_short_rows() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.mma-smem-descriptor] wgmma operands must be K-major rows that span exactly the swizzle width; got 64-byte rows with swizzle 128}}
    %r = cake.mma wgmma %a[%s], %a[%s], %z : !cake.ring<2 x 64x32xbf16, swizzle = 128>, !cake.ring<2 x 64x32xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// 100 bf16 per row = 200 bytes: rows are not 16-byte aligned for TMA.
cake.kernel @tma_row_alignment(%A: !cake.global<?x100xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-error @+2 {{[hw.tma-alignment] the rows of '!cake.global<?x100xbf16>' are 200 bytes apart, not a multiple of 16: the copy engine cannot address them}}
    // expected-note @+1 {{hint: cake.cp_async.load copies the box in 8-byte pieces}}
    cake.tma.load %A[%c0, %c0] -> %a[%s] : !cake.global<?x100xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// Near miss: 128 bf16 per row (256 bytes) is fine.
cake.kernel @tma_rows_ok(%A: !cake.global<?x128xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.tma.load %A[%c0, %c0] -> %a[%s] : !cake.global<?x128xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// [hw.wgmma-transpose]: an mn_major B's rows (of N) are one swizzle atom.
cake.kernel @mn_major_short_rows() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %v = cake.ring : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  %p = cake.pipe %v : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %a = cake.frag.zero : !cake.frag<64x64xbf16>
    %z = cake.frag.zero : !cake.frag<64x32xf32>
    // expected-error @+1 {{[hw.wgmma-transpose] an mn_major B's rows of N must span exactly the swizzle width; got 64-byte rows with swizzle 128}}
    %r = cake.mma wgmma %a, %v[%s] mn_major, %z : !cake.frag<64x64xbf16>, !cake.ring<2 x 64x32xbf16, swizzle = 128>, !cake.frag<64x32xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// Near miss: 64 bf16 of N per row with the 128-byte swizzle, A from
// registers; cake-verify accepts it.
cake.kernel @mn_major_atom_rows() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %v = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %v : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %a = cake.frag.zero : !cake.frag<64x64xbf16>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    %r = cake.mma wgmma %a, %v[%s] mn_major, %z : !cake.frag<64x64xbf16>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// [hw.wgmma-transpose]: an mn_major A's rows (of M) are one swizzle atom;
// unswizzled rows are not one.
cake.kernel @mn_major_a_unswizzled() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16>
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 64x64xbf16>, !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.wgmma-transpose] an mn_major A's rows of M must span exactly the swizzle width; got 128-byte rows with swizzle 0}}
    %r = cake.mma wgmma %a[%s] mn_major, %b[%s] mn_major, %z : !cake.ring<2 x 64x64xbf16>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// Near miss: 64 bf16 of M per row with the 128-byte swizzle, read by one
// warpgroup; cake-verify accepts it.
cake.kernel @mn_major_a_atom_rows() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    %r = cake.mma wgmma %a[%s] mn_major, %b[%s] mn_major, %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// cake-lower lowers mma_sync on 16-bit operands only: a tf32 one is refused
// (hw.arch-feature), though the target has the instruction. The near miss,
// the same kernel on bf16, verifies and lowers: test/Verify/hw-lowered.mlir.
cake.kernel @tf32_mma_sync_on_ampere() attributes {target = #cake.target<"sm_80">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x32xf32, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x32xf32, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.arch-feature] cake-lower lowers cake.mma mma_sync on f16 and bf16 operands into f32 accumulators, not 'f32' into 'f32'}}
    %r = cake.mma mma_sync %a[%s], %a[%s], %z : !cake.ring<2 x 64x32xf32, swizzle = 128>, !cake.ring<2 x 64x32xf32, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// mma_sync keeps the wgmma accumulator layout, so it runs in warpgroups(n)
// roles too (hw.warpgroup-alignment); the near miss is hw-lowered.mlir's
// bf16_mma_sync_on_ampere, a warpgroups(1) role.
cake.kernel @mma_sync_in_warps() attributes {target = #cake.target<"sm_80">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warps(4) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.warpgroup-alignment] mma_sync in role "use", which is not a warpgroups(n) role}}
    %r = cake.mma mma_sync %a[%s], %a[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// ldmatrix reads rows that span the ring's swizzle, as wgmma's descriptors
// do (hw.mma-smem-descriptor): 64-byte rows under the 128-byte swizzle are
// refused.
cake.kernel @mma_sync_narrow_rows() attributes {target = #cake.target<"sm_80">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.mma-smem-descriptor] mma_sync operands must be K-major rows that span exactly the swizzle width; got 64-byte rows with swizzle 128}}
    %r = cake.mma mma_sync %a[%s], %a[%s], %z : !cake.ring<2 x 64x32xbf16, swizzle = 128>, !cake.ring<2 x 64x32xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}
