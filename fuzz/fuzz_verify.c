// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- fuzz/fuzz_verify.c - Parse and cake-verify arbitrary text ----------===*\
|*                                                                            *|
|* The C API's mlirCakeRunPipelineOnSource on the input as Cake IR with the  *|
|* pipeline "cake-verify": the parser, every op verifier and every rule.     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "FuzzCommon.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > CAKE_FUZZ_MAX_INPUT)
    return 0;
  MlirContext ctx = cakeFuzzContext();
  int errors = 0;
  /* The source is not NUL-terminated: the API takes its length. */
  MlirLogicalResult r = mlirCakeRunPipelineOnSource(
      ctx, mlirStringRefCreate((const char *)data, size),
      mlirStringRefCreateFromCString("fuzz"),
      mlirStringRefCreateFromCString("cake-verify"), cakeFuzzCountErrors,
      &errors, NULL, NULL);
  cakeFuzzCheck(r, errors, "cake-verify");
  mlirContextDestroy(ctx);
  return 0;
}
