//===- Passes.h - Cake passes -----------------------------------*- C++ -*-===//
//
// Pass constructors and registration, generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TRANSFORMS_PASSES_H
#define CAKE_TRANSFORMS_PASSES_H

#include "cake/Dialect/CakeDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace cake {

#define GEN_PASS_DECL
#include "cake/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "cake/Transforms/Passes.h.inc"

} // namespace cake
} // namespace mlir

#endif // CAKE_TRANSFORMS_PASSES_H
