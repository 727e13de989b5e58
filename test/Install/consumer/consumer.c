// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/* A C program built against an installed Cake (find_package(Cake),
 * Cake::CAPI and Cake::Runtime): parses and verifies the kernel file given,
 * prints the versions the libraries report and each diagnostic. */

#include "cake-c/Dialect.h"
#include "cake-c/Pipeline.h"
#include "cake-rt/cake_runtime.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <stdlib.h>

static void onDiagnostic(const MlirCakeDiagnostic *d, void *userData) {
  (void)userData;
  printf("diagnostic: %.*s (rule %.*s)\n", (int)d->message.length,
         d->message.data, (int)d->rule.length, d->rule.data);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: cake-consumer KERNEL.cake.mlir\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  static char text[1 << 20];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = 0;
  printf("C API %s, runtime %s\n", mlirCakeGetVersion(), cakeRtVersion());
  MlirContext ctx = mlirContextCreate();
  MlirLogicalResult r =
      mlirCakeRunPipelineOnSource(ctx, mlirStringRefCreate(text, n),
                                  mlirStringRefCreateFromCString(argv[1]),
                                  mlirStringRefCreateFromCString("cake-verify"),
                                  onDiagnostic, NULL, NULL, NULL);
  printf("%s: %s\n", argv[1],
         mlirLogicalResultIsSuccess(r) ? "verified" : "rejected");
  mlirContextDestroy(ctx);
  return mlirLogicalResultIsSuccess(r) ? 0 : 1;
}
