// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Common.c - Strings, files, diagnostics and the cost model ----------===*\
|*                                                                            *|
|* The helpers every stage of cake-evolve uses (beside ToolSupport.h): files, *|
|* the diagnostics of a pipeline as JSON, a context, a prediction, and a      *|
|* candidate lowered through cake-lower.                                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Evolve.h"

#include "cake-c/Cost.h"

#include <stdlib.h>
#include <string.h>

void onDiagnostic(const MlirCakeDiagnostic *d, void *userData) {
  DiagnosticSink *sink = userData;
  if (d->severity != MlirDiagnosticError)
    return;
  cJSON *o = cJSON_CreateObject();
  char buf[1024];
  snprintf(buf, sizeof buf, "%.*s", (int)d->rule.length, d->rule.data);
  cJSON_AddStringToObject(o, "rule", buf);
  if (!sink->firstRule[0] && d->rule.length)
    snprintf(sink->firstRule, sizeof sink->firstRule, "%.63s", buf);
  snprintf(buf, sizeof buf, "%.*s", (int)d->location.length, d->location.data);
  cJSON_AddStringToObject(o, "location", buf);
  snprintf(buf, sizeof buf, "%.*s", (int)d->message.length, d->message.data);
  cJSON_AddStringToObject(o, "message", buf);
  snprintf(buf, sizeof buf, "%.*s", (int)d->hint.length, d->hint.data);
  if (buf[0])
    cJSON_AddStringToObject(o, "hint", buf);
  cJSON_AddItemToArray(sink->diagnostics, o);
}

/* Diagnostics of the cost model, which reports through the context. */
static MlirLogicalResult onContextDiagnostic(MlirDiagnostic d, void *userData) {
  Buffer *b = userData;
  mlirDiagnosticPrint(d, appendCallback, b);
  bufferAppend(b, "\n", 1);
  return mlirLogicalResultSuccess();
}

/* A context with Cake's dialects whose own diagnostics (the cost model's)
 * collect in `diagnostics`. */
MlirContext createContext(Buffer *diagnostics) {
  return createCakeContext(onContextDiagnostic, diagnostics);
}

/* Predicts the verified module printed in `ir` for `shapes`: the JSON
 * report into `report` and the time into `*ns`. */
MlirLogicalResult predict(MlirContext ctx, const Buffer *ir, const char *shapes,
                          const char *calibration, Buffer *report, double *ns) {
  return predictWithPtxas(ctx, ir, shapes, calibration, NULL, report, ns);
}

MlirLogicalResult predictWithPtxas(MlirContext ctx, const Buffer *ir,
                                   const char *shapes, const char *calibration,
                                   const char *ptxasFacts, Buffer *report,
                                   double *ns) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreate(ir->data, ir->length));
  if (mlirModuleIsNull(module))
    return mlirLogicalResultFailure();
  if (ptxasFacts) {
    MlirAttribute facts =
        mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(ptxasFacts));
    if (mlirAttributeIsNull(facts)) {
      mlirModuleDestroy(module);
      return mlirLogicalResultFailure();
    }
    /* Every kernel of the module: ptxas reported the candidate's one. */
    for (MlirOperation op =
             mlirBlockGetFirstOperation(mlirModuleGetBody(module));
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
      if (name.length == 11 && !strncmp(name.data, "cake.kernel", 11))
        mlirOperationSetDiscardableAttributeByName(
            op, mlirStringRefCreateFromCString("cake.ptxas"), facts);
    }
  }
  MlirLogicalResult r = mlirCakeEstimateCost(
      mlirModuleGetOperation(module), mlirStringRefCreateFromCString(shapes),
      mlirStringRefCreateFromCString(calibration ? calibration : ""), 1,
      appendCallback, report, ns);
  mlirModuleDestroy(module);
  return r;
}

uint64_t fnv1a(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ull;
  }
  return h;
}

char *readFile(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  Buffer b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    bufferAppend(&b, chunk, n);
  fclose(f);
  if (!b.data)
    bufferAppend(&b, "", 0);
  return b.data;
}

void writeCallback(MlirStringRef s, void *userData) {
  fwrite(s.data, 1, s.length, (FILE *)userData);
}

MlirModule lowerCandidate(MlirContext ctx, const char *seed,
                                 const char *seedPath, const char *pipeline,
                                 const char *lower, DiagnosticSink *sink) {
  Buffer full = {0}, lowered = {0};
  bufferAppend(&full, pipeline, strlen(pipeline));
  bufferAppend(&full, ",", 1);
  bufferAppend(&full, lower, strlen(lower));
  MlirLogicalResult r = mlirCakeRunPipelineOnSource(
      ctx, mlirStringRefCreateFromCString(seed),
      mlirStringRefCreateFromCString(seedPath),
      mlirStringRefCreateFromCString(full.data), onDiagnostic, sink,
      appendCallback, &lowered);
  MlirModule module =
      mlirLogicalResultIsSuccess(r)
          ? mlirModuleCreateParse(
                ctx, mlirStringRefCreate(lowered.data, lowered.length))
          : (MlirModule){NULL};
  free(full.data);
  free(lowered.data);
  return module;
}
