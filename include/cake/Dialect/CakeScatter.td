// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeScatter.td - Stores keyed by a fragment -----------*- tablegen -*-===//
//
// The scatter family: a fragment's rows go to the rows of a global tensor
// that a key fragment names, one key a row, rather than to a box. With
// `reduce sum` each element is added to what is there by the memory system
// (red.global.add), so rows with the same key meet without a sort: a
// k-means update adds every point to its cluster's sums and counts in one
// pass over the points.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_SCATTER_TD
#define CAKE_SCATTER_TD

include "cake/Dialect/CakeBase.td"
include "cake/Dialect/CakeTypes.td"
include "cake/Dialect/CakeAttrs.td"

def Cake_ScatterOp : Cake_Op<"scatter"> {
  let summary = "store (or add) a fragment's rows to the rows its keys name";
  let description = [{
    Row `r` of the M×N fragment `value` goes to columns [`column`,
    `column` + N) of row `keys[r]` of the rank-2 global `dst`; `keys` is an
    M×1 i32 fragment of the same rows. A row whose key is outside
    [0, rows of `dst`) is not written (a padded point's key of −1), nor
    are columns past `dst`'s. An M×1 `value` writes one column.

    Without `reduce`, each element is stored: rows with equal keys write
    the same elements and one of them wins, which one is unspecified. With
    `reduce sum|min|max`, each element is combined with the one in memory
    by a reduction the memory system performs (`red.global.add`, `.min`,
    `.max`; no value returned), so rows with equal keys, in this thread,
    another thread or another CTA, all count; the order of the additions
    is not specified, so f32 sums may differ in their last bits from run
    to run.

    Contracts [hw.scatter-reduce]: `reduce sum` adds f32 or i32 elements,
    `reduce min` and `max` compare i32 (a non-negative f32 orders as its
    bits: bitcast it), the types red.global takes for every target Cake
    lowers to; the value's element type is `dst`'s
    [dataflow.element-type] and 16 or 32 bits wide; `keys` is M×1 i32
    with the value's M, `dst` has rank 2. The fragments are in the wgmma accumulator layout (a role
    of warpgroups), like every fragment a store takes.

    ```mlir
    cake.scatter %x -> %Sums[%keys, %c0] reduce sum
      : !cake.frag<64x128xf32>, !cake.frag<64x1xi32> -> !cake.global<?x128xf32>
    cake.scatter %one -> %Counts[%keys, %c0] reduce sum
      : !cake.frag<64x1xi32>, !cake.frag<64x1xi32> -> !cake.global<?x1xi32>
    ```
  }];
  let arguments = (ins Cake_FragType:$value, Cake_GlobalType:$dst,
                       Cake_FragType:$keys, Index:$column,
                       OptionalAttr<Cake_ReduceKind>:$reduce);
  let assemblyFormat = [{
    $value `->` $dst `[` $keys `,` $column `]` (`reduce` $reduce^)? attr-dict
    `:` qualified(type($value)) `,` qualified(type($keys)) `->`
    qualified(type($dst))
  }];
  let hasVerifier = 1;
}

#endif // CAKE_SCATTER_TD
