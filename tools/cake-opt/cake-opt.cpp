//===- cake-opt.cpp - The Cake optimizer driver ---------------------------===//
//
// mlir-opt with the Cake dialect, the upstream dialects Cake IR uses and
// Cake's passes registered through the one InitAll entry point.
//
//===----------------------------------------------------------------------===//

#include "cake/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::cake::registerAllDialects(registry);
  mlir::cake::registerAllPasses();
  // A diagnostic names its op by location; printing the op as well dumps a
  // whole lowered gpu.module when ptxas fails. Off unless asked for.
  std::vector<char *> args(argv, argv + argc);
  bool asked = false;
  for (int i = 1; i < argc; ++i)
    asked |= llvm::StringRef(argv[i]).contains("print-op-on-diagnostic");
  static char quiet[] = "--mlir-print-op-on-diagnostic=false";
  if (!asked)
    args.insert(args.begin() + 1, quiet);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      int(args.size()), args.data(), "Cake optimizer driver\n", registry));
}
