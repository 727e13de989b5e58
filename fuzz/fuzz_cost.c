// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- fuzz/fuzz_cost.c - The cost model on verified kernels --------------===*\
|*                                                                            *|
|* Input: a first line of problem shapes ("8192x8192,8192x8192,...", as     *|
|* --cake-cost's shapes option takes them), then Cake IR. What passes        *|
|* cake-verify goes to mlirCakeEstimateCost: it must either report or fail  *|
|* with a located error, and a prediction must be a finite, positive time.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "FuzzCommon.h"
#include "cake-c/Cost.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > CAKE_FUZZ_MAX_INPUT)
    return 0;
  const char *text = (const char *)data;
  const char *newline = memchr(text, '\n', size);
  if (!newline)
    return 0;
  size_t shapesLength = (size_t)(newline - text);
  MlirContext ctx = cakeFuzzContext();
  int errors = 0;
  CakeFuzzText verified = {NULL, 0};
  MlirLogicalResult r = mlirCakeRunPipelineOnSource(
      ctx, mlirStringRefCreate(newline + 1, size - shapesLength - 1),
      mlirStringRefCreateFromCString("fuzz"),
      mlirStringRefCreateFromCString("cake-verify"), cakeFuzzCountErrors,
      &errors, cakeFuzzAppend, &verified);
  cakeFuzzCheck(r, errors, "cake-verify");
  if (mlirLogicalResultIsSuccess(r) && verified.data) {
    int costErrors = 0;
    MlirDiagnosticHandlerID h = mlirContextAttachDiagnosticHandler(
        ctx, cakeFuzzCountContextErrors, &costErrors, NULL);
    MlirModule module = mlirModuleCreateParse(
        ctx, mlirStringRefCreate(verified.data, verified.length));
    if (mlirModuleIsNull(module)) {
      fprintf(stderr, "cake-verify printed a module that does not parse\n");
      abort();
    }
    double ns = -1;
    MlirLogicalResult c = mlirCakeEstimateCost(
        mlirModuleGetOperation(module), mlirStringRefCreate(text, shapesLength),
        mlirStringRefCreateFromCString(""), 1, cakeFuzzDiscard, NULL, &ns);
    if (mlirLogicalResultIsFailure(c) && costErrors == 0) {
      fprintf(stderr, "the cost model failed without an error\n");
      abort();
    }
    /* A module with no kernel leaves the time unset (-1). */
    if (mlirLogicalResultIsSuccess(c) && ns != -1 &&
        !(isfinite(ns) && ns > 0)) {
      fprintf(stderr, "the cost model predicted %g ns\n", ns);
      abort();
    }
    mlirModuleDestroy(module);
    mlirContextDetachDiagnosticHandler(ctx, h);
  }
  free(verified.data);
  mlirContextDestroy(ctx);
  return 0;
}
