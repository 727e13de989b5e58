// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- cake-opt.cpp - The Cake optimizer driver ---------------------------===//
//
// mlir-opt with the Cake dialect, the upstream dialects Cake IR uses and
// Cake's passes registered through the one InitAll entry point. The input
// is read here, once, so that with --cake-diagnostics-json a parse error
// the parser meets before it loads the Cake dialect is reported as JSON
// too (reportParseErrorsAsJson) and stdin still reaches the run.
//
//===----------------------------------------------------------------------===//

#include "cake/InitAll.h"
#include "cake/Verify/Rules.h"
#include "cake/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

int main(int argc, char **argv) {
  // A diagnostic names its op by location; printing the op as well dumps a
  // whole lowered gpu.module when ptxas fails. Off unless asked for.
  std::vector<char *> args(argv, argv + argc);
  bool asked = false;
  for (int i = 1; i < argc; ++i)
    asked |= llvm::StringRef(argv[i]).contains("print-op-on-diagnostic");
  static char quiet[] = "--mlir-print-op-on-diagnostic=false";
  if (!asked)
    args.insert(args.begin() + 1, quiet);
  int count = int(args.size());
  char **values = args.data();
  llvm::InitLLVM init(count, values);

  mlir::DialectRegistry registry;
  mlir::cake::registerAllDialects(registry);
  mlir::cake::registerAllPasses();
  // --version: LLVM's lines, then Cake's.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "Cake version " CAKE_VERSION_STRING "\n";
  });
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      count, values, "Cake optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // What MlirOptMain's own main does for these two.
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleave(registry.getDialectNames(), llvm::outs(), ",");
    llvm::outs() << "\n";
    return 0;
  }
  if (config.shouldListPasses()) {
    mlir::printRegisteredPasses();
    return 0;
  }

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  // Split input parses chunk by chunk, and expected-* checks want the
  // parse errors themselves: the run reports those.
  if (config.inputSplitMarker().empty() && !config.shouldVerifyDiagnostics() &&
      mlir::failed(mlir::cake::reportParseErrorsAsJson(
          *input, registry, config.shouldAllowUnregisteredDialects())))
    return 1;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
