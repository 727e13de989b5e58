// A reduce store: a copy role streams 128 x 32 f32 boxes of In into a ring
// by TMA, a store role adds each stage into the same box of Out with a TMA
// reduce-sum store (cp.reduce.async.bulk.tensor .add, performed at L2):
// Out += In, with no atomics on the SMs. The building block for partial
// sums that meet in global memory (a split reduction dimension, the long
// segments of a sorted k-means update). `cake-run --check add` checks it
// bit for bit.
cake.kernel @tma_reduce_add_f32(%In: !cake.global<?x?xf32>, %Out: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 32], group_m = 1>} {
  %r = cake.ring : !cake.ring<4 x 128x32xf32, swizzle = 128>
  %p = cake.pipe %r : !cake.ring<4 x 128x32xf32, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xf32>
    %N = cake.dim %In, 1 : !cake.global<?x?xf32>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<4>
      cake.tma.load %In[%m, %n] -> %r[%s] : !cake.global<?x?xf32> -> !cake.ring<4 x 128x32xf32, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<4>
    }
  }
  cake.role "store" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xf32>
    %N = cake.dim %In, 1 : !cake.global<?x?xf32>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.wait %p : !cake.pipe<4>
      cake.tma.store %r[%s] -> %Out[%m, %n] reduce sum : !cake.ring<4 x 128x32xf32, swizzle = 128> -> !cake.global<?x?xf32>
      cake.pipe.release %p, %s : !cake.pipe<4>
    }
  }
}
