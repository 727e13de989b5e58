// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- fuzz/fuzz_lower.c - cake-verify, then cake-lower to PTX ------------===*\
|*                                                                            *|
|* What passes cake-verify must lower: the input through "cake-verify,       *|
|* cake-lower{format=ptx}" (PTX, so that ptxas is not run per input). A      *|
|* kernel that verifies and then fails to lower is reported by aborting,    *|
|* with the lowering's diagnostics printed.                                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "FuzzCommon.h"

/* Prints the lowering's errors (the report of a failing input). */
static void printErrors(const MlirCakeDiagnostic *d, void *userData) {
  (void)userData;
  if (d->severity == MlirDiagnosticError) {
    fprintf(stderr, "%.*s: %.*s\n", (int)d->location.length, d->location.data,
            (int)d->message.length, d->message.data);
  }
}

/* True if every #cake.target in the module names sm_90a. */
static int onlyLoweredTarget(const char *module) {
  static const char prefix[] = "#cake.target<\"";
  for (const char *at = strstr(module, prefix); at;
       at = strstr(at + 1, prefix))
    if (strncmp(at + sizeof prefix - 1, "sm_90a\"", 7) != 0)
      return 0;
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > CAKE_FUZZ_MAX_INPUT)
    return 0;
  MlirContext ctx = cakeFuzzContext();
  MlirStringRef source = mlirStringRefCreate((const char *)data, size);
  MlirStringRef name = mlirStringRefCreateFromCString("fuzz");
  int errors = 0;
  CakeFuzzText verified = {NULL, 0};
  MlirLogicalResult r = mlirCakeRunPipelineOnSource(
      ctx, source, name, mlirStringRefCreateFromCString("cake-verify"),
      cakeFuzzCountErrors, &errors, cakeFuzzAppend, &verified);
  cakeFuzzCheck(r, errors, "cake-verify");
  if (mlirLogicalResultIsSuccess(r)) {
    /* Only kernels, and only for the target cake-lower lowers (sm_90a;
     * other targets verify against their own limits, and the lowering says
     * it does not take them: docs/status.md). */
    if (verified.data && strstr(verified.data, "cake.kernel") &&
        onlyLoweredTarget(verified.data)) {
      MlirLogicalResult l = mlirCakeRunPipelineOnSource(
          ctx, source, name,
          mlirStringRefCreateFromCString("cake-verify,cake-lower{format=ptx}"),
          printErrors, NULL, NULL, NULL);
      if (mlirLogicalResultIsFailure(l)) {
        fprintf(stderr, "verified, but cake-lower failed\n");
        abort();
      }
    }
  }
  free(verified.data);
  mlirContextDestroy(ctx);
  return 0;
}
