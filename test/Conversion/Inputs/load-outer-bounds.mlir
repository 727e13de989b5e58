// Loads whose outer coordinate may be past the tensor: a row of Gamma_C
// one chunk ahead (the row after the last is read and not used), and a
// tile of a plane of a rank-3 tensor: test/Conversion/load-outer-bounds.test.
cake.kernel @outer(%G: !cake.global<?x?xf32>, %X: !cake.global<?x?x64xbf16>,
                   %Y: !cake.global<?x?xf32>, %Z: !cake.global<?x?x64xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [1]>} {
  cake.role "r" warpgroups(1) {
    %n = cake.dim %G, 0 : !cake.global<?x?xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    cake.tiles (%i) in (%n) {
      %next = arith.addi %i, %c1 : index
      %g = cake.load %G[%next, %c0] : !cake.global<?x?xf32> -> !cake.frag<1x64xf32>
      cake.store %g -> %Y[%i, %c0] : !cake.frag<1x64xf32> -> !cake.global<?x?xf32>
      %x = cake.load %X[%next, %c0, %c0] : !cake.global<?x?x64xbf16> -> !cake.frag<64x64xbf16>
      cake.store %x -> %Z[%i, %c0, %c0] : !cake.frag<64x64xbf16> -> !cake.global<?x?x64xbf16>
    }
  }
}
