// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeDialect.cpp - Cake dialect registration and attributes ---------===//
//
// Registers the dialect's types, attributes and ops, and verifies the
// attributes (target names and tile schedules).
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"
#include "cake/Target/TargetInfo.h"
#include "cake/Verify/Rules.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::cake;

#include "cake/Dialect/CakeDialect.cpp.inc"
#include "cake/Dialect/CakeEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "cake/Dialect/CakeAttrs.cpp.inc"

void CakeDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "cake/Dialect/CakeOps.cpp.inc"
      >();
  registerTypes();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "cake/Dialect/CakeAttrs.cpp.inc"
      >();
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef arch) {
  if (lookupTarget(arch))
    return success();
  InFlightDiagnostic diag = emitError() << DiagRule{RuleId::HwArchFeature}
                                        << "unknown target '" << arch
                                        << "', expected one of";
  for (const TargetInfo &t : getAllTargets())
    diag << " '" << t.arch << "'";
  return diag;
}

static LogicalResult verifyTile(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<int64_t> tile) {
  if (tile.empty() || tile.size() > 3)
    return emitError() << DiagRule{RuleId::SyncTilesSchedule}
                       << "expected a tile of rank 1 to 3, got rank "
                       << tile.size();
  for (int64_t d : tile)
    if (d <= 0)
      return emitError() << DiagRule{RuleId::SyncTilesSchedule}
                         << "expected positive tile sizes, got " << d;
  return success();
}

LogicalResult
PersistentAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> tile, int64_t groupM) {
  if (failed(verifyTile(emitError, tile)))
    return failure();
  if (groupM < 1)
    return emitError() << DiagRule{RuleId::SyncTilesSchedule}
                       << "expected group_m >= 1, got " << groupM;
  return success();
}

LogicalResult GridAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> tile) {
  return verifyTile(emitError, tile);
}
