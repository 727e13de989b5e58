// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeGather.td - Copies issued by threads (cp.async) -*- tablegen -*-===//
//
// The thread-copy family: every thread of a producer role copies pieces of
// rows of a global matrix into a ring stage with cp.async, where TMA
// cannot. cake.gather takes the rows an index list in global memory
// names: a sorted k-means update or a paged read needs rows in an order
// the data does not have, and before it they were gathered into a copy
// first (a pass over the data and back). cake.cp_async.load takes a box,
// as cake.tma.load does, of a tensor whose rows TMA cannot address (a
// pitch that is not a multiple of 16 bytes: 100 bf16 columns).
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_GATHER_TD
#define CAKE_GATHER_TD

include "cake/Dialect/CakeBase.td"
include "cake/Dialect/CakeTypes.td"

def Cake_IndicesType : Cake_Type<"Indices", "indices"> {
  let summary = "the index entries of a gather's rows, held in registers";
  let description = [{
    The `rows` entries of an index list that one `cake.gather` copies by,
    loaded ahead of it by `cake.gather.indices`, so a producer can carry
    the next chunks' entries across its loop (`scf.for` iter_args) while
    the copies of this one are issued: the load's latency is no longer
    paid once a chunk. Every warp of the producer role holds the whole
    list, entry e in lane e mod 32 and register e / 32 (rows / 32
    registers a thread, rounded up, which resource.fragment-registers
    counts where the list is carried across a loop).

    ```mlir
    !cake.indices<64>
    ```
  }];
  let parameters = (ins "int64_t":$rows);
  let assemblyFormat = "`<` $rows `>`";
  let genVerifyDecl = 1;
}

