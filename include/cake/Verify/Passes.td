// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Passes.td - cake-verify -----------------------------*- tablegen -*-===//
//
// The whole-kernel rule pass. Its rules are declared in Rules.def; it is
// registered with every other pass through cake/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_VERIFY_PASSES_TD
#define CAKE_VERIFY_PASSES_TD

include "mlir/Pass/PassBase.td"

def Verify : Pass<"cake-verify", "::mlir::ModuleOp"> {
  let summary = "Check every Cake kernel against Cake's rules";
  let description = [{
    Runs the rules that need a whole kernel, after the op verifiers (which
    MLIR runs on parse) have passed; the IR is not changed. The rules are
    listed in docs/rules.md, generated from the registry
    (include/cake/Verify/Rules.def):

    - sync: pipe roles, balanced hand-offs and no use after a hand-off,
      expect-tx balance, trip counts compared symbolically across roles
      (warning "unproven" where they cannot be), the same tile sequence in
      every role, a bounded deadlock search that reports the waiting cycle,
      proxy fences before async reads;
    - resource: threads, the CTA's launch allocation of registers at the
      roles' budgets (warps without regs() keep the launch baseline), shared memory with every
      alignment, fragment registers per loop;
    - dataflow: stages read through pipe.wait and written through
      pipe.acquire of a pipe holding the ring, hand-offs inside roles,
      accumulator layouts;
    - hw: target features, warpgroup alignment, wgmma descriptors, TMA row
      alignment of statically shaped tensors.

    Rules registered from C (`mlirCakeRegisterRule`) run after these.

    ```
    $ cake-opt --cake-verify gemm.cake.mlir [--cake-diagnostics-json=-]
    ```

    A failing kernel gets an error that leads with the rule id and names
    the role and the resource, with notes at the other participating ops
    and a "hint:" note where a repair is known:

    ```
    error: [sync.trip-count-mismatch] role "use" waits
           trip(c0..dim(arg0,1) by c32) times on pipe #0 but role "load"
           commits trip(c0..dim(arg0,1) by c64) times
    note: producer role "load"
    note: consumer role "use"
    note: hint: both roles must run the same loops around their hand-offs
    ```
  }];
  let dependentDialects = ["::mlir::cake::CakeDialect"];
}

#endif // CAKE_VERIFY_PASSES_TD
