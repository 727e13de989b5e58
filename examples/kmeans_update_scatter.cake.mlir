// The k-means update's sums and counts in one pass over the points, by
// keyed reductions: every point's row is added to its cluster's row of
// Sums, and 1 to its cluster's count, by the memory system
// (`cake.scatter ... reduce sum`, red.global.add), so no sort, gather or
// work list comes first. Sums [K, 128] f32 and Counts [K, 1] i32 start at
// zero; the means are Sums / Counts (an empty cluster keeps its centroid).
//
// The decisions written here: one warpgroup a 64-point tile, the points
// read into registers in the accumulator layout and widened to f32, the
// assignments as one key a row (a point past N reads key -1, which
// writes nothing). What the compiler derives: each thread's addresses
// from its rows' keys and its columns, the predicates that skip keys
// outside [0, K) and the quad's copies of a count.
//
// Not yet run on a GPU (2026-12-05): the libkmeans update is still the
// counting sort of kmeans_update.cu and the sums of kmeans_sums.cake.mlir.
cake.kernel @kmeans_update_scatter(%X: !cake.global<?x128xbf16>,
                                   %Assign: !cake.global<?xi32>,
                                   %Sums: !cake.global<?x128xf32>,
                                   %Counts: !cake.global<?x1xi32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64]>} {
  cake.role "add" warpgroups(1) {
    %N = cake.dim %X, 0 : !cake.global<?x128xbf16>
    %c0 = arith.constant 0 : index
    %none = arith.constant -1 : i32
    %one = arith.constant 1 : i32
    cake.tiles (%m) in (%N) {
      %x = cake.load %X[%m, %c0]
        : !cake.global<?x128xbf16> -> !cake.frag<64x128xbf16>
      %xf = cake.frag.convert %x
        : !cake.frag<64x128xbf16> -> !cake.frag<64x128xf32>
      %key = cake.load %Assign[%m] pad %none
        : !cake.global<?xi32> -> !cake.frag<64x1xi32>
      cake.scatter %xf -> %Sums[%key, %c0] reduce sum
        : !cake.frag<64x128xf32>, !cake.frag<64x1xi32>
          -> !cake.global<?x128xf32>
      %ones = cake.frag.splat %one : !cake.frag<64x1xi32>
      cake.scatter %ones -> %Counts[%key, %c0] reduce sum
        : !cake.frag<64x1xi32>, !cake.frag<64x1xi32>
          -> !cake.global<?x1xi32>
    }
  }
}