def Cake_GatherIndicesOp : Cake_Op<"gather.indices"> {
  let summary = "load the index entries of a gather ahead of it";
  let description = [{
    Entries [`position`, `position` + rows) of the rank-1 i32 list `index`,
    -1 past its end (a row the gather then fills with zeros). The load is
    issued here and waited for where a `cake.gather` first reads the
    entries, so loading the list of chunk i + a in iteration i (the
    distance a is the kernel's decision) hides its latency behind a
    iterations of copies.

    ```mlir
    %l = cake.gather.indices %Order[%p] : !cake.global<?xi32> -> !cake.indices<64>
    ```
  }];
  let arguments = (ins Cake_GlobalType:$index, Index:$position);
  let results = (outs Cake_IndicesType:$result);
  let assemblyFormat = [{
    $index `[` $position `]` attr-dict `:` qualified(type($index)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Cake_GatherOp : Cake_Op<"gather"> {
  let summary = "copy rows chosen by an index list into a ring stage";
  let description = [{
    Row `r` of the stage's R×C tile receives the columns
    [`column`, `column` + C) of row `index[position + r]` of the rank-2
    global `src` (or of row `index[r]` where `index` is a list loaded
    ahead by `cake.gather.indices`), in the ring's swizzle, so a wgmma
    reads it as it reads a TMA-filled stage (typically as an `mn_major` operand: the rows are
    points or tokens, the columns features). Zeros fill a row whose slot
    `position + r` is past the index list or whose index is outside
    [0, rows of `src`), and the columns past `src`'s.

    Every thread of the producer role issues a share of the tile's 16-byte
    pieces (`cp.async.cg`, zero-filled where out of bounds); the stage's
    commit makes the full barrier wait for their completion (each
    thread's `cp.async.mbarrier.arrive.noinc`, one arrival a thread), and
    the consumer's wait orders them before the async proxy (wgmma) reads
    the stage. The barrier counts, the swizzled addresses and the split of
    the pieces over the threads are derived.

    Contracts [hw.gather-copy]: 16-byte pieces, so the ring's rows are a
    power of two from 16 to 512 bytes (a row's pieces go to the lanes
    of one warp), `src`'s rows a multiple of 16 bytes (checked by the verifier
    where static; a dynamic row pitch that is not one traps when the
    kernel runs, since no copy could be issued); `index` is a rank-1 i32
    tensor or a `!cake.indices` of the tile's R rows; the element types of
    `src` and the ring match [dataflow.element-type].

    ```mlir
    cake.gather %X[%Order[%p], %d] -> %x[%s]
      : !cake.global<?x?xf16>, !cake.global<?xi32>
        -> !cake.ring<4 x 64x64xf16, swizzle = 128>
    cake.gather %X[%l, %d] -> %x[%s]
      : !cake.global<?x?xf16>, !cake.indices<64>
        -> !cake.ring<4 x 64x64xf16, swizzle = 128>
    ```
  }];
  let arguments = (ins Cake_GlobalType:$src,
                       AnyTypeOf<[Cake_GlobalType, Cake_IndicesType]>:$index,
                       Optional<Index>:$position, Index:$column,
                       Cake_RingType:$dst, Cake_StageType:$stage);
  let assemblyFormat = [{
    $src `[` $index (`[` $position^ `]`)? `,` $column `]` `->` $dst `[` $stage `]`
    attr-dict `:` qualified(type($src)) `,` qualified(type($index)) `->`
    qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def Cake_CpAsyncLoadOp : Cake_Op<"cp_async.load"> {
  let summary = "copy a tile into a ring stage with cp.async, where TMA cannot";
  let description = [{
    Row `r` of the stage's R×C tile receives the columns
    [`column`, `column` + C) of row `row` + r of the global `src` (rank 2,
    or rank 3 with a first coordinate that selects the plane, as
    `cake.tma.load`'s outer coordinates do: a batch, a head),
    in the ring's swizzle, so a wgmma reads it as it reads a TMA-filled
    stage; rows past `src`'s and columns past its row are zero-filled, as
    TMA fills them. This is the box copy of `cake.tma.load` for tensors the
    copy engine cannot address: TMA needs every row pitch a multiple of 16
    bytes, and a [M, 100] bf16 matrix has rows 200 bytes apart. (On
    targets without TMA it is the producer's only box copy.)

    Every thread of the producer role issues a share of the tile's pieces
    (`cp.async`, zero-filled where out of bounds). The piece is derived
    from the source's row pitch: 16 bytes where it is a multiple of 16
    (`cp.async.cg`), else 8 or 4 (`cp.async.ca`), so every piece starts
    on its own size. The stage's commit makes the full barrier wait for
    the pieces' completion (each thread's `cp.async.mbarrier.arrive.noinc`,
    one arrival a thread), and the consumer's wait orders them before the
    async proxy (wgmma) reads the stage. The barrier counts, the swizzled
    addresses and the split of the pieces over the threads are derived.

    Contracts [hw.cp-async-copy]: the source has rank 2 or 3 and a row pitch
    that is a multiple of 4 bytes (a dynamic pitch, such as a GEMM
    operand's K, takes 16-byte pieces and traps when the kernel runs unless
    it is a multiple of 16 bytes); the ring's rows are 16 to 512
    bytes, a power of two, and at most 32 pieces (a row's pieces go to the
    lanes of one warp); a column offset that is not a whole number of
    pieces traps when the kernel runs. The element types of `src` and the
    ring match [dataflow.element-type].

    ```mlir
    cake.cp_async.load %C[%n, %d] -> %c[%s]
      : !cake.global<?x100xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
    ```
  }];
  let arguments = (ins Cake_GlobalType:$src, Variadic<Index>:$coords,
                       Cake_RingType:$dst, Cake_StageType:$stage);
  let assemblyFormat = [{
    $src `[` $coords `]` `->` $dst `[` $stage `]`
    attr-dict `:` qualified(type($src)) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tile's first row and column: the last two coordinates. A rank-3
    /// source's first coordinate selects the plane they index.
    Value getRow() { return getCoords()[getCoords().size() - 2]; }
    Value getColumn() { return getCoords().back(); }
    /// The bytes of one cp.async piece: 16, 8 or 4, the largest dividing
    /// the source's row pitch (0 where no piece does).
    int64_t getPieceBytes();
  }];
}

#endif // CAKE_GATHER_TD
