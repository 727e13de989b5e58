// sync.warpgroup-turn (cake-verify on kernels with cake.wg_order): a wait
// inside a turn must not need a stage the other warpgroups release only
// in their own turns. Under retire-late the turn spans the step's
// wgmmas up to the first op that reads one (warpgroupTurnEnd).
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics

// The tile holds a stage of %pa across the loop, and under retire-late
// the turn reaches the loop's wait on %pa: the other warpgroup, waiting
// for its turn, never releases the stage that wait needs refilled.
cake.kernel @held_across(%A: !cake.global<?x64xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128], group_m = 1>, cake.wg_order = true, cake.retire_late = true} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %pa = cake.pipe %a : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %pb = cake.pipe %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warpgroups(1) regs(40) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m) in (%N) {
      %s0 = cake.pipe.acquire %pa : !cake.pipe<2>
      cake.tma.load %A[%m, %c0] -> %a[%s0] : !cake.global<?x64xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %pa, %s0 : !cake.pipe<2>
      scf.for %k = %c0 to %N step %c128 {
        %s = cake.pipe.acquire %pa : !cake.pipe<2>
        cake.tma.load %A[%k, %c0] -> %a[%s] : !cake.global<?x64xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %pa, %s : !cake.pipe<2>
        %t = cake.pipe.acquire %pb : !cake.pipe<2>
        cake.tma.load %A[%k, %c0] -> %b[%t] : !cake.global<?x64xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %pb, %t : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warpgroups(2) regs(232) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m) in (%N) {
      %h = cake.pipe.wait %pa : !cake.pipe<2>
      %z = cake.frag.zero : !cake.frag<128x128xf32>
      scf.for %k = %c0 to %N step %c128 {
        %t = cake.pipe.wait %pb : !cake.pipe<2>
        // expected-note @+2 {{the turn starts at this wgmma}}
        // expected-note @+1 {{hint: release the pipe's stages before the chain's block, or lower without wg-order}}
        %s = cake.mma wgmma %a[%h], %b[%t], %z : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
        // expected-error @+1 {{[sync.warpgroup-turn] role "mma" would deadlock when its warpgroups take turns (wg-order): this wait is inside a turn, but the pipe holds a stage across the chain's block, which the other warpgroups release only in their own turns}}
        %u = cake.pipe.wait %pa : !cake.pipe<2>
        cake.pipe.release %pa, %u : !cake.pipe<2>
        cake.pipe.release %pb, %t : !cake.pipe<2>
        %x = cake.frag.reduce max %s : !cake.frag<128x128xf32> -> !cake.frag<128x1xf32>
      }
      cake.pipe.release %pa, %h : !cake.pipe<2>
    }
  }
}

// -----

// Near miss: without retire-late the turn ends at the chain's last wgmma,
// before the wait on %pa.
cake.kernel @held_across_turn_ends_first(%A: !cake.global<?x64xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128], group_m = 1>, cake.wg_order = true} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %pa = cake.pipe %a : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %pb = cake.pipe %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warpgroups(1) regs(40) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m) in (%N) {
      %s0 = cake.pipe.acquire %pa : !cake.pipe<2>
      cake.tma.load %A[%m, %c0] -> %a[%s0] : !cake.global<?x64xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %pa, %s0 : !cake.pipe<2>
      scf.for %k = %c0 to %N step %c128 {
        %s = cake.pipe.acquire %pa : !cake.pipe<2>
        cake.tma.load %A[%k, %c0] -> %a[%s] : !cake.global<?x64xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %pa, %s : !cake.pipe<2>
        %t = cake.pipe.acquire %pb : !cake.pipe<2>
        cake.tma.load %A[%k, %c0] -> %b[%t] : !cake.global<?x64xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %pb, %t : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warpgroups(2) regs(232) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m) in (%N) {
      %h = cake.pipe.wait %pa : !cake.pipe<2>
      %z = cake.frag.zero : !cake.frag<128x128xf32>
      scf.for %k = %c0 to %N step %c128 {
        %t = cake.pipe.wait %pb : !cake.pipe<2>
        %s = cake.mma wgmma %a[%h], %b[%t], %z : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
        %u = cake.pipe.wait %pa : !cake.pipe<2>
        cake.pipe.release %pa, %u : !cake.pipe<2>
        cake.pipe.release %pb, %t : !cake.pipe<2>
        %x = cake.frag.reduce max %s : !cake.frag<128x128xf32> -> !cake.frag<128x1xf32>
      }
      cake.pipe.release %pa, %h : !cake.pipe<2>
    }
  }
}

// -----

// Near miss: the tile's stage of %pa is released before the loop, so
// nothing is held across it; one wait per step on two stages.
cake.kernel @released_before_loop(%A: !cake.global<?x64xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128], group_m = 1>, cake.wg_order = true, cake.retire_late = true} {
  %a = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %pa = cake.pipe %a : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %pb = cake.pipe %b : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "load" warpgroups(1) regs(40) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m) in (%N) {
      %s0 = cake.pipe.acquire %pa : !cake.pipe<2>
      cake.tma.load %A[%m, %c0] -> %a[%s0] : !cake.global<?x64xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %pa, %s0 : !cake.pipe<2>
      scf.for %k = %c0 to %N step %c128 {
        %s = cake.pipe.acquire %pa : !cake.pipe<2>
        cake.tma.load %A[%k, %c0] -> %a[%s] : !cake.global<?x64xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %pa, %s : !cake.pipe<2>
        %t = cake.pipe.acquire %pb : !cake.pipe<2>
        cake.tma.load %A[%k, %c0] -> %b[%t] : !cake.global<?x64xbf16> -> !cake.ring<2 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %pb, %t : !cake.pipe<2>
      }
    }
  }
  cake.role "mma" warpgroups(2) regs(232) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    cake.tiles (%m) in (%N) {
      %h = cake.pipe.wait %pa : !cake.pipe<2>
      cake.pipe.release %pa, %h : !cake.pipe<2>
      %z = cake.frag.zero : !cake.frag<128x128xf32>
      scf.for %k = %c0 to %N step %c128 {
        %t = cake.pipe.wait %pb : !cake.pipe<2>
        %s = cake.mma wgmma %b[%t], %b[%t], %z : !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
        %u = cake.pipe.wait %pa : !cake.pipe<2>
        cake.pipe.release %pa, %u : !cake.pipe<2>
        cake.pipe.release %pb, %t : !cake.pipe<2>
        %x = cake.frag.reduce max %s : !cake.frag<128x128xf32> -> !cake.frag<128x1xf32>
      }
    }
  }
}
