//===- Passes.td - Cake passes --------------------------------*- tablegen -*-===//
//
// Declarations of Cake's passes. Docs and the pass C API are generated from
// this file.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TRANSFORMS_PASSES_TD
#define CAKE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def Verify : Pass<"cake-verify", "::mlir::ModuleOp"> {
  let summary = "Check every Cake kernel against Cake's rules";
  let description = [{
    Runs the checks that need a whole kernel, after the op verifiers (which
    MLIR runs on parse) have passed. Today it re-verifies every kernel and
    checks the structural contracts of roles and pipes: each pipe has
    exactly one producer role and one consumer role, and each role's
    register budget and warp count fit the target. The IR is not changed.

    ```
    $ cake-opt --cake-verify gemm.cake.mlir
    ```

    A failing kernel gets an error naming the rule id in brackets, the role
    and the resource involved, with notes at the other participating ops:

    ```
    error: [sync.pipe-roles] pipe #0 is acquired by role "load" and by role
           "mma"; a pipe has exactly one producer role
    ```
  }];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

#endif // CAKE_TRANSFORMS_PASSES_TD
