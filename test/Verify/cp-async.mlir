// sync.fill-kind: a pipe's stages complete one way (TMA bytes, one
// cp.async arrival a producer thread, or one arrival a producer warp), the
// way its derived full count serves. The near miss is the KNN search over
// 100-column rows, every stage of both pipes filled by cake.cp_async.load.
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics
// RUN: mkdir -p %t
// RUN: python3 %cake_src/examples/knn/gen-knn.py %t --d 100 --wgs 1
// RUN: cake-opt --cake-verify %t/knn_search_bf16_d100_k10_w1_bn64_fused.cake.mlir -o /dev/null

// One stage filled by TMA (ring %a) and by cp.async pieces (ring %b).
cake.kernel @tma_and_threads(%A: !cake.global<?x64xbf16>, %B: !cake.global<?x100xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      // expected-note @+1 {{TMA copy into the same stage here}}
      cake.tma.load %A[%n, %c0] -> %a[%s] : !cake.global<?x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      // expected-error @+1 {{[sync.fill-kind] pipe #0: a stage is filled by TMA and by cp.async copies; they complete on the full barrier in different ways}}
      cake.cp_async.load %B[%n, %c0] -> %b[%s] : !cake.global<?x100xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warps(1) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// -----

// The first column slice by cp.async, the second by TMA, on one pipe.
cake.kernel @mixed_pipe(%A: !cake.global<?x128xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %N = cake.dim %A, 0 : !cake.global<?x128xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%n) in (%N) {
      %s0 = cake.pipe.acquire %p : !cake.pipe<2>
      // expected-error @+1 {{[sync.fill-kind] pipe #0's stages are filled by cp.async copies here and otherwise elsewhere: the full barrier's count is derived for one way}}
      cake.cp_async.load %A[%n, %c0] -> %a[%s0] : !cake.global<?x128xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s0 : !cake.pipe<2>
      %s1 = cake.pipe.acquire %p : !cake.pipe<2>
      // expected-note @+1 {{stage filled otherwise here}}
      cake.tma.load %A[%n, %c64] -> %a[%s1] : !cake.global<?x128xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s1 : !cake.pipe<2>
    }
  }
  cake.role "use" warps(1) {
    %N = cake.dim %A, 0 : !cake.global<?x128xbf16>
    cake.tiles (%n) in (%N) {
      %s0 = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s0 : !cake.pipe<2>
      %s1 = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s1 : !cake.pipe<2>
    }
  }
}
