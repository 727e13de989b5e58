// Round trip of every Cake op: print, re-parse, print again.
// RUN: cake-opt %s | cake-opt | FileCheck %s

// CHECK-LABEL: cake.kernel @structure
// CHECK-SAME: (%[[A:.*]]: !cake.global<?x?xbf16>, %[[B:.*]]: !cake.global<?x?xbf16>, %[[C:.*]]: !cake.global<?x?xbf16>)
// CHECK-SAME: schedule = #cake.persistent<tile = [128, 256], group_m = 8>
// CHECK-SAME: target = #cake.target<"sm_90a">
// CHECK: %[[RA:.*]] = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
// CHECK: %[[RB:.*]] = cake.ring : !cake.ring<4 x 256x64xbf16, swizzle = 128>
// CHECK: %[[P:.*]] = cake.pipe %[[RA]], %[[RB]] : !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.ring<4 x 256x64xbf16, swizzle = 128>
// CHECK: cake.role "load" warpgroups(1) regs(40) {
// CHECK: %[[M:.*]] = cake.dim %[[A]], 0 : !cake.global<?x?xbf16>
// CHECK: cake.tiles (%[[TM:.*]], %[[TN:.*]]) in (%[[M]], %{{.*}}) {
// CHECK: %[[S:.*]] = cake.pipe.acquire %[[P]] : !cake.pipe<4>
// CHECK: cake.tma.load %[[A]][%[[TM]], %{{.*}}] -> %[[RA]][%[[S]]] : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
// CHECK: cake.pipe.commit %[[P]], %[[S]] : !cake.pipe<4>
// CHECK: cake.role "mma" warpgroups(2) regs(232) {
// CHECK: %[[W:.*]] = cake.pipe.wait %[[P]] : !cake.pipe<4>
// CHECK: cake.mma wgmma %[[RA]][%[[W]]], %[[RB]][%[[W]]], %{{.*}} : !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.ring<4 x 256x64xbf16, swizzle = 128>, !cake.frag<128x256xf32>
// CHECK: cake.pipe.release %[[P]], %[[W]] : !cake.pipe<4>
// CHECK: cake.frag.convert %{{.*}} : !cake.frag<128x256xf32> -> !cake.frag<128x256xbf16>
// CHECK: cake.store %{{.*}} -> %[[C]][%{{.*}}, %{{.*}}] : !cake.frag<128x256xbf16> -> !cake.global<?x?xbf16>
cake.kernel @structure(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                       %C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 256], group_m = 8>} {
  %a = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<4 x 256x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
                          !cake.ring<4 x 256x64xbf16, swizzle = 128>
  cake.role "load" warpgroups(1) regs(40) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<4>
      cake.tma.load %A[%m, %c0] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
      cake.tma.load %B[%n, %c0] -> %b[%s] : !cake.global<?x?xbf16> -> !cake.ring<4 x 256x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<4>
    }
  }
  cake.role "mma" warpgroups(2) regs(232) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %B, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %z = cake.frag.zero : !cake.frag<128x256xf32>
      %s = cake.pipe.wait %p : !cake.pipe<4>
      %r = cake.mma wgmma %a[%s], %b[%s], %z : !cake.ring<4 x 128x64xbf16, swizzle = 128>, !cake.ring<4 x 256x64xbf16, swizzle = 128>, !cake.frag<128x256xf32>
      cake.pipe.release %p, %s : !cake.pipe<4>
      %o = cake.frag.convert %r : !cake.frag<128x256xf32> -> !cake.frag<128x256xbf16>
      cake.store %o -> %C[%m, %n] : !cake.frag<128x256xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// CHECK-LABEL: cake.kernel @fragments
