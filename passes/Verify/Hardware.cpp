// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Hardware.cpp - The hw rules: hardware contracts --------------------===//
//
// Features the target has (TMA, wgmma, tcgen05 and tensor memory,
// mma.sync), warpgroup alignment (wgmma, tensor-memory loads), wgmma operands a
// shared-memory descriptor can describe, and TMA row strides.
//
//===----------------------------------------------------------------------===//

#include "RuleChecks.h"

#include "cake/Verify/Checks.h"


using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

LogicalResult mlir::cake::verifyWgmmaOperands(MmaOp op) {
  // Each ring's contiguous rows (K for a K-major operand, M or N for an
  // mn_major one) are one swizzle atom: what a shared-memory descriptor
  // describes.
  RingType a = op.getARing(), b = op.getB().getType();
  for (bool isB : {false, true}) {
    RingType t = isB ? b : a;
    if (!t)
      continue; // A from registers
    int64_t rowBytes = t.getShape()[1] * getElementBytes(t.getElementType());
    if (t.getSwizzle() != 0 && rowBytes == t.getSwizzle())
      continue;
    if (isB ? op.getMnMajor() : op.getAMnMajor())
      return emitRuleError(op, RuleId::HwWgmmaTranspose)
             << "an mn_major " << (isB ? "B's rows of N" : "A's rows of M")
             << " must span exactly the swizzle width; got " << rowBytes
             << "-byte rows with swizzle " << t.getSwizzle();
    return emitRuleError(op, RuleId::HwMmaSmemDescriptor)
           << stringifyMmaKind(op.getKind())
           << " operands must be K-major rows that span exactly the "
              "swizzle width; got "
           << rowBytes << "-byte rows with swizzle " << t.getSwizzle();
  }
  if (a && a.getSwizzle() != b.getSwizzle())
    return emitRuleError(op, RuleId::HwMmaSmemDescriptor)
           << "A and B must share a swizzle, got " << a.getSwizzle() << " and "
           << b.getSwizzle();
  return success();
}

LogicalResult mlir::cake::verifyTcgen05Operands(TmemMmaOp op) {
  RingType b = op.getB().getType();
  Type in = b.getElementType();
  if (!in.isF16() && !in.isBF16())
    return emitRuleError(op, RuleId::HwArchFeature)
           << "cake-lower lowers tcgen05.mma on f16 and bf16 operands (kind "
              "f16) today, not "
           << in;
  // An A in tensor memory needs no descriptor (its address is the
  // instruction's operand); the rest below is about shared memory.
  auto a = dyn_cast<RingType>(op.getA().getType());
  // Each ring's contiguous rows (K, or N for an mn_major B) are one
  // swizzle atom, as a shared-memory descriptor describes them (the same
  // contract as wgmma's).
  for (bool isB : {false, true}) {
    RingType t = isB ? b : a;
    if (!t)
      continue;
    int64_t rowBytes = t.getShape()[1] * getElementBytes(t.getElementType());
    if (t.getSwizzle() != 0 && rowBytes == t.getSwizzle())
      continue;
    if (isB && op.getMnMajor())
      return emitRuleError(op, RuleId::HwWgmmaTranspose)
             << "an mn_major B's rows of N must span exactly the swizzle "
                "width; got "
             << rowBytes << "-byte rows with swizzle " << t.getSwizzle();
    return emitRuleError(op, RuleId::HwMmaSmemDescriptor)
           << "tcgen05.mma operands must be K-major rows that span exactly "
              "the swizzle width; got "
           << rowBytes << "-byte rows with swizzle " << t.getSwizzle();
  }
  if (a && a.getSwizzle() != b.getSwizzle())
    return emitRuleError(op, RuleId::HwMmaSmemDescriptor)
           << "A and B must share a swizzle, got " << a.getSwizzle() << " and "
           << b.getSwizzle();
  return success();
}

/// hw.warpgroup-alignment for tcgen05.ld and tcgen05.st: a warp reaches
/// the 32 lanes of its quarter of tensor memory (warp index mod 4), so the
/// 128 rows take one whole, aligned warpgroup.
static bool inOneWarpgroup(Operation *op, StringRef access) {
  auto role = op->getParentOfType<RoleOp>();
  if (!role || role.getWarpgroups() == 1)
    return true;
  emitRuleError(op, RuleId::HwWarpgroupAlignment)
      << "'" << op->getName() << "' in " << DiagRole{role.getName()}
      << ", which is not a warpgroups(1) role: each warp " << access
      << " the 32 lanes of its quarter of tensor memory";
  return false;
}

