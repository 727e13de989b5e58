// dataflow.shared-code: a role that runs another role's code.
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics

// The near miss: "h1" differs from "h0" in its constant (the column
// block it loads) and in its pipe and ring only.
cake.kernel @shares(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %O: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "h0" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 0 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p0 : !cake.pipe<2>
      cake.smem.write %y -> %a0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p0, %s : !cake.pipe<2>
    }
  }
  cake.role "h1" warpgroups(1) regs(168) shares_code_with("h0") {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 64 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p1 : !cake.pipe<2>
      cake.smem.write %y -> %a1[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p1, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%M) {
      %s0 = cake.pipe.wait %p0 : !cake.pipe<2>
      %s1 = cake.pipe.wait %p1 : !cake.pipe<2>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %r = cake.mma wgmma %a0[%s0], %a1[%s1], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.store %r -> %O[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
      cake.pipe.release %p0, %s0 : !cake.pipe<2>
      cake.pipe.release %p1, %s1 : !cake.pipe<2>
    }
  }
}

// -----

// No role of that name.
cake.kernel @no_leader(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %O: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "h0" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 0 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p0 : !cake.pipe<2>
      cake.smem.write %y -> %a0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p0, %s : !cake.pipe<2>
    }
  }
  // expected-error @+1 {{[dataflow.shared-code] role "h1" shares the code of no role of this kernel named 'g0'}}
  cake.role "h1" warpgroups(1) regs(168) shares_code_with("g0") {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 64 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p1 : !cake.pipe<2>
      cake.smem.write %y -> %a1[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p1, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%M) {
      %s0 = cake.pipe.wait %p0 : !cake.pipe<2>
      %s1 = cake.pipe.wait %p1 : !cake.pipe<2>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %r = cake.mma wgmma %a0[%s0], %a1[%s1], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.store %r -> %O[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
      cake.pipe.release %p0, %s0 : !cake.pipe<2>
      cake.pipe.release %p1, %s1 : !cake.pipe<2>
    }
  }
}

// -----

// A chain: "h1" names a role that runs another's code itself.
cake.kernel @chain(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %O: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-error @+1 {{[dataflow.shared-code] role "h0" shares the code of role "h1", which runs another role's code itself}}
  cake.role "h0" warpgroups(1) regs(168) shares_code_with("h1") {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 0 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p0 : !cake.pipe<2>
      cake.smem.write %y -> %a0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p0, %s : !cake.pipe<2>
    }
  }
  // expected-error @+1 {{[dataflow.shared-code] role "h1" shares the code of itself}}
  cake.role "h1" warpgroups(1) regs(168) shares_code_with("h1") {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 64 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p1 : !cake.pipe<2>
      cake.smem.write %y -> %a1[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p1, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%M) {
      %s0 = cake.pipe.wait %p0 : !cake.pipe<2>
      %s1 = cake.pipe.wait %p1 : !cake.pipe<2>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %r = cake.mma wgmma %a0[%s0], %a1[%s1], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.store %r -> %O[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
      cake.pipe.release %p0, %s0 : !cake.pipe<2>
      cake.pipe.release %p1, %s1 : !cake.pipe<2>
    }
  }
}

// -----

// Its registers differ from the leader's.
cake.kernel @other_regs(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %O: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "h0" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 0 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p0 : !cake.pipe<2>
      cake.smem.write %y -> %a0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p0, %s : !cake.pipe<2>
    }
  }
  // expected-error @+2 {{[dataflow.shared-code] role "h1" shares the code of role "h0" but its warps or registers differ}}
  // expected-note @+1 {{hint: change only constants and which pipes and rings the body uses}}
  cake.role "h1" warpgroups(1) regs(160) shares_code_with("h0") {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 64 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p1 : !cake.pipe<2>
      cake.smem.write %y -> %a1[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p1, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%M) {
      %s0 = cake.pipe.wait %p0 : !cake.pipe<2>
      %s1 = cake.pipe.wait %p1 : !cake.pipe<2>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %r = cake.mma wgmma %a0[%s0], %a1[%s1], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.store %r -> %O[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
      cake.pipe.release %p0, %s0 : !cake.pipe<2>
      cake.pipe.release %p1, %s1 : !cake.pipe<2>
    }
  }
}

// -----

// It loads another tensor: of the values from outside, only pipes and
// rings may differ.
cake.kernel @other_tensor(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %O: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "h0" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 0 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p0 : !cake.pipe<2>
      cake.smem.write %y -> %a0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p0, %s : !cake.pipe<2>
    }
  }
  // expected-note @+1 {{hint: change only constants and which pipes and rings the body uses}}
  cake.role "h1" warpgroups(1) regs(168) shares_code_with("h0") {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 64 : index
      // expected-error @+1 {{[dataflow.shared-code] role "h1" shares the code of role "h0" but operand #0 differs, and only pipes and rings of the same type may}}
      %x = cake.load %B[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p1 : !cake.pipe<2>
      cake.smem.write %y -> %a1[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p1, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%M) {
      %s0 = cake.pipe.wait %p0 : !cake.pipe<2>
      %s1 = cake.pipe.wait %p1 : !cake.pipe<2>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %r = cake.mma wgmma %a0[%s0], %a1[%s1], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.store %r -> %O[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
      cake.pipe.release %p0, %s0 : !cake.pipe<2>
      cake.pipe.release %p1, %s1 : !cake.pipe<2>
    }
  }
}

// -----

// An op differs.
cake.kernel @other_op(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %O: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "h0" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 0 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p0 : !cake.pipe<2>
      cake.smem.write %y -> %a0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p0, %s : !cake.pipe<2>
    }
  }
  // expected-note @+1 {{hint: change only constants and which pipes and rings the body uses}}
  cake.role "h1" warpgroups(1) regs(168) shares_code_with("h0") {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 64 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        // expected-error @+1 {{[dataflow.shared-code] role "h1" shares the code of role "h0" but 'arith.mulf' stands where that role has 'arith.addf'}}
        %w = arith.mulf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p1 : !cake.pipe<2>
      cake.smem.write %y -> %a1[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p1, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%M) {
      %s0 = cake.pipe.wait %p0 : !cake.pipe<2>
      %s1 = cake.pipe.wait %p1 : !cake.pipe<2>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %r = cake.mma wgmma %a0[%s0], %a1[%s1], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.store %r -> %O[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
      cake.pipe.release %p0, %s0 : !cake.pipe<2>
      cake.pipe.release %p1, %s1 : !cake.pipe<2>
    }
  }
}

