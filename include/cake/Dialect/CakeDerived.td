// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeDerived.td - What cake-derive attaches ----------*- tablegen -*-===//
//
// The mechanical details cake-derive computes from a kernel's decisions,
// one typed attribute per op family. Each op that has them declares an
// optional `derived` attribute of its family's type; the lowering reads
// them through the generated accessors (op.getDerivedAttr().getTxBytes()),
// and nothing else derived. An author never writes them.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_DERIVED_TD
#define CAKE_DERIVED_TD

include "cake/Dialect/CakeBase.td"

//===----------------------------------------------------------------------===//
// Enums of derived facts
//===----------------------------------------------------------------------===//

def Cake_RoleLanes : I32EnumAttr<"RoleLanes",
    "which threads of a role run its body", [
    I32EnumAttrCase<"one", 0>,
    I32EnumAttrCase<"all", 1>]> {
  let cppNamespace = "::mlir::cake";
}

def Cake_SetmaxnregAction : I32EnumAttr<"SetmaxnregAction",
    "what a role's setmaxnreg does to the launch baseline", [
    I32EnumAttrCase<"none", 0>,
    I32EnumAttrCase<"inc", 1>,
    I32EnumAttrCase<"dec", 2>]> {
  let cppNamespace = "::mlir::cake";
}

def Cake_HandoffBarrier : I32EnumAttr<"HandoffBarrier",
    "the mbarrier of a stage a hand-off waits on", [
    I32EnumAttrCase<"full", 0>,
    I32EnumAttrCase<"empty", 1>]> {
  let cppNamespace = "::mlir::cake";
}

def Cake_ParityRule : I32EnumAttr<"ParityRule",
    "the parity a hand-off waits for, from its count n of hand-offs", [
    I32EnumAttrCase<"phase", 0>,
    I32EnumAttrCase<"inverted_phase", 1>]> {
  let cppNamespace = "::mlir::cake";
}

//===----------------------------------------------------------------------===//
// One attribute per op family
//===----------------------------------------------------------------------===//

