// A tile copy bounded by a per-tile row count read from a work list (a
// sequence ending inside the tile): test/Conversion/rows-bound.test.
cake.kernel @rows_bound(%X: !cake.global<?x?xbf16>, %Y: !cake.global<?x?xbf16>, %E: !cake.global<?xi32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64, 64]>} {
  cake.role "r" warpgroups(1) {
    %M = cake.dim %X, 0 : !cake.global<?x?xbf16>
    %N = cake.dim %X, 1 : !cake.global<?x?xbf16>
    cake.tiles (%m, %n) in (%M, %N) {
      %left = cake.scalar.load %E[%m] : !cake.global<?xi32>
      %v = cake.load %X[%m, %n] rows %left : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      cake.store %v -> %Y[%m, %n] rows %left : !cake.frag<64x64xbf16> -> !cake.global<?x?xbf16>
    }
  }
}
