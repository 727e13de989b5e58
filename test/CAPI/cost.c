// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/* C API: the cost model. Parses a kernel from a file, predicts it for a
 * problem and reads the JSON report; a problem that does not match the
 * kernel fails with a located diagnostic. Then the kernel against the same
 * one with two stages (the second file): which is predicted faster, and the
 * terms and decisions that differ.
 *
 * RUN: cd %S/../Analysis/Inputs && cake-capi-cost cost-gemm-s4.mlir \
 * RUN:   cost-gemm-s2.mlir 2>&1 | FileCheck %s
 */

#include "cake-c/Cost.h"
#include "cake-c/Dialect.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <string.h>

/* Collects the JSON report. */
static char report[1 << 16];
static size_t reportLength = 0;
static void collect(MlirStringRef s, void *userData) {
  (void)userData;
  if (reportLength + s.length < sizeof report) {
    memcpy(report + reportLength, s.data, s.length);
    reportLength += s.length;
    report[reportLength] = 0;
  }
}

static void printToStdout(MlirStringRef s, void *userData) {
  (void)userData;
  fwrite(s.data, 1, s.length, stdout);
}

static MlirLogicalResult onDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirLocationPrint(mlirDiagnosticGetLocation(d), printToStdout, NULL);
  printf(": ");
  mlirDiagnosticPrint(d, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

/* Prints the line of the report holding `key`, without indentation. */
static void showLine(const char *key) {
  const char *at = strstr(report, key);
  if (!at) {
    printf("missing %s\n", key);
    return;
  }
  const char *end = strchr(at, '\n');
  printf("%.*s\n", (int)(end ? end - at : (long)strlen(at)), at);
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirCakeRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, onDiagnostic, NULL, NULL);
  MlirModule module =
      mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(argv[1]));
  if (mlirModuleIsNull(module))
    return 1;
  MlirOperation op = mlirModuleGetOperation(module);

  double ns = 0;
  MlirLogicalResult r = mlirCakeEstimateCost(
      op, mlirStringRefCreateFromCString("4096x4096,4096x4096,4096x4096"),
      mlirStringRefCreateFromCString(""), 1, collect, NULL, &ns);
  printf("estimate: %s, predicted > 0: %d\n",
         mlirLogicalResultIsSuccess(r) ? "ok" : "failed", ns > 0);
  // CHECK: estimate: ok, predicted > 0: 1
  showLine("\"kernel\"");
  // CHECK-NEXT: "kernel": "gemm_128x128x64_s4_g8",
  showLine("\"tiles\"");
  // CHECK-NEXT: "tiles": 1024,
  showLine("\"flops\"");
  // CHECK-NEXT: "flops": 137438953472,
  showLine("\"stages_ahead\"");
  // CHECK-NEXT: "stages_ahead": 3,

  reportLength = 0;
  r = mlirCakeEstimateCost(op, mlirStringRefCreateFromCString("4096x4096"),
                           mlirStringRefCreateFromCString(""), 1, collect,
                           NULL, NULL);
  printf("estimate: %s, report bytes: %zu\n",
         mlirLogicalResultIsSuccess(r) ? "ok" : "failed", reportLength);
  // CHECK: diagnostic: {{.*}}cost-gemm-s4.mlir":2:1): cake-cost: the kernel has 3 arguments but 1 shapes were given
  // CHECK: estimate: failed, report bytes: 0

  MlirModule other = mlirModuleCreateParseFromFile(
      ctx, mlirStringRefCreateFromCString(argv[2]));
  if (mlirModuleIsNull(other))
    return 1;
  reportLength = 0;
  r = mlirCakeEstimateCostDiff(
      op, mlirModuleGetOperation(other),
      mlirStringRefCreateFromCString("4096x4096,4096x4096,4096x4096"),
      mlirStringRefCreateFromCString(""), 1, collect, NULL);
  printf("diff: %s\n%s\n", mlirLogicalResultIsSuccess(r) ? "ok" : "failed",
         report);
  // CHECK: diff: ok
  // CHECK-NEXT: {"a":{"kernel":"gemm_128x128x64_s4_g8",
  // CHECK-SAME: "b":{"kernel":"gemm_128x128x64_s2_g8"
  // CHECK-SAME: "faster":"a"
  // CHECK-SAME: "decided_by":"resources.
  // CHECK-SAME: "time_terms":[{"term":
  // CHECK-SAME: "decisions":[{"term":"pipes.pipe #0.stages","a":4,"b":2,

  /* Which calibration file a name means: a GPU's, the target's reference
   * GPU's, or none (a tool refuses the option before predicting). */
  const char *asks[][2] = {{"h100", "sm_90a"},
                           {"", "sm_90a"},
                           {"nosuch", "sm_90a"},
                           {"/no/such/calibration.json", "sm_90a"}};
  for (size_t i = 0; i < sizeof asks / sizeof asks[0]; ++i) {
    reportLength = 0;
    r = mlirCakeFindCalibration(mlirStringRefCreateFromCString(asks[i][0]),
                                mlirStringRefCreateFromCString(asks[i][1]),
                                collect, NULL);
    const char *slash = reportLength ? strrchr(report, '/') : NULL;
    printf("calibration '%s': %s %s\n", asks[i][0],
           mlirLogicalResultIsSuccess(r) ? "ok" : "failed",
           slash ? slash + 1 : "-");
  }
  // CHECK: calibration 'h100': ok h100.json
  // CHECK-NEXT: calibration '': ok h200.json
  // CHECK-NEXT: calibration 'nosuch': failed -
  // CHECK-NEXT: calibration '/no/such/calibration.json': failed -

  /* A module without a kernel: a located error, no answer. */
  MlirModule empty =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString("module {}"));
  reportLength = 0;
  r = mlirCakeEstimateCostDiff(
      op, mlirModuleGetOperation(empty),
      mlirStringRefCreateFromCString("4096x4096,4096x4096,4096x4096"),
      mlirStringRefCreateFromCString(""), 1, collect, NULL);
  printf("diff: %s, bytes %zu\n",
         mlirLogicalResultIsSuccess(r) ? "ok" : "failed", reportLength);
  // CHECK: diagnostic: {{.*}}cake-cost-diff: no cake.kernel to predict
  // CHECK: diff: failed, bytes 0

  mlirModuleDestroy(empty);
  mlirModuleDestroy(other);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
