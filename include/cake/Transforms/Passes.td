// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Passes.td - cake-derive and the tactics -------------*- tablegen -*-===//
//
// The rewrites of Cake IR: cake-derive, which attaches the mechanical
// details, and the tactics, each of which changes one decision. Registered
// with every other pass through cake/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TRANSFORMS_PASSES_TD
#define CAKE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def Derive : Pass<"cake-derive", "::mlir::ModuleOp"> {
  let summary = "Derive the mechanical details of each kernel from its decisions";
  let description = [{
    Computes and attaches everything a kernel's author does not write, as
    each op's typed `derived` attribute (one attribute per op family,
    declared in include/cake/Dialect/CakeDerived.td; the lowering reads
    them through their accessors and nothing else derived):

    - `cake.kernel`: `#cake.kernel_layout`: `block` (threads per CTA,
      warpgroup-aligned), `baseline_regs` (registers per thread at launch,
      what setmaxnreg moves away from), `smem_bytes` (dynamic shared memory
      including 1024 bytes of slack to align the base), `tma` (one
      `#cake.tma_descriptor` per distinct global tensor and box: argument,
      box, swizzle).
    - `cake.role`: `#cake.role_layout`: `first_warp` (warpgroup roles
      start at a warp index divisible by 4), `lanes` (`one` when only one
      elected thread issues copies, `all` otherwise), `setmaxnreg` (`inc`,
      `dec` or `none` against the baseline).
    - `cake.ring`: `#cake.ring_layout`: `offset` in shared memory, aligned
      to `align` (1024 B for 128-byte swizzle, 512 for 64, 256 for 32, 128
      otherwise).
    - `cake.pipe`: `#cake.pipe_barriers`: `full` and `empty` (offsets of
      the stage barrier arrays, 8 B each), `full_count` (1: the producer's
      arrive.expect_tx), `empty_count` (warps of the consumer role: lane 0
      of each warp arrives once the warp is done with the stage; threads of
      both sides where the stages pass by ordinary stores and loads alone,
      smem.write to smem.read or smem.reduce, each thread arriving),
      `tx_bytes` (bytes every stage receives: the sum of its rings' tile
      bytes).
    - `cake.pipe.acquire` / `cake.pipe.wait`: `#cake.handoff`: `barrier`
      and `parity`: the hand-off number n of the role on that pipe gives
      the stage n mod S and the phase (n / S) mod 2; a wait on `full` uses
      that phase's parity (`phase`), an acquire on `empty` its complement
      (`inverted_phase`: the first pass over a fresh barrier does not
      block). n counts across the persistent tile loop.
    - `cake.tma.load` / `cake.tma.store`: `#cake.tma_copy`: `descriptor`,
      the index of its descriptor in the kernel's `tma` list.
    - `cake.mma` (wgmma): `#cake.wgmma_layout`: `wg_rows` (rows per
      warpgroup), `instr_n`, `instr_k`, and the shared-memory descriptor
      fields `sbo` (stride byte offset: 8 rows of the swizzle span) and
      `swizzle_mode`.
    - `cake.tiles`: `#cake.tile_extents`: per extent, the argument and
      dimension it comes from, which the launcher reads to size the grid.

    Before: `%a = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>`.
    After: `%a = cake.ring {derived = #cake.ring_layout<offset = 1024,
    align = 1024>} : ...`.

    Fails with `[resource.smem-capacity]` when the layout exceeds the
    target's shared memory per CTA.
  }];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

//===----------------------------------------------------------------------===//
// Tactics: each rewrites one decision of every kernel in the module. The
// result is checked by the op verifiers; run cake-verify after them.
//===----------------------------------------------------------------------===//

