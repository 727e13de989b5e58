// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- TargetInfo.h - Per-target hardware limits ----------------*- C++ -*-===//
//
// The one table of hardware limits per target architecture. Op verifiers,
// whole-kernel rules, derivation and the cost model all read it; a number
// that depends on the chip is written here and nowhere else.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TARGET_TARGETINFO_H
#define CAKE_TARGET_TARGETINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace mlir {
namespace cake {

/// Hardware limits and features of one target architecture.
struct TargetInfo {
  llvm::StringRef arch;          ///< "sm_80", "sm_90a", "sm_100a"
  unsigned computeCapability;    ///< 80, 90, 100
  int64_t smemPerBlockOptIn;     ///< bytes of dynamic shared memory per CTA
  int64_t registersPerSM;        ///< 32-bit registers in the register file
  int64_t maxRegistersPerThread; ///< architectural cap per thread
  int64_t maxThreadsPerBlock;
  int64_t smemPerSM;       ///< shared memory of one SM, all CTAs together
  int64_t smemReservedPerBlock; ///< what the driver keeps per resident CTA
  int64_t maxThreadsPerSM; ///< resident threads per SM
  int64_t numSMs;      ///< of the reference part (H200, A100, B200)
  int64_t tmemColumns; ///< tensor-memory columns per SM (0: none)
  int64_t namedBarriers; ///< bar.sync barriers per CTA (0 is the CTA-wide one)
  bool hasTma;         ///< cp.async.bulk.tensor
  bool hasWgmma;       ///< wgmma.mma_async (sm_90a only)
  bool hasSetmaxnreg;  ///< setmaxnreg (sm_90a, sm_100a)
  bool hasTcgen05;     ///< tcgen05.mma and tensor memory
  bool hasMmaSync;     ///< mma.sync
  /// mbarrier.try_wait (a wait that suspends the thread); sm_80 has only
  /// mbarrier.test_wait, polled in a loop.
  bool hasMbarrierTryWait;
  /// The async proxy (sm_90 on): fence.proxy.async orders generic writes
  /// before TMA and wgmma read them, fence.mbarrier_init publishes barrier
  /// initialization to it. sm_80's cp.async and ldmatrix are generic.
  bool hasAsyncProxy;
  bool lowered;        ///< cake-lower has a lowering for it
  /// CTAs a thread-block cluster may hold: portably, and with the launch's
  /// non-portable attribute (1: no clusters).
  int64_t maxClusterSize;
  int64_t maxClusterSizeNonPortable;
  /// The NVPTX feature naming the PTX ISA version the lowering emits: the
  /// first that has the target's instructions (tcgen05: PTX 8.6).
  llvm::StringRef ptxFeature;
};

/// Registers per thread a CTA of `threads` threads gets at launch (what
/// setmaxnreg moves away from, and what ptxas compiles all of it to): the
/// register file shared evenly over the threads rounded up to whole
/// warpgroups, in the allocation granularity of 8, capped by the
/// per-thread limit. With `ctasPerSM` > 1, the register file is shared by
/// that many such CTAs.
int64_t launchBaselineRegisters(const TargetInfo &target, int64_t threads,
                                int64_t ctasPerSM = 1);

/// Bytes of K one tensor-core instruction consumes per operand row: 32 for
/// wgmma, tcgen05 and mma.sync alike (k16 for 16-bit types, k32 for 8-bit,
/// k8 for tf32).
constexpr int64_t kMmaInstructionKBytes = 32;

/// All known targets, in order of age.
llvm::ArrayRef<TargetInfo> getAllTargets();

/// One integer limit of the table by name: the names the C API
/// (mlirCakeTargetLimit) and the generated reference (docs/reference/
/// targets.md, python/cake/targets.py) use.
struct TargetLimit {
  llvm::StringRef name;    ///< "registers_per_sm", "num_sms", ...
  llvm::StringRef meaning; ///< one line for the reference
  int64_t (*get)(const TargetInfo &);
};

/// The named limits, in the reference's order.
llvm::ArrayRef<TargetLimit> getTargetLimits();

/// The limits of `arch`, or null if Cake does not know that architecture.
const TargetInfo *lookupTarget(llvm::StringRef arch);

/// Element types the copy engine (TMA) can move, by name of the MLIR type
/// ("bf16", "f16", "f32", "i8", ...). Used by ring and global type verifiers.
bool isTmaElementTypeName(llvm::StringRef name);

} // namespace cake
} // namespace mlir

#endif // CAKE_TARGET_TARGETINFO_H
