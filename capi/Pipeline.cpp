// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Pipeline.cpp - C API: parse, run a pipeline, collect diagnostics ---===//
//
// Implements cake-c/Pipeline.h and the generated pass C API.
//
//===----------------------------------------------------------------------===//

#include "cake-c/Pipeline.h"
#include "cake-c/Dialect.h"
#include "cake/InitAll.h"
#include "cake/Passes.h"
#include "cake/Translate/Translate.h"
#include "cake/Verify/Rules.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <string>
#include <vector>

using namespace mlir;

// The generated pass C API: mlirCreateCakeVerify() and friends.
#include "cake/Passes.capi.h.inc"
using namespace mlir::cake;
#include "cake/Passes.capi.cpp.inc"

static MlirDiagnosticSeverity wrapSeverity(DiagnosticSeverity s) {
  switch (s) {
  case DiagnosticSeverity::Error:
    return MlirDiagnosticError;
  case DiagnosticSeverity::Warning:
    return MlirDiagnosticWarning;
  case DiagnosticSeverity::Note:
    return MlirDiagnosticNote;
  case DiagnosticSeverity::Remark:
    return MlirDiagnosticRemark;
  }
  return MlirDiagnosticError;
}

/// The pipeline to run on the parsed module itself: "builtin.module(P)" is
/// P (mlir-opt's anchored form; parsed as it is into a module's pass
/// manager it would run P on modules nested in the module, none, and
/// report success on anything), any other text as it is.
static StringRef stripModuleAnchor(StringRef text) {
  StringRef inner = text.trim();
  if (!inner.consume_front("builtin.module(") || !inner.consume_back(")"))
    return text;
  int depth = 0;
  for (char c : inner) {
    depth += (c == '(') - (c == ')');
    if (depth < 0)
      return text; // "builtin.module(a),builtin.module(b)": not one anchor
  }
  return depth == 0 ? inner : text;
}

