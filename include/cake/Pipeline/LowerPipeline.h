// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- LowerPipeline.h - The cake-lower pass pipeline -----------*- C++ -*-===//
//
// cake-derive, convert-cake-to-nvvm, the upstream GPU/NVVM/LLVM lowering and
// gpu-module-to-binary, as one pipeline a Triton/IREE-style driver can add
// to its own pass manager:
//
//   mlir::cake::LowerPipelineOptions options;
//   options.format = "ptx";
//   mlir::cake::buildLowerPipeline(pm, options);
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_PIPELINE_LOWERPIPELINE_H
#define CAKE_PIPELINE_LOWERPIPELINE_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
namespace cake {

/// The options of `cake-lower` (and of convert-cake-to-nvvm they forward).
struct LowerPipelineOptions
    : public PassPipelineOptions<LowerPipelineOptions> {
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Output: cubin (ptxas), ptx, or nvvm (stop before "
                     "serialization)"),
      llvm::cl::init("cubin")};
  Option<unsigned> mmaInFlight{
      *this, "mma-in-flight",
      llvm::cl::desc("wgmma groups kept in flight in pipelined K loops"),
      llvm::cl::init(1)};
  Option<bool> fpContract{
      *this, "fp-contract",
      llvm::cl::desc("let frag.map bodies fuse a multiply and an add into "
                     "an FMA (nvcc's default)"),
      llvm::cl::init(true)};
  Option<bool> mmaChain{
      *this, "mma-chain",
      llvm::cl::desc("keep a straight-line chain of wgmmas on one "
                     "accumulator in flight until its last group"),
      llvm::cl::init(true)};
  Option<bool> wgOrder{
      *this, "wg-order",
      llvm::cl::desc("issue a multi-warpgroup role's fresh wgmma chains one "
                     "warpgroup at a time, in order (named barriers)"),
      llvm::cl::init(false)};
  Option<bool> wgOrderRetire{
      *this, "wg-order-retire",
      llvm::cl::desc("with wg-order, pass the turn when the chain's last "
                     "group retires, not when it is issued"),
      llvm::cl::init(false)};
  Option<bool> uniformWarp{
      *this, "uniform-warp",
      llvm::cl::desc("broadcast the warp index from lane 0 (descriptors in "
                     "uniform registers)"),
      llvm::cl::init(false)};
  Option<bool> flushDenormals{
      *this, "flush-denormals",
      llvm::cl::desc("flush f32 denormals to zero (nvcc's --ftz=true)"),
      llvm::cl::init(false)};
  Option<bool> retireLate{
      *this, "retire-late",
      llvm::cl::desc("retire a wgmma chain's last group at the first op "
                     "that needs it, so global loads issue before the wait"),
      llvm::cl::init(false)};
  Option<bool> fenceWaits{
      *this, "fence-waits",
      llvm::cl::desc("with retire-late, a fence.acq_rel.cta before each late "
                     "wgmma.wait_group, which ptxas does not hoist the wait "
                     "above"),
      llvm::cl::init(false)};
  Option<bool> lineInfo{
      *this, "lineinfo",
      llvm::cl::desc("keep each instruction's Cake IR source line (PTX .loc, "
                     "ptxas -lineinfo): Nsight Compute's source view and "
                     "per-op instruction counts (nvcc's -lineinfo)"),
      llvm::cl::init(false)};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit holding bin/ptxas (default: $CUDA_HOME, "
                     "else /usr/local/cuda)"),
      llvm::cl::init("")};
};

/// Adds cake-derive, convert-cake-to-nvvm, the upstream lowering to the
/// LLVM and NVVM dialects and (unless format=nvvm) gpu-module-to-binary to
/// `pm`, which runs on a builtin.module of Cake kernels.
void buildLowerPipeline(OpPassManager &pm,
                        const LowerPipelineOptions &options);

/// Registers the `cake-lower` pipeline: cake-derive, convert-cake-to-nvvm,
/// the upstream GPU/NVVM/LLVM lowering and gpu-module-to-binary (cubin by
/// default, PTX with format=ptx).
void registerLowerPipeline();

} // namespace cake
} // namespace mlir

#endif // CAKE_PIPELINE_LOWERPIPELINE_H
