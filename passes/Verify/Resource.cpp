// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Resource.cpp - The resource rules ----------------------------------===//
//
// Threads, register budgets (setmaxnreg's per-CTA pool), shared and tensor
// memory and the registers fragments keep across loops, against the
// target's table.
//
//===----------------------------------------------------------------------===//

#include "RuleChecks.h"
#include "cake/Transforms/Decisions.h"
#include "cake/Verify/Checks.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

/// resource.threads, resource.register-budget, hw.arch-feature (setmaxnreg)
bool verify::checkRoleResources(KernelFacts &f) {
  const TargetInfo *target = f.target;
  bool ok = true;
  int64_t warps = f.launchWarps;
  for (RoleOp role : f.roles) {
    if (role.getRegs() && !target->hasSetmaxnreg) {
      emitRuleError(role, RuleId::HwArchFeature)
          << DiagRole{role.getName()} << " asks for regs(" << *role.getRegs()
          << ") but " << target->arch << " has no setmaxnreg";
      ok = false;
    }
    if (role.getRegs() && !role.getWarpgroups()) {
      emitRuleError(role, RuleId::HwWarpgroupAlignment)
          << DiagRole{role.getName()}
          << " asks for regs() but is not a warpgroups(n) role: setmaxnreg "
             "applies to whole warpgroups";
      ok = false;
    }
  }
  int64_t threads = warps * 32;
  if (threads > target->maxThreadsPerBlock) {
    emitRuleError(f.kernel, RuleId::ResourceThreads)
        << "the roles need " << threads << " threads, more than the "
        << target->maxThreadsPerBlock << " a CTA of " << target->arch
        << " can have";
    return false;
  }
  if (threads == 0)
    return ok;
  // Several resident CTAs: their threads fit the SM, and no role moves
  // registers (setmaxnreg's pool is sized for one CTA per SM).
  int64_t ctas = getCtasPerSM(f.kernel);
  if (ctas < 1 || ctas * threads > target->maxThreadsPerSM) {
    emitRuleError(f.kernel, RuleId::ResourceThreads)
        << "cake.ctas_per_sm = " << ctas << " asks for "
        << (ctas < 1 ? "no CTA" : "more threads than an SM holds") << " ("
        << threads << " threads a CTA, " << target->maxThreadsPerSM
        << " an SM of " << target->arch << ")";
    return false;
  }
  if (ctas > 1 && isa<PersistentAttr>(f.kernel.getSchedule())) {
    emitRuleError(f.kernel, RuleId::SyncTilesSchedule)
        << "cake.ctas_per_sm = " << ctas
        << " needs a grid schedule: a persistent schedule launches one CTA "
           "per SM";
    ok = false;
  }
  if (ctas > 1)
    for (RoleOp role : f.roles)
      if (role.getRegs()) {
        emitRuleError(role, RuleId::ResourceRegisterBudget)
            << DiagRole{role.getName()} << " asks for regs(" << *role.getRegs()
            << ") in a kernel of cake.ctas_per_sm = " << ctas
            << ": setmaxnreg's pool is sized for one CTA per SM";
        ok = false;
      }
  // setmaxnreg moves registers between warpgroups of one CTA through a
  // per-CTA pool (PTX ISA, setmaxnreg): a role that asks for more only gets
  // what others gave back. The CTA is launched with `threads` x the launch
  // baseline registers (ptxas is held to the baseline), and every warp not
  // asking keeps the baseline, so the sum at the budgets must fit that
  // allocation, not just the register file, or setmaxnreg.inc waits forever.
  int64_t baseline = launchBaselineRegisters(*target, threads, ctas);
  int64_t allocation = threads * baseline;
  bool anyRegs = false;
  int64_t budgeted = 0, registers = 0;
  for (RoleOp role : f.roles) {
    if (!role.getRegs())
      continue;
    anyRegs = true;
    budgeted += role.getNumWarps();
    registers += role.getNumWarps() * 32 * int64_t(*role.getRegs());
  }
  int64_t others = warps - budgeted;
  registers += others * 32 * baseline;
  if (anyRegs && registers > allocation) {
    InFlightDiagnostic d =
        emitRuleError(f.kernel, RuleId::ResourceRegisterBudget)
        << "the roles' register budgets add up to " << registers
        << " registers, more than the " << allocation
        << " the CTA is launched with (" << threads
        << " threads at the launch baseline of " << baseline << "; " << others
        << " warps without regs() keep the baseline): setmaxnreg.inc would "
           "wait forever";
    for (RoleOp role : f.roles)
      if (!role.getRegs())
        d.attachNote(role.getLoc()) << DiagRole{role.getName()} << " keeps "
                                    << baseline << " registers per thread";
    d.attachNote(f.kernel.getLoc())
        << "hint: give the roles that need few registers a small regs() "
           "(e.g. a copy warpgroup regs(40)), or lower the others' budgets";
    ok = false;
  }
  return ok;
}

