// cake-derive: every derived value of a small warp-specialized kernel.
// RUN: cake-opt --cake-derive %s -split-input-file -verify-diagnostics | FileCheck %s

// 1 producer warp + 2 consumer warpgroups: the warpgroups start at warp 4
// (aligned), so the CTA has 12 warps = 384 threads and 65536 / 384 -> 168
// registers per thread at launch.
// CHECK-LABEL: cake.kernel @small
// CHECK-SAME: derived = #cake.kernel_layout<block = [384, 1, 1], baseline_regs = 168,
// Barriers first: pipe %p has 3 stages -> full at 0, empty at 24; then the
// 128-byte-swizzled rings aligned to 1024: A at 1024 (3 x 16 KiB), B at
// 50176; 50176 + 3 x 16 KiB = 99328, + 1024 bytes of base-alignment slack.
// CHECK-SAME: smem_bytes = 100352,
// CHECK-SAME: tma = [#cake.tma_descriptor<arg = 0, box = [128, 64], swizzle = 128>, #cake.tma_descriptor<arg = 1, box = [128, 64], swizzle = 128>]>
// CHECK: cake.ring {derived = #cake.ring_layout<offset = 1024, align = 1024>} : !cake.ring<3 x 128x64xbf16, swizzle = 128>
// CHECK: cake.ring {derived = #cake.ring_layout<offset = 50176, align = 1024>} : !cake.ring<3 x 128x64xbf16, swizzle = 128>
// One arrival (the producer's arrive.expect_tx) completes `full`, with the
// bytes of both tiles (16384 + 16384); one arrival per consumer warp (8) releases.
// CHECK: cake.pipe {{.*}} {derived = #cake.pipe_barriers<full = 0, empty = 24, full_count = 1, empty_count = 8, tx_bytes = 32768>}
// CHECK: cake.role "load" warps(1) attributes {derived = #cake.role_layout<first_warp = 0, lanes = one, setmaxnreg = none>}
// CHECK: cake.tiles {{.*}} attributes {derived = #cake.tile_extents<args = [0, 1], dims = [0, 0]>}
// CHECK: cake.pipe.acquire {{.*}} {derived = #cake.handoff<barrier = empty, parity = inverted_phase>}
// CHECK: cake.tma.load {{.*}} {derived = #cake.tma_copy<descriptor = 0>}
// CHECK: cake.tma.load {{.*}} {derived = #cake.tma_copy<descriptor = 1>}
// CHECK: cake.role "mma" warpgroups(2) regs(232) attributes {derived = #cake.role_layout<first_warp = 4, lanes = all, setmaxnreg = inc>}
// CHECK: cake.pipe.wait {{.*}} {derived = #cake.handoff<barrier = full, parity = phase>}
// 64 rows per warpgroup; n128 k16 instructions; 8 rows x 128 B between
// 8-row core-matrix groups; swizzle mode 1 = 128 B.
// CHECK: cake.mma wgmma {{.*}} {derived = #cake.wgmma_layout<wg_rows = 64, instr_n = 128, instr_k = 16, sbo = 1024, swizzle_mode = 1>}
cake.kernel @small(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>, %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [128, 128], group_m = 4>} {
  %a = cake.ring : !cake.ring<3 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<3 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<3 x 128x64xbf16, swizzle = 128>, !cake.ring<3 x 128x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<3>
      cake.tma.load %A[%m, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<3 x 128x64xbf16, swizzle = 128>
      cake.tma.load %B[%n, %c0] -> %b[%s] : !cake.global<?x?xbf16> -> !cake.ring<3 x 128x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<3>
    }
  }
  cake.role "mma" warpgroups(2) regs(232) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %z = cake.frag.zero : !cake.frag<128x128xf32>
      %s = cake.pipe.wait %p : !cake.pipe<3>
      %r = cake.mma wgmma %a[%s], %b[%s], %z : !cake.ring<3 x 128x64xbf16, swizzle = 128>, !cake.ring<3 x 128x64xbf16, swizzle = 128>, !cake.frag<128x128xf32>
      cake.pipe.release %p, %s : !cake.pipe<3>
    }
  }
}

// -----

// A producer warpgroup that gives registers away: 40 < 168 -> dec.
// CHECK-LABEL: cake.kernel @dec
// CHECK: cake.role "load" warpgroups(1) regs(40) attributes {derived = #cake.role_layout<first_warp = 0, lanes = one, setmaxnreg = dec>}
// CHECK: cake.role "math" warpgroups(2) regs(168) attributes {derived = #cake.role_layout<first_warp = 4, lanes = all, setmaxnreg = none>}
cake.kernel @dec() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "load" warpgroups(1) regs(40) {}
  cake.role "math" warpgroups(2) regs(168) {
    %z = cake.frag.zero : !cake.frag<128x8xf32>
  }
}

// -----

