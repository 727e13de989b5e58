// The k-means update's last step, after kmeans_update_scatter: each
// cluster's new centroid is its Sums row divided by its count (an empty
// cluster keeps its old centroid), rounded to bf16, with its squared norm
// (for the next assignment) and the largest shift of any centroid (for
// the convergence test). It is the `finalize` of libs/kmeans's
// kmeans_update.cu in Cake IR: the same IEEE division and rounding.
//
// The decisions written here: one warpgroup a 64-cluster tile, the sums,
// counts and old centroids read into registers in the accumulator layout;
// the norms and shifts reduced along each row; the largest shift kept by
// a keyed max into one element (its f32 bits as an i32: non-negative
// floats order as their bit patterns), which MaxShift must hold 0 for
// before the launch. What the compiler derives: the broadcast of each
// row's count over its columns, the row reductions' shuffles, the one
// writer a quad for the shift.
//
// Not yet run on a GPU (2026-12-05).
cake.kernel @kmeans_update_finalize(%Sums: !cake.global<?x128xf32>,
                                    %Counts: !cake.global<?xi32>,
                                    %Old: !cake.global<?x128xbf16>,
                                    %New: !cake.global<?x128xbf16>,
                                    %Norms: !cake.global<?xf32>,
                                    %MaxShift: !cake.global<1x1xi32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64]>} {
  cake.role "mean" warpgroups(1) {
    %K = cake.dim %Old, 0 : !cake.global<?x128xbf16>
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0 : i32
    cake.tiles (%k) in (%K) {
      %sum = cake.load %Sums[%k, %c0]
        : !cake.global<?x128xf32> -> !cake.frag<64x128xf32>
      %count = cake.load %Counts[%k]
        : !cake.global<?xi32> -> !cake.frag<64x1xi32>
      %old16 = cake.load %Old[%k, %c0]
        : !cake.global<?x128xbf16> -> !cake.frag<64x128xbf16>
      %old = cake.frag.convert %old16
        : !cake.frag<64x128xbf16> -> !cake.frag<64x128xf32>
      %mean = cake.frag.map %sum, %count, %old
          : (!cake.frag<64x128xf32>, !cake.frag<64x1xi32>,
             !cake.frag<64x128xf32>) -> !cake.frag<64x128xf32> {
      ^bb0(%s: f32, %n: i32, %o: f32):
        %some = arith.cmpi sgt, %n, %zero : i32
        %nf = arith.sitofp %n : i32 to f32
        %m = arith.divf %s, %nf : f32
        %v = arith.select %some, %m, %o : f32
        cake.frag.yield %v : f32
      }
      %new16 = cake.frag.convert %mean
        : !cake.frag<64x128xf32> -> !cake.frag<64x128xbf16>
      cake.store %new16 -> %New[%k, %c0]
        : !cake.frag<64x128xbf16> -> !cake.global<?x128xbf16>
      %new = cake.frag.convert %new16
        : !cake.frag<64x128xbf16> -> !cake.frag<64x128xf32>
      %sq:2 = cake.frag.map %new, %old
          : (!cake.frag<64x128xf32>, !cake.frag<64x128xf32>)
          -> (!cake.frag<64x128xf32>, !cake.frag<64x128xf32>) {
      ^bb0(%v: f32, %o: f32):
        %vv = arith.mulf %v, %v : f32
        %d = arith.subf %v, %o : f32
        %dd = arith.mulf %d, %d : f32
        cake.frag.yield %vv, %dd : f32, f32
      }
      %norm = cake.frag.reduce sum %sq#0
        : !cake.frag<64x128xf32> -> !cake.frag<64x1xf32>
      cake.store %norm -> %Norms[%k]
        : !cake.frag<64x1xf32> -> !cake.global<?xf32>
      %shift2 = cake.frag.reduce sum %sq#1
        : !cake.frag<64x128xf32> -> !cake.frag<64x1xf32>
      %bits = cake.frag.map %shift2
          : (!cake.frag<64x1xf32>) -> !cake.frag<64x1xi32> {
      ^bb0(%s2: f32):
        %s = math.sqrt %s2 : f32
        %b = arith.bitcast %s : f32 to i32
        cake.frag.yield %b : i32
      }
      %first = cake.frag.splat %zero : !cake.frag<64x1xi32>
      cake.scatter %bits -> %MaxShift[%first, %c0] reduce max
        : !cake.frag<64x1xi32>, !cake.frag<64x1xi32> -> !cake.global<1x1xi32>
    }
  }
}
