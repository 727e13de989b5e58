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

// smem.read reads a stage the role is still filling (its acquire, not a
// wait); the near miss reads the stage after the wait.
cake.kernel @smem_read_through_acquire(%X: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    // expected-note @+1 {{stage taken here}}
    %s = cake.pipe.acquire %p : !cake.pipe<1>
    cake.tma.load %X[%c0, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
    // expected-error @+1 {{[dataflow.read-outside-wait] reads ring #0 through a stage not taken with pipe.wait}}
    %early = cake.smem.read %a[%s] : !cake.ring<1 x 64x64xbf16, swizzle = 128> -> !cake.frag<64x64xbf16>
    cake.pipe.commit %p, %s : !cake.pipe<1>
    %t = cake.pipe.wait %p : !cake.pipe<1>
    %v = cake.smem.read %a[%t] : !cake.ring<1 x 64x64xbf16, swizzle = 128> -> !cake.frag<64x64xbf16>
    cake.pipe.release %p, %t : !cake.pipe<1>
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

// -----

// dataflow.store-coverage: two 64-column stores of a tile at columns 0 and
// 32 write [32, 64) twice and never write [96, 128).
cake.kernel @store_overlap(%O: !cake.global<?x?x128xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [1, 64], group_m = 1>} {
  cake.role "mma" warpgroups(1) {
    %BH = cake.dim %O, 0 : !cake.global<?x?x128xf32>
    %S = cake.dim %O, 1 : !cake.global<?x?x128xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 32 : index
    cake.tiles (%bh, %m) in (%BH, %S) {
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      // expected-note @+1 {{the previous box}}
      cake.store %z -> %O[%bh, %m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?x128xf32>
      // expected-error @+1 {{[dataflow.store-coverage] the stores of a tile to dimension 2 (extent 128) write twice [32, 64): this box starts at 32, the boxes before it end at 64}}
      cake.store %z -> %O[%bh, %m, %c1] : !cake.frag<64x64xf32> -> !cake.global<?x?x128xf32>
    }
  }
}

// -----

// dataflow.store-coverage: stores at columns 0 and 96 leave [64, 96)
// unwritten.
cake.kernel @store_gap(%O: !cake.global<?x?x128xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [1, 64], group_m = 1>} {
  cake.role "mma" warpgroups(1) {
    %BH = cake.dim %O, 0 : !cake.global<?x?x128xf32>
    %S = cake.dim %O, 1 : !cake.global<?x?x128xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 96 : index
    cake.tiles (%bh, %m) in (%BH, %S) {
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      // expected-note @+1 {{the previous box}}
      cake.store %z -> %O[%bh, %m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?x128xf32>
      // expected-error @+1 {{[dataflow.store-coverage] the stores of a tile to dimension 2 (extent 128) leave [64, 96) unwritten: this box starts at 96, the boxes before it end at 64}}
      cake.store %z -> %O[%bh, %m, %c1] : !cake.frag<64x64xf32> -> !cake.global<?x?x128xf32>
    }
  }
}

// -----

// Near miss: the two halves of the head dimension, at 0 and 64,
// partition it.
cake.kernel @store_same(%O: !cake.global<?x?x128xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [1, 64], group_m = 1>} {
  cake.role "mma" warpgroups(1) {
    %BH = cake.dim %O, 0 : !cake.global<?x?x128xf32>
    %S = cake.dim %O, 1 : !cake.global<?x?x128xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 64 : index
    cake.tiles (%bh, %m) in (%BH, %S) {
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      cake.store %z -> %O[%bh, %m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?x128xf32>
      cake.store %z -> %O[%bh, %m, %c1] : !cake.frag<64x64xf32> -> !cake.global<?x?x128xf32>
    }
  }
}

// -----

// Near miss: a column the analysis cannot read (a tile coordinate used
// as a column) makes the dimension unjudged.
cake.kernel @store_dynamic_col(%O: !cake.global<?x?x128xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [1, 64], group_m = 1>} {
  cake.role "mma" warpgroups(1) {
    %BH = cake.dim %O, 0 : !cake.global<?x?x128xf32>
    %S = cake.dim %O, 1 : !cake.global<?x?x128xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 64 : index
    cake.tiles (%bh, %m) in (%BH, %S) {
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      cake.store %z -> %O[%bh, %m, %m] : !cake.frag<64x64xf32> -> !cake.global<?x?x128xf32>
      cake.store %z -> %O[%bh, %m, %c1] : !cake.frag<64x64xf32> -> !cake.global<?x?x128xf32>
    }
  }
}

// -----

// dataflow.store-coverage: one 64-column store of a 128-column dimension
// leaves its right half unwritten.
cake.kernel @store_half(%O: !cake.global<?x128xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64], group_m = 1>} {
  cake.role "mma" warpgroups(1) {
    %S = cake.dim %O, 0 : !cake.global<?x128xf32>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%S) {
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      // expected-error @+1 {{[dataflow.store-coverage] the stores of a tile to dimension 1 (extent 128) leave [64, 128) unwritten}}
      cake.store %z -> %O[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x128xf32>
    }
  }
}

// -----

// dataflow.tile-coverage along a loop: the K loop steps 64 columns, the box
// is 32 wide: half of K is never read (a silently wrong GEMM).
cake.kernel @k_step_narrow_box(%A: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cstep = arith.constant 64 : index
    cake.tiles (%m) in (%M) {
      scf.for %k = %c0 to %K step %cstep {
        %k32 = arith.addi %k, %c32 : index
        // expected-error @+2 {{[dataflow.tile-coverage] coordinate 1 follows the loop's induction variable, which steps by 64, but the box moves 32: part of every step is never moved}}
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x32xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "use" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %cstep = arith.constant 64 : index
    cake.tiles (%m) in (%M) {
      scf.for %k = %c0 to %K step %cstep {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
    }
  }
}

// -----

// dataflow.tile-coverage along a loop: a 64-wide box at a step of 32 reads
// every column twice.
cake.kernel @k_step_wide_box(%A: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cstep = arith.constant 32 : index
    cake.tiles (%m) in (%M) {
      scf.for %k = %c0 to %K step %cstep {
        %k32 = arith.addi %k, %c32 : index
        // expected-error @+2 {{[dataflow.tile-coverage] coordinate 1 follows the loop's induction variable, which steps by 32, but the boxes reach +64: each runs into the next step's}}
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "use" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %cstep = arith.constant 32 : index
    cake.tiles (%m) in (%M) {
      scf.for %k = %c0 to %K step %cstep {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
    }
  }
}

// -----

// dataflow.tile-coverage along a loop: two 32-wide boxes of one step both at
// +0 (the second meant +32).
cake.kernel @k_step_overlap(%A: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cstep = arith.constant 64 : index
    cake.tiles (%m) in (%M) {
      scf.for %k = %c0 to %K step %cstep {
        %k32 = arith.addi %k, %c32 : index
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x32xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<2>
        // expected-error @+2 {{[dataflow.tile-coverage] coordinate 1 follows the loop's induction variable, which steps by 64, but this box starts at +0 where the step's boxes already reach +32: elements are moved twice}}
        %t = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%t] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x32xbf16, swizzle = 128>
        cake.pipe.commit %p, %t : !cake.pipe<2>
      }
    }
  }
  cake.role "use" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %cstep = arith.constant 64 : index
    cake.tiles (%m) in (%M) {
      scf.for %k = %c0 to %K step %cstep {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        cake.pipe.release %p, %s : !cake.pipe<2>
        %t = cake.pipe.wait %p : !cake.pipe<2>
        cake.pipe.release %p, %t : !cake.pipe<2>
      }
    }
  }
}

// -----

// Near miss: two 32-wide boxes at +0 and +32 tile each step of 64.
cake.kernel @k_step_two_boxes(%A: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %cstep = arith.constant 64 : index
    cake.tiles (%m) in (%M) {
      scf.for %k = %c0 to %K step %cstep {
        %k32 = arith.addi %k, %c32 : index
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x32xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<2>
        %t = cake.pipe.acquire %p : !cake.pipe<2>
        cake.tma.load %A[%m, %k32] -> %a[%t] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x32xbf16, swizzle = 128>
        cake.pipe.commit %p, %t : !cake.pipe<2>
      }
    }
  }
  cake.role "use" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %cstep = arith.constant 64 : index
    cake.tiles (%m) in (%M) {
      scf.for %k = %c0 to %K step %cstep {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        cake.pipe.release %p, %s : !cake.pipe<2>
        %t = cake.pipe.wait %p : !cake.pipe<2>
        cake.pipe.release %p, %t : !cake.pipe<2>
      }
    }
  }
}

// -----

// Near miss: the same box on both branches of an scf.if (only one runs per
// step), each tiling the step.
cake.kernel @k_step_branches(%A: !cake.global<?x?xbf16>, %flag: index)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m) in (%M) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        %first = arith.cmpi eq, %flag, %c0 : index
        scf.if %first {
          cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        } else {
          cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
        }
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "use" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m) in (%M) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
    }
  }
}


