// sync.* rules of cake-verify: one failing case per rule, and near misses
// that must pass.
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics

// Near miss: a consumer holding both stages of a 2-stage pipe for a whole
// tile, then releasing them, is fine (the k-means pattern).
cake.kernel @hold_two(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    cake.tiles (%t) in (%n) {
      %s0 = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s0 : !cake.pipe<2>
      %s1 = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s1 : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    cake.tiles (%t) in (%n) {
      %s0 = cake.pipe.wait %p : !cake.pipe<2>
      %s1 = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s0 : !cake.pipe<2>
      cake.pipe.release %p, %s1 : !cake.pipe<2>
    }
  }
}

// -----

cake.kernel @never_released() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    // expected-error @+2 {{[sync.unbalanced-pipe] role "use": the stage of pipe #0 taken here is never released}}
    // expected-note @+1 {{hint: release each stage exactly once, in the block that waited for it}}
    %s = cake.pipe.wait %p : !cake.pipe<2>
  }
}

// -----

cake.kernel @released_twice() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    // expected-error @+2 {{the stage of pipe #0 taken here is more than once released}}
    // expected-note @+1 {{hint:}}
    %s = cake.pipe.wait %p : !cake.pipe<2>
    // expected-note @+1 {{release here}}
    cake.pipe.release %p, %s : !cake.pipe<2>
    // expected-note @+1 {{release here}}
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

cake.kernel @commit_in_branch(%c: i1) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    // expected-note @+1 {{stage taken here}}
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    scf.if %c {
      // expected-error @+1 {{[sync.unbalanced-pipe] role "load": the commit of a stage of pipe #0 is not in the block that took it}}
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

cake.kernel @mma_after_release() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-note @+1 {{release here}}
    cake.pipe.release %p, %s : !cake.pipe<2>
    // expected-error @+1 {{[sync.use-after-handoff] role "use" uses a stage of pipe #0 after its release; the other side may already be overwriting it}}
    %r = cake.mma wgmma %a[%s], %a[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
  }
}

// -----

