// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/* C API: a verifier rule written in C runs inside cake-verify and reports
 * through the same diagnostics (rule id, role as data, text) as the built-in
 * ones.
 *
 * RUN: cake-capi-c-rule 2>&1 | FileCheck %s
 */

#include "cake-c/Dialect.h"
#include "cake-c/Pipeline.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/IR.h"

#include <stdio.h>
#include <string.h>

/* resource.max-two-roles: a house rule of some kernel library. */
typedef struct {
  int roles;
  MlirOperation third;
} Count;

static MlirWalkResult countRoles(MlirOperation op, void *userData) {
  Count *c = (Count *)userData;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length == 9 && memcmp(name.data, "cake.role", 9) == 0)
    if (++c->roles == 3)
      c->third = op;
  return MlirWalkResultAdvance;
}

static MlirLogicalResult maxTwoRoles(MlirOperation kernel, void *userData) {
  int *calls = (int *)userData;
  ++*calls;
  Count c = {0, {NULL}};
  mlirOperationWalk(kernel, countRoles, &c, MlirWalkPreOrder);
  if (c.roles <= 2)
    return mlirLogicalResultSuccess();
  MlirAttribute name = mlirOperationGetAttributeByName(
      c.third, mlirStringRefCreateFromCString("name"));
  MlirStringRef n = mlirStringAttrGetValue(name);
  char msg[256];
  snprintf(msg, sizeof msg, "role \"%.*s\" is a third role; this library "
           "allows two", (int)n.length, n.data);
  /* The role named as data too: the fields are what the rule says, never
   * parsed back from the text. */
  mlirCakeEmitRuleErrorWithFields(
      c.third, mlirStringRefCreateFromCString("resource.max-two-roles"), n,
      mlirStringRefCreateFromCString(""), mlirStringRefCreateFromCString(""),
      mlirStringRefCreateFromCString(msg));
  return mlirLogicalResultFailure();
}

static void onDiagnostic(const MlirCakeDiagnostic *d, void *userData) {
  (void)userData;
  printf("%.*s: %.*s\n", (int)d->location.length, d->location.data,
         (int)d->message.length, d->message.data);
  printf("  rule=%.*s role=%.*s\n", (int)d->rule.length, d->rule.data,
         (int)d->role.length, d->role.data);
}

static const char *kThreeRoles =
    "cake.kernel @k() attributes {target = #cake.target<\"sm_90a\">,\n"
    "    schedule = #cake.grid<tile = [64]>} {\n"
    "  cake.role \"a\" warps(1) {}\n"
    "  cake.role \"b\" warps(1) {}\n"
    "  cake.role \"c\" warps(1) {}\n"
    "}\n";

int main(void) {
  MlirContext ctx = mlirContextCreate();
  int calls = 0;
  MlirLogicalResult reg = mlirCakeRegisterRule(
      ctx, mlirStringRefCreateFromCString("resource.max-two-roles"),
      mlirStringRefCreateFromCString("at most two roles"), maxTwoRoles,
      &calls);
  printf("registered: %d\n", mlirLogicalResultIsSuccess(reg));
  // CHECK: registered: 1

  MlirLogicalResult r = mlirCakeRunPipelineOnSource(
      ctx, mlirStringRefCreateFromCString(kThreeRoles),
      mlirStringRefCreateFromCString("three.mlir"),
      mlirStringRefCreateFromCString("cake-verify"), onDiagnostic, NULL, NULL,
      NULL);
  printf("verify %s, rule called %d time(s)\n",
         mlirLogicalResultIsSuccess(r) ? "passed" : "failed", calls);
  // CHECK: three.mlir:5:3: [resource.max-two-roles] role "c" is a third role; this library allows two
  // CHECK-NEXT: rule=resource.max-two-roles role=c
  // CHECK: verify failed, rule called 1 time(s)

  /* Bad ids are refused with a diagnostic, never an abort. */
  MlirLogicalResult bad = mlirCakeRegisterRule(
      ctx, mlirStringRefCreateFromCString("style.nope"),
      mlirStringRefCreateFromCString(""), maxTwoRoles, &calls);
  printf("bad family: %d\n", mlirLogicalResultIsSuccess(bad));
  // CHECK: bad family: 0
  MlirLogicalResult dup = mlirCakeRegisterRule(
      ctx, mlirStringRefCreateFromCString("sync.pipe-roles"),
      mlirStringRefCreateFromCString(""), maxTwoRoles, &calls);
  printf("built-in id: %d\n", mlirLogicalResultIsSuccess(dup));
  // CHECK: built-in id: 0
  mlirContextDestroy(ctx);
  return 0;
}
