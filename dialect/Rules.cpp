//===- Rules.cpp - The rule registry as a table ---------------------------===//
//
// Expands Rules.def into the table behind cake/Verify/Rules.h.
//
//===----------------------------------------------------------------------===//

#include "cake/Verify/Rules.h"

using namespace mlir;
using namespace mlir::cake;

static const RuleInfo kRules[] = {
#define CAKE_RULE(Name, Id, Family, Where, Exactness, Summary, Reference,     \
                  Test)                                                        \
  {RuleId::Name, Id, Family, Where, Exactness, Summary, Reference, Test},
#include "cake/Verify/Rules.def"
#undef CAKE_RULE
};

llvm::ArrayRef<RuleInfo> mlir::cake::getAllRules() { return kRules; }

const RuleInfo &mlir::cake::getRuleInfo(RuleId rule) {
  return kRules[static_cast<size_t>(rule)];
}

InFlightDiagnostic mlir::cake::emitRuleError(Location loc, RuleId rule) {
  return emitError(loc) << "[" << getRuleInfo(rule).id << "] ";
}

InFlightDiagnostic mlir::cake::emitRuleError(Operation *op, RuleId rule) {
  return emitRuleError(op->getLoc(), rule);
}
