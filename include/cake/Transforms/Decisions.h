// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Decisions.h - Lowering decisions recorded on a kernel ----*- C++ -*-===//
//
// The kernel attributes by which tactics record a lowering decision in the
// IR. convert-cake-to-nvvm reads each (it takes precedence over the pass's
// option of the same name), cake-verify checks the ones that need a rule,
// and the cost model mirrors the ones it can see.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TRANSFORMS_DECISIONS_H
#define CAKE_TRANSFORMS_DECISIONS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace cake {

/// The kernel attribute (an integer) by which a kernel asks for that many
/// resident CTAs per SM (default 1): ptxas is held to the registers that
/// many CTAs leave each thread (.minnctapersm), cake-verify checks that
/// their shared memory and threads fit the SM (resource.*), and roles may
/// not ask for regs() (setmaxnreg's pool is sized for one CTA).
inline constexpr llvm::StringLiteral kCtasPerSMAttrName = "cake.ctas_per_sm";

/// The kernel's `cake.ctas_per_sm`, 1 when absent; the raw value (which
/// cake-verify range-checks) when present.
inline int64_t getCtasPerSM(Operation *kernel) {
  if (auto a = kernel->getAttrOfType<IntegerAttr>(kCtasPerSMAttrName))
    return a.getInt();
  return 1;
}

/// The kernel attribute (a bool) by which cake-set-mma-chain records
/// whether the lowering keeps straight-line wgmma chains in flight; it
/// takes precedence over convert-cake-to-nvvm's `mma-chain` option.
inline constexpr llvm::StringLiteral kMmaChainAttrName = "cake.mma_chain";

/// The kernel attribute (a bool) by which cake-set-wg-order records whether
/// a multi-warpgroup role issues its wgmma chains in turn; it takes
/// precedence over convert-cake-to-nvvm's `wg-order` option.
inline constexpr llvm::StringLiteral kWgOrderAttrName = "cake.wg_order";

/// The kernel attribute (a bool) by which cake-set-wg-order records whether
/// a turn passes when the chain's last group retires (true) or when it is
/// issued; it takes precedence over convert-cake-to-nvvm's
/// `wg-order-retire` option.
inline constexpr llvm::StringLiteral kWgOrderRetireAttrName =
    "cake.wg_order_retire";

/// The kernel attribute (a bool) by which cake-set-retire-late records
/// whether a wgmma chain's last group retires at the first op that needs
/// it; it takes precedence over convert-cake-to-nvvm's `retire-late`.
inline constexpr llvm::StringLiteral kRetireLateAttrName = "cake.retire_late";

/// The kernel attribute (a bool) by which cake-set-fence-waits records
/// whether a late retirement's wgmma.wait_group follows a fence.acq_rel.cta
/// (ptxas does not hoist the wait above it); it takes precedence over
/// convert-cake-to-nvvm's `fence-waits`.
inline constexpr llvm::StringLiteral kFenceWaitsAttrName = "cake.fence_waits";

/// The kernel attribute (a bool) by which cake-set-flush-denormals records
/// whether the kernel's f32 arithmetic flushes denormals to zero (nvcc's
/// --ftz=true, part of --use_fast_math); it takes precedence over
/// convert-cake-to-nvvm's `flush-denormals`.
inline constexpr llvm::StringLiteral kFlushDenormalsAttrName =
    "cake.flush_denormals";

/// The kernel attribute (a bool) by which cake-set-uniform-warp records
/// whether the lowering broadcasts the warp index from lane 0, so that
/// ptxas keeps what derives from it in uniform registers; it takes
/// precedence over convert-cake-to-nvvm's `uniform-warp`.
inline constexpr llvm::StringLiteral kUniformWarpAttrName = "cake.uniform_warp";

} // namespace cake
} // namespace mlir

#endif // CAKE_TRANSFORMS_DECISIONS_H
