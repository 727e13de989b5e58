// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/* C API: the layout of the structs a binding mirrors (the Python
 * package's ctypes declarations in python/cake/compiler.py and
 * python/cake/runtime.py): size and field offsets, printed in the same
 * form python/cake/_layout.py prints them from ctypes; the two must agree.
 *
 * RUN: cake-capi-layout > %t.c.txt
 * RUN: env PYTHONPATH=%cake_src/python python3 -m cake._layout > %t.py.txt
 * RUN: diff %t.c.txt %t.py.txt
 * RUN: FileCheck %s --input-file=%t.c.txt
 * CHECK: MlirCakeDiagnostic size {{[0-9]+}} severity 0 location
 * CHECK: MlirCakeDiagnosticNote size {{[0-9]+}} location 0 message
 * CHECK: CakeRtArg size 72 isScalar 0 data 8 rank 16 shape 24 scalar 64
 */

#include "cake-c/Pipeline.h"
#include "cake-rt/cake_runtime.h"

#include <stddef.h>
#include <stdio.h>

#define FIELD(T, f) printf(" %s %zu", #f, offsetof(T, f))

int main(void) {
  printf("MlirCakeDiagnostic size %zu", sizeof(MlirCakeDiagnostic));
  FIELD(MlirCakeDiagnostic, severity);
  FIELD(MlirCakeDiagnostic, location);
  FIELD(MlirCakeDiagnostic, message);
  FIELD(MlirCakeDiagnostic, rule);
  FIELD(MlirCakeDiagnostic, role);
  FIELD(MlirCakeDiagnostic, resource);
  FIELD(MlirCakeDiagnostic, stage);
  FIELD(MlirCakeDiagnostic, hint);
  FIELD(MlirCakeDiagnostic, numNotes);
  FIELD(MlirCakeDiagnostic, notes);
  printf("\nMlirCakeDiagnosticNote size %zu", sizeof(MlirCakeDiagnosticNote));
  FIELD(MlirCakeDiagnosticNote, location);
  FIELD(MlirCakeDiagnosticNote, message);
  printf("\nCakeRtArg size %zu", sizeof(CakeRtArg));
  FIELD(CakeRtArg, isScalar);
  FIELD(CakeRtArg, data);
  FIELD(CakeRtArg, rank);
  FIELD(CakeRtArg, shape);
  FIELD(CakeRtArg, scalar);
  printf("\n");
  return 0;
}