// CHECK: %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: cake.frag.splat %[[INF]] : !cake.frag<64x1xf32>
// CHECK: cake.load %{{.*}}[%{{.*}}] pad %[[INF]] : !cake.global<?xf32> -> !cake.frag<1x64xf32>
// CHECK: cake.load %{{.*}}[%{{.*}}] : !cake.global<?xf32> -> !cake.frag<64xf32>
// CHECK: cake.frag.map %{{.*}}, %{{.*}} : (!cake.frag<64x64xf32>, !cake.frag<1x64xf32>) -> !cake.frag<64x64xf32> {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK: cake.frag.yield %{{.*}} : f32
// CHECK: cake.frag.reduce sum %{{.*}} : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>
// CHECK: cake.frag.reduce min %{{.*}} : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>
// CHECK: cake.frag.reduce max %{{.*}} : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>
// CHECK: cake.frag.scan sum %{{.*}} : !cake.frag<64x64xf32>
// CHECK: cake.frag.scan max %{{.*}} : !cake.frag<64x64xf32>
// CHECK: %{{.*}}, %{{.*}} = cake.frag.argmin %{{.*}} base %{{.*}} : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>, !cake.frag<64x1xi32>
// CHECK: cake.frag.argmin %{{.*}} : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>, !cake.frag<64x1xi64>
// CHECK: cake.frag.argmin %{{.*}} base %{{.*}} packed : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>, !cake.frag<64x1xi32>
cake.kernel @fragments(%X: !cake.global<?x64xf32>, %V: !cake.global<?xf32>,
                       %I: !cake.global<?xi32>)
    attributes {target = #cake.target<"sm_80">,
                schedule = #cake.grid<tile = [64]>} {
  cake.role "math" warps(4) {
    %N = cake.dim %X, 0 : !cake.global<?x64xf32>
    %c0 = arith.constant 0 : index
    %inf = arith.constant 0x7F800000 : f32
    cake.tiles (%m) in (%N) {
      %best = cake.frag.splat %inf : !cake.frag<64x1xf32>
      %x = cake.load %X[%m, %c0] : !cake.global<?x64xf32> -> !cake.frag<64x64xf32>
      %v = cake.load %V[%c0] pad %inf : !cake.global<?xf32> -> !cake.frag<1x64xf32>
      %v1 = cake.load %V[%c0] : !cake.global<?xf32> -> !cake.frag<64xf32>
      %d = cake.frag.map %x, %v : (!cake.frag<64x64xf32>, !cake.frag<1x64xf32>) -> !cake.frag<64x64xf32> {
      ^bb0(%a: f32, %b: f32):
        %s = arith.subf %a, %b : f32
        %q = arith.mulf %s, %s : f32
        cake.frag.yield %q : f32
      }
      %sum = cake.frag.reduce sum %d : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>
      %mn = cake.frag.reduce min %d : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>
      %mx = cake.frag.reduce max %d : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>
      %cs = cake.frag.scan sum %d : !cake.frag<64x64xf32>
      %cm = cake.frag.scan max %d : !cake.frag<64x64xf32>
      %val, %idx = cake.frag.argmin %d base %m : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>, !cake.frag<64x1xi32>
      %val2, %idx2 = cake.frag.argmin %d : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>, !cake.frag<64x1xi64>
      %val3, %idx3 = cake.frag.argmin %d base %m packed : !cake.frag<64x64xf32> -> !cake.frag<64x1xf32>, !cake.frag<64x1xi32>
      cake.store %sum -> %V[%m] : !cake.frag<64x1xf32> -> !cake.global<?xf32>
      cake.store %idx -> %I[%m] : !cake.frag<64x1xi32> -> !cake.global<?xi32>
    }
  }
}

