// A producer warpgroup writes a tile (zeros) through shared memory with
// ordinary stores, fences them for the async proxy, and a store warp copies
// the tile out with TMA. It is the pattern an epilogue through shared
// memory uses (cake-stage-epilogue writes it), and the seed the mutation
// harness drops the fence from. Lowered (test/Conversion/smem-write.mlir)
// and run on the H200 without a fault or hang (2026-11-30,
// bench/verify/run_bundles.py).
cake.kernel @epilogue_smem(%C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64, 64]>} {
  %o = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %o : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "produce" warpgroups(1) {
    %M = cake.dim %C, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %C, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %z = cake.frag.zero : !cake.frag<64x64xbf16>
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.smem.write %z -> %o[%s]
        : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "store" warps(1) {
    %M = cake.dim %C, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %C, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.tma.store %o[%s] -> %C[%m, %n]
        : !cake.ring<2 x 64x64xbf16, swizzle = 128> -> !cake.global<?x?xbf16>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}
