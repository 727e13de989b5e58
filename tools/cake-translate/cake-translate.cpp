// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- cake-translate.cpp - The Cake translation driver -------------------===//
//
// mlir-translate with Cake's translations registered through InitAll.
//
//===----------------------------------------------------------------------===//

#include "cake/InitAll.h"
#include "cake/Version.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::cake::registerAllTranslations();
  // --version: LLVM's lines, then Cake's.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "Cake version " CAKE_VERSION_STRING "\n";
  });
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "Cake translation driver\n"));
}
