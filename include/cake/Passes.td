// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Passes.td - Every pass of Cake ----------------------*- tablegen -*-===//
//
// The one pass registry: each layer declares its passes in its own
// Passes.td (Verify, Analysis, Transforms, Conversion) and this file
// gathers them, so that cake/Passes.h, the pass C API
// (mlirCreateCake<Pass>, mlirRegisterCakePasses) and docs/reference/Passes.md
// are generated once, from every pass.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_PASSES_TD
#define CAKE_PASSES_TD

include "cake/Verify/Passes.td"
include "cake/Analysis/Passes.td"
include "cake/Transforms/Passes.td"
include "cake/Conversion/Passes.td"

#endif // CAKE_PASSES_TD
