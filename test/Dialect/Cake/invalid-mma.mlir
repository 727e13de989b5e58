// cake.mma verifiers: operand shapes, dtypes and instruction granularity.
// RUN: cake-opt %s -split-input-file -verify-diagnostics

cake.kernel @k_mismatch() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x32xbf16, swizzle = 64>
  %p = cake.pipe %a, %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x32xbf16, swizzle = 64>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.mma-operands] expected A and B to share K, got A [64, 64] and B [64, 32]}}
    %r = cake.mma wgmma %a[%s], %b[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x32xbf16, swizzle = 64>, !cake.frag<64x64xf32>
  }
}

// -----

cake.kernel @acc_shape() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x128xf32>
    // expected-error @+1 {{expected an accumulator of shape [64, 64], got [64, 128]}}
    %r = cake.mma wgmma %a[%s], %a[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
  }
}

// -----

cake.kernel @acc_dtype() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xbf16>
    // expected-error @+1 {{[hw.wgmma-shape] 'bf16' operands cannot accumulate into 'bf16'}}
    %r = cake.mma wgmma %a[%s], %a[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xbf16>
  }
}

// -----

cake.kernel @ab_dtype() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{expected A and B element types to match, got 'bf16' and 'f16'}}
    %r = cake.mma wgmma %a[%s], %b[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xf16, swizzle = 128>, !cake.frag<64x64xf32>
  }
}

// -----

// wgmma issues M = 64 per warpgroup: a 32-row tile is not a whole instruction.
cake.kernel @wgmma_m() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 32x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 32x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<32x64xf32>
    // expected-error @+1 {{[hw.wgmma-shape] tile M=32 N=64 K=64 of 'bf16' is not a whole number of wgmma instructions (M a multiple of 64, N a multiple of 8, K a multiple of 16)}}
    %r = cake.mma wgmma %a[%s], %b[%s], %z : !cake.ring<2 x 32x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<32x64xf32>
  }
}

// -----

// K for 8-bit operands comes in steps of 32.
cake.kernel @wgmma_k_int8() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x16xi8, swizzle = 0>
  %p = cake.pipe %a : !cake.ring<2 x 64x16xi8, swizzle = 0>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xi32>
    // expected-error @+1 {{K a multiple of 32}}
    %r = cake.mma wgmma %a[%s], %a[%s], %z : !cake.ring<2 x 64x16xi8, swizzle = 0>, !cake.ring<2 x 64x16xi8, swizzle = 0>, !cake.frag<64x64xi32>
  }
}

// -----

cake.kernel @mma_sync_m() attributes {target = #cake.target<"sm_80">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 8x64xf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 8x64xf16, swizzle = 128>, !cake.ring<2 x 64x64xf16, swizzle = 128>
  cake.role "r" warps(4) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<8x64xf32>
    // expected-error @+1 {{[hw.mma-shape] tile M=8 N=64 K=64 of 'f16' is not a whole number of mma_sync instructions (M a multiple of 16}}
    %r = cake.mma mma_sync %a[%s], %b[%s], %z : !cake.ring<2 x 8x64xf16, swizzle = 128>, !cake.ring<2 x 64x64xf16, swizzle = 128>, !cake.frag<8x64xf32>
  }
}

// -----

cake.kernel @tcgen05_n() attributes {target = #cake.target<"sm_100a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 128x64xf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 24x64xf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 128x64xf16, swizzle = 128>, !cake.ring<2 x 24x64xf16, swizzle = 128>
  cake.role "r" warps(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<128x24xf32>
    // expected-error @+1 {{[hw.tcgen05-shape] tile M=128 N=24 K=64}}
    %r = cake.mma tcgen05 %a[%s], %b[%s], %z : !cake.ring<2 x 128x64xf16, swizzle = 128>, !cake.ring<2 x 24x64xf16, swizzle = 128>, !cake.frag<128x24xf32>
  }
}

// -----

cake.kernel @bad_kind() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [wgmma, mma_sync, tcgen05]}}
    %r = cake.mma hmma %a[%s], %a[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
  }
}

// -----

// wgmma's operand scale of -1 exists for f16 and bf16 operands only.
cake.kernel @negate_fp8() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x128xf8E4M3FN, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x128xf8E4M3FN, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.wgmma-shape] negate needs wgmma or mma_sync on f16 or bf16 operands, got wgmma on 'f8E4M3FN'}}
    %r = cake.mma wgmma negate %a[%s], %a[%s], %z : !cake.ring<2 x 64x128xf8E4M3FN, swizzle = 128>, !cake.ring<2 x 64x128xf8E4M3FN, swizzle = 128>, !cake.frag<64x64xf32>
  }
}

// -----

