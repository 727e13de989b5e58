//===- LowerPipeline.cpp - The cake-lower pass pipeline -------------------===//
//
// cake-derive, convert-cake-to-nvvm, then upstream MLIR to LLVM/NVVM and
// gpu-module-to-binary: a cubin through ptxas (format=cubin), PTX text
// (format=ptx), or the NVVM/LLVM-dialect module itself (format=nvvm).
//
//===----------------------------------------------------------------------===//

#include "cake/Transforms/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

#include <cstdlib>

using namespace mlir;

namespace {
struct LowerOptions : public PassPipelineOptions<LowerOptions> {
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
  Option<bool> retireLate{
      *this, "retire-late",
      llvm::cl::desc("retire a wgmma chain's last group at the first op "
                     "that needs it, so global loads issue before the wait"),
      llvm::cl::init(false)};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit holding bin/ptxas (default: $CUDA_HOME, "
                     "else /usr/local/cuda)"),
      llvm::cl::init("")};
};

void buildLowerPipeline(OpPassManager &pm, const LowerOptions &options) {
  pm.addPass(cake::createDerive());
  cake::ConvertCakeToNVVMOptions convert;
  convert.mmaInFlight = options.mmaInFlight;
  convert.fpContract = options.fpContract;
  convert.mmaChain = options.mmaChain;
  convert.wgOrder = options.wgOrder;
  convert.wgOrderRetire = options.wgOrderRetire;
  convert.retireLate = options.retireLate;
  pm.addPass(cake::createConvertCakeToNVVM(convert));
  pm.addPass(createSCFToControlFlowPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertNVVMToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
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
  pm.addPass(createGpuModuleToBinaryPass(binary));
}
} // namespace

void mlir::cake::registerLowerPipeline() {
  PassPipelineRegistration<LowerOptions>(
      "cake-lower",
      "Lower Cake kernels to a cubin (or PTX) through GPU/NVVM/LLVM",
      buildLowerPipeline);
}
