//===- Passes.td - Cake passes --------------------------------*- tablegen -*-===//
//
// Declarations of Cake's passes. Docs and the pass C API are generated from
// this file.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TRANSFORMS_PASSES_TD
#define CAKE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def Verify : Pass<"cake-verify", "::mlir::ModuleOp"> {
  let summary = "Check every Cake kernel against Cake's rules";
  let description = [{
    Runs the rules that need a whole kernel, after the op verifiers (which
    MLIR runs on parse) have passed; the IR is not changed. The rules are
    listed in docs/rules.md, generated from the registry
    (include/cake/Verify/Rules.def):

    - sync: pipe roles, balanced hand-offs and no use after a hand-off,
      expect-tx balance, trip counts compared symbolically across roles
      (warning "unproven" where they cannot be), the same tile sequence in
      every role, a bounded deadlock search that reports the waiting cycle,
      proxy fences before async reads;
    - resource: threads, the CTA's launch allocation of registers at the
      roles' budgets (warps without regs() keep the launch baseline), shared memory with every
      alignment, fragment registers per loop;
    - dataflow: stages read through pipe.wait and written through
      pipe.acquire of a pipe holding the ring, hand-offs inside roles,
      accumulator layouts;
    - hw: target features, warpgroup alignment, wgmma descriptors, TMA row
      alignment of statically shaped tensors.

    Rules registered from C (`mlirCakeRegisterRule`) run after these.

    ```
    $ cake-opt --cake-verify gemm.cake.mlir [--cake-diagnostics-json=-]
    ```

    A failing kernel gets an error that leads with the rule id and names
    the role and the resource, with notes at the other participating ops
    and a "hint:" note where a repair is known:

    ```
    error: [sync.trip-count-mismatch] role "use" waits
           trip(c0..dim(arg0,1) by c32) times on pipe #0 but role "load"
           commits trip(c0..dim(arg0,1) by c64) times
    note: producer role "load"
    note: consumer role "use"
    note: hint: both roles must run the same loops around their hand-offs
    ```
  }];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def Derive : Pass<"cake-derive", "::mlir::ModuleOp"> {
  let summary = "Derive the mechanical details of each kernel from its decisions";
  let description = [{
    Computes and attaches, as attributes, everything a kernel's author does
    not write:

    - `cake.kernel`: `block` (threads per CTA, warpgroup-aligned),
      `smem_bytes` (dynamic shared memory including 1024 bytes of slack to
      align the base), `baseline_regs` (registers per thread at launch,
      what setmaxnreg moves away from), `tma` (one descriptor spec per
      distinct global tensor and box: argument, box, swizzle).
    - `cake.role`: `first_warp` (warpgroup roles start at a warp index
      divisible by 4), `setmaxnreg` (`inc`, `dec` or `none` against the
      baseline), `lanes` (`one` when only one elected thread issues copies,
      `all` otherwise).
    - `cake.ring`: `offset` in shared memory, aligned to `align` (1024 B for
      128-byte swizzle, 512 for 64, 256 for 32, 128 otherwise).
    - `cake.pipe`: `full` and `empty` (offsets of the stage barrier arrays,
      8 B each), `full_count` (1: the producer's arrive.expect_tx),
      `empty_count` (warps of the consumer role: lane 0 of each warp
      arrives once the warp is done with the stage), `tx_bytes` (bytes every
      stage receives: the sum of its rings' tile bytes).
    - `cake.pipe.acquire` / `cake.pipe.wait`: `barrier` and `parity`: the
      handoff number n of the role on that pipe gives the stage n mod S and
      the phase (n / S) mod 2; a wait on `full` uses that phase's parity,
      an acquire on `empty` its complement (the first pass over a fresh
      barrier does not block). n counts across the persistent tile loop.
    - `cake.tma.load` / `cake.tma.store`: `desc`, the index of its
      descriptor in the kernel's `tma` list.
    - `cake.mma` (wgmma): `wg_rows` (rows per warpgroup), `instr_n`,
      `instr_k`, and the shared-memory descriptor fields `sbo` (stride
      byte offset: 8 rows of the swizzle span) and `swizzle_mode`.
    - `cake.tiles`: `extents` as (argument, dimension) pairs, which the
      launcher reads to size the grid.

    Before: `%a = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>`.
    After: `%a = cake.ring {align = 1024 : i64, offset = 1024 : i64} : ...`.

    Fails with `[resource.smem-capacity]` when the layout exceeds the
    target's shared memory per CTA.
  }];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

def Cost : Pass<"cake-cost", "::mlir::ModuleOp"> {
  let summary = "Predict each kernel's time and bottleneck with the calibrated cost model";
  let description = [{
    For every `cake.kernel` and a problem (`shapes`: one shape per argument
    in order, e.g. `shapes=8192x8192,8192x8192,8192x8192`), interprets each
    role once per tile with loop trip counts evaluated from the shapes and
    predicts, with the rates of a calibration file measured on the GPU
    (calibration/<gpu>.json; docs/cost-model.md):

    - per role and tile: tensor-core time (flops at the calibrated rate for
      the instruction's N and operand type), shared-memory reads of the mma
      operands, CUDA-core epilogue ops (frag.map bodies, argmin, reduce,
      convert, loads), register stores, TMA copies by box shape;
    - per pipe: the stage round trip (latency + copy + how long the
      consumer holds the stage; a stage read by an async mma is held
      `mma-in-flight` mma longer) over the stages the producer fills ahead;
    - the schedule: tiles, CTAs, tiles on the busiest CTA (wave
      quantization), HBM traffic after L2 reuse under the raster order
      (wave by wave), pipeline fill and launch cost.

    The predicted time is the launch cost or fill + tiles x the slowest
    per-tile bound (or the HBM time), whichever is larger; the bottleneck is
    the busiest resource. `--cake-cost` prints the report to stdout;
    `json=<path|->` (or the tool option `--cake-cost-json=<path|->`) writes
    it as JSON. The module is left unchanged. Kernels should pass
    `cake-verify` first.

    ```
    $ cake-opt gemm.cake.mlir -o /dev/null \
        --cake-cost="shapes=8192x8192,8192x8192,8192x8192"
    ```
  }];
  let options = [
    Option<"shapes", "shapes", "std::string", /*default=*/"\"\"",
           "the problem: one shape per kernel argument, in order "
           "(\"8192x8192,8192x8192,8192x8192\"; empty for a scalar)">,
    Option<"calibration", "calibration", "std::string", /*default=*/"\"\"",
           "calibration file (default: calibration/<gpu>.json)">,
    Option<"gpu", "gpu", "std::string", /*default=*/"\"\"",
           "GPU whose calibration to use: h200, h100, b200 (default: the "
           "target's reference GPU)">,
    Option<"json", "json", "std::string", /*default=*/"\"\"",
           "also write the reports as JSON to <path>, or stdout with '-'">,
    Option<"mmaInFlight", "mma-in-flight", "unsigned", /*default=*/"1",
           "the lowering's mma-in-flight (how long stages stay held)">,
  ];
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

def SetRetireLate : Pass<"cake-set-retire-late", "::mlir::ModuleOp"> {
  let summary = "Tactic: retire a wgmma chain's last group where it is needed, or at its commit";
  let description = [{
    Records on every kernel, as the attribute `cake.retire_late`, whether
    the lowering retires a straight-line wgmma chain's last group
    (`wgmma.wait_group 0`) at the first op that needs it (one that reads
    the accumulator, shared memory or control flow) rather than right
    after its commit, so the global loads and scalar ops between them (the
    k-means epilogue's ||c||^2 row) issue while the wgmmas run; releases
    of the group's stages are held until it retires.
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
    cake-set-regs, and cake-verify judges the result.

    ```
    $ cake-opt --cake-set-tile="m=64" --cake-ping-pong --cake-set-stages="pipe=0 stages=2" \
        --cake-verify gemm.cake.mlir
    ```
  }];
  let options = [
    Option<"sets", "sets", "unsigned", /*default=*/"2",
           "producer/consumer sets, each on every sets-th tile (>= 2)">,
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
    tile; other stores stay. The new ring needs shared memory
    (resource.smem-capacity may then ask for fewer stages elsewhere).

    ```
    $ cake-opt --cake-stage-epilogue="stages=1" \
        --cake-set-stages="pipe=0 stages=3" --cake-verify gemm.cake.mlir
    ```
  }];
  let options = [
    Option<"stages", "stages", "unsigned", /*default=*/"1", "depth of the staging ring">,
    Option<"swizzle", "swizzle", "unsigned", /*default=*/"0", "the staging ring's swizzle: 0, 32, 64 or 128">,
    Option<"storeName", "store-name", "std::string", /*default=*/"\"store\"", "the new store role's name">,
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

def ConvertCakeToNVVM : Pass<"convert-cake-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower derived Cake kernels to gpu.func with NVVM and LLVM ops";
  let description = [{
    Replaces each `cake.kernel` (after `cake-derive`) by a `gpu.module`
    targeting `#nvvm.target<chip = "sm_90a">` holding one `gpu.func`:

    - prologue: dynamic shared memory base rounded up to 1024 bytes; thread
      0 initializes each pipe stage's `full` and `empty` mbarrier with the
      derived arrival counts, then `fence.mbarrier_init` and a CTA barrier;
    - one branch per role on the warp index, starting with the derived
      `setmaxnreg`; copy roles run on one elected thread;
    - `cake.tiles` becomes the tile loop (persistent: `blockIdx.x` to the
      tile count by `gridDim.x`, group-M rasterized);
    - `pipe.acquire` waits on `empty[n mod S]` with parity
      `1 - (n / S) mod 2` and arms `full` with the stage's bytes
      (`mbarrier.arrive.expect_tx`); `pipe.wait` waits on `full` with parity
      `(n / S) mod 2`; `pipe.release` converges the warp and lane 0 arrives
      on `empty`; n is a per-role handoff counter;
    - `cake.tma.load` becomes `cp.async.bulk.tensor` completing on `full`;
      `cake.tma.store` a bulk tensor store from the stage, committed and
      waited for (`.read`) before the stage's release;
    - `cake.smem.write` stores a fragment's column pairs into its stage at
      the ring's swizzled offsets, `cake.fence.proxy_async` becomes
      `fence.proxy.async.shared::cta`, and the commit of such a stage is an
      arrival per producer warp (the derived `full_count`); every thread of
      the producer waits for the free stage;
    - `cake.mma wgmma` becomes `wgmma.mma_async` per K step over shared
      memory descriptors, then commit and wait before the stage's release;
      in a K loop of the form {wait; mma; release; yield} one group stays
      in flight (`mma-in-flight=1`, the default): the loop waits with
      `wgmma.wait_group 1` and releases the previous iteration's stage
      (only on pipes of more stages than that: with fewer the deferred
      release would wait for itself); in a loop that overlaps an epilogue
      with a wgmma chain from a fresh accumulator (the form
      cake-overlap-epilogue writes) the chain commits without waiting and
      the iteration ends with `wgmma.wait_group 0` and the releases of its
      stages, so the epilogue, on the accumulator the previous iteration
      completed, runs beside the wgmmas; a straight-line chain of wgmmas
      on one accumulator (a K split over stages, unrolled) commits each
      group but the last without waiting and releases a stage once a later
      `wgmma.wait_group` has retired the group reading it, so the tensor
      cores do not drain between stages (`mma-chain=true`, the default,
      unless the kernel's `cake.mma_chain` attribute, which
      cake-set-mma-chain writes, says otherwise; only across waits on
      pipes of two or more stages);
    - fragments are LLVM structs in the wgmma accumulator's register
      layout: an M x N tile (N/2 values per thread), its M x 1 rows (2) and
      1 x N columns (N/4); `frag.zero`/`splat`/`convert` fill or convert
      them, `frag.map` clones its scalar body per element with size-1
      dimensions broadcast (float ops marked `contract`, so a multiply and
      an add fuse into an FMA as under nvcc's default `--fmad=true`; off
      with `fp-contract=false`), `frag.argmin`/`reduce` combine in-thread then
      across the 4 lanes of a row with shuffles (lowest index on ties),
      `cake.load` reads rows or columns along a tensor's innermost
      dimension with a pad value (a fragment wholly inside the tensor, at
      an aligned address, without masks and a column fragment's pairs as
      vector loads; the last tile element by element), and `cake.store` writes tiles (paired
      4-byte stores where aligned) or rows (one lane per row) with bounds
      masks.

    The parameter order (per global tensor: pointer then sizes; then one
    TMA descriptor pointer each) is recorded in a `cake.launch` attribute on
    the `gpu.module` for bundles. Ops and fragment layouts not handled yet
    are reported, never silently dropped.
  }];
  let options = [
    Option<"mmaInFlight", "mma-in-flight", "unsigned", /*default=*/"1",
           "wgmma groups a pipelined K loop keeps in flight before releasing "
           "a stage (0: retire each group at once)">,
    Option<"fpContract", "fp-contract", "bool", /*default=*/"true",
           "let frag.map bodies fuse a multiply and an add into an FMA">,
    Option<"mmaChain", "mma-chain", "bool", /*default=*/"true",
           "keep a straight-line wgmma chain on one accumulator in flight "
           "until its last group">,
    Option<"wgOrder", "wg-order", "bool", /*default=*/"false",
           "in a role of several warpgroups, issue each fresh accumulator's "
           "straight-line wgmma chain one warpgroup at a time, in order "
           "(named barriers), so one warpgroup's epilogue runs beside the "
           "next one's wgmmas">,
    Option<"wgOrderRetire", "wg-order-retire", "bool", /*default=*/"false",
           "with wg-order, pass the turn when the chain's last group "
           "retires instead of when it is issued, so the chains also run "
           "on the tensor cores one warpgroup at a time">,
    Option<"retireLate", "retire-late", "bool", /*default=*/"false",
           "retire a wgmma chain's last group at the first op that needs "
           "it, not at its commit (global loads and scalar ops issue "
           "before the wait)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // CAKE_TRANSFORMS_PASSES_TD
