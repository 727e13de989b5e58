// A per-head f32 parameter read once per tile (KDA's A_log) and broadcast
// by frag.map.
cake.kernel @scalar_f32(%A: !cake.global<?xf32>, %Y: !cake.global<?x64xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %N = cake.dim %Y, 0 : !cake.global<?x64xf32>
    %c0 = arith.constant 0 : index
    cake.tiles (%m) in (%N) {
      %a = cake.scalar.load %A[%c0] : !cake.global<?xf32>
      %f = cake.frag.splat %a : !cake.frag<64x64xf32>
      cake.store %f -> %Y[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x64xf32>
    }
  }
}
