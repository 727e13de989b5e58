// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Passes.td - convert-cake-to-nvvm --------------------*- tablegen -*-===//
//
// The lowering of derived Cake kernels to the GPU, NVVM and LLVM dialects.
// Registered with every other pass through cake/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_CONVERSION_PASSES_TD
#define CAKE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

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
           "retire a wgmma chain's last group at the first op that reads "
           "it, not at its commit (loads, register math and other chains "
           "issue before the wait)">,
    Option<"fenceWaits", "fence-waits", "bool", /*default=*/"false",
           "with retire-late, put a fence.acq_rel.cta before each late "
           "wgmma.wait_group, so that ptxas keeps the wait after the "
           "register math placed before it instead of hoisting it">,
    Option<"uniformWarp", "uniform-warp", "bool", /*default=*/"false",
           "broadcast the warp index from lane 0, so that ptxas keeps what "
           "derives from it (wgmma descriptors) in uniform registers">,
    Option<"flushDenormals", "flush-denormals", "bool", /*default=*/"false",
           "flush f32 denormals to zero (.ftz arithmetic, "
           "ex2.approx.ftz for math.exp2 in fragment maps)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // CAKE_CONVERSION_PASSES_TD
