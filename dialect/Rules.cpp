//===- Rules.cpp - The rule registry as a table ---------------------------===//
//
// Expands Rules.def into the table behind cake/Verify/Rules.h.
//
//===----------------------------------------------------------------------===//

#include "cake/Verify/Rules.h"

#include <mutex>

using namespace mlir;
using namespace mlir::cake;

static const RuleInfo kRules[] = {
#define CAKE_RULE(Name, Id, Family, Where, Exactness, Summary, Reference,      \
                  Test)                                                        \
  {RuleId::Name, Id, Family, Where, Exactness, Summary, Reference, Test},
#include "cake/Verify/Rules.def"
#undef CAKE_RULE
};

llvm::ArrayRef<RuleInfo> mlir::cake::getAllRules() { return kRules; }

const RuleInfo &mlir::cake::getRuleInfo(RuleId rule) {
  return kRules[static_cast<size_t>(rule)];
}

std::string mlir::cake::rulePrefix(RuleId rule) {
  return ("[" + getRuleInfo(rule).id + "] ").str();
}

InFlightDiagnostic mlir::cake::emitRuleError(Location loc, RuleId rule) {
  return emitError(loc) << "[" << getRuleInfo(rule).id << "] ";
}

InFlightDiagnostic mlir::cake::emitRuleError(Operation *op, RuleId rule) {
  return emitRuleError(op->getLoc(), rule);
}

std::string mlir::cake::locationString(Location loc) {
  std::string out;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      out = (f.getFilename().getValue() + ":" + Twine(f.getLine()) + ":" +
             Twine(f.getColumn()))
                .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (out.empty()) {
    llvm::raw_string_ostream os(out);
    loc.print(os);
  }
  return out;
}

/// The text after `prefix` up to (not including) a character in `stops`.
static std::string after(StringRef text, StringRef prefix, StringRef stops) {
  size_t at = text.find(prefix);
  if (at == StringRef::npos)
    return "";
  StringRef rest = text.drop_front(at + prefix.size());
  return rest.take_until([&](char c) { return stops.contains(c); }).str();
}

RuleDiagnosticFields mlir::cake::parseRuleDiagnostic(const Diagnostic &diag) {
  RuleDiagnosticFields f;
  std::string msg = diag.str();
  StringRef text(msg);
  if (text.starts_with("["))
    f.rule =
        text.drop_front().take_until([](char c) { return c == ']'; }).str();
  f.role = after(text, "role \"", "\"");
  for (StringRef kind : {"pipe #", "ring #"}) {
    std::string n = after(text, kind, " ,;:)");
    if (!n.empty()) {
      f.resource = (kind + n).str();
      break;
    }
  }
  f.stage = after(text, "stage ", " ,;:)");
  if (!f.stage.empty() && !llvm::all_of(f.stage, ::isdigit))
    f.stage.clear();
  for (const Diagnostic &note : diag.getNotes()) {
    std::string n = note.str();
    if (StringRef(n).starts_with("hint: "))
      f.hint = n.substr(6);
  }
  return f;
}

namespace {
struct ExternalRules {
  std::mutex mutex;
  std::vector<ExternalRule> rules;
};
ExternalRules &externalRules() {
  static ExternalRules r;
  return r;
}
} // namespace

LogicalResult mlir::cake::registerExternalRule(ExternalRule rule,
                                               std::string &error) {
  StringRef id(rule.id);
  auto [family, name] = id.split('.');
  if (name.empty() ||
      !llvm::is_contained({"sync", "resource", "dataflow", "hw"}, family)) {
    error = "rule id '" + rule.id +
            "' must be family.name with family sync, resource, dataflow or hw";
    return failure();
  }
  for (const RuleInfo &r : getAllRules())
    if (r.id == id) {
      error = "rule id '" + rule.id + "' is a built-in rule";
      return failure();
    }
  std::lock_guard<std::mutex> lock(externalRules().mutex);
  for (const ExternalRule &r : externalRules().rules)
    if (r.id == rule.id) {
      error = "rule id '" + rule.id + "' is already registered";
      return failure();
    }
  externalRules().rules.push_back(std::move(rule));
  return success();
}

std::vector<ExternalRule> mlir::cake::getExternalRules() {
  std::lock_guard<std::mutex> lock(externalRules().mutex);
  return externalRules().rules;
}
