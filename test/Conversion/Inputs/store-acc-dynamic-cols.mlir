// As store-acc-rank3.mlir with the column extent dynamic: the
// outer coordinate selects a plane of rows x cols elements.
cake.kernel @store3dyn(%O: !cake.global<?x?x?xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64]>} {
  cake.role "mma" warpgroups(1) {
    %N = cake.dim %O, 0 : !cake.global<?x?x?xf32>
    cake.tiles (%h) in (%N) {
      %c0 = arith.constant 0 : index
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      cake.store %z -> %O[%h, %c0, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x?x?xf32>
    }
  }
}