// CHECK-LABEL: cake.kernel @epilogue_through_smem
// CHECK: cake.smem.write %{{.*}} -> %{{.*}}[%{{.*}}] : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
// CHECK-NEXT: cake.fence.proxy_async
// CHECK-NEXT: cake.tma.store %{{.*}}[%{{.*}}] -> %{{.*}}[%{{.*}}, %{{.*}}] : !cake.ring<1 x 64x64xbf16, swizzle = 128> -> !cake.global<?x?xbf16>
cake.kernel @epilogue_through_smem(%C: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64, 64]>} {
  %o = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %o : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  cake.role "produce" warpgroups(1) {
    %M = cake.dim %C, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %C, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %z = cake.frag.zero : !cake.frag<64x64xbf16>
      %s = cake.pipe.acquire %p : !cake.pipe<1>
      cake.smem.write %z -> %o[%s] : !cake.frag<64x64xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.fence.proxy_async
      cake.tma.store %o[%s] -> %C[%m, %n] : !cake.ring<1 x 64x64xbf16, swizzle = 128> -> !cake.global<?x?xbf16>
      cake.pipe.commit %p, %s : !cake.pipe<1>
    }
  }
  cake.role "drain" warps(1) {
    %M = cake.dim %C, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %C, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.wait %p : !cake.pipe<1>
      cake.pipe.release %p, %s : !cake.pipe<1>
    }
  }
}

// CHECK-LABEL: cake.kernel @tile_into_registers
// CHECK: cake.tma.load
// CHECK: %[[T:.*]] = cake.pipe.wait
// CHECK-NEXT: %{{.*}} = cake.smem.read %{{.*}}[%[[T]]] : !cake.ring<1 x 64x64xbf16, swizzle = 128> -> !cake.frag<64x64xbf16>
cake.kernel @tile_into_registers(%X: !cake.global<?x?xbf16>, %Y: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64, 64]>} {
  %x = cake.ring : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %x : !cake.ring<1 x 64x64xbf16, swizzle = 128>
  cake.role "r" warpgroups(1) {
    %M = cake.dim %X, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %X, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<1>
      cake.tma.load %X[%m, %n] -> %x[%s] : !cake.global<?x?xbf16> -> !cake.ring<1 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<1>
      %t = cake.pipe.wait %p : !cake.pipe<1>
      %v = cake.smem.read %x[%t] : !cake.ring<1 x 64x64xbf16, swizzle = 128> -> !cake.frag<64x64xbf16>
      cake.pipe.release %p, %t : !cake.pipe<1>
      cake.store %v -> %Y[%m, %n] : !cake.frag<64x64xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// CHECK-LABEL: cake.kernel @sequence_bounded_tiles
// CHECK: %[[K:.*]] = cake.load %{{.*}}[%{{.*}}, %{{.*}}] rows %[[LEFT:.*]] pad %{{.*}} : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
// CHECK: cake.store %[[K]] -> %{{.*}}[%{{.*}}, %{{.*}}] rows %[[LEFT]] : !cake.frag<64x64xbf16> -> !cake.global<?x?xbf16>
// CHECK: cake.store %[[K]] -> %{{.*}}[%{{.*}}, %{{.*}}] transposed rows %[[LEFT]] : !cake.frag<64x64xbf16> -> !cake.global<?x?xbf16>
// CHECK: cake.store %[[K]] -> %{{.*}}[%{{.*}}, %{{.*}}] every(16) rows %[[SEGS:.*]] : !cake.frag<64x64xbf16> -> !cake.global<?x?xbf16>
cake.kernel @sequence_bounded_tiles(%X: !cake.global<?x?xbf16>, %Y: !cake.global<?x?xbf16>, %E: !cake.global<?xi32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64, 64]>} {
  cake.role "r" warpgroups(1) {
    %M = cake.dim %X, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %X, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %end = cake.scalar.load %E[%m] : !cake.global<?xi32>
      %left = arith.subi %end, %m : index
      %zero = arith.constant 0.0 : bf16
      %v = cake.load %X[%m, %n] rows %left pad %zero : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      cake.store %v -> %Y[%m, %n] rows %left : !cake.frag<64x64xbf16> -> !cake.global<?x?xbf16>
      cake.store %v -> %Y[%m, %n] transposed rows %left : !cake.frag<64x64xbf16> -> !cake.global<?x?xbf16>
      // One row a 16-row segment: the box's rows are the segments.
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %up = arith.addi %left, %c15 : index
      %segs = arith.divui %up, %c16 : index
      %ms = arith.divui %m, %c16 : index
      cake.store %v -> %Y[%ms, %n] every(16) rows %segs : !cake.frag<64x64xbf16> -> !cake.global<?x?xbf16>
    }
  }
}

