// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeTmem.td - Blackwell tensor memory and tcgen05 ---*- tablegen -*-===//
//
// The tensor-memory family (sm_100a): accumulators that live in an SM's
// tensor memory (128 lanes x 512 columns of 32-bit cells) rather than in
// registers. The kernel decides which buffers exist, how many stages each
// has, which role writes them (tcgen05.mma, issued by one thread) and which
// reads them (tcgen05.ld, one warpgroup); the compiler derives the column
// offsets, the one power-of-two allocation per CTA and its
// alloc/relinquish/dealloc protocol, and the hand-off barriers (a pipe over
// tensor memory completes its stages with tcgen05.commit).
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TMEM_TD
#define CAKE_TMEM_TD

include "cake/Dialect/CakeBase.td"
include "cake/Dialect/CakeTypes.td"

def Cake_TmemType : Cake_Type<"Tmem", "tmem"> {
  let summary = "stages of an accumulator tile in Blackwell tensor memory";
  let description = [{
    `stages` buffers of a rows x columns tile in tensor memory. Row r lives
    in lane r (128 lanes: the rows of a one-CTA tcgen05 tile); a 32-bit
    element takes one column, a 16-bit one half of one (pairs share a
    cell). The stages sit side by side; all of them together take at most
    the 512 columns of an SM [hw.tmem-shape].

    ```mlir
    !cake.tmem<2 x 128x256xf32>
    ```
  }];
  let parameters = (ins "int64_t":$stages, "int64_t":$rows, "int64_t":$cols,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// 32-bit tensor-memory columns one stage occupies.
    int64_t getStageColumns() const;
    /// Columns of all stages.
    int64_t getColumns() const { return getStages() * getStageColumns(); }
  }];
}

