// sync.fill-kind: a pipe's stages complete one way (TMA bytes, one
// cp.async arrival a producer thread, or one arrival a producer warp), the
// way its derived full count serves; never TMA and stores in one pipe.
// The near misses: the KNN search over 100-column rows, every stage of
// both pipes filled by cake.cp_async.load, and a stored tile in a pipe
// of its own beside a TMA pipe.
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

// -----

// One stage filled by TMA (ring %a) and by the producer's stores (ring
// %b): the phase completes on the copy's bytes, and nothing orders the
// stores before the consumer reads them.
cake.kernel @tma_and_stores(%A: !cake.global<?x64xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warpgroups(1) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    %z = cake.frag.zero : !cake.frag<64x64xbf16>
    cake.tiles (%n) in (%N) {
      // (sync.expect-tx-balance sees the stored ring get no copy, too.)
      // expected-error @+2 {{[sync.expect-tx-balance] the stage of pipe #0 acquired here gets 0 copies into ring #1}}
      // expected-note @+1 {{hint: load every ring of the pipe once per stage}}
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      // expected-note @+1 {{TMA copy into the pipe here}}
      cake.tma.load %A[%n, %c0] -> %a[%s] : !cake.global<?x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      // expected-error @+2 {{[sync.fill-kind] pipe #0's stages are filled by stores here and by TMA copies (in this stage or another): the full barrier completes on the copies' bytes or on the producer's arrivals, not both}}
      // expected-note @+1 {{hint: give the stored tiles a pipe of their own}}
      cake.smem.write %z -> %b[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      %x = cake.smem.read %b[%s] : !cake.ring<2 x 64x64xbf16, swizzle = 128> -> !cake.frag<64x64xbf16>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// -----

// Near miss: the stored tile in a pipe of its own, beside the TMA pipe.
cake.kernel @tma_beside_stores(%A: !cake.global<?x64xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %q = cake.pipe %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warpgroups(1) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    %c0 = arith.constant 0 : index
    %z = cake.frag.zero : !cake.frag<64x64xbf16>
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.tma.load %A[%n, %c0] -> %a[%s] : !cake.global<?x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<2>
      %u = cake.pipe.acquire %q : !cake.pipe<2>
      cake.smem.write %z -> %b[%u] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %q, %u : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %N = cake.dim %A, 0 : !cake.global<?x64xbf16>
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      %t = cake.pipe.wait %q : !cake.pipe<2>
      %x = cake.smem.read %a[%s] : !cake.ring<2 x 64x64xbf16, swizzle = 128> -> !cake.frag<64x64xbf16>
      %y = cake.smem.read %b[%t] : !cake.ring<2 x 64x64xbf16, swizzle = 128> -> !cake.frag<64x64xbf16>
      cake.pipe.release %p, %s : !cake.pipe<2>
      cake.pipe.release %q, %t : !cake.pipe<2>
    }
  }
}