cake.kernel @negate_tcgen05() attributes {target = #cake.target<"sm_80">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warps(4) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.wgmma-shape] negate needs wgmma or mma_sync on f16 or bf16 operands, got tcgen05 on 'bf16'}}
    %r = cake.mma tcgen05 negate %a[%s], %a[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
  }
}

// -----

// [hw.wgmma-register-a]: A from registers only for wgmma on 16-bit types.
cake.kernel @rs_tf32() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %b = cake.ring : !cake.ring<2 x 64x32xf32, swizzle = 128>
  %p = cake.pipe %b : !cake.ring<2 x 64x32xf32, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %a = cake.frag.zero : !cake.frag<64x32xf32>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.wgmma-register-a] A from registers needs wgmma or mma_sync on f16 or bf16, got wgmma on 'f32'}}
    %r = cake.mma wgmma %a, %b[%s], %z : !cake.frag<64x32xf32>, !cake.ring<2 x 64x32xf32, swizzle = 128>, !cake.frag<64x64xf32>
  }
}

// -----

cake.kernel @rs_sync() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %a = cake.frag.zero : !cake.frag<64x64xbf16>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.wgmma-register-a] A from registers needs wgmma or mma_sync on f16 or bf16, got tcgen05 on 'bf16'}}
    %r = cake.mma tcgen05 %a, %b[%s], %z : !cake.frag<64x64xbf16>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
  }
}

// -----

// A fragment is not read through a stage; a ring is.
cake.kernel @rs_stage() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %a = cake.frag.zero : !cake.frag<64x64xbf16>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.mma-operands] A from registers (a fragment) takes no stage}}
    %r = cake.mma wgmma %a[%s], %b[%s], %z : !cake.frag<64x64xbf16>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
  }
}

// -----

cake.kernel @ss_nostage() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.mma-operands] A from a ring needs the stage it is read through}}
    %r = cake.mma wgmma %b, %b[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
  }
}

// -----

// [hw.wgmma-transpose]: an mn_major B only for 16-bit types.
cake.kernel @mn_tf32() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x32xf32, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 32x32xf32, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 64x32xf32, swizzle = 128>, !cake.ring<2 x 32x32xf32, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x32xf32>
    // expected-error @+1 {{[hw.wgmma-transpose] an mn_major B needs wgmma or mma_sync on f16 or bf16 (the transpose bit and ldmatrix.trans exist for 16-bit types only), got wgmma on 'f32'}}
    %r = cake.mma wgmma %a[%s], %b[%s] mn_major, %z : !cake.ring<2 x 64x32xf32, swizzle = 128>, !cake.ring<2 x 32x32xf32, swizzle = 128>, !cake.frag<64x32xf32>
  }
}

// -----

// An mn_major B is K x N: its rows are K's.
cake.kernel @mn_shape() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %b = cake.ring : !cake.ring<2 x 32x64xbf16, swizzle = 128>
  %p = cake.pipe %b : !cake.ring<2 x 32x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %a = cake.frag.zero : !cake.frag<64x64xbf16>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.mma-operands] expected A and B to share K, got A [64, 64] and B [32, 64] (mn_major: K x N)}}
    %r = cake.mma wgmma %a, %b[%s] mn_major, %z : !cake.frag<64x64xbf16>, !cake.ring<2 x 32x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
  }
}

// -----

// [hw.wgmma-transpose]: an mn_major A only for 16-bit types.
cake.kernel @mn_a_tf32() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 32x32xf32, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 32x32xf32, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 32x32xf32, swizzle = 128>, !cake.ring<2 x 32x32xf32, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<32x32xf32>
    // expected-error @+1 {{[hw.wgmma-transpose] an mn_major A needs wgmma or mma_sync on f16 or bf16 (the transpose bit and ldmatrix.trans exist for 16-bit types only), got wgmma on 'f32'}}
    %r = cake.mma wgmma %a[%s] mn_major, %b[%s], %z : !cake.ring<2 x 32x32xf32, swizzle = 128>, !cake.ring<2 x 32x32xf32, swizzle = 128>, !cake.frag<32x32xf32>
  }
}

// -----

// [hw.wgmma-transpose]: a register fragment A has no layout to choose.
cake.kernel @mn_a_registers() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %b : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %a = cake.frag.zero : !cake.frag<64x64xbf16>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.wgmma-transpose] mn_major describes how A is laid out in shared memory; a register fragment A has no such choice}}
    %r = cake.mma wgmma %a mn_major, %b[%s], %z : !cake.frag<64x64xbf16>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
  }
}

// -----

// An mn_major A is K x M: its rows are K's, its columns M's.
cake.kernel @mn_a_shape() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 32x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<2 x 32x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[dataflow.mma-operands] expected A and B to share K, got A [32, 64] (mn_major: K x M) and B [64, 64]}}
    %r = cake.mma wgmma %a[%s] mn_major, %b[%s], %z : !cake.ring<2 x 32x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
  }
}
