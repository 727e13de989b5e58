// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
  return emitError(loc) << DiagRule{rule};
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

//===----------------------------------------------------------------------===//
// Structured fields of rule diagnostics
//===----------------------------------------------------------------------===//

/// The fields live in one DictionaryAttr of the diagnostic's metadata,
/// marked by this key.
static constexpr llvm::StringLiteral kFieldsMarker = "cake.rule_fields";

static DictionaryAttr fieldsOf(const Diagnostic &diag) {
  for (const DiagnosticArgument &arg :
       const_cast<Diagnostic &>(diag).getMetadata())
    if (arg.getKind() == DiagnosticArgument::DiagnosticArgumentKind::Attribute)
      if (auto dict = dyn_cast<DictionaryAttr>(arg.getAsAttribute()))
        if (dict.contains(kFieldsMarker))
          return dict;
  return nullptr;
}

/// Records `key` = `value` unless the diagnostic has a `key` already.
static void recordField(Diagnostic &diag, StringRef key, StringRef value) {
  MLIRContext *ctx = diag.getLocation().getContext();
  SmallVectorImpl<DiagnosticArgument> &meta = diag.getMetadata();
  DictionaryAttr old = fieldsOf(diag);
  if (old && old.contains(key))
    return;
  NamedAttrList fields(old ? old : DictionaryAttr::get(ctx, {}));
  fields.set(kFieldsMarker, UnitAttr::get(ctx));
  fields.set(key, StringAttr::get(ctx, value));
  DictionaryAttr updated = fields.getDictionary(ctx);
  for (DiagnosticArgument &arg : meta)
    if (arg.getKind() ==
            DiagnosticArgument::DiagnosticArgumentKind::Attribute &&
        arg.getAsAttribute() == old) {
      arg = DiagnosticArgument(updated);
      return;
    }
  meta.push_back(DiagnosticArgument(updated));
}

Diagnostic &mlir::cake::operator<<(Diagnostic &diag, const DiagRule &r) {
  StringRef id = getRuleInfo(r.rule).id;
  recordField(diag, "rule", id);
  return diag << "[" << id << "] ";
}

Diagnostic &mlir::cake::operator<<(Diagnostic &diag, const DiagRole &r) {
  recordField(diag, "role", r.name);
  return diag << "role \"" << r.name << "\"";
}

Diagnostic &mlir::cake::operator<<(Diagnostic &diag, const DiagPipe &p) {
  recordField(diag, "resource", ("pipe #" + Twine(p.index)).str());
  return diag << "pipe #" << p.index;
}

Diagnostic &mlir::cake::operator<<(Diagnostic &diag, const DiagRing &r) {
  recordField(diag, "resource", ("ring #" + Twine(r.index)).str());
  return diag << "ring #" << r.index;
}

Diagnostic &mlir::cake::operator<<(Diagnostic &diag, const DiagStage &s) {
  recordField(diag, "stage", std::to_string(s.index));
  return diag << "stage " << s.index;
}

void mlir::cake::setRuleDiagnosticFields(Diagnostic &diag,
                                         const RuleDiagnosticFields &fields) {
  for (auto [key, value] : {std::pair<StringRef, const std::string &>(
                                "rule", fields.rule),
                            {"role", fields.role},
                            {"resource", fields.resource},
                            {"stage", fields.stage}})
    if (!value.empty())
      recordField(diag, key, value);
}

RuleDiagnosticFields
mlir::cake::getRuleDiagnosticFields(const Diagnostic &diag) {
  RuleDiagnosticFields f;
  if (DictionaryAttr fields = fieldsOf(diag)) {
    auto get = [&](StringRef key) -> std::string {
      auto v = fields.getAs<StringAttr>(key);
      return v ? v.getValue().str() : std::string();
    };
    f.rule = get("rule");
    f.role = get("role");
    f.resource = get("resource");
    f.stage = get("stage");
  }
  if (f.rule.empty()) {
    // A rule registered from C reports text that leads with "[id] ".
    std::string msg = diag.str();
    StringRef text(msg);
    if (text.starts_with("["))
      f.rule =
          text.drop_front().take_until([](char c) { return c == ']'; }).str();
  }
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