def Cake_TmemLayoutAttr : Cake_Attr<"TmemLayout", "tmem_layout"> {
  let summary = "where a tensor-memory buffer lives (derived)";
  let description = [{
    The column of the buffer's first stage, counted from the base of the
    CTA's allocation, and that allocation's size in columns: the
    buffers' columns, each buffer starting on a 32-column boundary,
    rounded up to a power of two of at least 32 (what `tcgen05.alloc`
    accepts). Warp 0 of the CTA allocates it at entry, writing its address
    to the 4-byte shared-memory word at `slot` (a byte offset like a
    ring's), and frees it at exit; every buffer of the kernel carries the
    same `allocation` and `slot`.

    ```mlir
    #cake.tmem_layout<column = 256, allocation = 512, slot = 64>
    ```
  }];
  let parameters = (ins "int64_t":$column, "int64_t":$allocation,
                        "int64_t":$slot);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Cake_TmemOp : Cake_Op<"tmem", [HasParent<"KernelOp">]> {
  let summary = "declare a buffer in tensor memory";
  let description = [{
    Declares `stages` accumulator tiles in the CTA's tensor memory. Where
    they live (`derived`) is set by `cake-derive`; the kernel's buffers
    share one allocation, made and freed by the compiler
    [resource.tmem-capacity]. Roles hand stages over through a
    `cake.pipe` over the buffer.

    ```mlir
    %acc = cake.tmem : !cake.tmem<2 x 128x256xf32>
    %ap = cake.pipe %acc : !cake.tmem<2 x 128x256xf32>
    ```
  }];
  let arguments = (ins OptionalAttr<Cake_TmemLayoutAttr>:$derived);
  let results = (outs Cake_TmemType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def Cake_TmemMmaOp : Cake_Op<"tmem.mma"> {
  let summary = "tcgen05.mma: accumulate A · Bᵀ into a tensor-memory stage";
  let description = [{
    `d[dStage] = (accumulate ? d[dStage] : 0) + A · Bᵀ`, with A an M×K and
    B an N×K tile, both K-major in ring stages, and D an M×N stage of
    tensor memory (M = 128: one lane a row). A may instead be a stage of
    tensor memory (f16 or bf16, row r in lane r, K elements two a column),
    written there by `cake.tmem.store`: the second MMA of a chain reads the
    first one's result without a trip through shared memory. An `mn_major`
    B is a K×N ring tile with N contiguous (V stored [kv, d], read as Vᵀ
    for P · V): its rows of N span exactly the swizzle width (one swizzle
    atom), and the instruction descriptor's transpose bit and the per-slice
    advance (16 rows rather than 32 bytes) are derived
    [hw.wgmma-transpose]. One thread of the role issues
    the instructions (N split into pieces of at most 256 columns, K into
    32-byte slices); they run asynchronously. `accumulate` is false on a
    tile's first K step, since tensor memory is not zeroed.

    Completion is derived from the role's hand-offs: releasing the ring
    stages it read (`cake.pipe.release`) and committing the tensor-memory
    stage (`cake.pipe.commit`) become `tcgen05.commit` arrivals, which land
    when the MMAs issued before them have retired. The ring stages come
    from `cake.pipe.wait`, the tensor-memory stage from `cake.pipe.acquire`
    on a pipe over it [dataflow.read-outside-wait,
    dataflow.write-outside-acquire].

    ```mlir
    cake.tmem.mma %a[%s], %b[%s], %acc[%t] accumulate %notFirst
      : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
        !cake.ring<4 x 256x64xbf16, swizzle = 128>,
        !cake.tmem<2 x 128x256xf32>
    cake.tmem.mma %p[%u], %w[%s], %y[%t] accumulate %more
      : !cake.tmem<2 x 128x64xbf16>,
        !cake.ring<4 x 256x64xbf16, swizzle = 128>,
        !cake.tmem<1 x 128x256xf32>
    cake.tmem.mma %p[%u], %v[%s] mn_major, %o[%t] accumulate %more
      : !cake.tmem<2 x 128x64xbf16>,
        !cake.ring<2 x 64x64xbf16, swizzle = 128>,
        !cake.tmem<1 x 128x64xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Cake_RingType, Cake_TmemType]>:$a,
                       Cake_StageType:$aStage,
                       Cake_RingType:$b, Cake_StageType:$bStage,
                       Cake_TmemType:$d, Cake_StageType:$dStage,
                       I1:$accumulate, UnitAttr:$mn_major);
  let assemblyFormat = [{
    $a `[` $aStage `]` `,` $b `[` $bStage `]` (`mn_major` $mn_major^)? `,`
    $d `[` $dStage `]` `accumulate` $accumulate attr-dict `:`
    qualified(type($a)) `,` qualified(type($b)) `,` qualified(type($d))
  }];
  let extraClassDeclaration = [{
    /// The product's K: A's columns (a ring's tile M x K, or a
    /// tensor-memory stage's 128 x K).
    int64_t getK() {
      if (auto ring = ::llvm::dyn_cast<RingType>(getA().getType()))
        return ring.getShape()[1];
      return ::llvm::cast<TmemType>(getA().getType()).getCols();
    }
    /// Element type of A and B.
    ::mlir::Type getInputElementType() {
      return getB().getType().getElementType();
    }
  }];
  let hasVerifier = 1;
}

def Cake_TmemLoadOp : Cake_Op<"tmem.load"> {
  let summary = "tcgen05.ld: read columns of a tensor-memory stage into registers";
  let description = [{
    Reads the result's columns of the stage, starting at column `columns`
    (0 when absent; a multiple of 8), into a register fragment of the role:
    each warp of its one warpgroup reads the 32 lanes (rows) of its quarter
    of tensor memory [hw.warpgroup-alignment]. The load completes before
    the fragment is used (`tcgen05.wait::ld` is derived). An epilogue reads
    a wide accumulator in column chunks, so that registers hold one chunk.

    ```mlir
    %f = cake.tmem.load %acc[%t] columns %c
      : !cake.tmem<2 x 128x256xf32> -> !cake.frag<128x32xf32>
    ```
  }];
  let arguments = (ins Cake_TmemType:$src, Cake_StageType:$stage,
                       Optional<Index>:$column);
  let results = (outs Cake_FragType:$result);
  let assemblyFormat = [{
    $src `[` $stage `]` (`columns` $column^)? attr-dict `:`
    qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Cake_TmemStoreOp : Cake_Op<"tmem.store"> {
  let summary = "tcgen05.st: write a register fragment into columns of a tensor-memory stage";
  let description = [{
    Writes the fragment into the stage from column `columns` on (0 when
    absent): each warp of the role's one warpgroup writes the 32 lanes
    (rows) of its quarter of tensor memory, from the fragment held one row
    a thread [hw.warpgroup-alignment]. 16-bit elements go two to a column,
    the lower K index in the low half. The stores complete before the
    role's next hand-off (`tcgen05.wait::st` is derived), so the role that
    waits for the stage may read it, e.g. as the A operand of a
    `cake.tmem.mma`. The stage comes from `cake.pipe.acquire`
    [dataflow.write-outside-acquire].

    ```mlir
    %p = cake.frag.convert %h : !cake.frag<128x64xf32> -> !cake.frag<128x64xbf16>
    cake.tmem.store %p -> %pt[%u]
      : !cake.frag<128x64xbf16> -> !cake.tmem<2 x 128x64xbf16>
    ```
  }];
  let arguments = (ins Cake_FragType:$value, Cake_TmemType:$dst,
                       Cake_StageType:$stage, Optional<Index>:$column);
  let assemblyFormat = [{
    $value `->` $dst `[` $stage `]` (`columns` $column^)? attr-dict `:`
    qualified(type($value)) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

#endif // CAKE_TMEM_TD
