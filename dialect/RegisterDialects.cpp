//===- RegisterDialects.cpp - Register the dialects Cake IR uses ----------===//
//
// The dialect part of the single registration entry point (cake/InitAll.h).
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"
#include "cake/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::cake::registerAllDialects(DialectRegistry &registry) {
  registry.insert<CakeDialect, arith::ArithDialect, math::MathDialect,
                  scf::SCFDialect>();
}
