// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- fuzz/FuzzCommon.h - Shared pieces of the fuzz targets -----*- C -*-===*\
|*                                                                            *|
|* Each target feeds its input to one entry point of Cake's C API or runtime *|
|* and asserts only what the API promises: no crash, no sanitizer report, a  *|
|* failure always carries a diagnostic. A fresh MLIR context per input keeps *|
|* inputs independent (a context grows with every type it has uniqued).      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_FUZZ_FUZZCOMMON_H
#define CAKE_FUZZ_FUZZCOMMON_H

#include "cake-c/Dialect.h"
#include "cake-c/Pipeline.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Inputs past this size are skipped: the parser is linear, and large inputs
 * only slow the search down. */
#define CAKE_FUZZ_MAX_INPUT (64 * 1024)

/* One single-threaded context with Cake's dialects loaded. */
static inline MlirContext cakeFuzzContext(void) {
  MlirContext ctx = mlirContextCreateWithThreading(false);
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirCakeRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  return ctx;
}

/* Counts errors reported through the pipeline's callback. */
static inline void cakeFuzzCountErrors(const MlirCakeDiagnostic *d,
                                       void *userData) {
  if (d->severity == MlirDiagnosticError)
    ++*(int *)userData;
}

/* Counts errors reported on a context (a diagnostic handler). */
static inline MlirLogicalResult cakeFuzzCountContextErrors(MlirDiagnostic d,
                                                           void *userData) {
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError)
    ++*(int *)userData;
  return mlirLogicalResultSuccess();
}

/* An output callback that keeps nothing. */
static inline void cakeFuzzDiscard(MlirStringRef s, void *userData) {
  (void)s;
  (void)userData;
}

/* A failed pipeline must say why: a failure with no error diagnostic is a
 * silent wrong answer, which the targets report by aborting. */
static inline void cakeFuzzCheck(MlirLogicalResult r, int errors,
                                 const char *what) {
  if (mlirLogicalResultIsFailure(r) && errors == 0) {
    fprintf(stderr, "%s failed without an error diagnostic\n", what);
    abort();
  }
}

/* Appends the output callback's text to a growing buffer. */
typedef struct CakeFuzzText {
  char *data;
  size_t length;
} CakeFuzzText;

static inline void cakeFuzzAppend(MlirStringRef s, void *userData) {
  CakeFuzzText *t = (CakeFuzzText *)userData;
  char *grown = (char *)realloc(t->data, t->length + s.length + 1);
  if (!grown)
    abort();
  memcpy(grown + t->length, s.data, s.length);
  t->length += s.length;
  grown[t->length] = '\0';
  t->data = grown;
}

#endif /* CAKE_FUZZ_FUZZCOMMON_H */
