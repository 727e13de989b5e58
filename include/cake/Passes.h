// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Passes.h - Every Cake pass -------------------------------*- C++ -*-===//
//
// Constructors, options and registration of every Cake pass, generated from
// cake/Passes.td (which gathers each layer's Passes.td). The analyses the
// passes share are in cake/Analysis/, the rule checks in cake/Verify/, the
// cake-lower pipeline in cake/Pipeline/LowerPipeline.h.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_PASSES_H
#define CAKE_PASSES_H

#include "cake/Dialect/CakeDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace cake {

#define GEN_PASS_DECL
#include "cake/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "cake/Passes.h.inc"

} // namespace cake
} // namespace mlir

#endif // CAKE_PASSES_H
