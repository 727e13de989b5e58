// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- cake-c/Passes.h - C API for Cake's passes ------------------*- C -*-===*\
|*                                                                            *|
|* Creation and registration of each Cake pass, generated from Passes.td:    *|
|* mlirCreateCake<Pass>(), mlirRegisterCake<Pass>(), mlirRegisterCakePasses().
*|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_C_PASSES_H
#define CAKE_C_PASSES_H

#include "mlir-c/Pass.h"

#include "cake/Passes.capi.h.inc"

#endif /* CAKE_C_PASSES_H */
