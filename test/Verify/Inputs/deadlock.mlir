// A consumer that waits for 3 stages of a 2-stage pipe before releasing
// any: the producer can never fill the third. Used by
// diagnostics-json.test.

// The kernel is on line 6.
cake.kernel @deadlock() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s0 = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s0 : !cake.pipe<2>
    %s1 = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s1 : !cake.pipe<2>
    %s2 = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s2 : !cake.pipe<2>
  }
  cake.role "use" warpgroups(1) {
    %s0 = cake.pipe.wait %p : !cake.pipe<2>
    %s1 = cake.pipe.wait %p : !cake.pipe<2>
    %s2 = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s0 : !cake.pipe<2>
    cake.pipe.release %p, %s1 : !cake.pipe<2>
    cake.pipe.release %p, %s2 : !cake.pipe<2>
  }
}