/// hw.arch-feature, hw.warpgroup-alignment, hw.mma-smem-descriptor
bool verify::checkHardwareFeatures(KernelFacts &f) {
  bool ok = true;
  const TargetInfo *t = f.target;
  f.kernel.walk([&](Operation *op) {
    if (isa<TmaLoadOp, TmaStoreOp>(op) && !t->hasTma) {
      emitRuleError(op, RuleId::HwArchFeature)
          << "TMA copies need sm_90a or newer; the kernel targets " << t->arch;
      ok = false;
    }
    if (isa<TmemOp, TmemMmaOp, TmemLoadOp, TmemStoreOp>(op) && !t->hasTcgen05) {
      emitRuleError(op, RuleId::HwArchFeature)
          << "'" << op->getName() << "' needs tensor memory and tcgen05 "
          << "(sm_100a); the kernel targets " << t->arch;
      ok = false;
      return;
    }
    if (auto mma = dyn_cast<TmemMmaOp>(op)) {
      ok &= succeeded(verifyTcgen05Operands(mma));
      return;
    }
    // tcgen05.ld of 16-bit cells (unpacking pairs) is not lowered.
    if (auto load = dyn_cast<TmemLoadOp>(op)) {
      if (load.getSrc().getType().getElementType().getIntOrFloatBitWidth() !=
          32) {
        emitRuleError(op, RuleId::HwArchFeature)
            << "cake-lower reads tensor memory of 32-bit elements (f32, i32) "
               "today, not "
            << load.getSrc().getType().getElementType();
        ok = false;
        return;
      }
      ok &= inOneWarpgroup(op, "reads");
      return;
    }
    if (isa<TmemStoreOp>(op)) {
      ok &= inOneWarpgroup(op, "writes");
      return;
    }
    auto mma = dyn_cast<MmaOp>(op);
    if (!mma)
      return;
    bool has = mma.getKind() == MmaKind::wgmma     ? t->hasWgmma
               : mma.getKind() == MmaKind::tcgen05 ? t->hasTcgen05
                                                   : t->hasMmaSync;
    if (!has) {
      emitRuleError(op, RuleId::HwArchFeature)
          << stringifyMmaKind(mma.getKind()) << " is not available on "
          << t->arch;
      ok = false;
      return;
    }
    if (mma.getKind() == MmaKind::tcgen05) {
      // A kernel that verifies lowers: tcgen05 MMAs are cake.tmem.mma.
      emitRuleError(op, RuleId::HwArchFeature)
          << "cake-lower has no lowering of cake.mma tcgen05; on sm_100a, "
             "accumulate in tensor memory with cake.tmem.mma";
      ok = false;
      return;
    }
    if (mma.getKind() == MmaKind::mma_sync) {
      // What MmaSync.cpp lowers: m16n8k16 on 16-bit operands into f32,
      // read with ldmatrix (.trans for mn_major) or, for A, from registers;
      // the op verifier checks those forms as it does wgmma's.
      Type in = mma.getAElementType();
      if (!(in.isF16() || in.isBF16()) ||
          !mma.getAcc().getType().getElementType().isF32()) {
        emitRuleError(op, RuleId::HwArchFeature)
            << "cake-lower lowers cake.mma mma_sync on f16 and bf16 "
               "operands into f32 accumulators, not "
            << in << " into " << mma.getAcc().getType().getElementType();
        ok = false;
        return;
      }
    }
    auto role = op->getParentOfType<RoleOp>();
    if (role && !role.getWarpgroups()) {
      emitRuleError(op, RuleId::HwWarpgroupAlignment)
          << stringifyMmaKind(mma.getKind()) << " in "
          << DiagRole{role.getName()} << ", which is not a warpgroups(n) role";
      ok = false;
      return;
    }
    ok &= succeeded(verifyWgmmaOperands(mma));
  });
  return ok;
}

/// hw.arch-feature: a kernel that passes cake-verify must lower, so one
/// that uses nothing its target lacks is still refused while cake-lower
/// has no lowering for that target.
bool verify::checkTargetLowered(KernelFacts &f) {
  if (f.target->lowered)
    return true;
  emitRuleError(f.kernel, RuleId::HwArchFeature)
      << "cake-lower has no " << f.target->arch
      << " lowering yet (sm_80, sm_90a and sm_100a only); the kernel would "
         "verify but not lower";
  return false;
}

/// hw.tma-alignment: static row strides of TMA tensors.
bool verify::checkTmaStrides(KernelFacts &f) {
  bool ok = true;
  f.kernel.walk([&](Operation *op) {
    Value g;
    if (auto l = dyn_cast<TmaLoadOp>(op))
      g = l.getSrc();
    else if (auto s = dyn_cast<TmaStoreOp>(op))
      g = s.getDst();
    else
      return;
    auto type = cast<GlobalType>(g.getType());
    int64_t stride = getElementBytes(type.getElementType());
    for (int64_t d = type.getRank() - 1; d > 0; --d) {
      if (type.isDynamicDim(d))
        return; // checked at launch
      stride *= type.getShape()[d];
      if (stride % 16 != 0) {
        InFlightDiagnostic d =
            emitRuleError(op, RuleId::HwTmaAlignment)
            << "the rows of " << type << " are " << stride
            << " bytes apart, not a multiple of 16: the copy engine cannot "
               "address them";
        if (isa<TmaLoadOp>(op) && stride % 4 == 0)
          d.attachNote(op->getLoc())
              << "hint: cake.cp_async.load copies the box in "
              << (stride % 8 == 0 ? 8 : 4) << "-byte pieces";
        ok = false;
        return;
      }
    }
  });
  return ok;
}
