// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/* C API: parse Cake IR from text, run a textual pipeline, receive every
 * diagnostic with severity, location, message and notes.
 *
 * RUN: cake-capi-pipeline 2>&1 | FileCheck %s
 */

#include "cake-c/Dialect.h"
#include "cake-c/Passes.h"
#include "cake-c/Pipeline.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <string.h>

static const char *severityName(MlirDiagnosticSeverity s) {
  switch (s) {
  case MlirDiagnosticError:
    return "error";
  case MlirDiagnosticWarning:
    return "warning";
  case MlirDiagnosticNote:
    return "note";
  case MlirDiagnosticRemark:
    return "remark";
  }
  return "?";
}

static void onDiagnostic(const MlirCakeDiagnostic *d, void *userData) {
  int *count = (int *)userData;
  ++*count;
  printf("[%s] %.*s: %.*s\n", severityName(d->severity),
         (int)d->location.length, d->location.data, (int)d->message.length,
         d->message.data);
  if (d->rule.length)
    printf("  rule=%.*s role=%.*s resource=%.*s hint=%.*s\n",
           (int)d->rule.length, d->rule.data, (int)d->role.length,
           d->role.data, (int)d->resource.length, d->resource.data,
           (int)d->hint.length, d->hint.data);
  for (intptr_t i = 0; i < d->numNotes; ++i)
    printf("  note %.*s: %.*s\n", (int)d->notes[i].location.length,
           d->notes[i].location.data, (int)d->notes[i].message.length,
           d->notes[i].message.data);
}

static void printToStdout(MlirStringRef s, void *userData) {
  (void)userData;
  fwrite(s.data, 1, s.length, stdout);
}

static const char *kGood =
    "cake.kernel @copy(%A: !cake.global<?x?xf16>, %C: !cake.global<?x?xf16>)\n"
    "    attributes {target = #cake.target<\"sm_90a\">,\n"
    "                schedule = #cake.grid<tile = [64, 64]>} {\n"
    "  %r = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>\n"
    "  %p = cake.pipe %r : !cake.ring<2 x 64x64xf16, swizzle = 128>\n"
    "  cake.role \"load\" warps(1) {\n"
    "    %M = cake.dim %A, 0 : !cake.global<?x?xf16>\n"
    "    %N = cake.dim %A, 1 : !cake.global<?x?xf16>\n"
    "    cake.tiles (%m, %n) in (%M, %N) {\n"
    "      %s = cake.pipe.acquire %p : !cake.pipe<2>\n"
    "      cake.tma.load %A[%m, %n] -> %r[%s] : !cake.global<?x?xf16> -> "
    "!cake.ring<2 x 64x64xf16, swizzle = 128>\n"
    "      cake.pipe.commit %p, %s : !cake.pipe<2>\n"
    "    }\n"
    "  }\n"
    "  cake.role \"store\" warps(1) {\n"
    "    %M = cake.dim %A, 0 : !cake.global<?x?xf16>\n"
    "    %N = cake.dim %A, 1 : !cake.global<?x?xf16>\n"
    "    cake.tiles (%m, %n) in (%M, %N) {\n"
    "      %s = cake.pipe.wait %p : !cake.pipe<2>\n"
    "      cake.tma.store %r[%s] -> %C[%m, %n] : !cake.ring<2 x 64x64xf16, "
    "swizzle = 128> -> !cake.global<?x?xf16>\n"
    "      cake.pipe.release %p, %s : !cake.pipe<2>\n"
    "    }\n"
    "  }\n"
    "}\n";

/* Both roles acquire: the pipe has two producers and no consumer. */
static const char *kTwoProducers =
    "cake.kernel @bad(%A: !cake.global<?x?xf16>)\n"
    "    attributes {target = #cake.target<\"sm_90a\">,\n"
    "                schedule = #cake.grid<tile = [64, 64]>} {\n"
    "  %r = cake.ring : !cake.ring<2 x 64x64xf16, swizzle = 128>\n"
    "  %p = cake.pipe %r : !cake.ring<2 x 64x64xf16, swizzle = 128>\n"
    "  cake.role \"a\" warps(1) {\n"
    "    %s = cake.pipe.acquire %p : !cake.pipe<2>\n"
    "    cake.pipe.commit %p, %s : !cake.pipe<2>\n"
    "  }\n"
    "  cake.role \"b\" warps(1) {\n"
    "    %s = cake.pipe.acquire %p : !cake.pipe<2>\n"
    "    cake.pipe.commit %p, %s : !cake.pipe<2>\n"
    "  }\n"
    "}\n";

