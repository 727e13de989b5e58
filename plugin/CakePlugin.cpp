// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakePlugin.cpp - Cake as an mlir-opt dialect and pass plugin -------===//
//
// Lets an unmodified mlir-opt (Debian's mlir-opt-22) load Cake:
//   mlir-opt --load-dialect-plugin=CakePlugin.so
//            --load-pass-plugin=CakePlugin.so --cake-verify k.cake.mlir
// Registration goes through the same InitAll entry point as cake-opt.
//
//===----------------------------------------------------------------------===//

#include "cake/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "CakePlugin", LLVM_VERSION_STRING,
          [](::mlir::DialectRegistry *registry) {
            ::mlir::cake::registerAllDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "CakePlugin", LLVM_VERSION_STRING,
          []() { ::mlir::cake::registerAllPasses(); }};
}
