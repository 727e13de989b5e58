// Row reductions of a loaded 64 x 16 tile (four values of each of a
// thread's two rows), stored one value per row.
cake.kernel @rows(%X: !cake.global<?x16xf32>, %Max: !cake.global<?xf32>,
                  %Sum: !cake.global<?xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64]>} {
  cake.role "math" warpgroups(1) {
    %N = cake.dim %X, 0 : !cake.global<?x16xf32>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    cake.tiles (%m) in (%N) {
      %z = cake.frag.zero : !cake.frag<64x16xf32>
      %cols = cake.frag.iota base %m : !cake.frag<1x16xi32>
      %x = cake.frag.map %z, %cols : (!cake.frag<64x16xf32>, !cake.frag<1x16xi32>) -> !cake.frag<64x16xf32> {
      ^bb0(%v: f32, %c: i32):
        %f = arith.sitofp %c : i32 to f32
        %y = arith.addf %v, %f : f32
        cake.frag.yield %y : f32
      }
      %mx = cake.frag.reduce max %x : !cake.frag<64x16xf32> -> !cake.frag<64x1xf32>
      %sm = cake.frag.reduce sum %x : !cake.frag<64x16xf32> -> !cake.frag<64x1xf32>
      cake.store %mx -> %Max[%m] : !cake.frag<64x1xf32> -> !cake.global<?xf32>
      cake.store %sm -> %Sum[%m] : !cake.frag<64x1xf32> -> !cake.global<?xf32>
    }
  }
}
