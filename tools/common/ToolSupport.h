// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- ToolSupport.h - What Cake's C tools over the C API share ---*- C -*-===*\
|*                                                                            *|
|* A growable string, the string callback that fills it, and an MLIR context  *|
|* with Cake's dialects and a diagnostic handler: used by cake-evolve and     *|
|* cake-mcp.                                                                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_TOOLS_TOOLSUPPORT_H
#define CAKE_TOOLS_TOOLSUPPORT_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <stddef.h>

/* A growable NUL-terminated string (zero-initialize; free data). */
typedef struct {
  char *data;
  size_t length, capacity;
} Buffer;

/* Appends n bytes; exits with a message when memory runs out. */
void bufferAppend(Buffer *b, const char *s, size_t n);
/* An MlirStringCallback that appends to the Buffer in `userData`. */
void appendCallback(MlirStringRef s, void *userData);

/* Whether the cost model has a calibration for `calibration` (a file, or a
 * GPU's name such as "h100": mlirCakeFindCalibration), so that a tool can
 * refuse an option before it predicts anything. */
int haveCalibration(const char *calibration);

/* A context with every dialect Cake needs registered, its own diagnostics
 * (parsing, translations, the cost model) going to `handler`. */
MlirContext createCakeContext(MlirDiagnosticHandler handler, void *userData);

#endif // CAKE_TOOLS_TOOLSUPPORT_H
