// Kernel, role and tile-loop verifiers.
// RUN: cake-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{expected non-empty function body}}
cake.kernel @empty() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
}

// -----

// expected-error @+1 {{expected at least one cake.role}}
cake.kernel @no_roles(%A: !cake.global<?xf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64xf16, swizzle = 0>
}

// -----

// expected-error @+1 {{[dataflow.kernel-signature] expected argument #0 to be a !cake.global tensor or a scalar}}
cake.kernel @bad_arg(%x: !cake.stage) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {}
}

// -----

// expected-error @+1 {{requires attribute 'target'}}
cake.kernel @no_target() attributes {schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {}
}

// -----

// expected-error @+1 {{attribute 'schedule' failed to satisfy constraint}}
cake.kernel @bad_schedule() attributes {target = #cake.target<"sm_90a">, schedule = 3} {
  cake.role "r" warps(1) {}
}

// -----

cake.kernel @dup_roles() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {}
  // expected-error @+1 {{[sync.role-names] duplicate role name "r" in kernel @dup_roles}}
  cake.role "r" warps(1) {}
}

// -----

cake.kernel @both_counts() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-error @+1 {{[resource.role-warps] role "r" must give exactly one of warpgroups(n) or warps(n)}}
  cake.role "r" warpgroups(1) warps(4) {}
}

// -----

cake.kernel @no_count() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-error @+1 {{role "r" must give exactly one of warpgroups(n) or warps(n)}}
  cake.role "r" {}
}

// -----

cake.kernel @zero_warps() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-error @+1 {{role "r" expected a positive warp count, got 0}}
  cake.role "r" warps(0) {}
}

// -----

cake.kernel @regs_not_multiple_of_8() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-error @+1 {{[resource.register-budget] role "r" expected a register budget that is a multiple of 8 in [24, 256] (setmaxnreg), got 230}}
  cake.role "r" warpgroups(1) regs(230) {}
}

// -----

cake.kernel @regs_too_low() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-error @+1 {{got 16}}
  cake.role "r" warpgroups(1) regs(16) {}
}

// -----

cake.kernel @regs_too_high() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-error @+1 {{got 264}}
  cake.role "r" warpgroups(1) regs(264) {}
}

// -----

// expected-error @+1 {{'cake.role' op expects parent op 'cake.kernel'}}
cake.role "orphan" warps(1) {}

// -----

cake.kernel @tiles_rank(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64, 64]>} {
  cake.role "r" warps(1) {
    // expected-error @+1 {{[sync.tiles-schedule] expected 2 extents to match the schedule's tile [64, 64], got 1}}
    cake.tiles (%m) in (%n) {}
  }
}

// -----

cake.kernel @tiles_extent(%X: !cake.global<?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %n = cake.dim %X, 0 : !cake.global<?xf32>
    %c2 = arith.constant 2 : index
    %h = arith.divui %n, %c2 : index
    // expected-error @+1 {{[sync.tiles-schedule] expected extent #0 to be a kernel argument or a cake.dim of one, so the launcher can size the grid}}
    cake.tiles (%m) in (%h) {}
  }
}

// -----

// The near miss: a cake.dim of an argument sizes the grid.
cake.kernel @tiles_extent_dim(%X: !cake.global<?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %n = cake.dim %X, 0 : !cake.global<?xf32>
    cake.tiles (%m) in (%n) {}
  }
}

// -----

cake.kernel @tiles_four(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    // expected-error @+1 {{expected 1 to 3 tile dimensions, got 4}}
    cake.tiles (%a, %b, %c, %d) in (%n, %n, %n, %n) {}
  }
}

// -----

cake.kernel @tiles_mismatch(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64, 64]>} {
  cake.role "r" warps(1) {
    // expected-error @+1 {{expected one tile coordinate per extent (2) and one argument per carried value (0), got 1 block arguments}}
    cake.tiles (%a) in (%n, %n) {}
  }
}

// -----

// A tile loop carries what registers hold: not a ring.
cake.kernel @tiles_carry_ring(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [64], group_m = 1>} {
  %r = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warps(1) {
    // expected-error @+1 {{[dataflow.type-shape] carried value #0 is a '!cake.ring<2 x 64x64xbf16, swizzle = 128>': a tile loop carries fragments, integers, indices and floats}}
    %x = cake.tiles (%a) in (%n) iter_args(%c = %r) -> (!cake.ring<2 x 64x64xbf16, swizzle = 128>) {
      cake.tiles.yield %c : !cake.ring<2 x 64x64xbf16, swizzle = 128>
    }
  }
}

// -----

// The value carried to the next tile keeps its type.
cake.kernel @tiles_carry_type(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [64], group_m = 1>} {
  cake.role "r" warps(1) {
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.type-shape] carried value #0 is a '!cake.frag<64x64xf32>' at the start, but its block argument, yield and result are '!cake.frag<64x64xf32>', '!cake.frag<64x64xbf16>' and '!cake.frag<64x64xf32>'}}
    %x = cake.tiles (%a) in (%n) iter_args(%o = %z) -> (!cake.frag<64x64xf32>) {
      %b = cake.frag.convert %o : !cake.frag<64x64xf32> -> !cake.frag<64x64xbf16>
      cake.tiles.yield %b : !cake.frag<64x64xbf16>
    }
  }
}

// -----

// One value yielded per carried value.
cake.kernel @tiles_carry_count(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [64], group_m = 1>} {
  cake.role "r" warps(1) {
    %t = arith.constant true
    %x = cake.tiles (%a) in (%n) iter_args(%f = %t) -> (i1) {
      // expected-error @+1 {{[dataflow.type-shape] expected 1 values carried to the next tile, got 0}}
      cake.tiles.yield
    }
  }
}

// -----

cake.kernel @dim_range(%A: !cake.global<?x?xf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    // expected-error @+1 {{[dataflow.tensor-dim] expected a dimension in [0, 2), got 2}}
    %d = cake.dim %A, 2 : !cake.global<?x?xf16>
  }
}

// -----

cake.kernel @tiles_slice_range(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [64], group_m = 1>} {
  cake.role "r" warps(1) {
    // expected-error @+1 {{[sync.tiles-schedule] expected a slice k of n with 0 <= k < n}}
    cake.tiles (%m) in (%n) slice 2 of 2 {}
  }
}

// -----

cake.kernel @tiles_slice_grid(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    // expected-error @+1 {{[sync.tiles-schedule] a slice of the CTA's tiles needs a persistent schedule (a grid gives each CTA one tile)}}
    cake.tiles (%m) in (%n) slice 0 of 2 {}
  }
}
