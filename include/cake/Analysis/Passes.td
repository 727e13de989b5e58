// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Passes.td - cake-cost -------------------------------*- tablegen -*-===//
//
// The cost model's pass; the analysis itself is cake/Analysis/CostModel.h.
// Registered with every other pass through cake/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ANALYSIS_PASSES_TD
#define CAKE_ANALYSIS_PASSES_TD

include "mlir/Pass/PassBase.td"

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

#endif // CAKE_ANALYSIS_PASSES_TD
