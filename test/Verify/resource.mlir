// resource.* rules of cake-verify.
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics

// Five 4-stage rings of 128x64 bf16: 5 x 64 KiB do not fit 227 KiB.
// expected-error @+2 {{[resource.smem-capacity] barriers and rings need 328704 bytes of shared memory (with alignment), more than the 232448 a CTA of sm_90a can have}}
// expected-note @+1 {{hint: fewer stages or smaller tiles}}
cake.kernel @too_much_smem() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-note @+1 {{ring #0 of 65536 bytes}}
  %a = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  // expected-note @+1 {{ring #1 of 65536 bytes}}
  %b = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  // expected-note @+1 {{ring #2 of 65536 bytes}}
  %c = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  // expected-note @+1 {{ring #3 of 65536 bytes}}
  %d = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  // expected-note @+1 {{ring #4 of 65536 bytes}}
  %e = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  cake.role "r" warps(1) {}
}

// -----

// Near miss: the example GEMM's 4 stages of 128x64 + 256x64 fit (198656 B).
cake.kernel @fits() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 256x64xbf16, swizzle = 128>
  cake.role "r" warps(1) {}
}

// -----

// A 128x256 f32 accumulator over 2 warpgroups is 128 registers per thread;
// with 120 registers that cannot fit.
cake.kernel @acc_too_big(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 256x64xbf16, swizzle = 128>
  cake.role "load" warpgroups(1) regs(40) {
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %K step %c64 {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "mma" warpgroups(2) regs(120) {
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %z = cake.frag.zero : !cake.frag<128x256xf32>
    // expected-error @+1 {{[resource.fragment-registers] role "mma" keeps 128 registers of fragments across this loop and up to 0 more in its body (+16 for addresses): 144 > its budget of 120 per thread}}
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%x = %z) -> (!cake.frag<128x256xf32>) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      %r = cake.mma wgmma %a[%s], %b[%s], %x : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 256x64xbf16, swizzle = 128>, !cake.frag<128x256xf32>
      cake.pipe.release %p, %s : !cake.pipe<2>
      scf.yield %r : !cake.frag<128x256xf32>
    }
  }
}

// -----

// The budget is the launch baseline of the CTA as launched: the one-warp
// roles before each warpgroup are padded to whole warpgroups, 16 warps
// (512 threads, 128 registers each), not the 10 the roles name (which
// would round to 384 threads and 168 registers): the 64x256 accumulator
// of one warpgroup, 128 registers + 16, does not fit.
cake.kernel @padded_launch(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 256x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %K step %c64 {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "mma" warpgroups(1) {
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %z = cake.frag.zero : !cake.frag<64x256xf32>
    // expected-error @+1 {{[resource.fragment-registers] role "mma" keeps 128 registers of fragments across this loop and up to 0 more in its body (+16 for addresses): 144 > its budget of 128 per thread}}
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%x = %z) -> (!cake.frag<64x256xf32>) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      // expected-error @+1 {{[resource.fragment-registers] a wgmma of role "mma" holds 128 accumulator registers per thread at once (64x256 per warpgroup), 4 for its operands and 22 for what else is live at it: 154 > the launch baseline of 128 (512 threads), which setmaxnreg.inc does not raise for one instruction (ptxas C7602)}}
      %r = cake.mma wgmma %a[%s], %b[%s], %x : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 256x64xbf16, swizzle = 128>, !cake.frag<64x256xf32>
      cake.pipe.release %p, %s : !cake.pipe<2>
      scf.yield %r : !cake.frag<64x256xf32>
    }
  }
  cake.role "log" warps(1) {}
  cake.role "spare" warpgroups(1) {}
}

// -----