/// resource.smem-capacity
bool verify::checkSharedMemory(KernelFacts &f) {
  int64_t bytes = computeSharedMemoryLayout(f.kernel).totalBytes;
  int64_t ctas = getCtasPerSM(f.kernel);
  int64_t perSM = ctas * (bytes + f.target->smemReservedPerBlock);
  if (ctas > 1 && bytes <= f.target->smemPerBlockOptIn &&
      perSM > f.target->smemPerSM) {
    emitRuleError(f.kernel, RuleId::ResourceSmemCapacity)
        << "cake.ctas_per_sm = " << ctas << " CTAs of " << bytes
        << " bytes of shared memory (and " << f.target->smemReservedPerBlock
        << " the driver keeps for each) need " << perSM << ", more than the "
        << f.target->smemPerSM << " an SM of " << f.target->arch << " has";
    return false;
  }
  if (bytes <= f.target->smemPerBlockOptIn)
    return true;
  InFlightDiagnostic d = emitRuleError(f.kernel, RuleId::ResourceSmemCapacity)
                         << "barriers and rings need " << bytes
                         << " bytes of shared memory (with alignment), more "
                            "than the "
                         << f.target->smemPerBlockOptIn << " a CTA of "
                         << f.target->arch << " can have";
  for (auto ring : f.kernel.getBody().getOps<RingOp>())
    d.attachNote(ring.getLoc()) << DiagRing{f.ringIndex.lookup(ring)} << " of "
                                << ring.getType().getRingBytes() << " bytes";
  f.kernel.walk([&](Operation *op) {
    if (int64_t bytes = fragScratchBytes(op))
      d.attachNote(op->getLoc()) << "scratch of " << bytes << " bytes";
  });
  d.attachNote(f.kernel.getLoc()) << "hint: fewer stages or smaller tiles";
  return false;
}

LogicalResult mlir::cake::verifyTensorMemoryCapacity(KernelOp kernel) {
  TensorMemoryLayout layout = computeTensorMemoryLayout(kernel);
  if (layout.allocation == 0)
    return success();
  const TargetInfo *target = lookupTarget(kernel.getTarget().getArch());
  if (!target)
    return failure(); // the target attribute's verifier reported it
  auto noteBuffers = [&](InFlightDiagnostic &d) {
    for (TmemOp tmem : kernel.getBody().getOps<TmemOp>())
      d.attachNote(tmem.getLoc())
          << "tensor memory of " << tmem.getType().getColumns()
          << " columns at column " << layout.columns.lookup(tmem);
  };
  int64_t ctas = getCtasPerSM(kernel);
  if (target->tmemColumns == 0) {
    InFlightDiagnostic d = emitRuleError(kernel, RuleId::ResourceTmemCapacity)
                           << target->arch
                           << " has no tensor memory; the kernel allocates "
                           << layout.allocation << " columns (sm_100a)";
    noteBuffers(d);
    return failure();
  }
  // Divided, not multiplied: cake.ctas_per_sm is range-checked elsewhere
  // and may be any integer here.
  if (ctas <= target->tmemColumns / layout.allocation)
    return success();
  InFlightDiagnostic d = emitRuleError(kernel, RuleId::ResourceTmemCapacity);
  d << "the CTA allocates " << layout.allocation
    << " columns of tensor memory (" << layout.usedColumns
    << " used, rounded up to a power of two)";
  if (ctas > 1 && ctas <= target->tmemColumns)
    d << ", times cake.ctas_per_sm = " << ctas << " makes "
      << layout.allocation * ctas;
  else if (ctas > 1)
    d << ", times cake.ctas_per_sm = " << ctas;
  d << ", more than the " << target->tmemColumns << " an SM of " << target->arch
    << " has";
  noteBuffers(d);
  return failure();
}