def Cake_TmaDescriptorAttr : Cake_Attr<"TmaDescriptor", "tma_descriptor"> {
  let summary = "a TMA descriptor the launcher encodes (derived)";
  let description = [{
    One per (kernel argument, box, swizzle) the kernel's copies use: the
    argument whose tensor it describes, the box the copy moves (the ring's
    tile, with 1 for the tensor's outer dimensions) and the swizzle.

    ```mlir
    #cake.tma_descriptor<arg = 0, box = [128, 64], swizzle = 128>
    ```
  }];
  let parameters = (ins "int64_t":$arg, ArrayRefParameter<"int64_t">:$box,
                        "int64_t":$swizzle);
  let assemblyFormat = "`<` `arg` `=` $arg `,` `box` `=` `[` $box `]` `,` "
                       "`swizzle` `=` $swizzle `>`";
}

def Cake_KernelLayoutAttr : Cake_Attr<"KernelLayout", "kernel_layout"> {
  let summary = "a kernel's launch shape and resources (derived)";
  let description = [{
    The block (every role's warps, warpgroup roles aligned to 4 warps), the
    registers per thread each thread gets at launch (what setmaxnreg moves
    away from), the dynamic shared memory to request (barriers and rings
    with their alignment, plus the 1024 bytes the base is rounded up by) and
    the TMA descriptors, indexed by the copies' `#cake.tma_copy`.

    ```mlir
    cake.kernel @gemm(...) attributes {derived = #cake.kernel_layout<
        block = [384, 1, 1], baseline_regs = 168, smem_bytes = 100352,
        tma = [#cake.tma_descriptor<arg = 0, box = [128, 64], swizzle = 128>]>,
        ...}
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$block,
                        "int64_t":$baseline_regs, "int64_t":$smem_bytes,
                        "::mlir::ArrayAttr":$tma);
  let assemblyFormat = "`<` `block` `=` `[` $block `]` `,` `baseline_regs` "
                       "`=` $baseline_regs `,` `smem_bytes` `=` $smem_bytes "
                       "`,` `tma` `=` $tma `>`";
  let genVerifyDecl = 1;
}

def Cake_RoleLayoutAttr : Cake_Attr<"RoleLayout", "role_layout"> {
  let summary = "where a role runs and its register action (derived)";
  let description = [{
    The role's first warp in the CTA (warpgroup roles start at a multiple
    of 4), whether one elected thread runs it (`one`: a role that only moves
    data) or all its threads (`all`), and what its setmaxnreg does to the
    launch baseline.

    ```mlir
    #cake.role_layout<first_warp = 4, lanes = all, setmaxnreg = inc>
    ```
  }];
  let parameters = (ins "int64_t":$first_warp,
                        EnumParameter<Cake_RoleLanes>:$lanes,
                        EnumParameter<Cake_SetmaxnregAction>:$setmaxnreg);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Cake_RingLayoutAttr : Cake_Attr<"RingLayout", "ring_layout"> {
  let summary = "where a ring lives in shared memory (derived)";
  let description = [{
    The byte offset of the ring's first stage from the 1024-byte aligned
    base of dynamic shared memory, and the alignment its swizzle needs.

    ```mlir
    #cake.ring_layout<offset = 1024, align = 1024>
    ```
  }];
  let parameters = (ins "int64_t":$offset, "int64_t":$align);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Cake_PipeBarriersAttr : Cake_Attr<"PipeBarriers", "pipe_barriers"> {
  let summary = "a pipe's mbarriers and the counts they complete at (derived)";
  let description = [{
    The byte offsets of the pipe's `full` and `empty` mbarrier arrays (8
    bytes per stage each), the arrivals that complete each (one armed
    arrival for a stage TMA fills, else one per producer warp; one per
    consumer warp for `empty`), and the bytes a TMA-filled stage's copies
    deliver (the sum of its rings' tile bytes: the expect-tx count).
    `release_ctas` (shown when not 1) is the number of CTAs whose consumers
    release each stage: the cluster, for a pipe some of whose rings are
    filled by multicast copies, since another CTA's copy writes this CTA's
    stage. Each consumer warp then arrives on the `empty` barrier of every
    CTA of the cluster, and `empty_count` counts them all.

    ```mlir
    #cake.pipe_barriers<full = 0, empty = 24, full_count = 1,
                        empty_count = 8, tx_bytes = 32768>
    #cake.pipe_barriers<full = 0, empty = 32, full_count = 1,
                        empty_count = 16, tx_bytes = 49152, release_ctas = 2>
    ```
  }];
  let parameters = (ins "int64_t":$full, "int64_t":$empty,
                        "int64_t":$full_count, "int64_t":$empty_count,
                        "int64_t":$tx_bytes,
                        DefaultValuedParameter<"int64_t", "1">:$release_ctas);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Cake_HandoffAttr : Cake_Attr<"Handoff", "handoff"> {
  let summary = "the barrier and parity a hand-off waits on (derived)";
  let description = [{
    With n the role's count of hand-offs on the pipe so far and S its
    stages, the hand-off takes stage n mod S. A consumer's `pipe.wait`
    waits on the stage's `full` barrier for parity `phase`, (n / S) mod 2;
    a producer's `pipe.acquire` on its `empty` barrier for
    `inverted_phase`, 1 - (n / S) mod 2, which a fresh barrier reports
    complete, so the first S acquires do not wait.

    ```mlir
    #cake.handoff<barrier = empty, parity = inverted_phase>
    ```
  }];
  let parameters = (ins EnumParameter<Cake_HandoffBarrier>:$barrier,
                        EnumParameter<Cake_ParityRule>:$parity);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Cake_TmaCopyAttr : Cake_Attr<"TmaCopy", "tma_copy"> {
  let summary = "the TMA descriptor a copy uses (derived)";
  let description = [{
    The index of the copy's descriptor in its kernel's
    `#cake.kernel_layout<... tma = [...]>`. A multicast load has
    `slices` = the cluster's n (shown when not 1): its descriptor's box is
    one n-th of the ring tile's rows, and the CTA of cluster rank r loads
    slice r (coordinate + r * rows/n, stage offset + r * bytes/n) into the
    stage of every CTA of the cluster.

    ```mlir
    #cake.tma_copy<descriptor = 0>
    #cake.tma_copy<descriptor = 1, slices = 2>
    ```
  }];
  let parameters = (ins "int64_t":$descriptor,
                        DefaultValuedParameter<"int64_t", "1">:$slices);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Cake_WgmmaLayoutAttr : Cake_Attr<"WgmmaLayout", "wgmma_layout"> {
  let summary = "the instruction shape and descriptor fields of a wgmma (derived)";
  let description = [{
    The accumulator rows each warpgroup of the role owns, the instruction's
    N and K (K from 32 bytes of the operand type), and the fields of the
    shared-memory matrix descriptors: the stride byte offset (8 rows of the
    swizzle span) and the swizzle mode (1: 128 B, 2: 64 B, 3: 32 B).

    ```mlir
    #cake.wgmma_layout<wg_rows = 64, instr_n = 128, instr_k = 16, sbo = 1024,
                       swizzle_mode = 1>
    ```
  }];
  let parameters = (ins "int64_t":$wg_rows, "int64_t":$instr_n,
                        "int64_t":$instr_k, "int64_t":$sbo,
                        "int64_t":$swizzle_mode);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Cake_ScratchAttr : Cake_Attr<"Scratch", "scratch"> {
  let summary = "a fragment op's shared-memory scratch and named barrier (derived)";
  let description = [{
    Where an op that moves values between the warps of a role (frag.row,
    frag.scan down, frag.tril_inverse) puts them: a byte offset into the kernel's dynamic shared memory (after
    the rings, 16-byte aligned, `bytes` long) and the named barrier its
    role's threads meet on (one id per role, after every `cake.barrier.sync`
    id of the kernel).

    ```mlir
    #cake.scratch<offset = 33792, bytes = 512, barrier = 1>
    ```
  }];
  let parameters = (ins "int64_t":$offset, "int64_t":$bytes,
                        "int64_t":$barrier);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Cake_TileExtentsAttr : Cake_Attr<"TileExtents", "tile_extents"> {
  let summary = "where the tile loop's extents come from (derived)";
  let description = [{
    Per extent of `cake.tiles`, the kernel argument it comes from and, for
    a `cake.dim` of a tensor argument, the dimension (-1 for an index
    argument itself), so that the launcher can size the grid.

    ```mlir
    #cake.tile_extents<args = [0, 1], dims = [0, 0]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$args,
                        ArrayRefParameter<"int64_t">:$dims);
  let assemblyFormat = "`<` `args` `=` `[` $args `]` `,` `dims` `=` `[` "
                       "$dims `]` `>`";
  let genVerifyDecl = 1;
}

#endif // CAKE_DERIVED_TD
