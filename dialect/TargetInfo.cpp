// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- TargetInfo.cpp - Per-target hardware limits ------------------------===//
//
// The table behind cake/Target/TargetInfo.h. Figures are the vendor's
// programming-guide limits (CUDA C Programming Guide, "Technical
// Specifications per Compute Capability") and the reference part's SM count.
//
//===----------------------------------------------------------------------===//

#include "cake/Target/TargetInfo.h"

#include <algorithm>

using namespace mlir::cake;

// One target a row.
// clang-format off
static const TargetInfo kTargets[] = {
    // arch     cc smem/CTA regs/SM r/thr thr/CTA smem/SM rsv thr/SM SMs tmem
    // bars (named barriers)
    {"sm_80", 80, 166912, 65536, 255, 1024, 167936, 1024, 2048, 108, 0, 16,
     /*tma=*/false, /*wgmma=*/false, /*setmaxnreg=*/false, /*tcgen05=*/false,
     /*mmaSync=*/true, /*tryWait=*/false, /*asyncProxy=*/false,
     /*lowered=*/true, /*cluster=*/1, /*non-portable=*/1, "+ptx80"},
    {"sm_90a", 90, 232448, 65536, 255, 1024, 233472, 1024, 2048, 132, 0, 16,
     /*tma=*/true, /*wgmma=*/true, /*setmaxnreg=*/true, /*tcgen05=*/false,
     /*mmaSync=*/true, /*tryWait=*/true, /*asyncProxy=*/true,
     /*lowered=*/true, /*cluster=*/8, /*non-portable=*/16,
     "+ptx80"},
    {"sm_100a", 100, 232448, 65536, 255, 1024, 233472, 1024, 2048, 148, 512,
     /*bars=*/16,
     /*tma=*/true, /*wgmma=*/false, /*setmaxnreg=*/true, /*tcgen05=*/true,
     /*mmaSync=*/true, /*tryWait=*/true, /*asyncProxy=*/true,
     /*lowered=*/true, /*cluster=*/8, /*non-portable=*/16,
     "+ptx86"},
};
// clang-format on

llvm::ArrayRef<TargetInfo> mlir::cake::getAllTargets() { return kTargets; }

#define CAKE_LIMIT(NAME, FIELD, MEANING)                                       \
  {                                                                            \
    NAME, MEANING, [](const TargetInfo &t) { return int64_t(t.FIELD); }        \
  }
static const TargetLimit kLimits[] = {
    CAKE_LIMIT("compute_capability", computeCapability, "the SM version"),
    CAKE_LIMIT("registers_per_sm", registersPerSM,
               "32-bit registers in an SM's register file"),
    CAKE_LIMIT("max_registers_per_thread", maxRegistersPerThread,
               "registers one thread may address"),
    CAKE_LIMIT("max_threads_per_block", maxThreadsPerBlock,
               "threads of one CTA"),
    CAKE_LIMIT("max_threads_per_sm", maxThreadsPerSM,
               "resident threads of one SM"),
    CAKE_LIMIT("smem_per_block", smemPerBlockOptIn,
               "bytes of dynamic shared memory one CTA may opt in to"),
    CAKE_LIMIT("smem_per_sm", smemPerSM,
               "bytes of shared memory of one SM, all CTAs together"),
    CAKE_LIMIT("smem_reserved_per_block", smemReservedPerBlock,
               "bytes the driver keeps per resident CTA"),
    CAKE_LIMIT("num_sms", numSMs,
               "SMs of the reference part (H200, A100, B200)"),
    CAKE_LIMIT("tmem_columns", tmemColumns,
               "tensor-memory columns of one SM (0: none)"),
    CAKE_LIMIT("named_barriers", namedBarriers, "bar.sync barriers of one CTA"),
    CAKE_LIMIT("max_cluster_size", maxClusterSize,
               "CTAs of a portable cluster (1: no clusters)"),
    CAKE_LIMIT("max_cluster_size_non_portable", maxClusterSizeNonPortable,
               "CTAs of a cluster with the non-portable attribute"),
};
#undef CAKE_LIMIT

llvm::ArrayRef<TargetLimit> mlir::cake::getTargetLimits() { return kLimits; }

int64_t mlir::cake::launchBaselineRegisters(const TargetInfo &target,
                                            int64_t threads,
                                            int64_t ctasPerSM) {
  int64_t cap = target.maxRegistersPerThread / 8 * 8;
  if (threads <= 0)
    return cap;
  // ptxas sizes the register target for .maxntid rounded up to whole
  // warpgroups (ptxas 13.0: 416 and 448 threads compile to at most 128
  // registers, as 512 do), with or without setmaxnreg.
  int64_t rounded = (threads + 127) / 128 * 128;
  return std::min<int64_t>(cap, target.registersPerSM /
                                    std::max<int64_t>(1, ctasPerSM) / rounded /
                                    8 * 8);
}

const TargetInfo *mlir::cake::lookupTarget(llvm::StringRef arch) {
  for (const TargetInfo &t : kTargets)
    if (t.arch == arch)
      return &t;
  return nullptr;
}

bool mlir::cake::isTmaElementTypeName(llvm::StringRef name) {
  // CUtensorMapDataType covers these; sub-byte and complex types are left out.
  static const char *const kNames[] = {
      "i8",  "ui8", "si8",  "i16", "ui16", "i32", "ui32",     "si32",
      "i64", "f16", "bf16", "f32", "tf32", "f64", "f8E4M3FN", "f8E5M2"};
  for (const char *n : kNames)
    if (name == n)
      return true;
  return false;
}