// Four 4-stage rings of 128x64 bf16 (64 KiB each) do not fit 227 KiB.
// expected-error @+1 {{[resource.smem-capacity] barriers and rings need 263168 bytes of shared memory (with alignment), more than the 232448 a CTA of sm_90a can have}}
cake.kernel @too_big() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-note @+1 {{ring of 65536 bytes}}
  %a = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  // expected-note @+1 {{ring of 65536 bytes}}
  %b = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  // expected-note @+1 {{ring of 65536 bytes}}
  %c = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  // expected-note @+1 {{ring of 65536 bytes}}
  %d = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  cake.role "r" warps(1) {}
}

// -----

// wgmma reads 128-byte rows under 128-byte swizzle: a 32-wide bf16 tile
// (64-byte rows) cannot be described.
cake.kernel @short_rows() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x32xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "mma" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    // expected-error @+1 {{[hw.mma-smem-descriptor] wgmma operands must be K-major rows that span exactly the swizzle width; got 64-byte rows with swizzle 128}}
    %r = cake.mma wgmma %a[%s], %a[%s], %z : !cake.ring<2 x 64x32xbf16, swizzle = 128>, !cake.ring<2 x 64x32xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

// frag.row: a scratch per op after the rings (none here), 16-byte aligned,
// its row's bytes long; one named barrier per role with frag.row, after
// the kernel's explicit ids (2): role "a" gets 3, role "b" 4. 1280 bytes
// of scratch + 1024 of base-alignment slack.
// CHECK-LABEL: cake.kernel @rows
// CHECK-SAME: smem_bytes = 2304
// CHECK: cake.frag.row %{{.*}}[0] {derived = #cake.scratch<offset = 0, bytes = 512, barrier = 3>}
// CHECK: cake.frag.row %{{.*}}[63] {derived = #cake.scratch<offset = 512, bytes = 512, barrier = 3>}
// CHECK: cake.frag.row %{{.*}}[10] {derived = #cake.scratch<offset = 1024, bytes = 256, barrier = 4>}
cake.kernel @rows() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "a" warpgroups(1) {
    cake.barrier.sync id(2) threads(128)
    %z = cake.frag.zero : !cake.frag<64x128xf32>
    %r = cake.frag.row %z[0] : !cake.frag<64x128xf32> -> !cake.frag<1x128xf32>
    %r2 = cake.frag.row %z[63] : !cake.frag<64x128xf32> -> !cake.frag<1x128xf32>
  }
  cake.role "b" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    %r = cake.frag.row %z[10] : !cake.frag<64x64xf32> -> !cake.frag<1x64xf32>
  }
}

// -----

// [sync.named-barrier] the derived id would be 16: a CTA has ids 0..15.
cake.kernel @rows_past_ids() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-error @-1 {{[sync.named-barrier] the kernel's named barriers (cake.barrier.sync ids and one per role with frag.row, frag.scan down, frag.tril_inverse, smem.reduce, a shared top-k list or topk.admits) reach id 16, past the 15 a CTA of sm_90a has}}
  cake.role "a" warpgroups(1) {
    cake.barrier.sync id(15) threads(128)
    %z = cake.frag.zero : !cake.frag<64x128xf32>
    %r = cake.frag.row %z[0] : !cake.frag<64x128xf32> -> !cake.frag<1x128xf32>
  }
}

// -----

// frag.scan down: a row of column totals per warp of the role (8 warps x
// 64 columns x 4 bytes = 2048), then frag.row's 256; both on the role's
// one derived barrier (1: no explicit ids). 2304 + 1024 of slack.
// CHECK-LABEL: cake.kernel @scan_down
// CHECK-SAME: smem_bytes = 3328
// CHECK: cake.frag.scan sum %{{.*}} down {derived = #cake.scratch<offset = 0, bytes = 2048, barrier = 1>}
// CHECK: cake.frag.row %{{.*}}[127] {derived = #cake.scratch<offset = 2048, bytes = 256, barrier = 1>}
cake.kernel @scan_down() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  cake.role "g" warpgroups(2) {
    %z = cake.frag.zero : !cake.frag<128x64xf32>
    %s = cake.frag.scan sum %z down : !cake.frag<128x64xf32>
    %r = cake.frag.row %s[127] : !cake.frag<128x64xf32> -> !cake.frag<1x64xf32>
  }
}

// -----

// frag.tril_inverse: its matrix, 64 rows of 68 floats (17408 bytes), after
// frag.row's 256 and 16-byte aligned; both on the role's one derived
// barrier. 17664 + 1024 of slack.
// CHECK-LABEL: cake.kernel @tril_inverse
// CHECK-SAME: smem_bytes = 18688
// CHECK: cake.frag.row %{{.*}}[63] {derived = #cake.scratch<offset = 0, bytes = 256, barrier = 1>}
// CHECK: cake.frag.tril_inverse %{{.*}} {derived = #cake.scratch<offset = 256, bytes = 17408, barrier = 1>}
cake.kernel @tril_inverse() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "solve" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    %r = cake.frag.row %z[63] : !cake.frag<64x64xf32> -> !cake.frag<1x64xf32>
    %t = cake.frag.tril_inverse %z : !cake.frag<64x64xf32>
  }
}
