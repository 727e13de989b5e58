// dataflow.* rules of cake-verify.
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics

// The consumer reads through a stage it acquired (producer side).
cake.kernel @read_through_acquire() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %q = cake.pipe %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
    %t = cake.pipe.wait %q : !cake.pipe<2>
    cake.pipe.release %q, %t : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-note @+1 {{stage taken here}}
    %t = cake.pipe.acquire %q : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.read-outside-wait] reads ring #1 through a stage not taken with pipe.wait}}
    %r = cake.mma wgmma %a[%s], %b[%t], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.commit %q, %t : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// The stage comes from a pipe that does not hold the ring it reads.
cake.kernel @wrong_pipe() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %q = cake.pipe %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
    %t = cake.pipe.acquire %q : !cake.pipe<2>
    cake.pipe.commit %q, %t : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    // expected-note @+1 {{stage taken here}}
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %t = cake.pipe.wait %q : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.read-outside-wait] reads ring #1 through a stage of pipe #0, which does not hold that ring}}
    %r = cake.mma wgmma %a[%s], %b[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
    cake.pipe.release %q, %t : !cake.pipe<2>
  }
}

// -----

// The producer writes through a stage it waited for (consumer side).
cake.kernel @write_through_wait(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %c0 = arith.constant 0 : index
    // expected-note @+1 {{stage taken here}}
    %s = cake.pipe.wait %p : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.write-outside-acquire] writes ring #0 through a stage not taken with pipe.acquire}}
    cake.tma.load %A[%c0, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// Roles share only pipes and rings: a value of one role is not visible in
// another (MLIR's dominance rule; registry: dataflow.cross-role).
cake.kernel @cross_role(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "a" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
  }
  cake.role "b" warps(1) {
    // expected-error @+1 {{use of undeclared SSA value name}}
    cake.tiles (%m) in (%M) {}
  }
}

// -----

cake.kernel @outside_role() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-error @+1 {{[dataflow.handoff-outside-role] 'cake.pipe.acquire' is outside every role; it would run on every warp of the CTA}}
  %s = cake.pipe.acquire %p : !cake.pipe<2>
  cake.role "use" warpgroups(1) {
    %t = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %t : !cake.pipe<2>
  }
}

// -----

// Three warpgroups cannot split a 128-row wgmma accumulator into 64-row
// slabs.
cake.kernel @acc_split() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  // expected-note @+1 {{hint: give the role 2 warpgroups, or tile the fragment to 192 rows}}
  cake.role "use" warpgroups(3) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    // expected-error @+1 {{[dataflow.fragment-layout] fragment 128x128 has no register layout in role "use" of 3 warpgroups: expected 192xN (one 64-row slab per warpgroup), 192x1 or 1xN, N a multiple of 8}}
    %z = cake.frag.zero : !cake.frag<128x128xf32>
    %r = cake.mma wgmma %a[%s], %a[%s], %z : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// dataflow.tile-coverage: the tile loop steps 128 rows, the ring's box is
// 96 rows tall: rows 96..127 of every tile would never be copied.
cake.kernel @copy_short_box(%In: !cake.global<?x?xbf16>, %Out: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 64], group_m = 1>} {
  %r = cake.ring : !cake.ring<4 x 96x64xbf16, swizzle = 128>
  %p = cake.pipe %r : !cake.ring<4 x 96x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %In, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<4>
      // expected-error @+1 {{[dataflow.tile-coverage] coordinate 0 is tile coordinate #0, whose tiles are 128 wide, but the box moves 96: part of every tile is never moved}}
      cake.tma.load %In[%m, %n] -> %r[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 96x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<4>
    }
  }
  cake.role "store" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %In, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.wait %p : !cake.pipe<4>
      // expected-error @+1 {{[dataflow.tile-coverage] coordinate 0 is tile coordinate #0, whose tiles are 128 wide, but the box moves 96}}
      cake.tma.store %r[%s] -> %Out[%m, %n] : !cake.ring<4 x 96x64xbf16, swizzle = 128> -> !cake.global<?x?xbf16>
      cake.pipe.release %p, %s : !cake.pipe<4>
    }
  }
}

// -----

// Near miss: a box as wide as the tile in the tile's dimensions, and a
// batch coordinate (tile extent 1) over a dimension the box does not span.
cake.kernel @copy_batched(%In: !cake.global<?x?x?xbf16>, %Out: !cake.global<?x?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [1, 128, 64], group_m = 1>} {
  %r = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %r : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %B = cake.dim %In, 0 : !cake.global<?x?x?xbf16>
    %M = cake.dim %In, 1 : !cake.global<?x?x?xbf16>
    %N = cake.dim %In, 2 : !cake.global<?x?x?xbf16>
    cake.tiles (%b, %m, %n) in (%B, %M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<4>
      cake.tma.load %In[%b, %m, %n] -> %r[%s] : !cake.global<?x?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<4>
    }
  }
  cake.role "store" warps(1) {
    %B = cake.dim %In, 0 : !cake.global<?x?x?xbf16>
    %M = cake.dim %In, 1 : !cake.global<?x?x?xbf16>
    %N = cake.dim %In, 2 : !cake.global<?x?x?xbf16>
    cake.tiles (%b, %m, %n) in (%B, %M, %N) {
      %s = cake.pipe.wait %p : !cake.pipe<4>
      cake.tma.store %r[%s] -> %Out[%b, %m, %n] : !cake.ring<4 x 128x64xbf16, swizzle = 128> -> !cake.global<?x?x?xbf16>
      cake.pipe.release %p, %s : !cake.pipe<4>
    }
  }
}
