// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeTopK.td - Per-row top-k lists in registers ------*- tablegen -*-===//
//
// The nearest-neighbour family: a running list of the k smallest values of
// each row of a fragment, with their column indices, kept in registers
// across column tiles (a KNN search walks the corpus tile by tile the way the
// k-means assignment walks the centroids with frag.argmin) and stored once.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TOPK_TD
#define CAKE_TOPK_TD

include "cake/Dialect/CakeBase.td"
include "cake/Dialect/CakeTypes.td"
include "cake/Dialect/CakeDerived.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Cake_TopKType : Cake_Type<"TopK", "topk"> {
  let summary = "per-row lists of the k smallest values and their indices";
  let description = [{
    For each of `rows` rows, the k smallest (value, index) pairs seen so
    far, ordered by value and then by index (ties go to the lower index),
    so the list is exact and does not depend on the order it was filled in.
    Empty entries read (+inf, -1). The values are f32.

    The list lives in the registers of a warpgroups role, in the rows of the
    wgmma accumulator layout (`rows` = 64 per warpgroup): each of the four
    threads that hold a row keeps a sorted list of k of the columns it saw,
    the four together holding the row's k best, and the row's list is the
    merge of the four, taken where it is read (`cake.topk.store`). That is
    4·k registers a thread (two rows, a value and an index each), which
    resource.fragment-registers counts.

    ```mlir
    !cake.topk<128x16xf32>
    ```

    `shared` keeps each row's list in shared memory instead, one list a
    row (k entries of 8 bytes, unsorted), for k past what registers hold
    (up to 256): each thread keeps only its rows' largest entry (value,
    index and slot), 7 registers. A candidate that beats a row's largest
    entry replaces it, and the row's quad finds the new largest (a quarter
    of the entries each, two shuffles); the store ranks each entry among
    the row's k. The shared memory (rows · k · 8 bytes) is derived per
    `cake.topk.init` (`#cake.scratch`). Its contents are the list's state,
    so a shared list is used once: each value feeds one insert, store or
    yield [dataflow.topk-linear].

    ```mlir
    !cake.topk<64x100xf32, shared>
    ```
  }];
  let parameters = (ins "int64_t":$rows, "int64_t":$k,
                        "::mlir::Type":$elementType,
                        DefaultValuedParameter<"bool", "false">:$shared);

  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

// Not Pure: a shared list's init and inserts write its shared memory, so
// they may be neither merged nor moved out of their loop.
def Cake_TopKInitOp : Cake_Op<"topk.init"> {
  let summary = "empty per-row top-k lists";
  let description = [{
    Every entry (+inf, -1): a value that is +inf or NaN never enters a list,
    so padded columns (+inf) are never returned.

    ```mlir
    %l0 = cake.topk.init : !cake.topk<128x16xf32>
    ```
  }];
  let arguments = (ins OptionalAttr<Cake_ScratchAttr>:$derived);
  let results = (outs Cake_TopKType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def Cake_TopKInsertOp : Cake_Op<"topk.insert", [
    AttrSizedOperandSegments, AllTypesMatch<["list", "result"]>]> {
  let summary = "merge a tile of candidates into per-row top-k lists";
  let description = [{
    Column j of row r of `candidates` is the candidate (candidates[r, j],
    base + j), or with `indices %i` (an i32 fragment of the candidates'
    shape) the candidate (candidates[r, j], %i[r, j]); the result holds,
    for each row, the k smallest of the list's entries and the row's
    candidates, ordered by value and then index. `candidates` is an f32
    fragment of the list's rows in the accumulator layout (a distance tile
    from wgmma and frag.map, or partial lists loaded with `cake.load` to be
    merged); +inf and NaN never enter.

    Lowered per thread and row: one comparison a candidate against the
    least k-th value of the row's four threads (a candidate above it has k
    smaller ones in that thread) builds a mask; only the candidates it lets
    through run the insertion (a loop over the mask's set bits), so after
    the first tiles a tile costs about one comparison a value.

    ```mlir
    %l1 = cake.topk.insert %l0, %dist base %n
      : !cake.topk<128x16xf32>, !cake.frag<128x128xf32>
    %l2 = cake.topk.insert %l1, %pd indices %pi
      : !cake.topk<64x16xf32>, !cake.frag<64x128xf32>, !cake.frag<64x128xi32>
    ```
  }];
  let arguments = (ins Cake_TopKType:$list, Cake_FragType:$candidates,
                       Optional<Index>:$base, Optional<Cake_FragType>:$indices);
  let results = (outs Cake_TopKType:$result);
  let assemblyFormat = [{
    $list `,` $candidates (`base` $base^)? (`indices` $indices^)? attr-dict `:` qualified(type($list)) `,` qualified(type($candidates)) (`,` qualified(type($indices))^)?
  }];
  let hasVerifier = 1;
}

// Not Pure: its result is a meeting of the role's threads (a reduction at
// the role's named barrier), which may be neither speculated nor merged.
def Cake_TopKAdmitsOp : Cake_Op<"topk.admits", [AttrSizedOperandSegments]> {
  let summary = "whether a tile of candidates has one its list would take";
  let description = [{
    True when some candidate of some row of the tile (the candidates and
    their indices as for `cake.topk.insert`) beats its row's largest entry
    by value and then index: the candidates a `cake.topk.insert` of the
    same list and tile would let through. False means that inserting the
    tile would leave every row's list as it is. The result is the same in
    every thread of the role (an `or` over its threads at the role's named
    barrier, derived: `derived`), so it may steer the role's loops and
    branches.

    What it is for: a merge of sorted partial lists (a KNN search's corpus
    splits, stored `rank_major`) reads every list's j-th entry before any
    list's (j+1)-th; once S consecutive columns (one entry of each of S
    lists) are refused, no later entry can enter, since each list's later
    entries are larger and the lists' largest entries only decrease.

    Shared lists (`!cake.topk<..., shared>`) only: their rows' largest
    entries are at hand in registers.

    ```mlir
    %more = cake.topk.admits %l, %pd indices %pi
      : !cake.topk<64x100xf32, shared>, !cake.frag<64x64xf32>, !cake.frag<64x64xi32>
    ```
  }];
  let arguments = (ins Cake_TopKType:$list, Cake_FragType:$candidates,
                       Optional<Index>:$base, Optional<Cake_FragType>:$indices,
                       OptionalAttr<Cake_ScratchAttr>:$derived);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $list `,` $candidates (`base` $base^)? (`indices` $indices^)? attr-dict `:` qualified(type($list)) `,` qualified(type($candidates)) (`,` qualified(type($indices))^)?
  }];
  let hasVerifier = 1;
}