/// resource.tmem-capacity
bool verify::checkTensorMemory(KernelFacts &f) {
  // Without tcgen05, hw.arch-feature reports each tensor-memory op.
  if (!f.target->hasTcgen05)
    return true;
  return succeeded(verifyTensorMemoryCapacity(f.kernel));
}

/// resource.fragment-registers: per loop, the fragments carried across it
/// plus the largest one defined in its body (mma results accumulate in
/// place and top-k inserts replace their list: not counted twice) fit the
/// role's budget: its regs(), which setmaxnreg.inc grants the code after it
/// (ptxas allocates up to it), or the launch baseline without one. And no
/// single wgmma needs more registers than the launch baseline: ptxas checks one
/// instruction against the kernel's register target, setmaxnreg.inc or not
/// (C7602).
bool verify::checkFragmentRegisters(KernelFacts &f) {
  bool ok = true;
  int64_t allThreads = f.launchWarps * 32;
  int64_t baseline =
      launchBaselineRegisters(*f.target, allThreads, getCtasPerSM(f.kernel));
  for (RoleOp role : f.roles) {
    int64_t threads = role.getNumWarps() * 32;
    int64_t budget = role.getRegs() ? int64_t(*role.getRegs()) : baseline;
    role.walk([&](Operation *loop) {
      if (!isa<scf::ForOp, TilesOp>(loop))
        return;
      auto [carried, largest] = loopFragmentRegisters(loop, threads);
      // 16 registers stay for addresses, indices and the loop itself.
      int64_t need = carried + largest + 16;
      if (carried > 0 && need > budget) {
        emitRuleError(loop, RuleId::ResourceFragmentRegisters)
            << DiagRole{role.getName()} << " keeps " << carried
            << " registers of fragments across this "
            << (isa<TilesOp>(loop) ? "tile loop" : "loop") << " and up to "
            << largest << " more in its body (+16 for addresses): " << need
            << " > its budget of " << budget << " per thread";
        ok = false;
      }
    });
    role.walk([&](MmaOp mma) {
      if (mma.getKind() == MmaKind::tcgen05)
        return;
      // One wgmma instruction: its slab of the accumulator (64 rows of the
      // warpgroup), A's four registers or descriptor, B's descriptor. An
      // mma.sync step holds A's four ldmatrix registers and one .x4 of B.
      FragType acc = mma.getAcc().getType();
      int64_t warpgroups = std::max<int64_t>(1, role.getNumWarps() / 4);
      int64_t accRegs = fragmentRegisters(acc, threads);
      int64_t operands = mma.getKind() == MmaKind::mma_sync ? 4 + 4
                         : mma.isAFromRegisters()           ? 4 + 2
                                                            : 2 + 2;
      // What else is live at the instruction (addresses, the loop's
      // counters, the stage and phase): ptxas asked for 26 registers past
      // the accumulator in both GEMMs measured (64x128: a target of 90;
      // 64x256: 154), 22 of them beside the descriptors.
      const int64_t kLiveBeside = 22;
      if (accRegs + operands + kLiveBeside <= baseline)
        return;
      emitRuleError(mma, RuleId::ResourceFragmentRegisters)
          << "a " << stringifyMmaKind(mma.getKind()) << " of "
          << DiagRole{role.getName()} << " holds " << accRegs
          << " accumulator registers per thread at once ("
          << acc.getShape()[0] / warpgroups << "x" << acc.getShape()[1]
          << " per warpgroup), " << operands << " for its operands and "
          << kLiveBeside << " for what else is live at it: "
          << accRegs + operands + kLiveBeside << " > the launch baseline of "
          << baseline << " (" << allThreads
          << " threads), which setmaxnreg.inc does not raise for one "
             "instruction (ptxas C7602)";
      ok = false;
    });
  }
  return ok;
}