// CHECK-LABEL: cake.kernel @mma_families
// CHECK: cake.mma mma_sync
// CHECK: cake.mma tcgen05
// CHECK: cake.mma wgmma {{.*}} !cake.frag<64x64xi32>
cake.kernel @mma_families(%A: !cake.global<?x?xf16>, %Q: !cake.global<?x?xi8>)
    attributes {target = #cake.target<"sm_100a">,
                schedule = #cake.grid<tile = [64, 64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>
  %q = cake.ring : !cake.ring<2 x 64x128xi8, swizzle = 128>
  %p = cake.pipe %a, %q : !cake.ring<2 x 64x64xf16, swizzle = 128>, !cake.ring<2 x 64x128xi8, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "math" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    %r1 = cake.mma mma_sync %a[%s], %a[%s], %z : !cake.ring<2 x 64x64xf16, swizzle = 128>, !cake.ring<2 x 64x64xf16, swizzle = 128>, !cake.frag<64x64xf32>
    %r2 = cake.mma tcgen05 %a[%s], %a[%s], %r1 : !cake.ring<2 x 64x64xf16, swizzle = 128>, !cake.ring<2 x 64x64xf16, swizzle = 128>, !cake.frag<64x64xf32>
    %zi = cake.frag.zero : !cake.frag<64x64xi32>
    %r3 = cake.mma wgmma %q[%s], %q[%s], %zi : !cake.ring<2 x 64x128xi8, swizzle = 128>, !cake.ring<2 x 64x128xi8, swizzle = 128>, !cake.frag<64x64xi32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// A reduce store: the copy engine adds the tile into Out (split reductions).
// CHECK-LABEL: cake.kernel @tma_reduce_sum
// CHECK: cake.tma.store %{{.*}}[%{{.*}}] -> %{{.*}}[%{{.*}}, %{{.*}}] reduce sum : !cake.ring<2 x 128x32xf32, swizzle = 128> -> !cake.global<?x?xf32>
cake.kernel @tma_reduce_sum(%In: !cake.global<?x?xf32>, %Out: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 32], group_m = 1>} {
  %r = cake.ring : !cake.ring<2 x 128x32xf32, swizzle = 128>
  %p = cake.pipe %r : !cake.ring<2 x 128x32xf32, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xf32>
    %N = cake.dim %In, 1 : !cake.global<?x?xf32>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.tma.load %In[%m, %n] -> %r[%s] : !cake.global<?x?xf32> -> !cake.ring<2 x 128x32xf32, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "store" warps(1) {
    %M = cake.dim %In, 0 : !cake.global<?x?xf32>
    %N = cake.dim %In, 1 : !cake.global<?x?xf32>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.tma.store %r[%s] -> %Out[%m, %n] reduce sum : !cake.ring<2 x 128x32xf32, swizzle = 128> -> !cake.global<?x?xf32>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// A work-list entry as an index: a loop's bounds.
// CHECK-LABEL: cake.kernel @scalar_load
// CHECK: %[[LO:.*]] = cake.scalar.load %{{.*}}[%{{.*}}, %{{.*}}] : !cake.global<?x4xi32>
// CHECK: scf.for %{{.*}} = %[[LO]] to
cake.kernel @scalar_load(%W: !cake.global<?x4xi32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [1], group_m = 1>} {
  cake.role "r" warps(1) {
    %U = cake.dim %W, 0 : !cake.global<?x4xi32>
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    cake.tiles (%u) in (%U) {
      %lo = cake.scalar.load %W[%u, %c1] : !cake.global<?x4xi32>
      %hi = cake.scalar.load %W[%u, %c2] : !cake.global<?x4xi32>
      scf.for %i = %lo to %hi step %c1 {
      }
    }
  }
}

// wgmma with A from registers and an mn_major B (attention's O += P V).
// CHECK-LABEL: cake.kernel @register_a
// CHECK: %[[P:.*]] = cake.frag.convert
// CHECK: cake.mma wgmma %[[P]], %{{.*}}[%{{.*}}] mn_major, %{{.*}} : !cake.frag<64x64xbf16>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
cake.kernel @register_a() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %v = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %v : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    %pb = cake.frag.convert %z : !cake.frag<64x64xf32> -> !cake.frag<64x64xbf16>
    %r = cake.mma wgmma %pb, %v[%s] mn_major, %z : !cake.frag<64x64xbf16>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// frag.row: one row as a value per column.
// CHECK-LABEL: cake.kernel @frag_row
// CHECK: cake.frag.row %{{.*}}[63] : !cake.frag<64x128xf32> -> !cake.frag<1x128xf32>
// CHECK: cake.frag.scan sum %{{.*}} down : !cake.frag<64x128xf32>
// CHECK: cake.frag.scan max %{{.*}} : !cake.frag<64x128xf32>
// CHECK: cake.frag.scan sum %{{.*}} down segment(16) : !cake.frag<64x128xf32>
// CHECK: cake.frag.scan sum %{{.*}} down reverse segment(32) : !cake.frag<64x128xf32>
// CHECK: cake.frag.scan max %{{.*}} down reverse : !cake.frag<64x128xf32>
cake.kernel @frag_row() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "use" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x128xf32>
    %r = cake.frag.row %z[63] : !cake.frag<64x128xf32> -> !cake.frag<1x128xf32>
    %g = cake.frag.scan sum %z down : !cake.frag<64x128xf32>
    %h = cake.frag.scan max %z : !cake.frag<64x128xf32>
    %s = cake.frag.scan sum %z down segment(16) : !cake.frag<64x128xf32>
    %rs = cake.frag.scan sum %z down reverse segment(32) : !cake.frag<64x128xf32>
    %rm = cake.frag.scan max %z down reverse : !cake.frag<64x128xf32>
  }
}

