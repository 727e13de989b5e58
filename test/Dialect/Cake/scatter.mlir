// Round trip of cake.scatter: a fragment's rows stored or added to the
// rows of a global tensor that a key fragment names.
// RUN: cake-opt %s | cake-opt | FileCheck %s

// CHECK-LABEL: cake.kernel @sums
// CHECK: cake.scatter %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}] reduce sum : !cake.frag<64x128xf32>, !cake.frag<64x1xi32> -> !cake.global<?x128xf32>
// CHECK: cake.scatter %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}] reduce sum : !cake.frag<64x1xi32>, !cake.frag<64x1xi32> -> !cake.global<?x1xi32>
// CHECK: cake.scatter %{{.*}} -> %{{.*}}[%{{.*}}, %{{.*}}] : !cake.frag<64x64xbf16>, !cake.frag<64x1xi32> -> !cake.global<?x?xbf16>
cake.kernel @sums(%Sums: !cake.global<?x128xf32>, %Counts: !cake.global<?x1xi32>,
                  %Rows: !cake.global<?x?xbf16>, %Keys: !cake.global<?xi32>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "add" warpgroups(1) {
    %N = cake.dim %Keys, 0 : !cake.global<?xi32>
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    cake.tiles (%m) in (%N) {
      %key = cake.load %Keys[%m] : !cake.global<?xi32> -> !cake.frag<64x1xi32>
      %x = cake.frag.zero : !cake.frag<64x128xf32>
      cake.scatter %x -> %Sums[%key, %c0] reduce sum
        : !cake.frag<64x128xf32>, !cake.frag<64x1xi32> -> !cake.global<?x128xf32>
      %ones = cake.frag.splat %one : !cake.frag<64x1xi32>
      cake.scatter %ones -> %Counts[%key, %c0] reduce sum
        : !cake.frag<64x1xi32>, !cake.frag<64x1xi32> -> !cake.global<?x1xi32>
      %r = cake.frag.zero : !cake.frag<64x64xbf16>
      cake.scatter %r -> %Rows[%key, %c0]
        : !cake.frag<64x64xbf16>, !cake.frag<64x1xi32> -> !cake.global<?x?xbf16>
    }
  }
}
