// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- InitAll.h - Register everything Cake provides ------------*- C++ -*-===//
//
// The one registration entry point used by cake-opt, cake-translate, the
// mlir-opt plugin and the C API. There are no static registration objects.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_INITALL_H
#define CAKE_INITALL_H

namespace mlir {
class DialectRegistry;
namespace cake {

/// Adds the Cake dialect and the upstream dialects Cake IR uses (arith,
/// math, scf) to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers Cake's passes and the upstream passes cake-opt exposes.
void registerAllPasses();

/// Registers Cake's translations (cake-translate).
void registerAllTranslations();

} // namespace cake
} // namespace mlir

#endif // CAKE_INITALL_H
