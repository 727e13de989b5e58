// The 128×256 GEMM of examples/gemm_ws_persistent.cake.mlir with its
// epilogue through shared memory, the TMA store issued by the load role.
//
// This is what `cake-opt --cake-stage-epilogue="into=load"
// --cake-set-stages="pipe=0 stages=3"` makes of gemm_ws_persistent, written
// out. cake-stage-epilogue without `into` adds a one-warp store role, which
// makes 416 threads:
// their launch baseline of 128 registers cannot hold a 64×256 accumulator
// for one wgmma (resource.fragment-registers). Here the load warpgroup,
// idle once its copies are issued, sends the tiles instead: in each tile
// iteration, after issuing the tile's loads, it waits for the previous
// tile's staged output and stores it with TMA. The store lags one tile
// behind, which the single staging stage allows: the consumers finish
// tile t's main loop (and need the stage back) only after the load role
// has issued all of tile t's copies and so the store of tile t - 1; the
// last tile's store follows the loop. Three ring stages leave room for
// the 64 KB stage (the store's box is 128×256 bf16, rows of 512 bytes,
// wider than any swizzle span, so the stage is unswizzled).
//
// The load role's waits on the staging pipe sit under the first-tile flag
// (every tile but the first) and after the loop (when it ran): once per
// tile in all, which sync.trip-count-mismatch proves, and sync.deadlock's
// simulation follows the flag iteration by iteration.
cake.kernel @gemm_bf16_128x256x64_s3_se(%A: !cake.global<?x?xbf16>,
                                        %B: !cake.global<?x?xbf16>,
                                        %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 256], group_m = 8>} {
  %a = cake.ring : !cake.ring<3 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<3 x 256x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<3 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<3 x 256x64xbf16, swizzle = 128>
  %o = cake.ring : !cake.ring<1 x 128x256xbf16>
  %po = cake.pipe %o : !cake.ring<1 x 128x256xbf16>

  cake.role "load" warpgroups(1) regs(40) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %true = arith.constant true
    %false = arith.constant false
    // The tile loop carries the first-tile flag and the previous corner.
    %t:3 = cake.tiles (%m, %n) in (%M, %N)
        iter_args(%first = %true, %pm = %c0, %pn = %c0) -> (i1, index, index) {
      scf.for %k = %c0 to %K step %c64 {
        %s = cake.pipe.acquire %p : !cake.pipe<3>
        cake.tma.load %A[%m, %k] -> %a[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<3 x 128x64xbf16, swizzle = 128>
        cake.tma.load %B[%n, %k] -> %b[%s]
          : !cake.global<?x?xbf16> -> !cake.ring<3 x 256x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<3>
      }
      // The previous tile's output, staged by the consumers meanwhile.
      %more = arith.xori %first, %true : i1
      scf.if %more {
        %so = cake.pipe.wait %po : !cake.pipe<1>
        cake.tma.store %o[%so] -> %C[%pm, %pn]
          : !cake.ring<1 x 128x256xbf16> -> !cake.global<?x?xbf16>
        cake.pipe.release %po, %so : !cake.pipe<1>
      }
      cake.tiles.yield %false, %m, %n : i1, index, index
    }
    // The CTA's last tile, when it had one.
    %ran = arith.xori %t#0, %true : i1
    scf.if %ran {
      %so = cake.pipe.wait %po : !cake.pipe<1>
      cake.tma.store %o[%so] -> %C[%t#1, %t#2]
        : !cake.ring<1 x 128x256xbf16> -> !cake.global<?x?xbf16>
      cake.pipe.release %po, %so : !cake.pipe<1>
    }
  }

  cake.role "mma" warpgroups(2) regs(232) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %zero = cake.frag.zero : !cake.frag<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero)
          -> (!cake.frag<128x256xf32>) {
        %s = cake.pipe.wait %p : !cake.pipe<3>
        %r = cake.mma wgmma %a[%s], %b[%s], %acc0
          : !cake.ring<3 x 128x64xbf16, swizzle = 128>,
            !cake.ring<3 x 256x64xbf16, swizzle = 128>, !cake.frag<128x256xf32>
        cake.pipe.release %p, %s : !cake.pipe<3>
        scf.yield %r : !cake.frag<128x256xf32>
      }
      %out = cake.frag.convert %acc
        : !cake.frag<128x256xf32> -> !cake.frag<128x256xbf16>
      %so = cake.pipe.acquire %po : !cake.pipe<1>
      cake.smem.write %out -> %o[%so]
        : !cake.frag<128x256xbf16> -> !cake.ring<1 x 128x256xbf16>
      cake.fence.proxy_async
      cake.pipe.commit %po, %so : !cake.pipe<1>
    }
  }
}
