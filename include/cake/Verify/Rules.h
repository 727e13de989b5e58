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

#include <functional>
#include <string>
#include <vector>

struct cJSON;

namespace mlir {
class DialectRegistry;
}

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

/// "[rule.id] ", the prefix of every message of `rule`.
std::string rulePrefix(RuleId rule);

/// Emits an error at `op` whose message starts with "[rule.id] ".
InFlightDiagnostic emitRuleError(Operation *op, RuleId rule);
InFlightDiagnostic emitRuleError(Location loc, RuleId rule);

/// A rule registered at run time (from C through the C API): it runs inside
/// cake-verify on every kernel after the built-in rules and reports with
/// emitError "[id] ..." like them.
struct ExternalRule {
  std::string id, summary;
  std::function<LogicalResult(Operation *kernel)> check;
};
/// Registers an external rule. Fails (with a message in `error`) if the id
/// is not `family.name` with a known family or is already taken.
LogicalResult registerExternalRule(ExternalRule rule, std::string &error);
/// A copy of the external rules registered so far.
std::vector<ExternalRule> getExternalRules();

/// The structured facts of a rule diagnostic, read back from its text by
/// the conventions every rule follows: "[rule.id] " leads the message,
/// `role "name"`, `pipe #N` / `ring #N` and `stage N` name the participants,
/// and a note starting with "hint: " gives the repair.
struct RuleDiagnosticFields {
  std::string rule, role, resource, stage, hint;
};
RuleDiagnosticFields parseRuleDiagnostic(const Diagnostic &diag);

/// The JSON form of a diagnostic (cJSON object; the caller owns it).
cJSON *diagnosticToJson(const Diagnostic &diag);

/// Adds `--cake-diagnostics-json=<path|->` and, for contexts that load the
/// Cake dialect, the handler that writes diagnostics as JSON.
void registerDiagnosticsJson(DialectRegistry &registry);

/// "file:line:col" of the first file location inside `loc`, else the
/// location as MLIR prints it.
std::string locationString(Location loc);

} // namespace cake
} // namespace mlir

#endif // CAKE_VERIFY_RULES_H
