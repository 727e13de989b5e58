// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeSmemReduce.td - Rows of ring stages reduced -----*- tablegen -*-===//
//
// The stage-reduction family: each row of a tile that the copy engine
// brought into ring stages, reduced to one value, as a fragment that
// broadcasts against an accumulator. A KNN search or a k-means assignment
// needs the squared norms of the corpus rows it multiplies; read from the
// stages the MMA already reads, they cost no second pass over the corpus.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_SMEM_REDUCE_TD
#define CAKE_SMEM_REDUCE_TD

include "cake/Dialect/CakeBase.td"
include "cake/Dialect/CakeTypes.td"
include "cake/Dialect/CakeDerived.td"

def Cake_SmemReduceOp : Cake_Op<"smem.reduce"> {
  let summary = "reduce each row of a tile in ring stages (sum, min, max)";
  let description = [{
    `%n = cake.smem.reduce sum squared %c[%s0, %s1]` reduces each row of
    the tile whose column blocks are the listed stages of one ring (a
    128 × 128 bf16 corpus tile loaded as two 128 × 64 boxes), squaring the
    elements first with `squared`: the rows' squared Euclidean norms, in
    fp32. Row r of the tile becomes column r of a `1 x R` result, which
    broadcasts against an accumulator whose columns are the tile's rows
    (the B operand of `x · cᵀ`), or row r of an `R x 1` result, for a tile
    whose rows are the accumulator's (the A operand).

    The role's threads share the work: each takes a row (or a part of one,
    combined by shuffles) and reads its 16-byte pieces through the ring's
    swizzle; the rows' values go through a derived shared-memory scratch
    (4 bytes a row) between two meetings of the role's threads on a derived
    named barrier (`#cake.scratch`, as for `frag.row`), and each thread
    reads back its own columns (or rows). Every stage is one taken with
    `pipe.wait` [dataflow.read-outside-wait]; the reads complete before
    the op's second meeting, so the stage may be released after it.
    bf16, f16 or f32 elements; a multiple of 16 rows, up to 256.

    ```mlir
    %cn = cake.smem.reduce sum squared %c[%s0, %s1]
      : !cake.ring<4 x 128x64xbf16, swizzle = 128> -> !cake.frag<1x128xf32>
    ```
  }];
  let arguments = (ins Cake_ReduceKind:$kind, UnitAttr:$squared,
                       Cake_RingType:$src, Variadic<Cake_StageType>:$stages,
                       OptionalAttr<Cake_ScratchAttr>:$derived);
  let results = (outs Cake_FragType:$result);
  let assemblyFormat = [{
    $kind (`squared` $squared^)? $src `[` $stages `]` attr-dict `:`
    qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

#endif // CAKE_SMEM_REDUCE_TD