// -----

// A constant inside a fragment op's body differs: that body is emitted per
// element, the same for every role (the value comes from outside instead).
cake.kernel @const_in_map(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %O: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "h0" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 0 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %k = arith.constant 1.0 : bf16
        %w = arith.addf %v, %k : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p0 : !cake.pipe<2>
      cake.smem.write %y -> %a0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p0, %s : !cake.pipe<2>
    }
  }
  // expected-note @+1 {{hint: change only constants and which pipes and rings the body uses}}
  cake.role "h1" warpgroups(1) regs(168) shares_code_with("h0") {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 64 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        // expected-error @+1 {{[dataflow.shared-code] role "h1" shares the code of role "h0" but a constant inside 'cake.frag.map' differs; define it in the role and use it there}}
        %k = arith.constant 2.0 : bf16
        %w = arith.addf %v, %k : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p1 : !cake.pipe<2>
      cake.smem.write %y -> %a1[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p1, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%M) {
      %s0 = cake.pipe.wait %p0 : !cake.pipe<2>
      %s1 = cake.pipe.wait %p1 : !cake.pipe<2>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %r = cake.mma wgmma %a0[%s0], %a1[%s1], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.store %r -> %O[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
      cake.pipe.release %p0, %s0 : !cake.pipe<2>
      cake.pipe.release %p1, %s1 : !cake.pipe<2>
    }
  }
}

// -----

// It writes the leader's ring through its own pipe's stage: the pairing of
// rings with pipes differs (and dataflow.write-outside-acquire sees the
// ring outside the pipe).
cake.kernel @ring_pairing(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %O: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "h0" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 0 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      %s = cake.pipe.acquire %p0 : !cake.pipe<2>
      cake.smem.write %y -> %a0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p0, %s : !cake.pipe<2>
    }
  }
  // expected-note @+1 {{hint: change only constants and which pipes and rings the body uses}}
  cake.role "h1" warpgroups(1) regs(168) shares_code_with("h0") {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 64 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %w = arith.addf %v, %v : bf16
        cake.frag.yield %w : bf16
      }
      // expected-note @+1 {{stage taken here}}
      %s = cake.pipe.acquire %p1 : !cake.pipe<2>
      // expected-error @+2 {{[dataflow.shared-code] role "h1" shares the code of role "h0" but operand #1 pairs that role's ring with another ring than its other uses do}}
      // expected-error @+1 {{[dataflow.write-outside-acquire] writes ring #0 through a stage of pipe #1, which does not hold that ring}}
      cake.smem.write %y -> %a0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p1, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%M) {
      %s0 = cake.pipe.wait %p0 : !cake.pipe<2>
      %s1 = cake.pipe.wait %p1 : !cake.pipe<2>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %r = cake.mma wgmma %a0[%s0], %a1[%s1], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.store %r -> %O[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
      cake.pipe.release %p0, %s0 : !cake.pipe<2>
      cake.pipe.release %p1, %s1 : !cake.pipe<2>
    }
  }
}

// -----

// The paired pipes hand off differently: "use" reads %a0 by smem.read
// (every thread arrives) and %a1 by wgmma (a warp's leader arrives), so
// the one body's commits cannot suit both.
cake.kernel @handoff_kinds(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %O: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a0 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p0 = cake.pipe %a0 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %a1 = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p1 = cake.pipe %a1 : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "h0" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 0 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %s = cake.pipe.acquire %p0 : !cake.pipe<2>
      cake.smem.write %x -> %a0[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p0, %s : !cake.pipe<2>
    }
  }
  // expected-note @+1 {{hint: change only constants and which pipes and rings the body uses}}
  cake.role "h1" warpgroups(1) regs(168) shares_code_with("h0") {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      %c = arith.constant 64 : index
      %x = cake.load %A[%m, %c] : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      // expected-error @+1 {{[dataflow.shared-code] role "h1" shares the code of role "h0" but operand #0 is not a thread hand-off (filled by smem.write, read by smem.read or smem.reduce) where that role's pipe is: the shared body cannot arrive both ways}}
      %s = cake.pipe.acquire %p1 : !cake.pipe<2>
      cake.smem.write %x -> %a1[%s] : !cake.frag<64x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.pipe.commit %p1, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) regs(168) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%M) {
      %s0 = cake.pipe.wait %p0 : !cake.pipe<2>
      %s1 = cake.pipe.wait %p1 : !cake.pipe<2>
      %v = cake.smem.read %a0[%s0] : !cake.ring<2 x 64x64xbf16, swizzle = 128> -> !cake.frag<64x64xbf16>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %r = cake.mma wgmma %a1[%s1], %a1[%s1], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.store %r -> %O[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
      cake.store %v -> %B[%m, %c0] : !cake.frag<64x64xbf16> -> !cake.global<?x?xbf16>
      cake.pipe.release %p0, %s0 : !cake.pipe<2>
      cake.pipe.release %p1, %s1 : !cake.pipe<2>
    }
  }
}
