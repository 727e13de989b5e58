// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/* C API: a pass written in C (mlirCreateExternalPass) runs over a Cake
 * module next to Cake's own cake-verify, and reads the kernel's roles
 * through the generic MLIR C API.
 *
 * RUN: cake-capi-external-pass %cake_src/examples/gemm_ws_persistent.cake.mlir 2>&1 | FileCheck %s
 */

#include "cake-c/Dialect.h"
#include "cake-c/Passes.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int roles;
  int warps;
} RoleCount;

static MlirWalkResult countRoles(MlirOperation op, void *userData) {
  RoleCount *rc = (RoleCount *)userData;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length == 9 && memcmp(name.data, "cake.role", 9) == 0) {
    MlirAttribute roleName = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("name"));
    MlirAttribute wg = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("warpgroups"));
    MlirStringRef n = mlirStringAttrGetValue(roleName);
    long warps = mlirAttributeIsNull(wg) ? 0 : 4 * mlirIntegerAttrGetValueInt(wg);
    printf("role %.*s: %ld warps\n", (int)n.length, n.data, warps);
    rc->roles++;
    rc->warps += (int)warps;
  }
  return MlirWalkResultAdvance;
}

static void runRoleCounter(MlirOperation op, MlirExternalPass pass,
                           void *userData) {
  RoleCount rc = {0, 0};
  mlirOperationWalk(op, countRoles, &rc, MlirWalkPreOrder);
  printf("external pass saw %d roles, %d warps\n", rc.roles, rc.warps);
  if (rc.roles == 0)
    mlirExternalPassSignalFailure(pass);
  (void)userData;
}

static void noop(void *userData) { (void)userData; }
static void *cloneUserData(void *userData) { return userData; }
static MlirLogicalResult initialize(MlirContext ctx, void *userData) {
  (void)ctx;
  (void)userData;
  return mlirLogicalResultSuccess();
}

static char *readFile(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  if (buf)
    buf[n] = 0;
  fclose(f);
  return buf;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s kernel.cake.mlir\n", argv[0]);
    return 2;
  }
  char *source = readFile(argv[1]);
  if (!source) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirCakeRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
  free(source);
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "parse failed\n");
    return 1;
  }

  MlirTypeIDAllocator ids = mlirTypeIDAllocatorCreate();
  MlirExternalPassCallbacks callbacks = {noop, noop, initialize, cloneUserData,
                                         runRoleCounter};
  MlirPass counter = mlirCreateExternalPass(
      mlirTypeIDAllocatorAllocateTypeID(ids),
      mlirStringRefCreateFromCString("RoleCounter"),
      mlirStringRefCreateFromCString("role-counter"),
      mlirStringRefCreateFromCString("Counts the roles of Cake kernels"),
      mlirStringRefCreateFromCString("builtin.module"), 0, NULL, callbacks,
      NULL);

  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, mlirCreateCakeVerify());
  mlirPassManagerAddOwnedPass(pm, counter);
  MlirLogicalResult r =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  printf("pipeline %s\n", mlirLogicalResultIsSuccess(r) ? "succeeded" : "failed");
  // CHECK: role load: 4 warps
  // CHECK: role mma: 8 warps
  // CHECK: external pass saw 2 roles, 12 warps
  // CHECK: pipeline succeeded

  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirTypeIDAllocatorDestroy(ids);
  mlirContextDestroy(ctx);
  return mlirLogicalResultIsSuccess(r) ? 0 : 1;
}
