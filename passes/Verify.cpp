//===- Verify.cpp - The cake-verify pass ----------------------------------===//
//
// Whole-kernel checks that no single op can make: which roles drive each
// pipe, and whether the roles together fit the target's register file and
// thread limit. Op-local contracts are the ops' own verifiers.
//
//===----------------------------------------------------------------------===//

#include "cake/Target/TargetInfo.h"
#include "cake/Transforms/Passes.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_VERIFY
#include "cake/Transforms/Passes.h.inc"
} // namespace cake
} // namespace mlir

using namespace mlir;
using namespace mlir::cake;

namespace {

/// Checks that each pipe has exactly one producer role (acquire, commit) and
/// one consumer role (wait, release), and that they differ.
LogicalResult verifyPipeRoles(KernelOp kernel) {
  bool ok = true;
  unsigned index = 0;
  for (auto pipe : kernel.getBody().getOps<PipeOp>()) {
    llvm::SetVector<RoleOp> producers, consumers;
    Operation *firstProducerUse = nullptr, *firstConsumerUse = nullptr;
    // Walk in program order so notes point at the first use of each side.
    kernel.walk([&](Operation *user) {
      if (user->getNumOperands() == 0 || user->getOperand(0) != pipe)
        return;
      auto role = user->getParentOfType<RoleOp>();
      if (!role)
        return;
      if (isa<PipeAcquireOp, PipeCommitOp>(user)) {
        producers.insert(role);
        if (!firstProducerUse)
          firstProducerUse = user;
      } else if (isa<PipeWaitOp, PipeReleaseOp>(user)) {
        consumers.insert(role);
        if (!firstConsumerUse)
          firstConsumerUse = user;
      }
    });
    auto describe = [&](const char *side, llvm::SetVector<RoleOp> &roles) {
      InFlightDiagnostic d = pipe.emitError()
                             << "[sync.pipe-roles] pipe #" << index << " has "
                             << roles.size() << " " << side
                             << " roles, expected exactly one";
      // Notes in program order, so diagnostics are stable.
      for (RoleOp r : kernel.getBody().getOps<RoleOp>())
        if (roles.contains(r))
          d.attachNote(r.getLoc())
              << side << " role \"" << r.getName() << "\"";
      ok = false;
    };
    if (producers.size() != 1)
      describe("producer", producers);
    if (consumers.size() != 1)
      describe("consumer", consumers);
    if (producers.size() == 1 && consumers.size() == 1 &&
        producers.front() == consumers.front()) {
      InFlightDiagnostic d =
          pipe.emitError() << "[sync.pipe-roles] pipe #" << index
                           << " is both produced and consumed by role \""
                           << RoleOp(producers.front()).getName()
                           << "\"; a role cannot wait on itself";
      d.attachNote(firstProducerUse->getLoc()) << "produced here";
      d.attachNote(firstConsumerUse->getLoc()) << "consumed here";
      ok = false;
    }
    ++index;
  }
  return success(ok);
}

/// Checks the roles' threads and register budgets against the target.
LogicalResult verifyRoleResources(KernelOp kernel) {
  const TargetInfo *target = lookupTarget(kernel.getTarget().getArch());
  if (!target)
    return failure(); // The attribute verifier has reported it.
  int64_t threads = 0, registers = 0;
  for (auto role : kernel.getBody().getOps<RoleOp>()) {
    threads += role.getNumWarps() * 32;
    if (auto regs = role.getRegs())
      registers += role.getNumWarps() * 32 * int64_t(*regs);
    if (role.getRegs() && !target->hasSetmaxnreg)
      return role.emitError()
             << "[hw.arch-feature] role \"" << role.getName()
             << "\" asks for regs(" << *role.getRegs() << ") but "
             << target->arch << " has no setmaxnreg";
  }
  if (threads > target->maxThreadsPerBlock)
    return kernel.emitError()
           << "[resource.threads] the roles need " << threads
           << " threads, more than the " << target->maxThreadsPerBlock
           << " a CTA of " << target->arch << " can have";
  if (registers > target->registersPerSM)
    return kernel.emitError()
           << "[resource.register-budget] the roles' register budgets add up "
              "to "
           << registers << " registers, more than the "
           << target->registersPerSM << " of the register file";
  return success();
}

struct VerifyPass : public mlir::cake::impl::VerifyBase<VerifyPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](KernelOp kernel) {
      if (failed(mlir::verify(kernel))) {
        ok = false;
        return;
      }
      ok &= succeeded(verifyPipeRoles(kernel));
      ok &= succeeded(verifyRoleResources(kernel));
    });
    if (!ok)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
