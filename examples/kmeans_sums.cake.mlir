// The k-means centroid update's per-cluster sums, sorted form, on tensor
// cores. The runtime's counting sort writes the points sorted by cluster
// and transposed (XT, D x N, fp16), their sorted cluster keys (Keys, -1
// past the end) and a work list (Work, U x 4 i32): unit u sums the points
// [Work[u,1], Work[u,2]) (64-aligned chunks of the sorted order) into the
// 64-cluster tile that starts at Work[u,0]. A long segment (a skewed
// cluster) is split over several units, so it spreads over many CTAs.
//
// Per unit and tile of 128 features (the schedule tiles feature rows by work
// units): ST[d, k0 + j] += sum over the unit's points p of
// XT[d, p] * (Keys[p] == k0 + j), as wgmma (C = A * B^T, both K-major). A
// copy warp streams the XT chunks by TMA; a warpgroup builds the one-hot
// tile [cluster][point] once per chunk in registers (a frag.map of the
// tile's cluster indices, frag.iota, against the chunk's keys, which it
// loads four chunks ahead), writes it into a ring stage and fences it for
// the async proxy; two warpgroups sum, 64 feature rows each, from the same
// one-hot stage; a store warp adds the 128 x 64 result into ST with a TMA
// reduce-add store, where the units of one cluster tile meet. The loop
// bounds and the store's cluster coordinate are work-list entries
// (cake.scalar.load); every role loads the same entries, so the verifier
// proves the pipes' trip counts equal. ST must be zero before the launch.
//
// libs/kmeans/kernels/gen-kmeans-table.py derives the library's kernels from
// this one:
// bf16, and 64, 192 or 256 feature rows (1, 3 or 4 summing warpgroups,
// their register budgets). On the H200 (docs/benchmarks.md, k-means run
// 18) it takes 0.10 ms at 1M points x 128 features, about 55 % of the
// memory bandwidth; the whole update with the sort around it 0.35 ms.
cake.kernel @kmeans_sums(%XT: !cake.global<?x?xf16>, %Keys: !cake.global<?xi32>,
                         %Work: !cake.global<?x4xi32>, %ST: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128, 1], group_m = 1>} {
  %a = cake.ring : !cake.ring<4 x 128x64xf16, swizzle = 128>
  %h = cake.ring : !cake.ring<3 x 64x64xf16, swizzle = 128>
  %o = cake.ring : !cake.ring<2 x 128x64xf32, swizzle = 0>
  %pa = cake.pipe %a : !cake.ring<4 x 128x64xf16, swizzle = 128>
  %ph = cake.pipe %h : !cake.ring<3 x 64x64xf16, swizzle = 128>
  %po = cake.pipe %o : !cake.ring<2 x 128x64xf32, swizzle = 0>
  cake.role "load" warps(1) {
    %D = cake.dim %XT, 0 : !cake.global<?x?xf16>
    %U = cake.dim %Work, 0 : !cake.global<?x4xi32>
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%d, %u) in (%D, %U) {
      %begin = cake.scalar.load %Work[%u, %c1] : !cake.global<?x4xi32>
      %end = cake.scalar.load %Work[%u, %c2] : !cake.global<?x4xi32>
      scf.for %p = %begin to %end step %c64 {
        %s = cake.pipe.acquire %pa : !cake.pipe<4>
        cake.tma.load %XT[%d, %p] -> %a[%s] : !cake.global<?x?xf16> -> !cake.ring<4 x 128x64xf16, swizzle = 128>
        cake.pipe.commit %pa, %s : !cake.pipe<4>
      }
    }
  }
  cake.role "onehot" warpgroups(1) regs(128) {
    %D = cake.dim %XT, 0 : !cake.global<?x?xf16>
    %U = cake.dim %Work, 0 : !cake.global<?x4xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c192 = arith.constant 192 : index
    %c256 = arith.constant 256 : index
    %none = arith.constant -1 : i32
    cake.tiles (%d, %u) in (%D, %U) {
      %k0 = cake.scalar.load %Work[%u, %c0] : !cake.global<?x4xi32>
      %begin = cake.scalar.load %Work[%u, %c1] : !cake.global<?x4xi32>
      %end = cake.scalar.load %Work[%u, %c2] : !cake.global<?x4xi32>
      %rows = cake.frag.iota base %k0 : !cake.frag<64x1xi32>
      // The keys four chunks ahead are loaded while this chunk is built:
      // the builder's loop is otherwise one global round trip per chunk
      // (two ahead measured short of the latency on the H200).
      %p1 = arith.addi %begin, %c64 : index
      %p2 = arith.addi %begin, %c128 : index
      %p3 = arith.addi %begin, %c192 : index
      %q0 = cake.load %Keys[%begin] pad %none : !cake.global<?xi32> -> !cake.frag<1x64xi32>
      %q1 = cake.load %Keys[%p1] pad %none : !cake.global<?xi32> -> !cake.frag<1x64xi32>
      %q2 = cake.load %Keys[%p2] pad %none : !cake.global<?xi32> -> !cake.frag<1x64xi32>
      %q3 = cake.load %Keys[%p3] pad %none : !cake.global<?xi32> -> !cake.frag<1x64xi32>
      %r:4 = scf.for %p = %begin to %end step %c64
          iter_args(%keys = %q0, %n1 = %q1, %n2 = %q2, %n3 = %q3)
          -> (!cake.frag<1x64xi32>, !cake.frag<1x64xi32>, !cake.frag<1x64xi32>, !cake.frag<1x64xi32>) {
        %p4 = arith.addi %p, %c256 : index
        %n4 = cake.load %Keys[%p4] pad %none : !cake.global<?xi32> -> !cake.frag<1x64xi32>
        %oh = cake.frag.map %rows, %keys : (!cake.frag<64x1xi32>, !cake.frag<1x64xi32>) -> !cake.frag<64x64xf16> {
        ^bb0(%r: i32, %k: i32):
          %eq = arith.cmpi eq, %r, %k : i32
          %one = arith.constant 1.0 : f16
          %zero = arith.constant 0.0 : f16
          %v = arith.select %eq, %one, %zero : f16
          cake.frag.yield %v : f16
        }
        %sh = cake.pipe.acquire %ph : !cake.pipe<3>
        cake.smem.write %oh -> %h[%sh] : !cake.frag<64x64xf16> -> !cake.ring<3 x 64x64xf16, swizzle = 128>
        cake.fence.proxy_async
        cake.pipe.commit %ph, %sh : !cake.pipe<3>
        scf.yield %n1, %n2, %n3, %n4 : !cake.frag<1x64xi32>, !cake.frag<1x64xi32>, !cake.frag<1x64xi32>, !cake.frag<1x64xi32>
      }
    }
  }
  cake.role "sum" warpgroups(2) regs(80) {
    %D = cake.dim %XT, 0 : !cake.global<?x?xf16>
    %U = cake.dim %Work, 0 : !cake.global<?x4xi32>
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%d, %u) in (%D, %U) {
      %begin = cake.scalar.load %Work[%u, %c1] : !cake.global<?x4xi32>
      %end = cake.scalar.load %Work[%u, %c2] : !cake.global<?x4xi32>
      %acc0 = cake.frag.zero : !cake.frag<128x64xf32>
      %res = scf.for %p = %begin to %end step %c64 iter_args(%acc = %acc0) -> (!cake.frag<128x64xf32>) {
        %th = cake.pipe.wait %ph : !cake.pipe<3>
        %ta = cake.pipe.wait %pa : !cake.pipe<4>
        %acc2 = cake.mma wgmma %a[%ta], %h[%th], %acc
          : !cake.ring<4 x 128x64xf16, swizzle = 128>, !cake.ring<3 x 64x64xf16, swizzle = 128>, !cake.frag<128x64xf32>
        cake.pipe.release %pa, %ta : !cake.pipe<4>
        cake.pipe.release %ph, %th : !cake.pipe<3>
        scf.yield %acc2 : !cake.frag<128x64xf32>
      }
      %so = cake.pipe.acquire %po : !cake.pipe<2>
      cake.smem.write %res -> %o[%so] : !cake.frag<128x64xf32> -> !cake.ring<2 x 128x64xf32, swizzle = 0>
      cake.fence.proxy_async
      cake.pipe.commit %po, %so : !cake.pipe<2>
    }
  }
  cake.role "store" warps(1) {
    %D = cake.dim %XT, 0 : !cake.global<?x?xf16>
    %U = cake.dim %Work, 0 : !cake.global<?x4xi32>
    %c0 = arith.constant 0 : index
    cake.tiles (%d, %u) in (%D, %U) {
      %k0 = cake.scalar.load %Work[%u, %c0] : !cake.global<?x4xi32>
      %s = cake.pipe.wait %po : !cake.pipe<2>
      cake.tma.store %o[%s] -> %ST[%d, %k0] reduce sum : !cake.ring<2 x 128x64xf32, swizzle = 0> -> !cake.global<?x?xf32>
      cake.pipe.release %po, %s : !cake.pipe<2>
    }
  }
}