def SetStages : Pass<"cake-set-stages", "::mlir::ModuleOp"> {
  let summary = "Tactic: set the stage count of one pipe and its rings";
  let description = [{
    Sets pipe number `pipe` (in the order the pipes are declared) and every
    ring it holds to `stages` stages. Shared-memory offsets, barriers and
    phases follow in cake-derive; whether the new depth fits shared memory
    is cake-verify's `resource.smem-capacity`.

    ```
    $ cake-opt --cake-set-stages="pipe=0 stages=3" --cake-verify gemm.cake.mlir
    ```
  }];
  let options = [
    Option<"pipe", "pipe", "unsigned", /*default=*/"0", "which pipe (declaration order)">,
    Option<"stages", "stages", "unsigned", /*default=*/"2", "the new stage count (>= 1)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetSwizzle : Pass<"cake-set-swizzle", "::mlir::ModuleOp"> {
  let summary = "Tactic: set the shared-memory swizzle of one ring";
  let description = [{
    Sets ring number `ring` (declaration order) to swizzle `swizzle` (0, 32,
    64 or 128 bytes); the ring type's verifier rejects a tile whose inner
    dimension spans more than the swizzle.
  }];
  let options = [
    Option<"ring", "ring", "unsigned", /*default=*/"0", "which ring (declaration order)">,
    Option<"swizzle", "swizzle", "unsigned", /*default=*/"128", "0, 32, 64 or 128">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetRegs : Pass<"cake-set-regs", "::mlir::ModuleOp"> {
  let summary = "Tactic: set a role's register budget";
  let description = [{
    Sets the `regs()` of the role named `role` to `regs` (0 removes it, so
    the role keeps the launch baseline). `resource.register-budget` checks
    the result against the CTA's launch allocation.
  }];
  let options = [
    Option<"role", "role", "std::string", /*default=*/"\"\"", "the role's name">,
    Option<"regs", "regs", "unsigned", /*default=*/"0", "registers per thread (0: none)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetRaster : Pass<"cake-set-raster", "::mlir::ModuleOp"> {
  let summary = "Tactic: set the persistent schedule's group-M raster order";
  let description = [{
    Sets `group_m` of a `#cake.persistent` schedule: the tile loop walks
    `group-m` tile rows at a time so that consecutive tiles share operand
    tiles in L2. Fails on a `#cake.grid` schedule.
  }];
  let options = [
    Option<"groupM", "group-m", "unsigned", /*default=*/"1", "tile rows per group (>= 1)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetTile : Pass<"cake-set-tile", "::mlir::ModuleOp"> {
  let summary = "Tactic: set the schedule's tile shape and what follows from it";
  let description = [{
    Sets the schedule's tile to `m` (x `n` for a two-dimensional schedule;
    0 keeps a size) and carries the change to what holds it: the rows of
    every ring whose copies are indexed by that tile coordinate, the tile
    dimensions of every fragment (dimension 0 is the tile's M, dimension 1
    its N, as in the accumulator layout), and the warpgroups of the roles
    that run the mma (64 rows each). Register budgets are kept: cake-verify
    judges them, and cake-set-regs changes them.

    ```
    $ cake-opt --cake-set-tile="m=256 n=128" --cake-set-regs="role=mma regs=104" \
        --cake-verify gemm.cake.mlir
    ```
  }];
  let options = [
    Option<"m", "m", "unsigned", /*default=*/"0", "tile rows (0: keep)">,
    Option<"n", "n", "unsigned", /*default=*/"0", "tile columns (0: keep)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetMmaChain : Pass<"cake-set-mma-chain", "::mlir::ModuleOp"> {
  let summary = "Tactic: keep a straight-line wgmma chain in flight, or not";
  let description = [{
    Records on every kernel, as the attribute `cake.mma_chain`, whether
    the lowering keeps a straight-line chain of wgmmas on one accumulator
    (a K split over stages, unrolled) in flight until its last group, or
    retires each group at its commit. convert-cake-to-nvvm follows the
    attribute over its `mma-chain` option. On the H200 the chain made the
    k-means assignment 4-12% faster at D = 128 (two stages per tile) and
    up to 16% slower at D = 256 (four over a two-stage ring).
  }];
  let options = [
    Option<"enable", "enable", "bool", /*default=*/"true",
           "keep the chain in flight (false: retire each group at once)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetCtasPerSM : Pass<"cake-set-ctas-per-sm", "::mlir::ModuleOp"> {
  let summary = "Tactic: how many CTAs of each kernel are resident per SM";
  let description = [{
    Records on every kernel, as the attribute `cake.ctas_per_sm`, how many
    CTAs an SM should hold at once (1 removes the attribute). The lowering
    holds ptxas to their share of the register file (.minnctapersm), so
    registers may spill; cake-verify checks that their shared memory and
    threads fit an SM, that the schedule is a grid (a persistent one
    launches one CTA per SM) and that no role asks for regs(). On the
    H200 (KDA run 4) two CTAs of the chain kernel at H = 96 made all 192
    chains resident but spilled, and were slower.
  }];
  let options = [
    Option<"ctas", "ctas", "int64_t", /*default=*/"1",
           "resident CTAs per SM (1: the default, no attribute)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetCluster : Pass<"cake-set-cluster", "::mlir::ModuleOp"> {
  let summary = "Tactic: group CTAs into clusters and multicast the tiles they share";
  let description = [{
    Sets every kernel's `cluster` to `ctas` (1 removes it; hw.cluster
    bounds it) and, with `multicast` (the default), marks `multicast` on
    each TMA load the cluster's CTAs share: one whose coordinates and
    whose pipe's hand-offs do not depend on the tile row, and whose box
    splits into one slice per CTA at the swizzle's period (the loads
    sync.multicast-uniform and hw.tma-multicast accept; in a GEMM, B's).
    Other loads, and every load with `multicast=false` or `ctas=1`, are
    not multicast. On the H200 (GEMM run 6) clusters of two with B
    multicast ran as fast as the kernels without, not faster.

    ```
    $ cake-opt --cake-set-cluster="ctas=2" --cake-verify gemm.cake.mlir
    ```
  }];
  let options = [
    Option<"ctas", "ctas", "int64_t", /*default=*/"2",
           "CTAs per cluster (1: no cluster)">,
    Option<"multicast", "multicast", "bool", /*default=*/"true",
           "multicast the loads the cluster's CTAs share">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetRetireLate : Pass<"cake-set-retire-late", "::mlir::ModuleOp"> {
  let summary = "Tactic: retire a wgmma chain's last group where it is needed, or at its commit";
  let description = [{
    Records on every kernel, as the attribute `cake.retire_late`, whether
    the lowering retires a straight-line wgmma chain's last group at the
    first op that reads its result (or cannot issue beside it: control
    flow, shared-memory writes, barriers) rather than right after its
    commit, with a `wgmma.wait_group N` that leaves the N groups committed
    after it in flight. Global loads, register math that does not need the
    result and other chains issue meanwhile: the k-means epilogue's
    ||c||^2 row, and attention's softmax of S = Q Kᵀ beside the previous
    step's O += P V (FlashAttention-3's intra-warpgroup overlap). Releases
    of the stages a pending group reads are held until it retires.
    convert-cake-to-nvvm follows the attribute over its `retire-late`
    option. On the H200 (k-means run 16c) it made the three-warpgroup
    assignment 3% faster at 8 x 65536 x 128 x 256, and was mixed
    elsewhere (up to 5% slower at 32 x 75600 x 128 x 1000).
  }];
  let options = [
    Option<"enable", "enable", "bool", /*default=*/"true",
           "retire where needed (false: at the commit)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetFenceWaits : Pass<"cake-set-fence-waits", "::mlir::ModuleOp"> {
  let summary = "Tactic: pin retire-late's waits after the work placed before them";
  let description = [{
    Records on every kernel, as the attribute `cake.fence_waits`, whether
    each `wgmma.wait_group` that retire-late places after independent work
    follows a `fence.acq_rel.cta`. ptxas's scheduler hoists a wait
    (`WARPGROUP.DEPBAR`) above the instructions that do not need the
    groups it waits for: in the attention forward it waited for the
    previous step's O += P V before all 66 `MUFU.EX2` of the softmax, so
    the overlap retire-late wrote into the PTX did not reach the SASS. It
    does not move the wait above the fence. The fence orders the thread's
    earlier memory accesses too, so a wait after global loads still in
    flight (the k-means epilogue's ||c||^2 row) may also wait for them.
    convert-cake-to-nvvm follows the attribute over its `fence-waits`
    option; without retire-late it changes nothing.
  }];
  let options = [
    Option<"enable", "enable", "bool", /*default=*/"true",
           "fence the late waits (false: plain waits)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetFlushDenormals : Pass<"cake-set-flush-denormals", "::mlir::ModuleOp"> {
  let summary = "Tactic: flush f32 denormals to zero, or keep them";
  let description = [{
    Records on every kernel, as the attribute `cake.flush_denormals`,
    whether its f32 arithmetic flushes denormal inputs and results to zero
    (nvcc's `--ftz=true`, part of `--use_fast_math`): the lowering marks the
    kernel function `denormal_fp_math_f32 = "preserve-sign"`, so adds,
    multiplies and FMAs become their `.ftz` forms, and lowers `math.exp2`
    in fragment maps to `ex2.approx.ftz.f32`, one MUFU.EX2, where the
    IEEE form costs ptxas three more instructions to scale denormal
    inputs and results. A softmax computes one exp2 per score, so it
    shows there. convert-cake-to-nvvm follows the attribute over its
    `flush-denormals` option.
  }];
  let options = [
    Option<"enable", "enable", "bool", /*default=*/"true",
           "flush denormals (false: keep IEEE denormals)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetUniformWarp : Pass<"cake-set-uniform-warp", "::mlir::ModuleOp"> {
  let summary = "Tactic: broadcast the warp index from lane 0, or not";
  let description = [{
    Records on every kernel, as the attribute `cake.uniform_warp`, whether
    the lowering reads the warp index as lane 0's, broadcast by a shuffle
    (CUTLASS's canonical_warp_idx_sync). ptxas then knows it is the same
    across the warp and keeps what derives from it, the wgmma descriptors
    and shared-memory offsets of a warpgroup, in uniform registers; without
    it each wgmma first moves its descriptors there (R2UR: 68 of the 572
    SASS instructions of the attention forward's pipelined step). On the
    H200 the attention forward ran up to 13% faster with it (attention
    run 6); the k-means assignment ran 1.3-4.2% slower at D = 128 with it
    (k-means run 17b).
    convert-cake-to-nvvm follows the attribute over its `uniform-warp`
    option.
  }];
  let options = [
    Option<"enable", "enable", "bool", /*default=*/"true",
           "broadcast the warp index (false: tid / 32 per thread)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetWgOrder : Pass<"cake-set-wg-order", "::mlir::ModuleOp"> {
  let summary = "Tactic: issue a multi-warpgroup role's wgmma chains in turn, or not";
  let description = [{
    Records on every kernel, as the attribute `cake.wg_order`, whether a
    role of several warpgroups issues each fresh accumulator's
    straight-line wgmma chain one warpgroup at a time, in warpgroup order
    (named barriers past the kernel's own, as FlashAttention-3's
    warp-scheduler barriers), so that one warpgroup's epilogue runs beside
    the next ones' wgmmas. convert-cake-to-nvvm follows the attribute over
    its `wg-order` option. Measured on the H200 (k-means run 16): no
    faster than without on the k-means assignment: with three warpgroups
    up to 5.5% slower (one row 0.7% faster), with two 0.2-5% faster at
    D = 128 (still slower than three without it) and 2-3% slower at D = 64.

    With `retire=true` (attribute `cake.wg_order_retire`, or the
    lowering's `wg-order-retire`) a warpgroup passes its turn only when its
    chain's last group has retired, so the chains also *run* one warpgroup
    at a time: the tensor cores interleave the wgmmas of warpgroups issued
    together, which then finish together and leave the tensor cores idle
    through all their epilogues. On the H200 (k-means run 17c) this made
    the three-warpgroup assignment 4-10% faster at D = 64 and 128 (one row,
    32 x 75600 f16, 1% slower). The chain's last wgmma must retire at its
    commit (not with retire-late).

    The turns add waits cake-verify's deadlock search does not see. They
    are safe when every warpgroup of the role runs the same loops (a
    cooperative role does) and the stages a chain waits on are filled
    without waiting on a warpgroup that has not had its turn yet. The rule
    [sync.warpgroup-turn] (cake-verify on kernels with this attribute, and
    the lowering under its option) rejects the case it can see: a wait
    inside the turn on a pipe that the chain's iteration waits on more
    often than the pipe has stages, or that holds stages waited outside
    the chain's block (the other warpgroups release them only in their own
    turns; the D = 256 k-means kernel with a two-stage ring hung this way
    in run 16).
  }];
  let options = [
    Option<"enable", "enable", "bool", /*default=*/"true",
           "issue the chains in turn (false: each warpgroup as it comes)">,
    Option<"retire", "retire", "bool", /*default=*/"false",
           "pass the turn when the chain's last group retires (attribute "
           "cake.wg_order_retire), not when it is issued">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetArgmin : Pass<"cake-set-argmin", "::mlir::ModuleOp"> {
  let summary = "Tactic: make a role's row argmins packed, or exact";
  let description = [{
    Sets or clears `packed` on every `cake.frag.argmin` of the role named
    by `role` (every role when empty). A packed argmin writes each column's
    position into its value's low mantissa bits, so one float minimum per
    element compares and selects; values within 2^-(23-b) of each other
    (relative) may resolve to either column. Argmins the packed form does
    not cover (not f32, more than 1024 columns) are left exact, with a
    remark. On the H200 (k-means run 15) packing made the two-warpgroup
    assignment 0.4-8% faster and the three-warpgroup one 1-9% slower.
  }];
  let options = [
    Option<"packed", "packed", "bool", /*default=*/"true",
           "pack the argmins (false: make them exact)">,
    Option<"role", "role", "std::string", /*default=*/"\"\"",
           "the role whose argmins change (empty: every role)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def SetSchedule : Pass<"cake-set-schedule", "::mlir::ModuleOp"> {
  let summary = "Tactic: switch between a persistent and a one-CTA-per-tile schedule";
  let description = [{
    `kind=persistent` makes the schedule `#cake.persistent` (one CTA per SM
    loops over tiles; group_m 1 unless it already was persistent);
    `kind=grid` makes it `#cake.grid` (one CTA per tile). The tile shape is
    kept. `group-m` sets a persistent schedule's raster order as
    cake-set-raster does, so that one search axis can choose among grid
    and persistent schedules of several rasters.
  }];
  let options = [
    Option<"kind", "kind", "std::string", /*default=*/"\"persistent\"", "persistent or grid">,
    Option<"groupM", "group-m", "unsigned", /*default=*/"0", "persistent only: tile rows per group (0: keep)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def PingPong : Pass<"cake-ping-pong", "::mlir::ModuleOp"> {
  let summary = "Tactic: ping-pong consumers, a producer/consumer set per alternate tile";
  let description = [{
    Cooperative consumers split each tile among their warpgroups; ping-pong
    consumers each take a whole tile, alternately, so one set's main loop
    runs on the tensor cores while the other's epilogue drains. This
    tactic gives a persistent kernel `sets` copies of its roles, rings and
    pipes: set k's roles walk `slice k of sets` of the CTA's tiles
    (cake.tiles), each on its own pipes, and its roles are named with the
    suffix `_<k>` (set 0 keeps the names). The CTA's shared memory and
    warps grow by the factor: pair it with cake-set-tile (halve the
    tile's rows: one consumer warpgroup per set), cake-set-stages and
    cake-set-regs, and cake-verify judges the result. With `turns=true`
    the sets' consumer roles (one a set: the role with the set's cake.mma)
    also take turns over their tiles' main loops, recorded as
    cake.role_turns (rule sync.role-turn), so that one set's wgmmas run
    while the others' epilogues do. With `dealt=true` only the consumer
    role (the one issuing cake.mma) is copied: the producers keep walking
    every tile into the same rings, whose pipes the consumers now share
    as dealt pipes (sync.dealt-pipe: each consumer takes its slice's
    stages, in turns, which `dealt` implies), so a consumer in its turn
    has every stage and the shared memory does not grow.

    ```
    $ cake-opt --cake-set-tile="m=64" --cake-ping-pong --cake-set-stages="pipe=0 stages=2" \
        --cake-verify gemm.cake.mlir
    ```
  }];
  let options = [
    Option<"sets", "sets", "unsigned", /*default=*/"2",
           "producer/consumer sets, each on every sets-th tile (>= 2)">,
    Option<"turns", "turns", "bool", /*default=*/"false",
           "the sets' consumer roles take turns over their main loops, in "
           "set order (cake.role_turns): one set's wgmmas at a time">,
    Option<"dealt", "dealt", "bool", /*default=*/"false",
           "copy only the consumer role: one producer and one ring dealt "
           "to the consumers tile by tile (sync.dealt-pipe; implies turns)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def StageEpilogue : Pass<"cake-stage-epilogue", "::mlir::ModuleOp"> {
  let summary = "Tactic: store a tile through shared memory and TMA instead of direct stores";
  let description = [{
    A role that ends each tile with `cake.store` of a fragment to the
    tile's box of a global tensor writes it lane by lane from registers.
    This tactic stages it instead: the role writes the fragment into a
    new ring stage (`cake.smem.write`), fences it for the async proxy and
    commits it; a new one-warp role `store-name` waits for the stage,
    writes it to the same box by `cake.tma.store` and releases it, so the
    stores leave the math role's path and the copy engine writes whole
    boxes.

    `stages` is the new ring's depth (2 lets the next tile's epilogue
    write while the previous one is stored), `swizzle` its layout (0, 32,
    64 or 128; a swizzled ring needs rows no wider than the swizzle span).
    The store qualifies when it sits directly in the role's `cake.tiles`,
    its coordinates are the tile coordinates and the fragment spans the
    tile, or when it writes a column band of the tile's rows: the tile
    coordinates and then a constant column, a `[1, R]` tile and an
    `[R, C]` fragment (the attention forward's O halves, `[bh, m, 0]` and
    `[bh, m, 64]`, each their own stage); other stores stay. The new ring
    needs shared memory (resource.smem-capacity may then ask for fewer
    stages elsewhere).

    `into` names an existing role to send the stages instead (a GEMM's
    load warpgroup, idle once its copies are issued): a new warp would
    make 416 threads, whose launch baseline of 128 registers cannot hold
    a 64x256 accumulator for one wgmma. That role's tile loop then
    carries a first-tile flag and the previous tile's corner; after a
    tile's copies it waits for the previous tile's stage and stores it,
    and the last tile's follows the loop. One stage suffices: the math
    role needs it back only after the sender has issued the next tile's
    copies, and so the store. The sync rules count the sender's waits
    through the flag, once per tile.

    ```
    $ cake-opt --cake-stage-epilogue="stages=1" \
        --cake-set-stages="pipe=0 stages=3" --cake-verify gemm.cake.mlir
    $ cake-opt --cake-stage-epilogue="into=load" \
        --cake-set-stages="pipe=0 stages=3" --cake-verify gemm.cake.mlir
    ```
  }];
  let options = [
    Option<"stages", "stages", "unsigned", /*default=*/"1", "depth of the staging ring">,
    Option<"swizzle", "swizzle", "unsigned", /*default=*/"0", "the staging ring's swizzle: 0, 32, 64 or 128">,
    Option<"storeName", "store-name", "std::string", /*default=*/"\"store\"", "the new store role's name">,
    Option<"intoRole", "into", "std::string", /*default=*/"\"\"", "an existing role that sends the stages, one tile behind (default: a new store role)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def OverlapEpilogue : Pass<"cake-overlap-epilogue", "::mlir::ModuleOp"> {
  let summary = "Tactic: software-pipeline a consumer loop so a tile's epilogue runs beside the next tile's wgmmas";
  let description = [{
    A consumer loop that, for each tile, waits for its stages, chains
    wgmmas into a fresh accumulator, releases the stages and then computes
    on the result (an epilogue: distances and an argmin, say) keeps the
    tensor cores idle while the epilogue runs. This tactic rewrites it to
    issue tile n's wgmmas first and then run tile n - 1's epilogue on an
    accumulator carried from the previous iteration (skipped in the first
    iteration; the last tile's epilogue follows the loop, when the loop ran
    at all). convert-cake-to-nvvm then commits the wgmmas without waiting,
    runs the epilogue, and ends the iteration by retiring them and
    releasing their stages, so the two overlap. It costs a second
    accumulator's registers, and the stages are held through the epilogue
    (a deeper ring, cake-set-stages, keeps the copies ahead).

    A loop qualifies when its body is the chain (waits, wgmmas from a
    `cake.frag.zero`, releases, on one pipe; none of it using the loop's
    carried values) followed by the epilogue, which uses no value of the
    chain but its result and holds no hand-off or mma. `role` limits the
    rewrite to one role; loops that do not qualify are left as they are.

    ```
    $ cake-opt --cake-overlap-epilogue --cake-set-stages="pipe=1 stages=6" \
        --cake-verify kmeans.cake.mlir
    ```
  }];
  let options = [
    Option<"roleName", "role", "std::string", /*default=*/"\"\"", "the role whose loops to rewrite (default: every role)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect", "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

def WarpSpecialize : Pass<"cake-warp-specialize", "::mlir::ModuleOp"> {
  let summary = "Tactic: split a role that fills its own pipes into a producer and a consumer";
  let description = [{
    A kernel that is not warp specialized has one role that acquires a
    stage, fills it by TMA, commits, waits for it and computes: its warps
    stall on every copy. This tactic moves the producer side of that role
    (its acquires, TMA copies and commits, with the loops around them and
    what computes their coordinates) into a new role of one warpgroup,
    named `producer-name`, placed before it; the role keeps the rest. Loop
    values the computation carries (accumulators) stay with the consumer.
    The stages can then be filled ahead, so a deeper pipe
    (cake-set-stages) overlaps copies with math.

    `role` names the role to split (default: the one role that both fills
    and waits on a pipe); on a kernel whose roles are already specialized
    and no `role` given, the pass changes nothing. `producer-regs` is the
    new role's register budget (0: none).

    ```
    $ cake-opt --cake-warp-specialize="producer-regs=40" \
        --cake-set-stages="pipe=0 stages=4" --cake-verify naive.cake.mlir
    ```
  }];
  let options = [
    Option<"roleName", "role", "std::string", /*default=*/"\"\"", "the role to split (default: the one that fills its own pipes)">,
    Option<"producerName", "producer-name", "std::string", /*default=*/"\"load\"", "the new producer role's name">,
    Option<"producerRegs", "producer-regs", "unsigned", /*default=*/"40", "the producer's registers per thread (0: none)">,
  ];
  let dependentDialects = ["::mlir::cake::CakeDialect", "::mlir::scf::SCFDialect"];
}

#endif // CAKE_TRANSFORMS_PASSES_TD
