// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- fuzz/fuzz_translate.c - cake-translate's writers on lowered IR
------===*\
|*                                                                            *|
|* Input: a module as cake-lower leaves it (seeds: the examples lowered), as *|
|* a file given to cake-translate would be. Whatever parses goes to the      *|
|* bundle, PTX and C-header writers; each must write or fail with an error.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "FuzzCommon.h"

typedef MlirLogicalResult (*Writer)(MlirOperation, MlirStringCallback, void *);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > CAKE_FUZZ_MAX_INPUT)
    return 0;
  MlirContext ctx = cakeFuzzContext();
  int errors = 0;
  MlirDiagnosticHandlerID h = mlirContextAttachDiagnosticHandler(
      ctx, cakeFuzzCountContextErrors, &errors, NULL);
  /* A NUL-terminated copy, as cake-translate reads a file: MLIR's lexer
   * reads past the end of a source that is not (upstream's
   * mlirModuleCreateParse on the raw input: a heap over-read, the first
   * finding of this target; mlirCakeRunPipelineOnSource copies for the
   * same reason). */
  char *text = (char *)malloc(size + 1);
  if (!text)
    abort();
  memcpy(text, data, size);
  text[size] = '\0';
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreate(text, size));
  if (!mlirModuleIsNull(module)) {
    static const Writer writers[] = {mlirCakeWriteBundleJson, mlirCakeWritePtx,
                                     mlirCakeWriteCHeader};
    static const char *names[] = {"bundle", "PTX", "C header"};
    for (int i = 0; i < 3; ++i) {
      errors = 0;
      MlirLogicalResult r =
          writers[i](mlirModuleGetOperation(module), cakeFuzzDiscard, NULL);
      if (mlirLogicalResultIsFailure(r) && errors == 0) {
        fprintf(stderr, "the %s writer failed without an error\n", names[i]);
        abort();
      }
    }
    mlirModuleDestroy(module);
  }
  mlirContextDetachDiagnosticHandler(ctx, h);
  mlirContextDestroy(ctx);
  free(text);
  return 0;
}
