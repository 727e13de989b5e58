//===- cake-translate.cpp - The Cake translation driver -------------------===//
//
// mlir-translate with Cake's translations registered through InitAll.
//
//===----------------------------------------------------------------------===//

#include "cake/InitAll.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::cake::registerAllTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "Cake translation driver\n"));
}
