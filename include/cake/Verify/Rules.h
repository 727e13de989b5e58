//===- Rules.h - Cake's verifier rules --------------------------*- C++ -*-===//
//
// The rule registry (Rules.def) as C++: ids, metadata, and the one way a
// rule reports: an error whose message leads with the rule id in brackets.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_VERIFY_RULES_H
#define CAKE_VERIFY_RULES_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace cake {

enum class RuleId {
#define CAKE_RULE(Name, ...) Name,
#include "cake/Verify/Rules.def"
#undef CAKE_RULE
};

/// Everything the registry says about one rule.
struct RuleInfo {
  RuleId rule;
  llvm::StringRef id, family, where, exactness, summary, reference, test;
};

/// All rules, in registry order.
llvm::ArrayRef<RuleInfo> getAllRules();
const RuleInfo &getRuleInfo(RuleId rule);

/// Emits an error at `op` whose message starts with "[rule.id] ".
InFlightDiagnostic emitRuleError(Operation *op, RuleId rule);
InFlightDiagnostic emitRuleError(Location loc, RuleId rule);

} // namespace cake
} // namespace mlir

#endif // CAKE_VERIFY_RULES_H
