// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeOps.td - Cake operations ------------------------*- tablegen -*-===//
//
// The operations of Cake IR. Each op states one decision of a kernel (a role,
// a ring, a copy, an mma) and verifies the contracts that follow from its own
// operands and attributes. Whole-kernel rules live in the cake-verify pass.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_OPS_TD
#define CAKE_OPS_TD

include "cake/Dialect/CakeBase.td"
include "cake/Dialect/CakeTypes.td"
include "cake/Dialect/CakeAttrs.td"
include "cake/Dialect/CakeTmem.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Cake_Schedule : AnyAttrOf<[Cake_PersistentAttr, Cake_GridAttr]>;

//===----------------------------------------------------------------------===//
// Structure: kernel, role, tiles
//===----------------------------------------------------------------------===//

def Cake_KernelOp : Cake_Op<"kernel", [
    FunctionOpInterface, IsolatedFromAbove, SingleBlock, NoTerminator]> {
  let summary = "a GPU kernel: its target, tile schedule, buffers and roles";
  let description = [{
    A kernel takes global tensors (and index scalars) as arguments. Its body
    declares the shared-memory rings and pipes, then the roles that run
    concurrently on disjoint warps of each CTA. `target` names the
    architecture; `schedule` says how output tiles map to CTAs; `cluster`
    (optional, a schedule decision) groups that many consecutive CTAs of the
    one-dimensional grid into a thread-block cluster (n x 1 x 1), which the
    hardware co-schedules on one GPC (hw.cluster: 1 to 8 CTAs, up to 16 as
    a non-portable size on sm_90a; the runtime launches a multiple of n).
    The CTAs of a cluster take n neighbouring tiles along the schedule's
    first dimension (tile rows r*n .. r*n+n-1 of one column), the tile rows
    rounded up to whole clusters, so they share the other operand's tile
    (which `cake.tma.load ... multicast` then loads once) and run the same
    sequence of tiles; a CTA whose tile lies past the edge runs it with
    zero-filled loads and masked stores.

    ```mlir
    cake.kernel @gemm(%A: !cake.global<?x?xbf16>, %B: !cake.global<?x?xbf16>,
                      %C: !cake.global<?x?xbf16>)
        attributes {target = #cake.target<"sm_90a">,
                    schedule = #cake.persistent<tile = [128, 256], group_m = 8>} {
      %a = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
      ...
      cake.role "load" warpgroups(1) regs(40) { ... }
      cake.role "mma" warpgroups(2) regs(232) { ... }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       Cake_TargetAttr:$target,
                       Cake_Schedule:$schedule,
                       OptionalAttr<I64Attr>:$cluster,
                       OptionalAttr<Cake_KernelLayoutAttr>:$derived);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// The tile shape of the schedule, whichever schedule it is.
    ::llvm::ArrayRef<int64_t> getTileShape();
  }];
}

def Cake_RoleOp : Cake_Op<"role", [
    HasParent<"KernelOp">, SingleBlock, NoTerminator]> {
  let summary = "a warp role: what a group of warps does, and its registers";
  let description = [{
    A role runs its body on `warpgroups(n)` groups of four warps (or on
    `warps(n)` single warps) of each CTA, concurrently with the other roles.
    `regs(r)` is the per-thread register budget the role asks for with
    `setmaxnreg` on Hopper: a multiple of 8 in [24, 256].

    ```mlir
    cake.role "load" warpgroups(1) regs(40) {
      ...
    }
    ```

    `shares_code_with("h0")` is a decision about code, not about work: the
    role's body is the named role's, op for op, except for its constants
    and for which pipes and rings (of the same types) it uses, and the
    lowering emits that body once for both, each warp picking its role's
    constants and its pipes' barrier and ring addresses at run time. Two
    roles that do the same work on different data (the two channel halves
    of KDA's intra kernel) then take one copy of the instruction cache
    instead of two. The bodies are compared by cake-verify
    [dataflow.shared-code], which names the first op that differs.

    ```mlir
    cake.role "h0" warpgroups(1) regs(184) { ... %c = arith.constant 0 : index ... }
    cake.role "h1" warpgroups(1) regs(184) shares_code_with("h0") {
      ... %c = arith.constant 64 : index ...
    }
    ```
  }];
  let arguments = (ins StrAttr:$name,
                       OptionalAttr<I32Attr>:$warpgroups,
                       OptionalAttr<I32Attr>:$warps,
                       OptionalAttr<I32Attr>:$regs,
                       OptionalAttr<StrAttr>:$shares_code_with,
                       OptionalAttr<Cake_RoleLayoutAttr>:$derived);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name (`warpgroups` `(` $warpgroups^ `)`)? (`warps` `(` $warps^ `)`)?
    (`regs` `(` $regs^ `)`)?
    (`shares_code_with` `(` $shares_code_with^ `)`)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Number of warps the role runs on.
    int64_t getNumWarps();
  }];
}

def Cake_TilesOp : Cake_Op<"tiles", [
    AttrSizedOperandSegments,
    SingleBlockImplicitTerminator<"TilesYieldOp">]> {
  let summary = "loop over the output tiles the kernel's schedule gives this CTA";
  let description = [{
    Runs its body once per output tile assigned to the current CTA by the
    kernel's schedule (one tile for `#cake.grid`, a strided sequence for
    `#cake.persistent`). The block arguments are the element offsets of the
    tile's origin; the operands are the problem extents, one per tile
    dimension of the schedule. Every role iterates the same tiles in the same
    order, which is what lets pipes pair their stages.

    `slice k of n` (persistent schedules) takes every n-th tile of the CTA's
    sequence from its k-th: two producer/consumer pairs with slices 0 and 1
    of 2, each on its own pipes, work on alternate tiles (ping-pong
    consumers). Roles that share a pipe must take the same slice.

    ```mlir
    cake.tiles (%m, %n) in (%M, %N) {
      ...
    }
    cake.tiles (%m, %n) in (%M, %N) slice 1 of 2 {
      ...
    }
    ```

    `iter_args` carries values from one tile to the next, as `scf.for`
    does: the body's block arguments are the tile coordinates, then the
    carried values; `cake.tiles.yield` gives the next tile's; the op's
    results are the values after the CTA's last tile (the inits when it
    has none). A tile loop rotated this way can finish one tile's work at
    the start of the next, beside that tile's first wgmmas (attention's
    epilogue beside the next tile's first S = Q Kᵀ):

    ```mlir
    %r:2 = cake.tiles (%m) in (%M) iter_args(%first = %true, %o = %zero)
        -> (i1, !cake.frag<128x128xf32>) {
      ...
      cake.tiles.yield %false, %o_next : i1, !cake.frag<128x128xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Index>:$extents,
                       Variadic<AnyType>:$inits,
                       OptionalAttr<DenseI64ArrayAttr>:$slice,
                       OptionalAttr<Cake_TileExtentsAttr>:$derived);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// (k, n) of `slice k of n`; (0, 1), every tile, without one.
    std::pair<int64_t, int64_t> getSliceOrWhole() {
      auto s = getSliceAttr();
      if (!s || s.size() != 2)
        return {0, 1};
      return {s[0], s[1]};
    }
    /// The block arguments that are tile coordinates (the first ones).
    ::mlir::Block::BlockArgListType getCoordinates() {
      return getBody().getArguments().take_front(getExtents().size());
    }
    /// The block arguments carried from tile to tile (after the coordinates).
    ::mlir::Block::BlockArgListType getRegionIterArgs() {
      return getBody().getArguments().drop_front(getExtents().size());
    }
    /// True if `arg` is one of this op's tile coordinates.
    static bool isCoordinate(::mlir::BlockArgument arg);
  }];
  let builders = [
    OpBuilder<(ins "::mlir::ValueRange":$extents,
                   "::mlir::DenseI64ArrayAttr":$slice), [{
      build($_builder, $_state, ::mlir::TypeRange{}, extents,
            ::mlir::ValueRange{}, slice, TileExtentsAttr());
    }]>];
}

def Cake_TilesYieldOp : Cake_Op<"tiles.yield", [
    Pure, Terminator, HasParent<"TilesOp">]> {
  let summary = "the values a cake.tiles body carries to the next tile";
  let description = [{
    Ends a `cake.tiles` body; implicit (and not printed) when the loop
    carries nothing.

    ```mlir
    cake.tiles.yield %false, %o : i1, !cake.frag<128x128xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to carry */ }]>];
  let assemblyFormat = "($values^ `:` qualified(type($values)))? attr-dict";
}