MlirLogicalResult
mlirCakeRunPipelineOnSource(MlirContext ctx, MlirStringRef source,
                            MlirStringRef sourceName, MlirStringRef pipeline,
                            MlirCakeDiagnosticCallback onDiagnostic,
                            void *diagnosticUserData,
                            MlirStringCallback onOutput, void *outputUserData) {
  MLIRContext *context = unwrap(ctx);
  DialectRegistry registry;
  cake::registerAllDialects(registry);
  context->appendDialectRegistry(registry);
  mlirCakeRegisterAllPasses();
  // The caller gets structured diagnostics; the op dump MLIR would attach as
  // a note is noise there.
  context->printOpOnDiagnostic(false);

  // Every diagnostic, with its notes, goes to the caller while we run.
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    if (!onDiagnostic)
      return success();
    std::string loc = cake::locationString(diag.getLocation());
    std::string msg = diag.str();
    cake::RuleDiagnosticFields fields = cake::getRuleDiagnosticFields(diag);
    std::vector<std::string> noteLocs, noteMsgs;
    for (Diagnostic &note : diag.getNotes()) {
      noteLocs.push_back(cake::locationString(note.getLocation()));
      noteMsgs.push_back(note.str());
    }
    std::vector<MlirCakeDiagnosticNote> notes;
    for (size_t i = 0; i < noteLocs.size(); ++i)
      notes.push_back(
          {wrap(StringRef(noteLocs[i])), wrap(StringRef(noteMsgs[i]))});
    MlirCakeDiagnostic d{wrapSeverity(diag.getSeverity()),
                         wrap(StringRef(loc)),
                         wrap(StringRef(msg)),
                         wrap(StringRef(fields.rule)),
                         wrap(StringRef(fields.role)),
                         wrap(StringRef(fields.resource)),
                         wrap(StringRef(fields.stage)),
                         wrap(StringRef(fields.hint)),
                         (intptr_t)notes.size(),
                         notes.empty() ? nullptr : notes.data()};
    onDiagnostic(&d, diagnosticUserData);
    return success();
  });

  // The parser reads up to a NUL: the caller's bytes are copied into a
  // string that has one, since an MlirStringRef need not.
  std::string text = unwrap(source).str();
  ParserConfig config(context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, config, unwrap(sourceName));
  if (!module)
    return mlirLogicalResultFailure();

  PassManager pm(context, ModuleOp::getOperationName());
  std::string pipelineErrors;
  llvm::raw_string_ostream errorStream(pipelineErrors);
  if (failed(parsePassPipeline(stripModuleAnchor(unwrap(pipeline)), pm,
                               errorStream))) {
    emitError(UnknownLoc::get(context))
        << "invalid pass pipeline '" << unwrap(pipeline)
        << "': " << pipelineErrors;
    return mlirLogicalResultFailure();
  }
  if (failed(pm.run(*module)))
    return mlirLogicalResultFailure();

  if (onOutput) {
    mlir::detail::CallbackOstream stream(onOutput, outputUserData);
    module->print(stream);
    stream << "\n";
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult mlirCakeWriteKernelSummaryJson(MlirOperation op,
                                                 MlirStringCallback callback,
                                                 void *userData) {
  mlir::detail::CallbackOstream stream(callback, userData);
  return wrap(cake::writeKernelSummaryJson(unwrap(op), stream));
}

MlirLogicalResult mlirCakeWriteBundleJson(MlirOperation op,
                                         MlirStringCallback callback,
                                         void *userData) {
  mlir::detail::CallbackOstream stream(callback, userData);
  return wrap(cake::writeKernelBundleJson(unwrap(op), stream));
}

MlirLogicalResult mlirCakeWritePtx(MlirOperation op,
                                   MlirStringCallback callback,
                                   void *userData) {
  mlir::detail::CallbackOstream stream(callback, userData);
  return wrap(cake::writeKernelPtx(unwrap(op), stream));
}

MlirLogicalResult mlirCakeWriteCHeader(MlirOperation op,
                                       MlirStringCallback callback,
                                       void *userData) {
  mlir::detail::CallbackOstream stream(callback, userData);
  return wrap(cake::writeKernelCHeader(unwrap(op), stream));
}

MlirLogicalResult mlirCakeRegisterRule(MlirContext ctx, MlirStringRef id,
                                       MlirStringRef summary,
                                       MlirCakeRuleCallback callback,
                                       void *userData) {
  cake::ExternalRule rule;
  rule.id = unwrap(id).str();
  rule.summary = unwrap(summary).str();
  rule.check = [callback, userData](Operation *kernel) {
    return unwrap(callback(wrap(kernel), userData));
  };
  std::string error;
  if (failed(cake::registerExternalRule(std::move(rule), error))) {
    emitError(UnknownLoc::get(unwrap(ctx))) << error;
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

void mlirCakeEmitRuleError(MlirOperation op, MlirStringRef ruleId,
                           MlirStringRef message) {
  mlirCakeEmitRuleErrorWithFields(op, ruleId, MlirStringRef{nullptr, 0},
                                  MlirStringRef{nullptr, 0},
                                  MlirStringRef{nullptr, 0}, message);
}

void mlirCakeEmitRuleErrorWithFields(MlirOperation op, MlirStringRef ruleId,
                                     MlirStringRef role, MlirStringRef resource,
                                     MlirStringRef stage,
                                     MlirStringRef message) {
  InFlightDiagnostic diag = emitError(unwrap(op)->getLoc());
  diag << "[" << unwrap(ruleId) << "] " << unwrap(message);
  if (Diagnostic *d = diag.getUnderlyingDiagnostic())
    cake::setRuleDiagnosticFields(
        *d, {unwrap(ruleId).str(), unwrap(role).str(), unwrap(resource).str(),
             unwrap(stage).str(), ""});
}
