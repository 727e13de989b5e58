// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- cake-c/Pipeline.h - Parse, run a pipeline, get diagnostics -*- C -*-===*\
|*                                                                            *|
|* One call that takes Cake IR as text, runs a pass pipeline given as text    *|
|* and reports every diagnostic (severity, location, message, notes) through  *|
|* a callback; plus the kernel summary translation.                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_C_PIPELINE_H
#define CAKE_C_PIPELINE_H

/// @file
/// Parse Cake IR, run a pass pipeline, receive structured diagnostics; the
/// writers (summary, bundle, PTX, C header).

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A note attached to a diagnostic: where, and what.
typedef struct MlirCakeDiagnosticNote {
  /// "file:line:col", or the location as MLIR prints it.
  MlirStringRef location;
  MlirStringRef message; ///< the note's text
} MlirCakeDiagnosticNote;

/// One diagnostic. Strings are valid only during the callback; a field a
/// diagnostic does not have is an empty string. `rule`, `role`, `resource`
/// (e.g. "pipe #0"), `stage` and `hint` are the structured facts of a rule
/// diagnostic, the same as --cake-diagnostics-json writes.
typedef struct MlirCakeDiagnostic {
  MlirDiagnosticSeverity severity; ///< error, warning, note or remark
  /// "file:line:col", or the location as MLIR prints it.
  MlirStringRef location;
  MlirStringRef message;  ///< the text, without the rule's fields
  MlirStringRef rule;     ///< e.g. "sync.pipe-roles"
  MlirStringRef role;     ///< the role the rule names, e.g. "producer"
  MlirStringRef resource; ///< e.g. "pipe #0", "ring #1"
  MlirStringRef stage;    ///< the ring or pipe stage it concerns, if any
  MlirStringRef hint;     ///< how to fix it, when the rule knows
  intptr_t numNotes;      ///< the number of `notes`
  const MlirCakeDiagnosticNote *notes; ///< notes attached to the diagnostic
} MlirCakeDiagnostic;

/// Receives each diagnostic of mlirCakeRunPipelineOnSource, with the
/// `diagnosticUserData` given there.
typedef void (*MlirCakeDiagnosticCallback)(const MlirCakeDiagnostic *diagnostic,
                                           void *userData);

/// Parses `source` (named `sourceName` in locations) as a module in `ctx`,
/// runs `pipeline` (textual pass pipeline on builtin.module, e.g.
/// "cake-verify"; empty runs none) and, on success, prints the resulting
/// module through `onOutput` (may be null). Every diagnostic, parse errors and
/// pipeline syntax errors included, goes to `onDiagnostic` (may be null).
/// Cake's dialects and passes are registered into `ctx` as needed. Returns
/// failure if parsing, pipeline parsing or any pass failed.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirCakeRunPipelineOnSource(
    MlirContext ctx, MlirStringRef source, MlirStringRef sourceName,
    MlirStringRef pipeline, MlirCakeDiagnosticCallback onDiagnostic,
    void *diagnosticUserData, MlirStringCallback onOutput,
    void *outputUserData);

/// Writes the JSON kernel summary of every cake.kernel under `op` (the
/// `cake-to-summary-json` translation) through `callback`.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirCakeWriteKernelSummaryJson(
    MlirOperation op, MlirStringCallback callback, void *userData);

/// Writes a lowered module (after `cake-lower`) through `callback` as a
/// bundle (the `cake-to-bundle` translation: cubin and launch metadata as
/// JSON, what libcake_runtime loads), as PTX (`cake-to-ptx`, after
/// `cake-lower{format=ptx}`) or as a self-contained C header
/// (`cake-to-c-header`). Fails with diagnostics on the op's context.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirCakeWriteBundleJson(
    MlirOperation op, MlirStringCallback callback, void *userData);
/// Writes a module lowered by `cake-lower{format=ptx}` as PTX (see
/// mlirCakeWriteBundleJson).
MLIR_CAPI_EXPORTED MlirLogicalResult mlirCakeWritePtx(
    MlirOperation op, MlirStringCallback callback, void *userData);
/// Writes a lowered module as a self-contained C header with a driver-API
/// launcher (see mlirCakeWriteBundleJson).
MLIR_CAPI_EXPORTED MlirLogicalResult mlirCakeWriteCHeader(
    MlirOperation op, MlirStringCallback callback, void *userData);

/// A rule written in C: called by cake-verify on every cake.kernel (after
/// the built-in rules); report violations with mlirCakeEmitRuleError (or
/// mlirCakeEmitRuleErrorWithFields) and return failure.
typedef MlirLogicalResult (*MlirCakeRuleCallback)(MlirOperation kernel,
                                                  void *userData);

/// Registers a rule `id` ("family.name", family one of sync, resource,
/// dataflow, hw; not a built-in id) that runs inside cake-verify in every
/// context of this process. Fails, with a diagnostic on `ctx`, on a bad or
/// taken id.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirCakeRegisterRule(MlirContext ctx, MlirStringRef id, MlirStringRef summary,
                     MlirCakeRuleCallback callback, void *userData);

/// Emits an error at `op` reading "[ruleId] message", the form every rule
/// uses; the rule id is the diagnostic's `rule` field.
MLIR_CAPI_EXPORTED void mlirCakeEmitRuleError(MlirOperation op,
                                              MlirStringRef ruleId,
                                              MlirStringRef message);

/// As mlirCakeEmitRuleError, with the role, resource ("pipe #0", "ring #1")
/// and stage the violation involves as the diagnostic's structured fields
/// (an empty string leaves a field out), as the built-in rules report them.
MLIR_CAPI_EXPORTED void mlirCakeEmitRuleErrorWithFields(
    MlirOperation op, MlirStringRef ruleId, MlirStringRef role,
    MlirStringRef resource, MlirStringRef stage, MlirStringRef message);

#ifdef __cplusplus
}
#endif

#endif /* CAKE_C_PIPELINE_H */