// One wgmma needs its accumulator slab, its operands and what else is live
// at it (22: addresses, counters, stage and phase) within the launch
// baseline. Two ping-pong sets of a 128x128 GEMM (cake-ping-pong on
// gemm_ws_persistent with 128-column tiles): 6 warpgroups, 768 threads,
// 80 registers each at launch; a 64x128 slab is 64 + 4 + 22 = 90, the
// target ptxas asked for (C7602, "register target of 90 or higher"), which
// the rule let through before it counted the 22.
cake.kernel @slab_past_baseline(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warpgroups(1) regs(24) {
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %K step %c64 {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "mma" warpgroups(2) regs(104) {
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %z = cake.frag.zero : !cake.frag<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%x = %z) -> (!cake.frag<128x128xf32>) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      // expected-error @+1 {{[resource.fragment-registers] a wgmma of role "mma" holds 64 accumulator registers per thread at once (64x128 per warpgroup), 4 for its operands and 22 for what else is live at it: 90 > the launch baseline of 80 (768 threads), which setmaxnreg.inc does not raise for one instruction (ptxas C7602)}}
      %r = cake.mma wgmma %a[%s], %b[%s], %x : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
      cake.pipe.release %p, %s : !cake.pipe<2>
      scf.yield %r : !cake.frag<128x128xf32>
    }
  }
  cake.role "idle0" warpgroups(1) regs(24) {}
  cake.role "idle1" warpgroups(2) regs(104) {}
}

// -----

// Near miss: the same roles with one idle warpgroup fewer, 640 threads
// launched at 96 registers each: 90 fits (the rank study's 256x128 GEMM,
// which ptxas compiles, runs at this baseline).
cake.kernel @slab_within_baseline(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warpgroups(1) regs(24) {
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %K step %c64 {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "mma" warpgroups(2) regs(104) {
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %z = cake.frag.zero : !cake.frag<128x128xf32>
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%x = %z) -> (!cake.frag<128x128xf32>) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      %r = cake.mma wgmma %a[%s], %b[%s], %x : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
      cake.pipe.release %p, %s : !cake.pipe<2>
      scf.yield %r : !cake.frag<128x128xf32>
    }
  }
  cake.role "idle" warpgroups(2) regs(104) {}
}

// -----

// [resource.smem-capacity] counts the scratch of ops that move values
// between warps: 7 stages of 256x64 bf16 (229376 B) + 1024 B of alignment
// slack fit; a scan down a 64x256 f32 fragment adds 4 warps x 256 x 4 B.
// expected-error @+2 {{[resource.smem-capacity] barriers and rings need 234496 bytes of shared memory (with alignment), more than the 232448 a CTA of sm_90a can have}}
// expected-note @+1 {{hint: fewer stages or smaller tiles}}
cake.kernel @scratch_past_smem() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-note @+1 {{ring #0 of 229376 bytes}}
  %a = cake.ring : !cake.ring<7 x 256x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x256xf32>
    // expected-note @+1 {{scratch of 4096 bytes}}
    %s = cake.frag.scan sum %z down : !cake.frag<64x256xf32>
  }
}

// -----

// Near miss: frag.row's scratch of one 256-column row (1024 B) still fits.
cake.kernel @scratch_fits() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<7 x 256x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x256xf32>
    %r = cake.frag.row %z[0] : !cake.frag<64x256xf32> -> !cake.frag<1x256xf32>
  }
}

// -----

// [resource.smem-capacity] counts frag.tril_inverse's matrix (64 rows of
// 68 floats, 17408 B): 6 stages of 256x64 bf16 (196608 B), three solves
// and 1024 B of alignment slack are past the limit.
// expected-error @+2 {{[resource.smem-capacity] barriers and rings need 249856 bytes of shared memory (with alignment), more than the 232448 a CTA of sm_90a can have}}
// expected-note @+1 {{hint: fewer stages or smaller tiles}}
cake.kernel @solves_past_smem() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-note @+1 {{ring #0 of 196608 bytes}}
  %a = cake.ring : !cake.ring<6 x 256x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-note @+1 {{scratch of 17408 bytes}}
    %t0 = cake.frag.tril_inverse %z : !cake.frag<64x64xf32>
    // expected-note @+1 {{scratch of 17408 bytes}}
    %t1 = cake.frag.tril_inverse %t0 : !cake.frag<64x64xf32>
    // expected-note @+1 {{scratch of 17408 bytes}}
    %t2 = cake.frag.tril_inverse %t1 : !cake.frag<64x64xf32>
  }
}

// -----

// Near miss: two solves fill shared memory to the byte (232448 B).
cake.kernel @solves_fit() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<6 x 256x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    %t0 = cake.frag.tril_inverse %z : !cake.frag<64x64xf32>
    %t1 = cake.frag.tril_inverse %t0 : !cake.frag<64x64xf32>
  }
}

// -----