def Cake_DimOp : Cake_Op<"dim", [Pure]> {
  let summary = "the run-time size of one dimension of a global tensor";
  let description = [{
    ```mlir
    %K = cake.dim %A, 1 : !cake.global<?x?xbf16>
    ```
  }];
  let arguments = (ins Cake_GlobalType:$tensor, I64Attr:$dim);
  let results = (outs Index:$result);
  let assemblyFormat = "$tensor `,` $dim attr-dict `:` qualified(type($tensor))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Buffers and pipes
//===----------------------------------------------------------------------===//

def Cake_RingOp : Cake_Op<"ring", [HasParent<"KernelOp">]> {
  let summary = "declare a shared-memory ring";
  let description = [{
    Declares a ring of `stages` tile buffers in shared memory. Where it lives
    is derived by `cake-derive`, with the alignment its swizzle needs.

    ```mlir
    %a = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
    ```
  }];
  let arguments = (ins OptionalAttr<Cake_RingLayoutAttr>:$derived);
  let results = (outs Cake_RingType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def Cake_PipeOp : Cake_Op<"pipe", [
    HasParent<"KernelOp">, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "declare a pipeline over rings (or tensor memory) of the same depth";
  let description = [{
    A pipe pairs one producer role with one consumer role over its rings.
    Each stage gets a `full` and an `empty` mbarrier (derived); the producer
    acquires a stage, fills every ring's buffer of that stage and commits;
    the consumer waits for the stage, reads it and releases it. All rings of
    a pipe have the pipe's stage count.

    ```mlir
    %p = cake.pipe %a, %b : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
                            !cake.ring<4 x 256x64xbf16, swizzle = 128>
    ```

    A pipe over a tensor-memory buffer (sm_100a) hands accumulator stages
    from the role that issues `cake.tmem.mma` into them to the role that
    reads them with `cake.tmem.load`. Its stages are filled by the tensor
    cores, so its commit is a `tcgen05.commit` (one arrival, no byte
    count); it holds that buffer alone [sync.fill-kind].

    ```mlir
    %ap = cake.pipe %acc : !cake.tmem<2 x 128x256xf32>
    ```
  }];
  let arguments = (ins
      Variadic<AnyTypeOf<[Cake_RingType, Cake_TmemType]>>:$buffers,
      OptionalAttr<Cake_PipeBarriersAttr>:$derived);
  let results = (outs Cake_PipeType:$result);
  let assemblyFormat = "$buffers attr-dict `:` qualified(type($buffers))";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The shared-memory rings the pipe holds (none for a tensor-memory
    /// pipe).
    ::llvm::SmallVector<::mlir::Value> getRings();
    /// The tensor-memory buffer of a tensor-memory pipe, else null.
    ::mlir::Value getTmem();
  }];
}

class Cake_PipeHandoffOp<string mnemonic> : Cake_Op<mnemonic> {
  let arguments = (ins Cake_PipeType:$pipe,
                       OptionalAttr<Cake_HandoffAttr>:$derived);
  let results = (outs Cake_StageType:$stage);
  let assemblyFormat = "$pipe attr-dict `:` qualified(type($pipe))";
}

def Cake_PipeAcquireOp : Cake_PipeHandoffOp<"pipe.acquire"> {
  let summary = "producer: wait until the next stage is empty and take it";
  let description = [{
    Blocks the producer role until the consumer has released the next stage
    of the pipe (the stage's `empty` barrier; phase derived), and returns it.

    ```mlir
    %s = cake.pipe.acquire %p : !cake.pipe<4>
    ```
  }];
}

def Cake_PipeWaitOp : Cake_PipeHandoffOp<"pipe.wait"> {
  let summary = "consumer: wait until the next stage is full and take it";
  let description = [{
    Blocks the consumer role until every copy into the next stage has landed
    (the stage's `full` barrier; phase derived), and returns it.

    ```mlir
    %s = cake.pipe.wait %p : !cake.pipe<4>
    ```
  }];
}

class Cake_PipeReturnOp<string mnemonic> : Cake_Op<mnemonic> {
  let arguments = (ins Cake_PipeType:$pipe, Cake_StageType:$stage);
  let assemblyFormat = "$pipe `,` $stage attr-dict `:` qualified(type($pipe))";
}

def Cake_PipeCommitOp : Cake_PipeReturnOp<"pipe.commit"> {
  let summary = "producer: hand a filled stage to the consumer";
  let description = [{
    Marks the stage as being filled: the `full` barrier expects the bytes of
    every copy into the stage (derived from the ring tile types) and
    completes when they land.

    ```mlir
    cake.pipe.commit %p, %s : !cake.pipe<4>
    ```
  }];
}

def Cake_PipeReleaseOp : Cake_PipeReturnOp<"pipe.release"> {
  let summary = "consumer: give a stage back to the producer";
  let description = [{
    Arrives on the stage's `empty` barrier once every read of the stage
    (including asynchronous mma reads) has retired.

    ```mlir
    cake.pipe.release %p, %s : !cake.pipe<4>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Memory movement
//===----------------------------------------------------------------------===//

def Cake_TmaLoadOp : Cake_Op<"tma.load"> {
  let summary = "copy a tile from global memory into a ring stage with TMA";
  let description = [{
    An asynchronous bulk tensor copy of the box at element coordinates
    `coords` of the global tensor into the ring's buffer for `stage`. The box
    is the ring's tile shape, preceded by 1s when the tensor has more
    dimensions (one batch of a [B, N, D] tensor into a 128x64 ring);
    out-of-bounds elements are filled with zero. Completion is signalled on
    the pipe's `full` barrier.

    ```mlir
    cake.tma.load %A[%m, %k] -> %a[%s]
      : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
    ```

    `multicast` says the box is the same for every CTA of the kernel's
    cluster (the B tile of CTAs that share an output column): each of the
    n CTAs loads one n-th of its rows and the copy engine writes that slice
    into the stage of every CTA of the cluster, so L2 serves the tile once
    per cluster instead of once per CTA. The compiler derives each CTA's
    slice (descriptor box, coordinate and stage offset), the CTA mask, and
    the pipe's cluster-wide release: a stage is refilled only after the
    consumers of every CTA have released it (hw.tma-multicast,
    sync.multicast-uniform).

    ```mlir
    cake.tma.load %B[%n, %k] -> %b[%s] multicast
      : !cake.global<?x?xbf16> -> !cake.ring<4 x 256x64xbf16, swizzle = 128>
    ```
  }];
  let arguments = (ins Cake_GlobalType:$src, Variadic<Index>:$coords,
                       Cake_RingType:$dst, Cake_StageType:$stage,
                       UnitAttr:$multicast,
                       OptionalAttr<Cake_TmaCopyAttr>:$derived);
  let assemblyFormat = [{
    $src `[` $coords `]` `->` $dst `[` $stage `]` (`multicast` $multicast^)?
    attr-dict `:` qualified(type($src)) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def Cake_TmaStoreOp : Cake_Op<"tma.store"> {
  let summary = "copy a ring stage to global memory with TMA";
  let description = [{
    An asynchronous bulk tensor store of the ring's buffer for `stage` to the
    box at `coords`; out-of-bounds elements are not written.

    With `reduce sum|min|max` the copy engine combines the tile with the
    tensor's elements instead of overwriting them
    (`cp.reduce.async.bulk.tensor`, performed at L2): partial results of
    several CTAs (a split reduction dimension, a long segment of a sorted
    sum) meet without atomics on the SMs. Each element's update is atomic,
    their order is not fixed (floating-point sums may round differently
    from run to run). Element types: `sum` f32, f16, bf16, i32; `min` and
    `max` f16, bf16, i32 ([hw.tma-reduce]).

    ```mlir
    cake.tma.store %c[%s] -> %C[%m, %n]
      : !cake.ring<1 x 128x256xbf16, swizzle = 128> -> !cake.global<?x?xbf16>
    cake.tma.store %c[%s] -> %C[%m, %n] reduce sum
      : !cake.ring<1 x 128x64xf32, swizzle = 128> -> !cake.global<?x?xf32>
    ```
  }];
  let arguments = (ins Cake_RingType:$src, Cake_StageType:$stage,
                       Cake_GlobalType:$dst, Variadic<Index>:$coords,
                       OptionalAttr<Cake_ReduceKind>:$reduce,
                       OptionalAttr<Cake_TmaCopyAttr>:$derived);
  let assemblyFormat = [{
    $src `[` $stage `]` `->` $dst `[` $coords `]` (`reduce` $reduce^)? attr-dict
    `:` qualified(type($src)) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def Cake_SmemWriteOp : Cake_Op<"smem.write"> {
  let summary = "write a register fragment into a ring stage";
  let description = [{
    Ordinary (generic-proxy) stores of a fragment into a ring buffer, for
    example to stage an epilogue for `cake.tma.store`, or to stage a
    fragment as an operand of the role's own next `cake.mma` (a state held
    in registers as the B operand: `examples/mma_chain_smem.cake.mlir`).
    The copy engine and the tensor cores read through the async proxy, so
    a `cake.fence.proxy_async` must order these writes before such reads
    [sync.proxy-fence]. A role that fills its own stage this way and then
    waits on it gets its full barrier counted one arrival per warp: the
    wait is the barrier among the role's warps. A stage that only
    `cake.smem.read` or `cake.smem.reduce` reads (values handed from one
    warpgroup to another) stays in the generic proxy: no fence, and every
    thread of either side arrives for itself (cake-derive counts threads).
    A 64·W x 1 fragment (a value per row) goes into a one-column ring
    tile, written by the first thread of each quad.

    ```mlir
    cake.smem.write %r -> %c[%s]
      : !cake.frag<128x256xbf16> -> !cake.ring<1 x 128x256xbf16, swizzle = 128>
    ```
  }];
  let arguments = (ins Cake_FragType:$value, Cake_RingType:$dst,
                       Cake_StageType:$stage);
  let assemblyFormat = [{
    $value `->` $dst `[` $stage `]` attr-dict `:` qualified(type($value)) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def Cake_SmemReadOp : Cake_Op<"smem.read"> {
  let summary = "read a ring stage into a register fragment";
  let description = [{
    Ordinary (generic-proxy) loads of a ring stage into a fragment in the
    accumulator layout, the inverse of `cake.smem.write` through the same
    derived addresses and swizzle: a tile the copy engine brought in
    (`cake.tma.load`, which zero-fills what lies past the tensor's edges)
    becomes register values without per-element bounds work, and stays in
    shared memory to be read again where a fragment would otherwise be
    held live across the kernel. The stage is one taken with `pipe.wait`
    [dataflow.read-outside-wait]; the loads complete before the stage's
    `pipe.release` in program order, so no fence is needed between them.
    A 64·W x 1 fragment reads a one-column ring tile (the other side of a
    `cake.smem.write` of per-row values: KDA's halves exchange their row
    sums this way).

    ```mlir
    %k = cake.smem.read %kr[%t]
      : !cake.ring<1 x 64x64xbf16, swizzle = 128> -> !cake.frag<64x64xbf16>
    ```
  }];
  let arguments = (ins Cake_RingType:$src, Cake_StageType:$stage);
  let results = (outs Cake_FragType:$result);
  let assemblyFormat = [{
    $src `[` $stage `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Cake_BarrierSyncOp : Cake_Op<"barrier.sync"> {
  let summary = "wait at a named barrier shared by some of the kernel's roles";
  let description = [{
    `bar.sync id, threads`: the executing warps wait until `threads`
    threads (whole warps) have arrived at named barrier `id`. It orders
    roles that do not exchange data through a pipe, e.g. two consumer
    warpgroups taking turns at the epilogue. `id` 0 is the CTA-wide barrier
    the prologue uses, so named barriers take 1 to 15; `threads` must be the
    threads of the roles that execute it (cake-verify checks both, and that
    every participating role passes the barrier equally often).

    ```mlir
    cake.barrier.sync id(1) threads(256)
    ```
  }];
  let arguments = (ins I32Attr:$id, I32Attr:$threads);
  let assemblyFormat = "`id` `(` $id `)` `threads` `(` $threads `)` attr-dict";
  let hasVerifier = 1;
}

def Cake_FenceProxyAsyncOp : Cake_Op<"fence.proxy_async"> {
  let summary = "order generic-proxy shared-memory writes before async reads";
  let description = [{
    `fence.proxy.async.shared::cta`: makes this thread's earlier ordinary
    writes to shared memory visible to the async proxy (TMA, wgmma).

    ```mlir
    cake.fence.proxy_async
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Cake_LoadOp : Cake_Op<"load", [AttrSizedOperandSegments,
    OptionalTypesMatchWith<"pad type matches the fragment's element type",
                           "result", "pad",
                           "::llvm::cast<::mlir::cake::FragType>($_self).getElementType()">]> {
  let summary = "load a box of a global tensor into a register fragment";
  let description = [{
    Loads the box at `coords` into a fragment. The fragment's shape, with unit
    dimensions dropped until it has the tensor's rank, is the box. Elements
    outside the tensor take the value `pad` (zero when absent), so a tail
    tile can be made neutral for the reduction that follows. A row (M x 1)
    or column (1 x N) fragment reads along the innermost dimension; an
    accumulator-shaped one (64 W x N) reads a tile of the two innermost
    dimensions (the outer coordinates select the plane), each thread its
    own rows and column pairs, without branches: a chunk's keys or gates
    into registers for the math before an MMA.

    `rows %n` bounds an accumulator-shaped tile's rows by more than the
    tensor: rows at or past the row coordinate + `%n` count as outside (a
    sequence that ends inside the tile, with the next sequence's tokens
    after it in the same tensor).

    ```mlir
    %inf = arith.constant 0x7F800000 : f32
    %cn = cake.load %norms[%k] pad %inf
      : !cake.global<?xf32> -> !cake.frag<1x128xf32>
    %kt = cake.load %K[%t0, %c0] rows %left
      : !cake.global<?x?xbf16> -> !cake.frag<64x64xbf16>
    ```
  }];
  let arguments = (ins Cake_GlobalType:$src, Variadic<Index>:$coords,
                       Optional<Index>:$rows, Optional<AnyType>:$pad);
  let results = (outs Cake_FragType:$result);
  let assemblyFormat = [{
    $src `[` $coords `]` (`rows` $rows^)? (`pad` $pad^)? attr-dict `:`
    qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Cake_StoreOp : Cake_Op<"store", [AttrSizedOperandSegments]> {
  let summary = "store a register fragment to a box of a global tensor";
  let description = [{
    Stores the fragment to the box at `coords`; elements outside the tensor
    are not written. Shapes follow `cake.load`, and so does `rows %n`: a
    tile's rows at or past the row coordinate + `%n` are not written (the
    last chunk of a sequence leaves the next sequence's rows alone).

    `transposed` writes an accumulator-shaped M×N tile as the N×M box at
    `coords`: element (i, j) to row `coords[-2]` + j, column
    `coords[-1]` + i, with `rows %n` bounding the box's rows (the tile's
    columns). A product computed transposed, to put a short dimension on
    wgmma's N (KDA's 16-token chain keeps Sᵀ and computes Oᵀ, docs/kda.md),
    lands in the tensor's own layout; each element is its own predicated
    store (16- or 32-bit elements).

    `every(S)` writes only rows 0, S, 2S, ... of an accumulator-shaped
    tile, as the M/S consecutive rows of the box at `coords` (S a multiple
    of 16 dividing M): one row per segment of a segmented scan, e.g. each
    16-token chunk's Γ_C from the first rows of `cake.frag.scan ... down
    reverse segment(16)` (examples/kda/kda_intra16). `rows %n` then
    bounds the box's rows, the kept ones (ceil(tokens / S) for a chunk
    list). The lanes that hold a kept row store it themselves: no
    exchange, no barrier (`cake.frag.row` of each row and a store would
    take a scratch and a barrier each).

    ```mlir
    cake.store %r -> %C[%m, %n] : !cake.frag<128x256xbf16> -> !cake.global<?x?xbf16>
    cake.store %o -> %O[%t0, %c0] rows %left : !cake.frag<64x64xbf16> -> !cake.global<?x?xbf16>
    cake.store %ot -> %O[%t0, %v0] transposed rows %left : !cake.frag<64x16xbf16> -> !cake.global<?x?xbf16>
    cake.store %gc -> %Gc[%c4, %ch] every(16) : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
    ```
  }];
  let arguments = (ins Cake_FragType:$value, Cake_GlobalType:$dst,
                       Variadic<Index>:$coords, UnitAttr:$transposed,
                       OptionalAttr<I64Attr>:$every, Optional<Index>:$rows);
  let assemblyFormat = [{
    $value `->` $dst `[` $coords `]` (`transposed` $transposed^)? (`every` `(` $every^ `)`)? (`rows` $rows^)? attr-dict `:` qualified(type($value)) `->` qualified(type($dst))
  }];
  let extraClassDeclaration = [{
    /// The box of the tensor the store writes: the fragment's shape, its
    /// two dimensions swapped when `transposed`, its rows divided by S
    /// with `every(S)`.
    SmallVector<int64_t> getBoxShape() {
      SmallVector<int64_t> box(getValue().getType().getShape());
      if (getTransposed() && box.size() == 2)
        std::swap(box[0], box[1]);
      if (std::optional<int64_t> s = getEvery(); s && box.size() == 2 && *s > 0)
        box[0] /= *s;
      return box;
    }
  }];
  let hasVerifier = 1;
}

def Cake_ScalarLoadOp : Cake_Op<"scalar.load",
    [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "load one element of a global tensor, the same in every thread";
  let description = [{
    Reads the element at `coords` (one per dimension) of an integer tensor
    (i32 or i64) and gives it as an `index`, the same value in every thread
    of the role: a work-list entry that becomes a tile coordinate or a
    loop's bound. Coordinates outside the tensor read 0, so a padded work
    list holds empty units. Of an f32 tensor it gives the f32: a per-head
    parameter (KDA's A_log) for `frag.map` to broadcast.

    The verifier compares trip counts across roles through these loads: two
    `cake.scalar.load`s of the same kernel argument at coordinates with
    equal canonical keys are equal, provided the kernel never writes that
    tensor (otherwise sync.trip-count-mismatch warns that the count is
    unproven).

    ```mlir
    cake.tiles (%d, %u) in (%D, %U) {
      %begin = cake.scalar.load %Work[%u, %c1] : !cake.global<?x4xi32>
      %end = cake.scalar.load %Work[%u, %c2] : !cake.global<?x4xi32>
      scf.for %p = %begin to %end step %c64 {
        ...
      }
    }
    ```
  }];
  let arguments = (ins Cake_GlobalType:$src, Variadic<Index>:$coords);
  let results = (outs AnyTypeOf<[Index, F32]>:$result);
  let assemblyFormat = [{
    $src `[` $coords `]` attr-dict `:` qualified(type($src))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Register fragments
//===----------------------------------------------------------------------===//

def Cake_FragZeroOp : Cake_Op<"frag.zero", [Pure]> {
  let summary = "a fragment of zeros";
  let description = [{
    ```mlir
    %acc = cake.frag.zero : !cake.frag<128x256xf32>
    ```
  }];
  let results = (outs Cake_FragType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def Cake_FragIotaOp : Cake_Op<"frag.iota", [Pure]> {
  let summary = "a row or column fragment of its elements' indices";
  let description = [{
    For a fragment of one column (M x 1) each row's value is `base` plus
    its row index; for one row (1 x N) each column's value is `base` plus
    its column index, laid out as the accumulators' rows and columns, so
    `frag.map` can compare an element's position with loaded values (the
    one-hot tile of a k-means update compares each row's cluster index
    with each point's id).

    ```mlir
    %rows = cake.frag.iota base %k : !cake.frag<64x1xi32>
    ```
  }];
  let arguments = (ins Optional<Index>:$base);
  let results = (outs Cake_FragType:$result);
  let assemblyFormat = "(`base` $base^)? attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def Cake_FragSplatOp : Cake_Op<"frag.splat", [Pure,
    TypesMatchWith<"value type matches the fragment's element type",
                   "result", "value",
                   "::llvm::cast<::mlir::cake::FragType>($_self).getElementType()">]> {
  let summary = "a fragment with every element equal to a scalar";
  let description = [{
    ```mlir
    %inf = arith.constant 0x7F800000 : f32
    %best = cake.frag.splat %inf : !cake.frag<128x1xf32>
    ```
  }];
  let arguments = (ins AnyType:$value);
  let results = (outs Cake_FragType:$result);
  let assemblyFormat = "$value attr-dict `:` qualified(type($result))";
}

def Cake_MmaOp : Cake_Op<"mma", [AllTypesMatch<["acc", "result"]>]> {
  let summary = "matrix multiply-accumulate on the tensor cores";
  let description = [{
    `result = acc + A · Bᵀ` where A is an M×K tile and B an N×K tile, both
    K-major in ring stages, and the accumulator an M×N fragment. `kind`
    chooses the instruction family: `wgmma` (Hopper, asynchronous, operands
    read from shared memory through descriptors), `mma_sync` (Ampere and
    later: each warp of the role's warpgroups computes its 16 rows of the
    warpgroup's 64 with m16n8k16 instructions, its operands read with
    ldmatrix under the ring's swizzle; the fragment keeps the wgmma
    accumulator layout, so fragment math, stores and top-k lists are the
    same on every target) or `tcgen05` (Blackwell). The op is split into
    hardware instructions by the lowering; its tile must be a whole number
    of them.

    ```mlir
    %r = cake.mma wgmma %a[%s], %b[%s], %acc
      : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
        !cake.ring<4 x 256x64xbf16, swizzle = 128>, !cake.frag<128x256xf32>
    ```

    Two more decisions for attention-shaped chains (wgmma, f16 and bf16):

    - A from registers: A may be an M×K fragment of the role (no stage),
      held in the accumulator layout, typically the `frag.convert` of an
      earlier result (P = softmax(S) in `O += P · V`). The compiler derives
      the A-operand registers of each k16 slice from it (8 values per
      thread, packed in pairs) [hw.wgmma-register-a].
    - `mn_major` B: the ring's tile is K×N with N contiguous (V stored
      [kv, d], read as Vᵀ's N×K). The descriptor's transpose bit and its
      per-slice advance (16 rows rather than 32 bytes) are derived; the
      tile's rows of N must span exactly the swizzle width
      [hw.wgmma-transpose].
    - `mn_major` A (written after A's stage): the ring's tile is K×M with
      M contiguous, for products over tokens of operands stored token by
      token (a weight gradient Xᵀ · dY, a linear attention's state update
      K̄ᵀ · V). Derived and checked as for B; its rows of M span the
      swizzle width, so one warpgroup reads it (64 rows of 16-bit values
      under the 128-byte swizzle).

    ```mlir
    %o1 = cake.mma wgmma %p, %v[%t] mn_major, %o
      : !cake.frag<128x128xbf16>, !cake.ring<2 x 128x64xbf16, swizzle = 128>,
        !cake.frag<128x64xf32>
    ```

    ```mlir
    %s1 = cake.mma wgmma %k[%t] mn_major, %v[%t] mn_major, %s
      : !cake.ring<2 x 64x64xbf16, swizzle = 128>,
        !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
    ```

    `negate` computes `result = acc - A · Bᵀ` at no cost (wgmma's operand
    scale of -1, 16-bit floating-point operands): an epilogue that needs
    `c - 2 x·y` can start the accumulator at `c / 2` instead of mapping
    every element afterwards. (The k-means assignment written that way ran
    slower on the H200, its norms' load now ahead of the mma:
    docs/benchmarks.md, k-means run 6.)
  }];
  // aStage, optional, comes last among the operands: the accumulator's
  // type, which the result's is inferred from, then has a fixed position.
  let arguments = (ins Cake_MmaKind:$kind, UnitAttr:$negate,
                       AnyTypeOf<[Cake_RingType, Cake_FragType]>:$a,
                       Cake_RingType:$b, Cake_StageType:$bStage,
                       UnitAttr:$mn_major,
                       UnitAttr:$a_mn_major,
                       Cake_FragType:$acc,
                       Optional<Cake_StageType>:$aStage,
                       OptionalAttr<Cake_WgmmaLayoutAttr>:$derived);
  let results = (outs Cake_FragType:$result);
  let assemblyFormat = [{
    $kind (`negate` $negate^)? $a (`[` $aStage^ `]`)?
    (`mn_major` $a_mn_major^)? `,` $b `[` $bStage `]`
    (`mn_major` $mn_major^)? `,` $acc attr-dict `:`
    qualified(type($a)) `,` qualified(type($b)) `,` qualified(type($acc))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// A's ring, or null when A comes from registers.
    ::mlir::cake::RingType getARing() {
      return ::llvm::dyn_cast<::mlir::cake::RingType>(getA().getType());
    }
    /// A's fragment when A comes from registers, else null.
    ::mlir::cake::FragType getAFragment() {
      return ::llvm::dyn_cast<::mlir::cake::FragType>(getA().getType());
    }
    /// Whether A comes from registers (the RS form of wgmma).
    bool isAFromRegisters() { return static_cast<bool>(getAFragment()); }
    /// A's element type and shape (M x K, whichever its major dimension),
    /// ring or fragment.
    ::mlir::Type getAElementType();
    ::llvm::SmallVector<int64_t, 2> getAShape();
    /// N and K of B's tile, whichever its major dimension.
    int64_t getN() {
      auto shape = getB().getType().getShape();
      return getMnMajor() ? shape[1] : shape[0];
    }
    int64_t getK() {
      auto shape = getB().getType().getShape();
      return getMnMajor() ? shape[0] : shape[1];
    }
  }];
}

def Cake_FragConvertOp : Cake_Op<"frag.convert", [Pure]> {
  let summary = "convert a fragment's element type";
  let description = [{
    Elementwise conversion (float truncation or extension, int/float casts)
    of a fragment to another element type of the same shape.

    ```mlir
    %o = cake.frag.convert %acc : !cake.frag<128x256xf32> -> !cake.frag<128x256xbf16>
    ```
  }];
  let arguments = (ins Cake_FragType:$input);
  let results = (outs Cake_FragType:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Cake_FragMapOp : Cake_Op<"frag.map", [
    Pure, SingleBlockImplicitTerminator<"FragYieldOp">]> {
  let summary = "elementwise math over fragments, with broadcasting";
  let description = [{
    Applies its body, written with scalar ops from upstream dialects (arith,
    math), to every element of its inputs. Inputs have the same rank and each
    dimension either equals the result's or is 1 (broadcast). The body takes
    one scalar per input and yields one scalar per result.

    ```mlir
    // dist = ||c||^2 - 2 x.c ; ||x||^2 is the same for every centroid.
    %d = cake.frag.map %dot, %cn
        : (!cake.frag<128x128xf32>, !cake.frag<1x128xf32>) -> !cake.frag<128x128xf32> {
    ^bb0(%xc: f32, %c2: f32):
      %two = arith.constant 2.0 : f32
      %t = arith.mulf %xc, %two : f32
      %r = arith.subf %c2, %t : f32
      cake.frag.yield %r : f32
    }
    ```
  }];
  let arguments = (ins Variadic<Cake_FragType>:$inputs);
  let results = (outs Variadic<Cake_FragType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasVerifier = 1;
}

def Cake_FragYieldOp : Cake_Op<"frag.yield", [
    Pure, Terminator, HasParent<"FragMapOp">]> {
  let summary = "yield the scalars of one element from a frag.map body";
  let description = [{
    ```mlir
    cake.frag.yield %r : f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "($values^ `:` qualified(type($values)))? attr-dict";
}

def Cake_FragReduceOp : Cake_Op<"frag.reduce", [Pure]> {
  let summary = "reduce each row of a fragment (sum, min or max)";
  let description = [{
    Reduces the innermost dimension, which is kept with size 1 so the result
    broadcasts against the input.

    ```mlir
    %s = cake.frag.reduce sum %f : !cake.frag<128x256xf32> -> !cake.frag<128x1xf32>
    ```
  }];
  let arguments = (ins Cake_ReduceKind:$kind, Cake_FragType:$input);
  let results = (outs Cake_FragType:$result);
  let assemblyFormat = "$kind $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def Cake_FragScanOp : Cake_Op<"frag.scan",
    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "inclusive prefix sum (min, max) along each row of a fragment";
  let description = [{
    `%c = cake.frag.scan sum %f` gives c[i][j] = f[i][0] + ... + f[i][j]
    for every row i (with `min` or `max`, the running minimum or maximum):
    a cumulative gate when a linear-attention chunk's tokens run along the
    columns, offsets of a compaction, a running maximum. The result has the
    input's type.

    On an accumulator-shaped fragment each row is spread over the four
    lanes of a quad, two adjacent columns in every group of eight; the
    lowering scans each pair in place, the pairs' totals across the quad
    by shuffles, and carries each group's total to the next.

    With `down`, each column is scanned down the rows instead:
    c[i][j] = f[0][j] + ... + f[i][j], a cumulative gate when the chunk's
    tokens are the rows of the tile as loaded. A warp's 16 rows are
    scanned by shuffles across its lanes; each warp's column totals go
    through a derived shared-memory scratch (4 bytes per column and warp)
    between two meetings of the role's threads on a derived named barrier,
    as for frag.row, and each warp adds those of the warps above it.

    `segment(S)` restarts the scan down every S rows (S a multiple of 16
    dividing the rows): c[i][j] = f[s][j] + ... + f[i][j] with s the first
    row of i's segment, the cumulative gates of several short chunks in one
    tile (KDA's 16-token chunks, docs/kda.md). A segment of 16 rows is one
    warp's: it needs no scratch and no barrier; a longer one adds only the
    totals of the earlier warps of its own segment.

    `reverse` runs the scan down up the rows instead:
    c[i][j] = f[i][j] + ... + f[e][j] with e the last row of i's segment
    (or of the fragment): the decay from each token to its chunk's end,
    Γ_C − Γ_i = c[i] − f[i], without the cancellation of a difference of
    two prefix sums, and the chunk's total Γ_C in its first row.

    ```mlir
    %g = cake.frag.scan sum %a : !cake.frag<128x64xf32>
    %gamma = cake.frag.scan sum %gate down : !cake.frag<64x128xf32>
    %g16 = cake.frag.scan sum %gate down segment(16) : !cake.frag<64x128xf32>
    %r16 = cake.frag.scan sum %gate down reverse segment(16) : !cake.frag<64x128xf32>
    ```
  }];
  let arguments = (ins Cake_ReduceKind:$kind, Cake_FragType:$input,
                       UnitAttr:$down, UnitAttr:$reverse,
                       OptionalAttr<I64Attr>:$segment,
                       OptionalAttr<Cake_ScratchAttr>:$derived);
  let results = (outs Cake_FragType:$result);
  let assemblyFormat = [{
    $kind $input (`down` $down^)? (`reverse` $reverse^)?
    (`segment` `(` $segment^ `)`)? attr-dict
    `:` qualified(type($input))
  }];
  let extraClassDeclaration = [{
    /// Rows a scan down runs over before it restarts (all of them without
    /// `segment`).
    int64_t getSegmentRows() {
      return getSegment() ? int64_t(*getSegment())
                          : getInput().getType().getShape()[0];
    }
    /// Whether the scan down crosses warps (16 rows each in the
    /// accumulator layout), so needs a scratch and the role's barrier.
    bool crossesWarps() { return getDown() && getSegmentRows() > 16; }
  }];
  let hasVerifier = 1;
}

def Cake_FragRowOp : Cake_Op<"frag.row"> {
  let summary = "one row of a fragment, for every row (a value per column)";
  let description = [{
    `%r = cake.frag.row %f[i]` is row i of an M×N accumulator-shaped
    fragment as a 1×N fragment (a value per column), which broadcasts
    against every row in `frag.map`: a chunk's last cumulative gate Γ_C
    against each token's, a sub-block's reference row (docs/kda.md).

    Row i lives in one warp (four lanes of it); every other warp of the
    role needs it too. The lowering stores it from its owner lanes into a
    shared-memory scratch, meets the role's threads on a named barrier,
    reads each thread's columns back, and meets them again before the
    scratch can be rewritten. The scratch's offset and the barrier's id
    are derived (`#cake.scratch`); resource.smem-capacity counts the
    scratch and sync.named-barrier the ids. 32-bit element types.

    ```mlir
    %last = cake.frag.row %g[63] : !cake.frag<64x128xf32> -> !cake.frag<1x128xf32>
    ```
  }];
  let arguments = (ins Cake_FragType:$input, I64Attr:$row,
                       OptionalAttr<Cake_ScratchAttr>:$derived);
  let results = (outs Cake_FragType:$result);
  let assemblyFormat = [{
    $input `[` $row `]` attr-dict `:` qualified(type($input)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Cake_FragTrilInverseOp : Cake_Op<"frag.tril_inverse",
    [AllTypesMatch<["input", "result"]>]> {
  let summary = "the inverse of I + (the strictly lower triangle of a fragment)";
  let description = [{
    `%t = cake.frag.tril_inverse %l` gives T = (I + L)⁻¹, where L is the
    strictly lower triangle of the 64 × 64 fp32 fragment `%l`: its diagonal
    and upper triangle are not read, so the product that forms L needs no
    mask. T is unit lower triangular (ones on the diagonal, zeros above).
    It is the solve of a chunked delta rule (KDA's T = (I + L)⁻¹ with
    L = strict_tril(Diag(β)·K̃K̂ᵀ), docs/kda.md): W = T·βK̃ and U = T·βV
    follow as wgmma with T as a register A operand.

    The lowering is exact forward substitution in fp32 (no tensor-core
    rounding): the fragment goes to a derived shared-memory scratch (row
    stride 68 floats); the four 16 × 16 diagonal blocks are inverted, one
    column per thread; then each of T's 64 columns is solved block by block
    (T_b = −D_b · Σ_k L_bk T_k) by two threads holding eight rows each and
    exchanging them by shuffles; T goes back to the scratch and each thread
    reads its values in the accumulator layout. The role's threads meet on
    the derived named barrier between the steps (`#cake.scratch`, as for
    frag.row); resource.smem-capacity counts the scratch.

    ```mlir
    %t = cake.frag.tril_inverse %l : !cake.frag<64x64xf32>
    ```

    With `diagonal`, only the four 16 × 16 diagonal blocks are inverted:
    the result is D = (I + L_d)⁻¹, L_d the strictly lower triangles of
    those blocks, zero outside them (the first two steps above, then the
    reads). The rest of T is then the author's to form on the tensor
    cores, e.g. with N = D·L_off (L_off: L below the diagonal blocks,
    N⁴ = 0) T = (I − N)·(I + N²)·D, four 64 × 64 wgmmas
    (examples/chunk_solve_merge.cake.mlir): the exact fp32 work shrinks to
    the blocks, and the merge rounds its operands to the MMA's type.

    ```mlir
    %d = cake.frag.tril_inverse %l diagonal : !cake.frag<64x64xf32>
    ```
  }];
  let arguments = (ins Cake_FragType:$input, UnitAttr:$diagonal,
                       OptionalAttr<Cake_ScratchAttr>:$derived);
  let results = (outs Cake_FragType:$result);
  let assemblyFormat =
      "$input (`diagonal` $diagonal^)? attr-dict `:` qualified(type($input))";
  let hasVerifier = 1;
}

def Cake_FragArgminOp : Cake_Op<"frag.argmin", [Pure]> {
  let summary = "the minimum of each row and its column index";
  let description = [{
    Reduces the innermost dimension to its minimum value and the index of
    that minimum (the first one on ties), plus `base` when given, so a loop
    over column tiles yields global indices. Both results keep the reduced
    dimension with size 1.

    `packed` (f32 only) trades exact ties for fewer instructions: each
    thread writes its column's position into the low b mantissa bits of the
    value (b = log2 of the columns one thread holds per row: 5 for 128
    columns), so one float minimum per element both compares and selects.
    Values within 2^-(23-b) of each other, relative to their magnitude, may
    resolve to either column, and the minimum returned is the value with
    those b bits cleared. A +inf input (a padded column) never wins over a
    finite one.

    ```mlir
    %v, %i = cake.frag.argmin %d base %k
      : !cake.frag<128x128xf32> -> !cake.frag<128x1xf32>, !cake.frag<128x1xi32>
    %pv, %pi = cake.frag.argmin %d base %k packed
      : !cake.frag<128x128xf32> -> !cake.frag<128x1xf32>, !cake.frag<128x1xi32>
    ```
  }];
  let arguments = (ins Cake_FragType:$input, Optional<Index>:$base,
                       UnitAttr:$packed);
  let results = (outs Cake_FragType:$values, Cake_FragType:$indices);
  let assemblyFormat = [{
    $input (`base` $base^)? (`packed` $packed^)? attr-dict `:` qualified(type($input)) `->` qualified(type($values)) `,`
    qualified(type($indices))
  }];
  let hasVerifier = 1;
}

// Op families in files of their own.
include "cake/Dialect/CakeTopK.td"
include "cake/Dialect/CakeGather.td"
include "cake/Dialect/CakeSmemReduce.td"
include "cake/Dialect/CakeScatter.td"

#endif // CAKE_OPS_TD
