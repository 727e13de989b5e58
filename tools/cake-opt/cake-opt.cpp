//===- cake-opt.cpp - The Cake optimizer driver ---------------------------===//
//
// mlir-opt with the Cake dialect, the upstream dialects Cake IR uses and
// Cake's passes registered through the one InitAll entry point.
//
//===----------------------------------------------------------------------===//

#include "cake/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::cake::registerAllDialects(registry);
  mlir::cake::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Cake optimizer driver\n", registry));
}
