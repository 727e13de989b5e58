// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Target.cpp - Hardware limits per target from C ---------------------===//

#include "cake-c/Target.h"

#include "cake/Target/TargetInfo.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;

int64_t mlirCakeTargetLimit(MlirStringRef arch, MlirStringRef name) {
  const cake::TargetInfo *t = cake::lookupTarget(unwrap(arch));
  if (!t)
    return -1;
  for (const cake::TargetLimit &l : cake::getTargetLimits())
    if (l.name == unwrap(name))
      return l.get(*t);
  return -1;
}

int64_t mlirCakeLaunchBaselineRegisters(MlirStringRef arch, int64_t threads,
                                        int64_t ctasPerSM) {
  const cake::TargetInfo *t = cake::lookupTarget(unwrap(arch));
  return t ? cake::launchBaselineRegisters(*t, threads, ctasPerSM) : -1;
}