// [resource.smem-capacity] with cake.ctas_per_sm: three CTAs of 80 KiB of
// rings (82944 B with slack, 1024 B reserved each) do not fit
// an SM's 233472 B.
// expected-error @+1 {{[resource.smem-capacity] cake.ctas_per_sm = 3 CTAs of 82944 bytes of shared memory (and 1024 the driver keeps for each) need 251904, more than the 233472 an SM of sm_90a has}}
cake.kernel @ctas_past_smem() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>, cake.ctas_per_sm = 3} {
  %a = cake.ring : !cake.ring<5 x 128x64xbf16, swizzle = 128>
  cake.role "r" warps(1) {}
}

// -----

// Near miss: two such CTAs fit.
cake.kernel @ctas_fit() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>, cake.ctas_per_sm = 2} {
  %a = cake.ring : !cake.ring<5 x 128x64xbf16, swizzle = 128>
  cake.role "r" warps(1) {}
}

// -----

// [resource.threads]: three CTAs of 768 threads are more than an SM holds.
// expected-error @+1 {{[resource.threads] cake.ctas_per_sm = 3 asks for more threads than an SM holds (768 threads a CTA, 2048 an SM of sm_90a)}}
cake.kernel @ctas_past_threads() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>, cake.ctas_per_sm = 3} {
  cake.role "r" warpgroups(6) {}
}

// -----

// [resource.register-budget]: setmaxnreg's pool is sized for one CTA.
cake.kernel @ctas_with_regs() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>, cake.ctas_per_sm = 2} {
  // expected-error @+1 {{[resource.register-budget] role "r" asks for regs(40) in a kernel of cake.ctas_per_sm = 2: setmaxnreg's pool is sized for one CTA per SM}}
  cake.role "r" warpgroups(1) regs(40) {}
}

// -----

// [resource.fragment-registers] against the share of two CTAs: 256
// threads leave 128 registers a thread, and a 64x256 fp32 accumulator
// carried across a loop needs 128 + 16.
cake.kernel @ctas_fragment_registers(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>, cake.ctas_per_sm = 2} {
  cake.role "r" warpgroups(2) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = cake.frag.zero : !cake.frag<128x256xf32>
    // expected-error @+1 {{[resource.fragment-registers]}}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (!cake.frag<128x256xf32>) {
      scf.yield %a : !cake.frag<128x256xf32>
    }
  }
}

// -----

// Index lists a producer carries across its loop count too: every warp
// holds a list whole, 256 entries = 8 registers a thread; four of them
// and the addresses exceed regs(40).
cake.kernel @gather_lists(%X: !cake.global<?x?xf16>, %I: !cake.global<?xi32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "gather" warpgroups(1) regs(40) {
    %N = cake.dim %I, 0 : !cake.global<?xi32>
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %l = cake.gather.indices %I[%c0] : !cake.global<?xi32> -> !cake.indices<256>
    // expected-error @+1 {{[resource.fragment-registers] role "gather" keeps 32 registers of fragments across this loop and up to 8 more in its body (+16 for addresses): 56 > its budget of 40 per thread}}
    %r:4 = scf.for %p = %c0 to %N step %c256 iter_args(%a = %l, %b = %l, %c = %l, %d = %l)
        -> (!cake.indices<256>, !cake.indices<256>, !cake.indices<256>, !cake.indices<256>) {
      %n = cake.gather.indices %I[%p] : !cake.global<?xi32> -> !cake.indices<256>
      scf.yield %b, %c, %d, %n : !cake.indices<256>, !cake.indices<256>, !cake.indices<256>, !cake.indices<256>
    }
  }
}

// -----

// Near miss: two carried lists, 16 registers and one loaded in the body.
cake.kernel @gather_lists_fit(%X: !cake.global<?x?xf16>, %I: !cake.global<?xi32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "gather" warpgroups(1) regs(40) {
    %N = cake.dim %I, 0 : !cake.global<?xi32>
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %l = cake.gather.indices %I[%c0] : !cake.global<?xi32> -> !cake.indices<256>
    %r:2 = scf.for %p = %c0 to %N step %c256 iter_args(%a = %l, %b = %l)
        -> (!cake.indices<256>, !cake.indices<256>) {
      %n = cake.gather.indices %I[%p] : !cake.global<?xi32> -> !cake.indices<256>
      scf.yield %b, %n : !cake.indices<256>, !cake.indices<256>
    }
  }
}
