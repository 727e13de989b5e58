// A column fragment (one value per column, 1 x 64) stored to one line of
// a tensor: per-column sums of a loaded 64 x 64 tile, written once each.
cake.kernel @cols(%X: !cake.global<?x64xf32>, %Y: !cake.global<?x64xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64]>} {
  cake.role "math" warpgroups(1) {
    %N = cake.dim %X, 0 : !cake.global<?x64xf32>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m) in (%N) {
      %x = cake.load %X[%m, %c0] : !cake.global<?x64xf32> -> !cake.frag<64x64xf32>
      %s = cake.frag.scan sum %x down : !cake.frag<64x64xf32>
      %last = cake.frag.row %s[63] : !cake.frag<64x64xf32> -> !cake.frag<1x64xf32>
      %r = arith.divui %m, %c64 : index
      cake.store %last -> %Y[%r, %c0] : !cake.frag<1x64xf32> -> !cake.global<?x64xf32>
    }
  }
}
