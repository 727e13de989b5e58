// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- LowerPipeline.cpp - The cake-lower pass pipeline -------------------===//
//
// cake-derive, convert-cake-to-nvvm, then upstream MLIR to LLVM/NVVM and
// gpu-module-to-binary: a cubin through ptxas (format=cubin), PTX text
// (format=ptx), or the NVVM/LLVM-dialect module itself (format=nvvm).
//
//===----------------------------------------------------------------------===//

#include "cake/Pipeline/LowerPipeline.h"
#include "cake/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"

#include <cstdlib>

using namespace mlir;

void mlir::cake::buildLowerPipeline(OpPassManager &pm,
                                     const LowerPipelineOptions &options) {
  pm.addPass(cake::createDerive());
  cake::ConvertCakeToNVVMOptions convert;
  convert.mmaInFlight = options.mmaInFlight;
  convert.fpContract = options.fpContract;
  convert.mmaChain = options.mmaChain;
  convert.wgOrder = options.wgOrder;
  convert.wgOrderRetire = options.wgOrderRetire;
  convert.retireLate = options.retireLate;
  convert.fenceWaits = options.fenceWaits;
  convert.flushDenormals = options.flushDenormals;
  convert.uniformWarp = options.uniformWarp;
  pm.addPass(cake::createConvertCakeToNVVM(convert));
  pm.addPass(createSCFToControlFlowPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVVMToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Line tables from the ops' locations: the emitter gives every
  // instruction the location of the Cake op it lowers.
  // DebugDirectivesOnly: .loc and .file without `.target ..., debug`,
  // which ptxas takes for -g ("optimized debugging not supported").
  if (options.lineInfo) {
    LLVM::DIScopeForLLVMFuncOpPassOptions lines;
    lines.emissionKind = LLVM::DIEmissionKind::DebugDirectivesOnly;
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(lines));
  }
  if (options.format == "nvvm")
    return;
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format == "ptx" ? "isa" : "bin";
  std::string toolkit = options.toolkit;
  if (toolkit.empty()) {
    const char *env = std::getenv("CUDA_HOME");
    toolkit = env ? env : "/usr/local/cuda";
  }
  binary.toolkitPath = toolkit;
  if (options.lineInfo)
    binary.cmdOptions = "-lineinfo";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::cake::registerLowerPipeline() {
  PassPipelineRegistration<LowerPipelineOptions>(
      "cake-lower",
      "Lower Cake kernels to a cubin (or PTX) through GPU/NVVM/LLVM",
      buildLowerPipeline);
}
