// frag.scan on the GPU: each row of a 64x64 tile holds (7 i + 3 j) mod 11
// - 5 (small integers: every partial sum is exact in f32), scanned along
// the row and stored; bench/verify/check_scan.py compares it with a scan
// on the host (sum; min and max with the kind replaced).
cake.kernel @scan_rows(%O: !cake.global<?x64xf32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [64]>} {
  cake.role "math" warpgroups(1) {
    %M = cake.dim %O, 0 : !cake.global<?x64xf32>
    cake.tiles (%m) in (%M) {
      %c0 = arith.constant 0 : index
      %rows = cake.frag.iota base %m : !cake.frag<64x1xi32>
      %cols = cake.frag.iota base %c0 : !cake.frag<1x64xi32>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %v = cake.frag.map %z, %rows, %cols
          : (!cake.frag<64x64xf32>, !cake.frag<64x1xi32>, !cake.frag<1x64xi32>)
          -> !cake.frag<64x64xf32> {
      ^bb0(%x: f32, %r: i32, %c: i32):
        %c7 = arith.constant 7 : i32
        %c3 = arith.constant 3 : i32
        %c11 = arith.constant 11 : i32
        %five = arith.constant 5.0 : f32
        %a = arith.muli %r, %c7 : i32
        %b = arith.muli %c, %c3 : i32
        %s = arith.addi %a, %b : i32
        %t = arith.remui %s, %c11 : i32
        %f = arith.uitofp %t : i32 to f32
        %y = arith.subf %f, %five : f32
        cake.frag.yield %y : f32
      }
      %s = cake.frag.scan sum %v : !cake.frag<64x64xf32>
      cake.store %s -> %O[%m, %c0] : !cake.frag<64x64xf32> -> !cake.global<?x64xf32>
    }
  }
}
