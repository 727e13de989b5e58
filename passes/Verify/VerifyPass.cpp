// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- VerifyPass.cpp - The cake-verify pass ------------------------------===//
//
// The whole-kernel rules of the registry (cake/Verify/Rules.def): the
// protocol between roles (pipe roles, balanced hand-offs, trip counts, tile
// sequences, a bounded deadlock search, proxy fences), resources (threads,
// registers, shared memory, fragments), dataflow (who may touch which ring
// stage) and hardware features. Op-local contracts are the ops' verifiers.
// Every diagnostic leads with its rule id; notes point at the other ops
// that take part, and a "hint:" note says how to repair where one is known.
// The checks live in one file per rule family beside this one.
//
//===----------------------------------------------------------------------===//

#include "RuleChecks.h"

#include "cake/Passes.h"
#include "cake/Transforms/Decisions.h"
#include "cake/Verify/Checks.h"

#include "mlir/IR/Verifier.h"

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_VERIFY
#include "cake/Passes.h.inc"
} // namespace cake
} // namespace mlir

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

namespace {

struct VerifyPass : public mlir::cake::impl::VerifyBase<VerifyPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](KernelOp kernel) {
      if (failed(mlir::verify(kernel))) {
        ok = false;
        return;
      }
      KernelFacts f(kernel);
      if (!f.target) {
        ok = false;
        return;
      }
      // Hand-offs outside roles make every protocol rule below noise.
      if (!checkRoleScoping(f)) {
        ok = false;
        return;
      }
      ok &= checkPipeRoles(f);
      ok &= checkHardwareFeatures(f);
      ok &= checkFragmentLayout(f);
      ok &= checkTopKLinear(f);
      ok &= checkSharedCode(f);
      ok &= checkTmaStrides(f);
      ok &= checkRoleResources(f);
      ok &= checkSharedMemory(f);
      ok &= checkTensorMemory(f);
      ok &= checkTcgen05Issuer(f);
      ok &= checkFragmentRegisters(f);
      ok &= checkStageAccess(f);
      ok &= checkProxyFence(f);
      ok &= checkFillKind(f);
      bool barriers = checkNamedBarriers(f);
      ok &= checkRoleTurns(f);
      bool dealt = checkDealtPipes(f);
      ok &= dealt;
      ok &= barriers;
      ok &= checkExpectTx(f);
      bool balanced = checkHandoffBalance(f);
      ok &= balanced;
      ok &= checkTiles(f);
      ok &= checkMulticastUniform(f);
      ok &= checkTileCoverage(f);
      ok &= checkStoreCoverage(f);
      bool counts = checkTripCounts(f);
      ok &= counts;
      // A deadlock search over unbalanced hand-offs or barriers only
      // repeats them.
      if (balanced && counts && barriers && dealt)
        ok &= checkDeadlock(f);
      // Turns passed when a chain retires (wg-order retire=true) need the
      // chain to retire at its commit; retire-late moves the retirement to
      // the chain's first reader, where the lowering cannot pass the turn.
      auto flag = [&](StringRef name) {
        auto attr = kernel->getAttrOfType<BoolAttr>(name);
        return attr && attr.getValue();
      };
      if (flag(kWgOrderAttrName) && flag(kWgOrderRetireAttrName) &&
          flag(kRetireLateAttrName)) {
        InFlightDiagnostic d =
            emitRuleError(kernel, RuleId::SyncWarpgroupTurn)
            << "the warpgroups pass their turns when a chain's last wgmma "
               "retires at its commit (cake.wg_order_retire), but "
               "retire-late (cake.retire_late) retires it where its result "
               "is first read";
        d.attachNote(kernel.getLoc())
            << "hint: drop one of cake.wg_order_retire and cake.retire_late";
        ok = false;
      }
      // Turns taken by named barriers the deadlock search does not model.
      if (auto order = kernel->getAttrOfType<BoolAttr>(kWgOrderAttrName);
          order && order.getValue())
        kernel.walk([&](RoleOp role) {
          auto late = kernel->getAttrOfType<BoolAttr>(kRetireLateAttrName);
          ok &= succeeded(verifyWarpgroupTurns(role, late && late.getValue()));
        });
      // Rules registered at run time (e.g. written in C).
      for (const ExternalRule &rule : getExternalRules())
        ok &= succeeded(rule.check(kernel));
      // Last, for a kernel nothing else rejects: one that passes cake-verify
      // must lower.
      if (ok && !checkTargetLowered(f))
        ok = false;
    });
    if (!ok)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
