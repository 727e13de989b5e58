// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Checks.h - Rule checks other layers run ------------------*- C++ -*-===//
//
// The rules cake-verify runs that other layers also need: cake-derive
// checks the wgmma operands it derives descriptors for, and the lowering
// checks the warpgroup turns it emits under wg-order. Both report with the
// rule's id like every rule (cake/Verify/Rules.h).
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_VERIFY_CHECKS_H
#define CAKE_VERIFY_CHECKS_H

#include "cake/Dialect/CakeDialect.h"

namespace mlir {
namespace cake {

/// Checks that a wgmma's operands can be described by shared-memory
/// descriptors ([hw.mma-smem-descriptor]).
LogicalResult verifyWgmmaOperands(MmaOp op);

/// Checks that a tcgen05.mma's operands are what cake-lower lowers (f16 or
/// bf16) and what shared-memory descriptors describe
/// ([hw.arch-feature], [hw.mma-smem-descriptor]).
LogicalResult verifyTcgen05Operands(TmemMmaOp op);

/// Checks that the kernel's tensor-memory allocation exists on its target
/// and that cake.ctas_per_sm such allocations fit an SM
/// ([resource.tmem-capacity]).
LogicalResult verifyTensorMemoryCapacity(KernelOp kernel);

/// Checks that issuing `role`'s chains in turn cannot deadlock
/// ([sync.warpgroup-turn]): a wait inside a turn must not need the other
/// warpgroups to release a stage they release only in their own turns.
LogicalResult verifyWarpgroupTurns(RoleOp role, bool retireLate);

} // namespace cake
} // namespace mlir

#endif // CAKE_VERIFY_CHECKS_H
