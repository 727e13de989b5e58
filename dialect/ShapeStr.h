// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- ShapeStr.h - Shapes in the op verifiers' diagnostics -----*- C++ -*-===//
//
// Shared by the dialect's source files (not installed).
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_DIALECT_SHAPESTR_H
#define CAKE_DIALECT_SHAPESTR_H

#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::cake {
/// Prints `[a, b, c]` for a shape in diagnostics (`?` for a dynamic size).
std::string shapeStr(ArrayRef<int64_t> shape);
} // namespace mlir::cake

#endif // CAKE_DIALECT_SHAPESTR_H
