// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- InitAll.cpp - Register Cake's passes -------------------------------===//
//
// The pass part of the single registration entry point (cake/InitAll.h);
// dialects register from dialect/, translations from translate/.
//
//===----------------------------------------------------------------------===//

#include "cake/InitAll.h"
#include "cake/Dialect/CakeDialect.h"
#include "cake/Passes.h"
#include "cake/Pipeline/LowerPipeline.h"

#include "mlir/Transforms/Passes.h"

void mlir::cake::registerAllPasses() {
  registerCakePasses();
  registerLowerPipeline();
  // The upstream passes useful on Cake IR before lowering.
  registerCanonicalizerPass();
  registerCSEPass();
  registerSymbolDCEPass();
}
