// cake.load of an accumulator-shaped tile (a chunk's keys, 64 tokens x 64
// channels of bf16) from a tensor whose row length is dynamic, widened in
// a frag.map (arith.extf, arith.truncf: ops with fast-math flags that
// carry none) and stored.
cake.kernel @load_acc(%X: !cake.global<?x?xbf16>, %Y: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %N = cake.dim %X, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %pad = arith.constant 1.0 : bf16
    cake.tiles (%m) in (%N) {
      %x = cake.load %X[%m, %c0] pad %pad : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
      %y = cake.frag.map %x : (!cake.frag<64x64xbf16>) -> !cake.frag<64x64xbf16> {
      ^bb0(%v: bf16):
        %f = arith.extf %v : bf16 to f32
        %d = arith.addf %f, %f : f32
        %t = arith.truncf %d : f32 to bf16
        cake.frag.yield %t : bf16
      }
      cake.store %y -> %Y[%m, %c0] : !cake.frag<64x64xbf16> -> !cake.global<?x?xbf16>
    }
  }
}