def Cake_TopKStoreOp : Cake_Op<"topk.store", [AttrSizedOperandSegments]> {
  let summary = "store per-row top-k lists: values and indices";
  let description = [{
    Row r of the lists goes to row `row` + r of both `values` (f32) and
    `indices` (i32), each [rows, k] row-major with k static; rows past the
    tensors' extent are not written, nor with `rows %n` those at or past
    `row` + %n (partial lists of a corpus split stored one split after the
    other leave the next split's rows alone). With a second coordinate
    `slot` the tensors are [rows, S, k] and row r goes to [row + r, slot]:
    each corpus split's partial lists beside the other splits' of the same
    query, so that a merge reads a query's S·k candidates as one row of a
    [rows, S·k] view. The four threads of each row merge their lists first
    (two rounds of shuffles, each thread inserting its partner's entries),
    then each writes a quarter of the row.

    With `rank_major` (and a slot) the tensors are [rows, k, S] and a
    row's entry of rank j goes to [row + r, j, slot]: every split's j-th
    best beside the other splits' j-th best. A merge that reads a query's
    row of the [rows, k·S] view in order then meets the candidates about
    in increasing order, so after its first k few enter its lists (KNN run
    20: 73 of 12,800 at k = 100 over 128 splits, against 475 split after
    split).

    ```mlir
    cake.topk.store %l -> %D, %I[%m]
      : !cake.topk<128x16xf32> -> !cake.global<?x16xf32>, !cake.global<?x16xi32>
    cake.topk.store %l -> %D, %I[%r] rows %left
      : !cake.topk<128x16xf32> -> !cake.global<?x16xf32>, !cake.global<?x16xi32>
    cake.topk.store %l -> %PD, %PI[%m, %sp]
      : !cake.topk<128x16xf32> -> !cake.global<?x?x16xf32>, !cake.global<?x?x16xi32>
    cake.topk.store %l -> %PD, %PI[%m, %sp] rank_major
      : !cake.topk<64x100xf32, shared> -> !cake.global<?x100x?xf32>, !cake.global<?x100x?xi32>
    ```
  }];
  let arguments = (ins Cake_TopKType:$list, Cake_GlobalType:$values,
                       Cake_GlobalType:$indices, Index:$row,
                       Optional<Index>:$slot, Optional<Index>:$rows,
                       UnitAttr:$rank_major);
  let assemblyFormat = [{
    $list `->` $values `,` $indices `[` $row (`,` $slot^)? `]` (`rows` $rows^)? (`rank_major` $rank_major^)? attr-dict `:` qualified(type($list)) `->` qualified(type($values)) `,` qualified(type($indices))
  }];
  let hasVerifier = 1;
}

#endif // CAKE_TOPK_TD
