// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- ToolSupport.c - What Cake's C tools over the C API share ---------===*\
|*                                                                            *|
|* See ToolSupport.h.                                                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "ToolSupport.h"

#include "cake-c/Cost.h"
#include "cake-c/Dialect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bufferAppend(Buffer *b, const char *s, size_t n) {
  if (b->length + n + 1 > b->capacity) {
    size_t cap = b->capacity ? b->capacity : 4096;
    while (cap < b->length + n + 1)
      cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
      fputs("cake: out of memory\n", stderr);
      exit(1);
    }
    b->data = p;
    b->capacity = cap;
  }
  memcpy(b->data + b->length, s, n);
  b->length += n;
  b->data[b->length] = 0;
}

void appendCallback(MlirStringRef s, void *userData) {
  bufferAppend((Buffer *)userData, s.data, s.length);
}

MlirContext createCakeContext(MlirDiagnosticHandler handler, void *userData) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirCakeRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, handler, userData, NULL);
  return ctx;
}

static void ignoreString(MlirStringRef s, void *userData) {
  (void)s;
  (void)userData;
}

int haveCalibration(const char *calibration) {
  /* A name decides its file whatever the target; sm_90a stands in. */
  return mlirLogicalResultIsSuccess(mlirCakeFindCalibration(
      mlirStringRefCreateFromCString(calibration),
      mlirStringRefCreateFromCString("sm_90a"), ignoreString, NULL));
}
