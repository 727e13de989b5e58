// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

namespace llvm {
class MemoryBuffer;
} // namespace llvm

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

/// Streamed into a diagnostic, each of these writes its part of the text
/// and records the field it names as data beside it (the diagnostic's
/// metadata), so that the JSON writer and the C API read the rule, role,
/// resource and stage the emitting rule named, not the text back:
///
///   emitRuleError(op, RuleId::SyncTripCountMismatch)
///       << DiagRole{consumer.getName()} << " waits ... on " << DiagPipe{i};
///
/// The first of each kind streamed into a diagnostic (or a note) is its
/// field; later ones are text only.
struct DiagRule { ///< "[rule.id] "
  RuleId rule;
};
struct DiagRole { ///< role "name"
  llvm::StringRef name;
};
struct DiagPipe { ///< pipe #N
  int64_t index;
};
struct DiagRing { ///< ring #N
  int64_t index;
};
struct DiagStage { ///< stage N
  int64_t index;
};
Diagnostic &operator<<(Diagnostic &diag, const DiagRule &rule);
Diagnostic &operator<<(Diagnostic &diag, const DiagRole &role);
Diagnostic &operator<<(Diagnostic &diag, const DiagPipe &pipe);
Diagnostic &operator<<(Diagnostic &diag, const DiagRing &ring);
Diagnostic &operator<<(Diagnostic &diag, const DiagStage &stage);

/// The structured facts of a rule diagnostic: the fields recorded by the
/// Diag* parts above, and the repair a note starting with "hint: " gives.
/// A diagnostic that recorded no rule (a rule registered from C, which
/// writes text) gives the id its message leads with in brackets.
struct RuleDiagnosticFields {
  std::string rule, role, resource, stage, hint;
};
RuleDiagnosticFields getRuleDiagnosticFields(const Diagnostic &diag);
/// Records the non-empty rule, role, resource and stage of `fields` as the
/// diagnostic's data (for rules that write their text themselves, such as
/// those registered from C); the hint stays a note.
void setRuleDiagnosticFields(Diagnostic &diag,
                             const RuleDiagnosticFields &fields);

/// The JSON form of a diagnostic (cJSON object; the caller owns it).
cJSON *diagnosticToJson(const Diagnostic &diag);

/// Adds `--cake-diagnostics-json=<path|->` and, for contexts that load the
/// Cake dialect, the handler that writes diagnostics as JSON.
void registerDiagnosticsJson(DialectRegistry &registry);

/// With --cake-diagnostics-json given: parses `input` in a context of
/// `registry` with the Cake dialect loaded before the parser starts, so that
/// parse errors the parser meets before it would load the dialect are
/// written as JSON too (and printed as text); failure if it does not
/// parse. Without the option: success, nothing parsed. (Not for input split
/// into chunks or checked against expected-* lines: each chunk parses on
/// its own there.)
LogicalResult reportParseErrorsAsJson(const llvm::MemoryBuffer &input,
                                      DialectRegistry &registry,
                                      bool allowUnregisteredDialects);

/// "file:line:col" of the first file location inside `loc`, else the
/// location as MLIR prints it.
std::string locationString(Location loc);

} // namespace cake
} // namespace mlir

#endif // CAKE_VERIFY_RULES_H