static MlirLogicalResult run(MlirContext ctx, const char *name,
                             const char *src, const char *pipeline,
                             int printOutput) {
  int count = 0;
  MlirLogicalResult r = mlirCakeRunPipelineOnSource(
      ctx, mlirStringRefCreateFromCString(src),
      mlirStringRefCreateFromCString(name),
      mlirStringRefCreateFromCString(pipeline), onDiagnostic, &count,
      printOutput ? printToStdout : NULL, NULL);
  printf("%s: %s, %d diagnostic(s)\n", name,
         mlirLogicalResultIsSuccess(r) ? "ok" : "failed", count);
  return r;
}

int main(void) {
  MlirContext ctx = mlirContextCreate();

  run(ctx, "good.mlir", kGood, "cake-verify", 1);
  // CHECK: cake.kernel @copy
  // CHECK: cake.tma.store
  // CHECK: good.mlir: ok, 0 diagnostic(s)

  run(ctx, "bad.mlir", kTwoProducers, "cake-verify", 0);
  // CHECK: [error] bad.mlir:5:8: [sync.pipe-roles] pipe #0 has 2 producer roles, expected exactly one
  // CHECK-NEXT: rule=sync.pipe-roles role= resource=pipe #0 hint=
  // CHECK-NEXT: note bad.mlir:6:3: producer role "a"
  // CHECK-NEXT: note bad.mlir:10:3: producer role "b"
  // CHECK: [error] bad.mlir:5:8: [sync.pipe-roles] pipe #0 has 0 consumer roles, expected exactly one
  // CHECK: bad.mlir: failed, 2 diagnostic(s)

  run(ctx, "syntax.mlir", "cake.kernel @k(", "", 0);
  // CHECK: [error] syntax.mlir:1:15: expected non-function type
  // CHECK: syntax.mlir: failed, 1 diagnostic(s)

  run(ctx, "pipe.mlir", kGood, "no-such-pass", 0);
  // CHECK: [error] {{.*}}: invalid pass pipeline 'no-such-pass'
  // CHECK: pipe.mlir: failed, 1 diagnostic(s)

  /* mlir-opt's anchored form runs on the module itself, as the plain form
   * does (it used to run on nested modules, none, and report success). */
  run(ctx, "anchored.mlir", kTwoProducers, "builtin.module(cake-verify)", 0);
  // CHECK: [error] anchored.mlir:5:8: [sync.pipe-roles] pipe #0 has 2 producer roles
  // CHECK: anchored.mlir: failed, 2 diagnostic(s)
  run(ctx, "anchored2.mlir", kGood, " builtin.module(cake-verify,cse) ", 0);
  // CHECK: anchored2.mlir: ok, 0 diagnostic(s)

  /* The source is its MlirStringRef's bytes, not up to a NUL: the parser
   * must not read past them. Here the bytes after the length are a second
   * kernel with a syntax error, which must not be seen. */
  {
    static const char kTwice[] =
        "module {}\n"
        "cake.kernel @k(";
    int count = 0;
    MlirLogicalResult r = mlirCakeRunPipelineOnSource(
        ctx, mlirStringRefCreate(kTwice, 10),
        mlirStringRefCreateFromCString("sized.mlir"),
        mlirStringRefCreateFromCString("cake-verify"), onDiagnostic, &count,
        NULL, NULL);
    printf("sized.mlir: %s, %d diagnostic(s)\n",
           mlirLogicalResultIsSuccess(r) ? "ok" : "failed", count);
  }
  // CHECK: sized.mlir: ok, 0 diagnostic(s)

  /* The generated pass C API creates the same pass. */
  MlirPass verify = mlirCreateCakeVerify();
  printf("created pass: %d\n", verify.ptr != NULL);
  // CHECK: created pass: 1
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, verify);
  mlirPassManagerDestroy(pm);
  mlirContextDestroy(ctx);
  return 0;
}