// -----

// [dataflow.store-coverage] along a loop: a chunk loop stepping by 32 that
// stores a 64-row output tile from registers writes every row twice (the
// mutation "one role's K step 64 -> 32" of examples/kda/kda_fwd).
cake.kernel @register_store_past_step(%X: !cake.global<?x64xf32>, %O: !cake.global<?x64xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "chunks" warpgroups(1) {
    %H = cake.dim %X, 1 : !cake.global<?x64xf32>
    %T = cake.dim %X, 0 : !cake.global<?x64xf32>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    cake.tiles (%h) in (%H) {
      scf.for %t0 = %c0 to %T step %c32 {
        %x = cake.load %X[%t0, %c0] : !cake.global<?x64xf32> -> !cake.frag<64x64xf32>
        // expected-error @+1 {{[dataflow.store-coverage] coordinate 0 follows the loop's induction variable, which steps by 32, but the boxes reach +64: each runs into the next step's}}
        cake.store %x -> %O[%t0, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x64xf32>
      }
    }
  }
}

// -----

// Near miss: the same loop stepping by the tile's 64 rows.
cake.kernel @register_store_per_step(%X: !cake.global<?x64xf32>, %O: !cake.global<?x64xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "chunks" warpgroups(1) {
    %H = cake.dim %X, 1 : !cake.global<?x64xf32>
    %T = cake.dim %X, 0 : !cake.global<?x64xf32>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%h) in (%H) {
      scf.for %t0 = %c0 to %T step %c64 {
        %x = cake.load %X[%t0, %c0] : !cake.global<?x64xf32> -> !cake.frag<64x64xf32>
        cake.store %x -> %O[%t0, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x64xf32>
      }
    }
  }
}

// -----

// dataflow.tile-coverage over several boxes: the store warp writes a
// 128-column tile as two 64-column boxes, at %n and %n + 128, leaving
// columns 64..127 of every tile unwritten.
cake.kernel @tile_halves_gap(%In: !cake.global<?x?xf32>, %Out: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>} {
  %a = cake.ring : !cake.ring<2 x 64x64xf32, swizzle = 0>
  %b = cake.ring : !cake.ring<2 x 64x64xf32, swizzle = 0>
  %p = cake.pipe %a, %b : !cake.ring<2 x 64x64xf32, swizzle = 0>, !cake.ring<2 x 64x64xf32, swizzle = 0>
  cake.role "load" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xf32>
    %N = cake.dim %In, 1 : !cake.global<?x?xf32>
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %n1 = arith.addi %n, %c64 : index
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.tma.load %In[%m, %n] -> %a[%s] : !cake.global<?x?xf32> -> !cake.ring<2 x 64x64xf32, swizzle = 0>
      cake.tma.load %In[%m, %n1] -> %b[%s] : !cake.global<?x?xf32> -> !cake.ring<2 x 64x64xf32, swizzle = 0>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "store" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xf32>
    %N = cake.dim %In, 1 : !cake.global<?x?xf32>
    %c128 = arith.constant 128 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %n2 = arith.addi %n, %c128 : index
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.tma.store %a[%s] -> %Out[%m, %n] : !cake.ring<2 x 64x64xf32, swizzle = 0> -> !cake.global<?x?xf32>
      // expected-error @+1 {{[dataflow.tile-coverage] coordinate 1 is tile coordinate #1, whose tiles are 128 wide, but this box starts at +128 where the tile's boxes reach only +64: part of every tile is never moved}}
      cake.tma.store %b[%s] -> %Out[%m, %n2] : !cake.ring<2 x 64x64xf32, swizzle = 0> -> !cake.global<?x?xf32>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// -----

// Near miss: the two 64-column boxes at %n and %n + 64 cover the tile.

cake.kernel @tile_halves(%In: !cake.global<?x?xf32>, %Out: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 128], group_m = 1>} {
  %a = cake.ring : !cake.ring<2 x 64x64xf32, swizzle = 0>
  %b = cake.ring : !cake.ring<2 x 64x64xf32, swizzle = 0>
  %p = cake.pipe %a, %b : !cake.ring<2 x 64x64xf32, swizzle = 0>, !cake.ring<2 x 64x64xf32, swizzle = 0>
  cake.role "load" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xf32>
    %N = cake.dim %In, 1 : !cake.global<?x?xf32>
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %n1 = arith.addi %n, %c64 : index
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.tma.load %In[%m, %n] -> %a[%s] : !cake.global<?x?xf32> -> !cake.ring<2 x 64x64xf32, swizzle = 0>
      cake.tma.load %In[%m, %n1] -> %b[%s] : !cake.global<?x?xf32> -> !cake.ring<2 x 64x64xf32, swizzle = 0>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "store" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xf32>
    %N = cake.dim %In, 1 : !cake.global<?x?xf32>
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %n2 = arith.addi %n, %c64 : index
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.tma.store %a[%s] -> %Out[%m, %n] : !cake.ring<2 x 64x64xf32, swizzle = 0> -> !cake.global<?x?xf32>
      cake.tma.store %b[%s] -> %Out[%m, %n2] : !cake.ring<2 x 64x64xf32, swizzle = 0> -> !cake.global<?x?xf32>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}


// -----

// smem.reduce reads its second stage while the role still fills it (its
// acquire, not a wait); the near miss reduces both after their waits.
cake.kernel @smem_reduce_through_acquire(%X: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %s0 = cake.pipe.acquire %p : !cake.pipe<2>
    cake.tma.load %X[%c0, %c0] -> %a[%s0] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    cake.pipe.commit %p, %s0 : !cake.pipe<2>
    %t0 = cake.pipe.wait %p : !cake.pipe<2>
    // expected-note @+1 {{stage taken here}}
    %s1 = cake.pipe.acquire %p : !cake.pipe<2>
    cake.tma.load %X[%c0, %c0] -> %a[%s1] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    // expected-error @+1 {{[dataflow.read-outside-wait] reads ring #0 through a stage not taken with pipe.wait}}
    %early = cake.smem.reduce sum squared %a[%t0, %s1] : !cake.ring<2 x 64x64xbf16, swizzle = 128> -> !cake.frag<1x64xf32>
    cake.pipe.commit %p, %s1 : !cake.pipe<2>
    %t1 = cake.pipe.wait %p : !cake.pipe<2>
    %n = cake.smem.reduce sum squared %a[%t0, %t1] : !cake.ring<2 x 64x64xbf16, swizzle = 128> -> !cake.frag<1x64xf32>
    cake.pipe.release %p, %t0 : !cake.pipe<2>
    cake.pipe.release %p, %t1 : !cake.pipe<2>
  }
}