// Both operands mn_major (C = Aᵀ · B over the tokens: a weight gradient,
// KDA's K̄ᵀ · V_new): A is K x M, `mn_major` after its stage.
// CHECK-LABEL: cake.kernel @both_mn_major
// CHECK: cake.mma wgmma %{{.*}}[%[[S:.*]]] mn_major, %{{.*}}[%[[S]]] mn_major, %{{.*}} : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
// CHECK: cake.mma wgmma %{{.*}}[%[[S]]] mn_major, %{{.*}}[%[[S]]], %{{.*}} : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
cake.kernel @both_mn_major() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %b = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %c = cake.ring : !cake.ring<2 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a, %b, %c : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>
  cake.role "use" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    %r = cake.mma wgmma %a[%s] mn_major, %b[%s] mn_major, %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    %z2 = cake.frag.zero : !cake.frag<64x128xf32>
    %r2 = cake.mma wgmma %a[%s] mn_major, %c[%s], %z2 : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 128x64xbf16, swizzle = 128>, !cake.frag<64x128xf32>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// A tile loop that carries values to the next tile (a rotated loop: each
// tile stores the previous tile's result, the last one after the loop).
// CHECK-LABEL: cake.kernel @tiles_carry
// CHECK: %[[R:[0-9]+]]:3 = cake.tiles (%[[M:[a-z0-9]+]]) in (%{{[0-9]+}}) iter_args(%{{[a-z0-9]+}} = %true, %[[O:[a-z0-9]+]] = %{{[0-9]+}}, %[[PM:[a-z0-9]+]] = %c0) -> (i1, !cake.frag<64x64xf32>, index) {
// CHECK: scf.if %{{.*}} {
// CHECK: cake.store %[[O]] -> %{{.*}}[%[[PM]], %c0]
// CHECK: cake.tiles.yield %false, %{{[0-9]+}}, %[[M]] : i1, !cake.frag<64x64xf32>, index
// CHECK: arith.xori %[[R]]#0, %true
// CHECK: cake.store %[[R]]#1 -> %{{.*}}[%[[R]]#2, %c0]
cake.kernel @tiles_carry(%Out: !cake.global<?x64xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [64], group_m = 1>} {
  cake.role "math" warpgroups(1) {
    %M = cake.dim %Out, 0 : !cake.global<?x64xf32>
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    %false = arith.constant false
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    %r:3 = cake.tiles (%m) in (%M) iter_args(%first = %true, %o = %z, %pm = %c0)
        -> (i1, !cake.frag<64x64xf32>, index) {
      %more = arith.xori %first, %true : i1
      scf.if %more {
        cake.store %o -> %Out[%pm, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x64xf32>
      }
      %rows = cake.frag.iota base %m : !cake.frag<64x1xi32>
      %v = cake.frag.map %z, %rows : (!cake.frag<64x64xf32>, !cake.frag<64x1xi32>) -> !cake.frag<64x64xf32> {
      ^bb0(%x: f32, %r: i32):
        %f = arith.uitofp %r : i32 to f32
        cake.frag.yield %f : f32
      }
      cake.tiles.yield %false, %v, %m : i1, !cake.frag<64x64xf32>, index
    }
    %ran = arith.xori %r#0, %true : i1
    scf.if %ran {
      cake.store %r#1 -> %Out[%r#2, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x64xf32>
    }
  }
}

// frag.tril_inverse: (I + strict_tril(L))⁻¹ of a 64 x 64 fp32 fragment;
// with `diagonal`, of its 16 x 16 diagonal blocks only.
// CHECK-LABEL: cake.kernel @tril_inverse
// CHECK: cake.frag.tril_inverse %{{.*}} : !cake.frag<64x64xf32>
// CHECK: cake.frag.tril_inverse %{{.*}} diagonal : !cake.frag<64x64xf32>
cake.kernel @tril_inverse() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "solve" warpgroups(1) {
    %z = cake.frag.zero : !cake.frag<64x64xf32>
    %t = cake.frag.tril_inverse %z : !cake.frag<64x64xf32>
    %d = cake.frag.tril_inverse %z diagonal : !cake.frag<64x64xf32>
  }
}

// scalar.load of an f32 tensor gives the f32 (a per-head parameter).
// CHECK-LABEL: cake.kernel @scalar_load_f32
// CHECK: %[[A:.*]] = cake.scalar.load %{{.*}}[%{{.*}}] : !cake.global<?xf32>
// CHECK: cake.frag.splat %[[A]] : !cake.frag<64x64xf32>
cake.kernel @scalar_load_f32(%A: !cake.global<?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %c0 = arith.constant 0 : index
    %a = cake.scalar.load %A[%c0] : !cake.global<?xf32>
    %f = cake.frag.splat %a : !cake.frag<64x64xf32>
  }
}

// A role that runs another role's code (dataflow.shared-code checks the
// bodies match).
// CHECK-LABEL: cake.kernel @shares_code_with
// CHECK: cake.role "a" warpgroups(1) regs(168) {
// CHECK: cake.role "b" warpgroups(1) regs(168) shares_code_with("a") {
// CHECK: arith.constant 64 : index
cake.kernel @shares_code_with() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "a" warpgroups(1) regs(168) {
    %c = arith.constant 0 : index
  }
  cake.role "b" warpgroups(1) regs(168) shares_code_with("a") {
    %c = arith.constant 64 : index
  }
}
