// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- DiagnosticsJson.cpp - Rule diagnostics as JSON ---------------------===//
//
// `--cake-diagnostics-json=<path|->` (registered with the dialects): once
// the Cake dialect is loaded into a context, every diagnostic of that
// context (parse errors, op verifiers, cake-verify's rules) is also written
// as JSON with cJSON: rule, severity, location, role, resource, stage,
// message, hint, notes, and for sync.deadlock the waiting cycle as a trace.
// The text diagnostics are printed as usual. A file is rewritten after
// each diagnostic, so it is complete whenever the tool stops; stdout ('-')
// gets exactly one JSON document, the whole array, when the tool exits
// (after anything else the tool writes there). A parse error can come
// before the parser loads the Cake dialect; a tool reports those through
// reportParseErrorsAsJson, which parses with the dialect loaded first.
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"
#include "cake/Verify/Rules.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cjson/cJSON.h>
#include <cstdio>
#include <cstdlib>
#include <mutex>

using namespace mlir;
using namespace mlir::cake;

namespace {
llvm::cl::opt<std::string> &jsonPathOption() {
  static llvm::cl::opt<std::string> option(
      "cake-diagnostics-json",
      llvm::cl::desc("Also write every diagnostic as JSON (rule, severity, "
                     "location, role, resource, stage, message, hint, notes) "
                     "to <path>, or to stdout with '-'"),
      llvm::cl::value_desc("path|-"), llvm::cl::init(""));
  return option;
}

const char *severityName(DiagnosticSeverity s) {
  switch (s) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

void addString(cJSON *obj, const char *key, const std::string &v) {
  if (v.empty())
    cJSON_AddNullToObject(obj, key);
  else
    cJSON_AddStringToObject(obj, key, v.c_str());
}

/// The diagnostics collected so far, shared by every context of the tool.
struct Sink {
  std::mutex mutex;
  cJSON *all = nullptr;

  /// Writes the array to `path`; stdout only at exit (writeStdout).
  void write(const std::string &path) {
    if (path == "-")
      return;
    char *text = cJSON_Print(all);
    if (!text)
      return;
    if (FILE *f = std::fopen(path.c_str(), "w")) {
      std::fputs(text, f);
      std::fputs("\n", f);
      std::fclose(f);
    }
    cJSON_free(text);
  }
};
Sink &sink() {
  static Sink s;
  return s;
}

/// At exit, for '-': the one document, an empty array when no context
/// loaded the Cake dialect (the input did not parse that far).
void writeStdout() {
  if (jsonPathOption() != "-")
    return;
  std::lock_guard<std::mutex> lock(sink().mutex);
  llvm::outs().flush();
  char *text = sink().all ? cJSON_Print(sink().all) : nullptr;
  std::fputs(text ? text : "[]", stdout);
  std::fputs("\n", stdout);
  std::fflush(stdout);
  cJSON_free(text);
}
} // namespace

cJSON *mlir::cake::diagnosticToJson(const Diagnostic &diag) {
  RuleDiagnosticFields f = getRuleDiagnosticFields(diag);
  cJSON *d = cJSON_CreateObject();
  addString(d, "rule", f.rule);
  cJSON_AddStringToObject(d, "severity", severityName(diag.getSeverity()));
  cJSON_AddStringToObject(d, "location",
                          locationString(diag.getLocation()).c_str());
  addString(d, "role", f.role);
  addString(d, "resource", f.resource);
  addString(d, "stage", f.stage);
  cJSON_AddStringToObject(d, "message", diag.str().c_str());
  addString(d, "hint", f.hint);
  cJSON *notes = cJSON_AddArrayToObject(d, "notes");
  cJSON *trace =
      f.rule == "sync.deadlock" ? cJSON_AddArrayToObject(d, "trace") : nullptr;
  for (const Diagnostic &note : diag.getNotes()) {
    cJSON *n = cJSON_CreateObject();
    cJSON_AddStringToObject(n, "location",
                            locationString(note.getLocation()).c_str());
    cJSON_AddStringToObject(n, "message", note.str().c_str());
    cJSON_AddItemToArray(notes, n);
    if (trace && StringRef(note.str()).contains("waits here")) {
      cJSON *t = cJSON_CreateObject();
      RuleDiagnosticFields nf = getRuleDiagnosticFields(note);
      addString(t, "role", nf.role);
      addString(t, "resource", nf.resource);
      cJSON_AddStringToObject(t, "location",
                              locationString(note.getLocation()).c_str());
      cJSON_AddStringToObject(t, "waits_for", note.str().c_str());
      cJSON_AddItemToArray(trace, t);
    }
  }
  return d;
}

void mlir::cake::registerDiagnosticsJson(DialectRegistry &registry) {
  (void)jsonPathOption(); // make the option known before parsing
  // What writeStdout uses is constructed before it is registered, so it is
  // destroyed only after it ran.
  static bool atExit = [] {
    (void)sink();
    (void)llvm::outs();
    std::atexit(writeStdout);
    return true;
  }();
  (void)atExit;
  registry.addExtension(+[](MLIRContext *ctx, CakeDialect *) {
    std::string path = jsonPathOption();
    if (path.empty())
      return;
    {
      std::lock_guard<std::mutex> lock(sink().mutex);
      if (!sink().all) {
        sink().all = cJSON_CreateArray();
        sink().write(path);
      }
    }
    ctx->getDiagEngine().registerHandler([path](Diagnostic &diag) {
      std::lock_guard<std::mutex> lock(sink().mutex);
      cJSON_AddItemToArray(sink().all, diagnosticToJson(diag));
      sink().write(path);
      return failure(); // let the text handler print it too
    });
  });
}

LogicalResult
mlir::cake::reportParseErrorsAsJson(const llvm::MemoryBuffer &input,
                                    DialectRegistry &registry,
                                    bool allowUnregisteredDialects) {
  if (jsonPathOption().empty())
    return success();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(input.getBuffer(),
                                       input.getBufferIdentifier()),
      llvm::SMLoc());
  MLIRContext ctx(registry);
  ctx.allowUnregisteredDialects(allowUnregisteredDialects);
  SourceMgrDiagnosticHandler text(sourceMgr, &ctx);
  // Loaded before parsing: its extension adds the JSON handler now.
  ctx.getOrLoadDialect<CakeDialect>();
  int before;
  {
    std::lock_guard<std::mutex> lock(sink().mutex);
    before = cJSON_GetArraySize(sink().all);
  }
  if (parseSourceFile<ModuleOp>(sourceMgr, &ctx)) {
    // It parses: the tool's own run reports its diagnostics; drop this
    // parse's (warnings) so none is written twice.
    std::lock_guard<std::mutex> lock(sink().mutex);
    while (cJSON_GetArraySize(sink().all) > before)
      cJSON_DeleteItemFromArray(sink().all, before);
    sink().write(jsonPathOption());
    return success();
  }
  return failure();
}