// The consumer's K loop steps by 32 where the producer's steps by 64.
cake.kernel @trip_mismatch(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-error @+2 {{[sync.trip-count-mismatch] role "use" waits trip(c0..dim(arg0,1) by c32) times on pipe #0 but role "load" commits trip(c0..dim(arg0,1) by c64) times}}
  // expected-note @+1 {{hint: both roles must run the same loops}}
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-note @+1 {{producer role "load"}}
  cake.role "load" warps(1) {
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %K step %c64 {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  // expected-note @+1 {{consumer role "use"}}
  cake.role "use" warpgroups(1) {
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    scf.for %k = %c0 to %K step %c32 {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// -----

// Near miss: the same trip count computed separately in each role passes.
cake.kernel @trip_match(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %K step %c64 {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %K2 = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %z = arith.constant 0 : index
    %s64 = arith.constant 64 : index
    scf.for %k = %z to %K2 step %s64 {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// -----

// Work-list bounds: each role loads its loop's bounds from the same
// entries of a tensor the kernel never writes, so the counts are equal.
cake.kernel @trip_loaded_match(%A: !cake.global<?x?xbf16>, %W: !cake.global<?x4xi32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [1], group_m = 1>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %U = cake.dim %W, 0 : !cake.global<?x4xi32>
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%u) in (%U) {
      %lo = cake.scalar.load %W[%u, %c1] : !cake.global<?x4xi32>
      %hi = cake.scalar.load %W[%u, %c2] : !cake.global<?x4xi32>
      scf.for %k = %lo to %hi step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  cake.role "use" warpgroups(1) {
    %U = cake.dim %W, 0 : !cake.global<?x4xi32>
    %one = arith.constant 1 : index
    %two = arith.constant 2 : index
    %s64 = arith.constant 64 : index
    cake.tiles (%u) in (%U) {
      %lo = cake.scalar.load %W[%u, %one] : !cake.global<?x4xi32>
      %hi = cake.scalar.load %W[%u, %two] : !cake.global<?x4xi32>
      scf.for %k = %lo to %hi step %s64 {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
    }
  }
}

// -----

// A role that reads another entry of the work list (the unit's cluster
// base, column 0, instead of its first point) runs another count.
cake.kernel @trip_loaded_mismatch(%A: !cake.global<?x?xbf16>, %W: !cake.global<?x4xi32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [1], group_m = 1>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-error @+2 {{[sync.trip-count-mismatch] role "use" waits tiles*trip(ld(arg1,tile0,c0)..ld(arg1,tile0,c2) by c64) times on pipe #0 but role "load" commits tiles*trip(ld(arg1,tile0,c1)..ld(arg1,tile0,c2) by c64) times}}
  // expected-note @+1 {{hint: both roles must run the same loops}}
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-note @+1 {{producer role "load"}}
  cake.role "load" warps(1) {
    %U = cake.dim %W, 0 : !cake.global<?x4xi32>
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%u) in (%U) {
      %lo = cake.scalar.load %W[%u, %c1] : !cake.global<?x4xi32>
      %hi = cake.scalar.load %W[%u, %c2] : !cake.global<?x4xi32>
      scf.for %k = %lo to %hi step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<2>
        cake.pipe.commit %p, %s : !cake.pipe<2>
      }
    }
  }
  // expected-note @+1 {{consumer role "use"}}
  cake.role "use" warpgroups(1) {
    %U = cake.dim %W, 0 : !cake.global<?x4xi32>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%u) in (%U) {
      %lo = cake.scalar.load %W[%u, %c0] : !cake.global<?x4xi32>
      %hi = cake.scalar.load %W[%u, %c2] : !cake.global<?x4xi32>
      scf.for %k = %lo to %hi step %c64 {
        %s = cake.pipe.wait %p : !cake.pipe<2>
        cake.pipe.release %p, %s : !cake.pipe<2>
      }
    }
  }
}

// -----

// A tensor the kernel writes may change between the roles' loads: the
// count is unproven, not assumed equal, and the kernel is rejected with
// the loop named.
cake.kernel @trip_loaded_written(%W: !cake.global<?xi32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-error @+2 {{[sync.trip-count-mismatch] cannot prove on every path that role "use" waits on pipe #0 as often as role "load" commits: the scf.for at line 251 has bounds Cake cannot key across roles}}
  // expected-note @+1 {{hint: bound the loops and key the conditions}}
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = cake.scalar.load %W[%c0] : !cake.global<?xi32>
    // expected-note @+1 {{the count depends on this op}}
    scf.for %k = %c0 to %n step %c1 {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = cake.scalar.load %W[%c0] : !cake.global<?xi32>
    scf.for %k = %c0 to %n step %c1 {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
    %z = cake.frag.zero : !cake.frag<1x64xi32>
    cake.store %z -> %W[%c0] : !cake.frag<1x64xi32> -> !cake.global<?xi32>
  }
}

// -----

// A loop bound Cake cannot compare across roles: rejected, the loop named.
cake.kernel @trip_unproven(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-error @+2 {{[sync.trip-count-mismatch] cannot prove on every path that role "use" waits on pipe #0 as often as role "load" commits: the scf.for at line 283 has bounds Cake cannot key across roles}}
  // expected-note @+1 {{hint:}}
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %h = arith.shrui %K, %c1 : index
    // expected-note @+1 {{the count depends on this op}}
    scf.for %k = %c0 to %h step %c1 {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

cake.kernel @tiles_mismatch(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    // expected-note @+1 {{the other tile loop}}
    cake.tiles (%m) in (%M) {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %N = cake.dim %A, 1 : !cake.global<?x?xbf16>
    // expected-error @+1 {{[sync.tiles-mismatch] role "use" iterates different tiles than role "load"; pipes would pair stages of different tiles}}
    cake.tiles (%m) in (%N) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// -----

// Ping-pong pairs: each producer/consumer pair keeps to its own pipe and
// slice; the consumer of the second pipe takes the wrong slice (the two
// slices also hand off different numbers of stages).
cake.kernel @slice_mismatch(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [64], group_m = 1>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-error @+2 {{[sync.trip-count-mismatch] role "use1" waits tiles[0/2] times on pipe #1 but role "load1" commits tiles[1/2] times}}
  // expected-note @+1 {{hint: both roles must run the same loops, and test the same conditions, around their hand-offs on this pipe}}
  %q = cake.pipe %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load0" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) slice 0 of 2 {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use0" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) slice 0 of 2 {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
  // expected-note @+1 {{producer role "load1"}}
  cake.role "load1" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) slice 1 of 2 {
      %s = cake.pipe.acquire %q : !cake.pipe<2>
      cake.pipe.commit %q, %s : !cake.pipe<2>
    }
  }
  // expected-error @+2 {{[sync.tiles-mismatch] role "use1" takes slice 0 of 2 of the CTA's tiles and role "load1" slice 1 of 2, but both use pipe #1: its stages would pair different tiles}}
  // expected-note @+1 {{consumer role "use1"}}
  cake.role "use1" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) slice 0 of 2 {
      %s = cake.pipe.wait %q : !cake.pipe<2>
      cake.pipe.release %q, %s : !cake.pipe<2>
    }
  }
}

// -----

// The consumer waits for 3 stages of a 2-stage pipe before releasing any:
// the producer can never fill the third.
// expected-error @+2 {{[sync.deadlock] the roles can deadlock (found with every loop unrolled 3 times): every unfinished role waits}}
// expected-note @+1 {{hint: release stages before waiting on more than the pipe holds}}
cake.kernel @deadlock() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s0 = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s0 : !cake.pipe<2>
    %s1 = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s1 : !cake.pipe<2>
    // expected-note @+1 {{role "load" waits here for a free stage of pipe #0 (all stages held by its consumer)}}
    %s2 = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s2 : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s0 = cake.pipe.wait %p : !cake.pipe<2>
    %s1 = cake.pipe.wait %p : !cake.pipe<2>
    // expected-note @+1 {{role "use" waits here for a full stage of pipe #0 (its producer has committed nothing new)}}
    %s2 = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s0 : !cake.pipe<2>
    cake.pipe.release %p, %s1 : !cake.pipe<2>
    cake.pipe.release %p, %s2 : !cake.pipe<2>
  }
}

// -----

// Two pipes in opposite directions, each side waiting first: a cycle.
// expected-error @+2 {{[sync.deadlock]}}
// expected-note @+1 {{hint:}}
cake.kernel @deadlock_cycle() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %q = cake.pipe %b : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  cake.role "x" warps(1) {
    // expected-note @+1 {{role "x" waits here for a full stage of pipe #1}}
    %t = cake.pipe.wait %q : !cake.pipe<1>
    cake.pipe.release %q, %t : !cake.pipe<1>
    %s = cake.pipe.acquire %p : !cake.pipe<1>
    cake.pipe.commit %p, %s : !cake.pipe<1>
  }
  cake.role "y" warps(1) {
    // expected-note @+1 {{role "y" waits here for a full stage of pipe #0}}
    %s = cake.pipe.wait %p : !cake.pipe<1>
    cake.pipe.release %p, %s : !cake.pipe<1>
    %t = cake.pipe.acquire %q : !cake.pipe<1>
    cake.pipe.commit %q, %t : !cake.pipe<1>
  }
}

// -----

cake.kernel @no_proxy_fence(%C: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64, 64]>} {
  %o = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %o : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  cake.role "produce" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %z = cake.frag.zero : !cake.frag<64x64xbf16>
    %s = cake.pipe.acquire %p : !cake.pipe<1>
    // expected-note @+1 {{generic-proxy write here}}
    cake.smem.write %z -> %o[%s] : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
    // expected-error @+2 {{[sync.proxy-fence] ring #0 is handed over after ordinary stores without a proxy fence; a TMA store or mma reading it may see stale data}}
    // expected-note @+1 {{hint: put cake.fence.proxy_async after the writes}}
    cake.pipe.commit %p, %s : !cake.pipe<1>
  }
  cake.role "drain" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.wait %p : !cake.pipe<1>
    cake.tma.store %o[%s] -> %C[%c0, %c0] : !cake.ring<1 x 64x64xbf16, swizzle = 128> -> !cake.global<?x?xbf16>
    cake.pipe.release %p, %s : !cake.pipe<1>
  }
}

// -----

// Near miss: the same hand-over with the fence passes.
cake.kernel @proxy_fenced(%C: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64, 64]>} {
  %o = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %o : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  cake.role "produce" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x64xbf16>
    %s = cake.pipe.acquire %p : !cake.pipe<1>
    cake.smem.write %z -> %o[%s] : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
    cake.fence.proxy_async
    cake.pipe.commit %p, %s : !cake.pipe<1>
  }
  cake.role "drain" warps(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.wait %p : !cake.pipe<1>
    cake.tma.store %o[%s] -> %C[%c0, %c0] : !cake.ring<1 x 64x64xbf16, swizzle = 128> -> !cake.global<?x?xbf16>
    cake.pipe.release %p, %s : !cake.pipe<1>
  }
}

// -----

// Ring %b of the pipe receives no copy: its 8 KiB never arrive.
cake.kernel @missing_copy(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    // expected-error @+2 {{[sync.expect-tx-balance] the stage of pipe #0 acquired here gets 0 copies into ring #1, but its full barrier expects 8192 bytes from exactly one: the phase would never complete (hang)}}
    // expected-note @+1 {{hint: load every ring of the pipe once per stage}}
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.tma.load %A[%c0, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// sync.expect-tx-balance is path-sensitive: the copy runs only when the
// branch is taken, the expected bytes are announced on every path (a hang
// when it is not taken).
cake.kernel @conditional_copy(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %n = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %some = arith.cmpi ugt, %n, %c0 : index
    // expected-error @+2 {{[sync.expect-tx-balance] the stage of pipe #0 acquired here gets 0 copies into ring #0 on the path where the scf.if at line 497 takes its else branch, but its full barrier expects 8192 bytes from exactly one: the phase would never complete (hang)}}
    // expected-note @+1 {{hint: load every ring of the pipe once per stage, on every path from the acquire to its commit}}
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    scf.if %some {
      // expected-note @+1 {{copy here}}
      cake.tma.load %A[%c0, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    }
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// Near miss: one copy on each path (two boxes to choose from).
cake.kernel @copy_on_each_path(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %some = arith.cmpi ugt, %n, %c64 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    scf.if %some {
      cake.tma.load %A[%c64, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    } else {
      cake.tma.load %A[%c0, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    }
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// Two copies on one path: the branch adds a second box to the same stage.
cake.kernel @extra_copy_on_a_path(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %some = arith.cmpi ugt, %n, %c64 : index
    // expected-error @+2 {{gets 2 copies into ring #0 on the path where the scf.if at line 550 takes its then branch, but its full barrier expects 8192 bytes from exactly one: the phase would complete early (race)}}
    // expected-note @+1 {{hint}}
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-note @+1 {{copy here}}
    cake.tma.load %A[%c0, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    scf.if %some {
      // expected-note @+1 {{copy here}}
      cake.tma.load %A[%c64, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    }
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// A copy in a loop of unknown trip count: one per trip, however many (none
// on the path where it runs no trip).
cake.kernel @copy_in_loop(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = cake.dim %A, 0 : !cake.global<?x?xbf16>
    // expected-error @+2 {{gets 0 copies into ring #0 on the path where the loop at line 576 runs no trip, but its full barrier expects 8192 bytes from exactly one: the phase would never complete (hang)}}
    // expected-note @+1 {{hint}}
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    scf.for %i = %c0 to %n step %c64 {
      // expected-note @+1 {{copy here}}
      cake.tma.load %A[%i, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    }
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// One copy before a loop that adds one per trip: two or more whenever it
// runs.
cake.kernel @copies_per_trip(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %n = cake.dim %A, 0 : !cake.global<?x?xbf16>
    // expected-error @+2 {{gets a copy into ring #0 on every trip of the loop at line 604, whose trip count is not known, but its full barrier expects 8192 bytes from exactly one copy}}
    // expected-note @+1 {{hint}}
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    // expected-note @+1 {{copy here}}
    cake.tma.load %A[%c0, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    scf.for %i = %c64 to %n step %c64 {
      // expected-note @+1 {{copy here}}
      cake.tma.load %A[%i, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    }
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// Near miss: the loop runs exactly once (constant bounds).
cake.kernel @copy_in_one_trip_loop(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    scf.for %i = %c0 to %c64 step %c64 {
      cake.tma.load %A[%i, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
    }
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// sync.named-barrier: id 0 is the CTA-wide barrier.
cake.kernel @barrier_zero(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "a" warpgroups(1) {
    cake.tiles (%t) in (%n) {
      // expected-error @+1 {{[sync.named-barrier] named barrier id 0 is out of range: ids 1 to 15 are free (0 is the CTA-wide barrier)}}
      cake.barrier.sync id(0) threads(128)
    }
  }
}

// -----

cake.kernel @barrier_part_warp(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "a" warpgroups(1) {
    cake.tiles (%t) in (%n) {
      // expected-error @+1 {{[sync.named-barrier] named barrier 2 counts 100 threads, not a positive multiple of 32 (bar.sync counts whole warps)}}
      cake.barrier.sync id(2) threads(100)
    }
  }
}

// -----

// Two warpgroups pass barrier 1 but it counts only one of them: the first
// to arrive would go on alone.
cake.kernel @barrier_count(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-note @+1 {{role "a" passes it with 128 threads}}
  cake.role "a" warpgroups(1) {
    cake.tiles (%t) in (%n) {
      // expected-error @+2 {{[sync.named-barrier] named barrier 1 counts 128 threads but the roles that pass it have 256}}
      // expected-note @+1 {{hint: threads(256), or move the barrier into the roles it should order}}
      cake.barrier.sync id(1) threads(128)
    }
  }
  // expected-note @+1 {{role "b" passes it with 128 threads}}
  cake.role "b" warpgroups(1) {
    cake.tiles (%t) in (%n) {
      cake.barrier.sync id(1) threads(128)
    }
  }
}

// -----

// Role "a" passes barrier 3 once per K step, role "b" once per tile.
cake.kernel @barrier_unbalanced(%n: index, %k: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-note @+1 {{the other role}}
  cake.role "a" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%t) in (%n) {
      scf.for %i = %c0 to %k step %c64 {
        cake.barrier.sync id(3) threads(256)
      }
    }
  }
  // expected-error @+1 {{[sync.named-barrier] role "b" passes named barrier 3 tiles times but role "a" passes it tiles*trip(c0..arg1 by c64) times}}
  cake.role "b" warpgroups(1) {
    cake.tiles (%t) in (%n) {
      cake.barrier.sync id(3) threads(256)
    }
  }
}

// -----

// Roles on different slices of the CTA's tiles pass barrier 4 once per
// tile of their own slice: with 3 tiles, slice 0 runs 2 and slice 1 runs 1,
// so the second pass of role "a" would wait forever.
cake.kernel @barrier_slices(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [64], group_m = 1>} {
  // expected-note @+1 {{the other role}}
  cake.role "a" warpgroups(1) {
    cake.tiles (%t) in (%n) slice 0 of 2 {
      cake.barrier.sync id(4) threads(256)
    }
  }
  // expected-error @+1 {{[sync.named-barrier] role "b" passes named barrier 4 tiles[1/2] times but role "a" passes it tiles[0/2] times}}
  cake.role "b" warpgroups(1) {
    cake.tiles (%t) in (%n) slice 1 of 2 {
      cake.barrier.sync id(4) threads(256)
    }
  }
}

// -----

// Near miss: two consumer warpgroups take turns at the epilogue through two
// barriers, each passed once per tile by both.
cake.kernel @barrier_pingpong(%n: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "even" warpgroups(1) {
    cake.tiles (%t) in (%n) {
      cake.barrier.sync id(1) threads(256)
      cake.barrier.sync id(2) threads(256)
    }
  }
  cake.role "odd" warpgroups(1) {
    cake.tiles (%t) in (%n) {
      cake.barrier.sync id(1) threads(256)
      cake.barrier.sync id(2) threads(256)
    }
  }
}

// -----

// Near miss: one role fills its own pipe by TMA and drains it in order
// (a kernel that is not warp specialized).
cake.kernel @serial_role(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  cake.role "main" warpgroups(2) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m) in (%M) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<1>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<1 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<1>
        %t = cake.pipe.wait %p : !cake.pipe<1>
        cake.pipe.release %p, %t : !cake.pipe<1>
      }
    }
  }
}

// -----

// A role filling its own one-stage pipe acquires a second stage before it
// has released the first: it waits on itself.
// expected-error @+2 {{[sync.deadlock] the roles can deadlock (found with every loop unrolled 3 times): every unfinished role waits}}
// expected-note @+1 {{hint: release stages before waiting on more than the pipe holds, and do not make a producer wait on its own consumer}}
cake.kernel @serial_self_wait(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  cake.role "main" warpgroups(2) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m) in (%M) {
      %s0 = cake.pipe.acquire %p : !cake.pipe<1>
      cake.tma.load %A[%m, %c0] -> %a[%s0] : !cake.global<?x?xbf16> -> !cake.ring<1 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s0 : !cake.pipe<1>
      // expected-note @+1 {{role "main" waits here for a free stage of pipe #0 (all stages held by its consumer)}}
      %s1 = cake.pipe.acquire %p : !cake.pipe<1>
      cake.tma.load %A[%m, %c64] -> %a[%s1] : !cake.global<?x?xbf16> -> !cake.ring<1 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s1 : !cake.pipe<1>
      %t0 = cake.pipe.wait %p : !cake.pipe<1>
      cake.pipe.release %p, %t0 : !cake.pipe<1>
      %t1 = cake.pipe.wait %p : !cake.pipe<1>
      cake.pipe.release %p, %t1 : !cake.pipe<1>
    }
  }
}

// -----

// A named barrier in the deadlock search: the consumer waits for a stage
// before the barrier, the producer commits it only after the barrier.
// expected-error @+2 {{[sync.deadlock] the roles can deadlock (found with every loop unrolled 3 times): every unfinished role waits}}
// expected-note @+1 {{hint: release stages before waiting on more than the pipe holds, and do not make a producer wait on its own consumer}}
cake.kernel @barrier_cycle() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "producer" warpgroups(1) {
    // expected-note @+1 {{role "producer" waits here at named barrier 1 for the other roles that pass it}}
    cake.barrier.sync id(1) threads(256)
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "consumer" warpgroups(1) {
    // expected-note @+1 {{role "consumer" waits here for a full stage of pipe #0 (its producer has committed nothing new)}}
    %t = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %t : !cake.pipe<2>
    cake.barrier.sync id(1) threads(256)
  }
}

// -----

// Near miss: the producer commits before the barrier.
cake.kernel @barrier_after_commit() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "producer" warpgroups(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
    cake.barrier.sync id(1) threads(256)
  }
  cake.role "consumer" warpgroups(1) {
    %t = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %t : !cake.pipe<2>
    cake.barrier.sync id(1) threads(256)
  }
}

// -----

// Path-sensitive hand-off counts: the producer hands a stage over only when
// %c holds, the consumer always waits for one. On the path where the
// producer's scf.if takes its else branch the consumer waits forever.
cake.kernel @handoff_on_one_path(%c: i1) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-error @+2 {{[sync.trip-count-mismatch] role "use" waits 1 times on pipe #0 but role "load" commits 0 times on the path where the scf.if at line 848 takes its else branch}}
  // expected-note @+1 {{hint: both roles must run the same loops, and test the same conditions}}
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-note @+1 {{producer role "load"}}
  cake.role "load" warps(1) {
    scf.if %c {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  // expected-note @+1 {{consumer role "use"}}
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// Near miss: both sides test the same condition (a kernel argument), so
// every path hands over as many stages as it takes: no diagnostic (this
// was an "unproven" warning before the counts followed scf.if).
cake.kernel @handoff_same_condition(%c: i1) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    scf.if %c {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    scf.if %c {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// -----

// Near miss: the same comparison written as its inverse, with the hand-off
// in the else branch (n < m on one side, not (n >= m) on the other).
cake.kernel @handoff_inverse_condition(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %n = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %m = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %lt = arith.cmpi ult, %n, %m : index
    scf.if %lt {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %n = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %m = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %ge = arith.cmpi uge, %n, %m : index
    scf.if %ge {
    } else {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// -----

// The same condition on both sides, but the hand-offs sit in opposite
// branches: the counts differ on both paths, and the first is named.
cake.kernel @handoff_opposite_branches(%c: i1) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-error @+2 {{[sync.trip-count-mismatch] role "use" waits 1 times on pipe #0 but role "load" commits 0 times on the path where the scf.if at line 921 takes its else branch}}
  // expected-note @+1 {{hint:}}
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-note @+1 {{producer role "load"}}
  cake.role "load" warps(1) {
    scf.if %c {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  // expected-note @+1 {{consumer role "use"}}
  cake.role "use" warpgroups(1) {
    scf.if %c {
    } else {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// -----

// Conditions Cake cannot relate (n < m on one side, n < k on the other)
// cannot be proven to agree: rejected.
cake.kernel @handoff_unrelated_conditions(%A: !cake.global<?x?xbf16>, %k: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-error @+2 {{[sync.trip-count-mismatch] cannot prove on every path that role "use" waits on pipe #0 as often as role "load" commits: the roles test conditions Cake cannot relate to each other}}
  // expected-note @+1 {{hint:}}
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %n = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %m = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %lt = arith.cmpi ult, %n, %m : index
    scf.if %lt {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %n = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %lt = arith.cmpi ult, %n, %k : index
    scf.if %lt {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// -----

// Named-barrier passes follow scf.if too: role "a" passes barrier 5 only
// when %n < %k, role "b" always.
cake.kernel @barrier_on_one_path(%n: index, %k: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-note @+1 {{the other role}}
  cake.role "a" warpgroups(1) {
    %lt = arith.cmpi slt, %n, %k : index
    scf.if %lt {
      cake.barrier.sync id(5) threads(256)
    }
  }
  // expected-error @+1 {{[sync.named-barrier] role "b" passes named barrier 5 1 times but role "a" passes it 0 times on the path where the scf.if at line 972 takes its else branch}}
  cake.role "b" warpgroups(1) {
    cake.barrier.sync id(5) threads(256)
  }
}

// -----

// Near miss: both roles pass it under the same comparison (%k > %n is
// %n < %k with its operands swapped).
cake.kernel @barrier_same_condition(%n: index, %k: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "a" warpgroups(1) {
    %lt = arith.cmpi slt, %n, %k : index
    scf.if %lt {
      cake.barrier.sync id(5) threads(256)
    }
  }
  cake.role "b" warpgroups(1) {
    %gt = arith.cmpi sgt, %k, %n : index
    scf.if %gt {
      cake.barrier.sync id(5) threads(256)
    }
  }
}

// -----

// Near miss: a constant condition runs one branch only, so its hand-off
// counts as unconditional (no path where the scf.if is skipped).
cake.kernel @handoff_constant_condition() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %true = arith.constant true
    scf.if %true {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// A role that stages a fragment for its own MMA (a self-filled pipe)
// still needs the fence before the tensor cores read it.
cake.kernel @self_staged_no_fence() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %q = cake.pipe %x : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  cake.role "chain" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x64xbf16>
    %acc = cake.frag.zero : !cake.frag<64x64xf32>
    %u = cake.pipe.acquire %q : !cake.pipe<1>
    // expected-note @+1 {{generic-proxy write here}}
    cake.smem.write %z -> %x[%u] : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
    // expected-error @+2 {{[sync.proxy-fence] ring #0 is handed over after ordinary stores without a proxy fence}}
    // expected-note @+1 {{hint: put cake.fence.proxy_async after the writes}}
    cake.pipe.commit %q, %u : !cake.pipe<1>
    %v = cake.pipe.wait %q : !cake.pipe<1>
    %y = cake.mma wgmma %z, %x[%v] mn_major, %acc : !cake.frag<64x64xbf16>, !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %q, %v : !cake.pipe<1>
  }
}

// -----

// Near miss: the same role with the fence passes (sync.pipe-roles admits
// a role filling its own stages with stores).
cake.kernel @self_staged_fenced() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %q = cake.pipe %x : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  cake.role "chain" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x64xbf16>
    %acc = cake.frag.zero : !cake.frag<64x64xf32>
    %u = cake.pipe.acquire %q : !cake.pipe<1>
    cake.smem.write %z -> %x[%u] : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
    cake.fence.proxy_async
    cake.pipe.commit %q, %u : !cake.pipe<1>
    %v = cake.pipe.wait %q : !cake.pipe<1>
    %y = cake.mma wgmma %z, %x[%v] mn_major, %acc : !cake.frag<64x64xbf16>, !cake.ring<1 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %q, %v : !cake.pipe<1>
  }
}

// -----

// [sync.named-barrier] frag.row's role needs a named barrier after the
// explicit ids: with id 15 taken, it would be 16.
cake.kernel @row_barrier_past_ids() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "a" warpgroups(1) {
    cake.barrier.sync id(15) threads(128)
    %z = cake.frag.zero : !cake.frag<64x128xf32>
    // expected-error @+1 {{[sync.named-barrier] 'cake.frag.row' needs a named barrier for its role: with the kernel's cake.barrier.sync ids that reaches id 16, past the 15 a CTA of sm_90a has}}
    %r = cake.frag.row %z[0] : !cake.frag<64x128xf32> -> !cake.frag<1x128xf32>
  }
}

// -----

// Near miss: id 14 taken, frag.row's barrier is 15.
cake.kernel @row_barrier_last_id() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "a" warpgroups(1) {
    cake.barrier.sync id(14) threads(128)
    %z = cake.frag.zero : !cake.frag<64x128xf32>
    %r = cake.frag.row %z[0] : !cake.frag<64x128xf32> -> !cake.frag<1x128xf32>
  }
}

// -----

// Near miss: a loop of constant bounds (two channel halves) commits as
// often as two waits in straight-line code consume, and fills the two
// stages without waiting on its own consumer.
cake.kernel @constant_loop_match() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "both" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %j = %c0 to %c2 step %c1 {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.fence.proxy_async
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
    %t0 = cake.pipe.wait %p : !cake.pipe<2>
    %t1 = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %t0 : !cake.pipe<2>
    cake.pipe.release %p, %t1 : !cake.pipe<2>
  }
}

// -----

// A loop of constant bounds commits three times, the consumer waits twice.
cake.kernel @constant_loop_mismatch() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<4 x 64x64xbf16, swizzle = 128>
  // expected-error @+2 {{[sync.trip-count-mismatch] role "use" waits 2 times on pipe #0 but role "load" commits 3 times}}
  // expected-note @+1 {{hint: both roles must run the same loops}}
  %p = cake.pipe %a : !cake.ring<4 x 64x64xbf16, swizzle = 128>
  // expected-note @+1 {{producer role "load"}}
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    scf.for %j = %c0 to %c3 step %c1 {
      %s = cake.pipe.acquire %p : !cake.pipe<4>
      cake.pipe.commit %p, %s : !cake.pipe<4>
    }
  }
  // expected-note @+1 {{consumer role "use"}}
  cake.role "use" warpgroups(1) {
    %t0 = cake.pipe.wait %p : !cake.pipe<4>
    %t1 = cake.pipe.wait %p : !cake.pipe<4>
    cake.pipe.release %p, %t0 : !cake.pipe<4>
    cake.pipe.release %p, %t1 : !cake.pipe<4>
  }
}

// -----

// A role that fills more stages in a loop of constant bounds than its
// pipe holds before waiting on any: the third acquire waits for a release
// that comes after it.
// expected-error @+2 {{[sync.deadlock] the roles can deadlock}}
// expected-note @+1 {{hint: release stages before waiting on more than the pipe holds}}
cake.kernel @constant_loop_deadlock() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "both" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    scf.for %j = %c0 to %c3 step %c1 {
      // expected-note @+1 {{role "both" waits here for a free stage of pipe #0}}
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.fence.proxy_async
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
    %t0 = cake.pipe.wait %p : !cake.pipe<2>
    %t1 = cake.pipe.wait %p : !cake.pipe<2>
    %t2 = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %t0 : !cake.pipe<2>
    cake.pipe.release %p, %t1 : !cake.pipe<2>
    cake.pipe.release %p, %t2 : !cake.pipe<2>
  }
}

// -----

// Near miss: constant loops too long to count by their trip count (past
// 2^30; the counts' products could overflow) are compared by their
// bounds, and equal bounds match.
cake.kernel @constant_loop_huge() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %big = arith.constant 4611686018427387904 : index
    scf.for %j = %c0 to %big step %c1 {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %big = arith.constant 4611686018427387904 : index
    scf.for %j = %c0 to %big step %c1 {
      %t = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %t : !cake.pipe<2>
    }
  }
}

// -----

// Near miss of @trip_unproven: the author accepts the count with
// cake.trust_counts, and the verifier warns instead.
cake.kernel @trip_unproven_trusted(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>, cake.trust_counts} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-warning @+1 {{[sync.trip-count-mismatch] unproven, trusted by cake.trust_counts: role "use" waits on pipe #0 as often as role "load" commits; the scf.for at line}}
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %h = arith.shrui %K, %c1 : index
    scf.for %k = %c0 to %h step %c1 {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// An early exit: the producer commits in an scf.while whose trip count
// Cake cannot count; the consumer waits once. Rejected, the loop named.
cake.kernel @handoff_in_while(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-error @+2 {{[sync.trip-count-mismatch] cannot prove on every path that role "use" waits on pipe #0 as often as role "load" commits: the 'scf.while' at line}}
  // expected-note @+1 {{hint:}}
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    // expected-note @+1 {{the count depends on this op}}
    %r = scf.while (%i = %c0) : (index) -> index {
      %more = arith.cmpi ult, %i, %K : index
      scf.condition(%more) %i : index
    } do {
    ^bb0(%j: index):
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
      %n = arith.addi %j, %c1 : index
      scf.yield %n : index
    }
  }
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// A named barrier passed under a condition only role "a" can key (a value
// it loads): rejected, where it was silently accepted before.
cake.kernel @barrier_unproven(%W: !cake.global<?xi32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "a" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %n = cake.scalar.load %W[%c0] : !cake.global<?xi32>
    %lt = arith.cmpi ult, %c0, %n : index
    // expected-note @+1 {{the count depends on this op}}
    scf.if %lt {
      cake.barrier.sync id(5) threads(256)
    }
    %z = cake.frag.zero : !cake.frag<1x64xi32>
    cake.store %z -> %W[%c0] : !cake.frag<1x64xi32> -> !cake.global<?xi32>
  }
  // expected-error @+2 {{[sync.named-barrier] cannot prove on every path that role "b" passes named barrier 5 as often as role "a": the scf.if at line}}
  // expected-note @+1 {{hint:}}
  cake.role "b" warpgroups(1) {
    cake.barrier.sync id(5) threads(256)
  }
}

// -----

// Near miss of @trip_unproven: bounds from arith.remui of keyed values (a
// split-K slice, examples/gemm-variants/gemm_splitk_*) key alike in both
// roles, so the counts are proven equal.
cake.kernel @trip_remui(%A: !cake.global<?x?xbf16>, %S: index) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %h = arith.remui %K, %S : index
    scf.for %k = %c0 to %h step %c1 {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %h = arith.remui %K, %S : index
    scf.for %k = %c0 to %h step %c1 {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// -----

// Near miss: a consumer one tile behind (the GEMM whose load role sends the
// previous tile's staged output, examples/gemm-variants/*_se): it waits
// under the first-tile flag (every tile but the first) and after the loop
// (when it ran), once per tile in all, against one commit per tile; with
// one stage the simulation follows the flag tile by tile and finds no
// deadlock.
cake.kernel @trip_first_flag(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [64, 64], group_m = 1>} {
  %a = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  cake.role "make" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %A, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<1>
      cake.tma.load %A[%m, %n] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<1>
    }
  }
  cake.role "lag" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %true = arith.constant true
    %false = arith.constant false
    %t = cake.tiles (%m, %n) in (%M, %N) iter_args(%first = %true) -> (i1) {
      %more = arith.xori %first, %true : i1
      scf.if %more {
        %s = cake.pipe.wait %p : !cake.pipe<1>
        cake.pipe.release %p, %s : !cake.pipe<1>
      }
      cake.tiles.yield %false : i1
    }
    %ran = arith.xori %t, %true : i1
    scf.if %ran {
      %s = cake.pipe.wait %p : !cake.pipe<1>
      cake.pipe.release %p, %s : !cake.pipe<1>
    }
  }
}

// -----

// The same with the lagging wait under the first tile's branch: it runs
// once when the loop runs, against one commit per tile.
cake.kernel @trip_first_flag_wrong_branch(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [64, 64], group_m = 1>} {
  %a = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  // expected-error @+4 {{[sync.trip-count-mismatch] role "lag" waits 1 times on pipe #0 but role "make" commits tiles times on the path where the loop at line 1369 runs}}
  // expected-note @+4 {{producer role "make"}}
  // expected-note @+12 {{consumer role "lag"}}
  // expected-note @+1 {{hint: both roles must run the same loops}}
  %p = cake.pipe %a : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  cake.role "make" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %A, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<1>
      cake.tma.load %A[%m, %n] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<1>
    }
  }
  cake.role "lag" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %true = arith.constant true
    %false = arith.constant false
    %t = cake.tiles (%m, %n) in (%M, %N) iter_args(%first = %true) -> (i1) {
      scf.if %first {
        %s = cake.pipe.wait %p : !cake.pipe<1>
        cake.pipe.release %p, %s : !cake.pipe<1>
      }
      cake.tiles.yield %false : i1
    }
  }
}

// -----

// Near miss: a stage only smem.read reads (per-row values handed from one
// warpgroup to another) stays in the generic proxy; its hand-over needs
// no proxy fence.
cake.kernel @generic_handoff_unfenced(%C: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64, 1]>} {
  %o = cake.ring : !cake.ring<1 x 64x1xf32>
  %p = cake.pipe %o : !cake.ring<1 x 64x1xf32>
  cake.role "produce" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x1xf32>
    %s = cake.pipe.acquire %p : !cake.pipe<1>
    cake.smem.write %z -> %o[%s] : !cake.frag<64x1xf32> -> !cake.ring<1 x 64x1xf32>
    cake.pipe.commit %p, %s : !cake.pipe<1>
  }
  cake.role "consume" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %s = cake.pipe.wait %p : !cake.pipe<1>
    %v = cake.smem.read %o[%s] : !cake.ring<1 x 64x1xf32> -> !cake.frag<64x1xf32>
    cake.pipe.release %p, %s : !cake.pipe<1>
    cake.store %v -> %C[%c0, %c0] : !cake.frag<64x1xf32> -> !cake.global<?x?xf32>
  }
}
