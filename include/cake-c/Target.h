// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- cake-c/Target.h - Hardware limits per target from C -------*- C -*-===*\
|*                                                                            *|
|* The one table of hardware limits per target architecture                  *|
|* (include/cake/Target/TargetInfo.h), for generators and tools that size     *|
|* kernels outside the compiler.                                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_C_TARGET_H
#define CAKE_C_TARGET_H

/// @file
/// Hardware limits per target from C.

#include "mlir-c/Support.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One limit of target `arch` ("sm_80", "sm_90a", "sm_100a") by name
/// ("registers_per_sm", "num_sms", "smem_per_block", ...: the names and
/// values docs/reference/targets.md lists, generated from the same table).
/// -1 for an unknown target or name.
MLIR_CAPI_EXPORTED int64_t mlirCakeTargetLimit(MlirStringRef arch,
                                               MlirStringRef name);

/// Registers per thread a CTA of `threads` threads gets at launch on `arch`
/// (what setmaxnreg moves registers away from and to; `ctasPerSM` CTAs
/// sharing the register file), as the verifier and the lowering count them.
/// -1 for an unknown target.
MLIR_CAPI_EXPORTED int64_t mlirCakeLaunchBaselineRegisters(MlirStringRef arch,
                                                           int64_t threads,
                                                           int64_t ctasPerSM);

#ifdef __cplusplus
}
#endif

#endif // CAKE_C_TARGET_H
