// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/* C API: the hardware limits of each target from the one table, and the
 * launch baseline a CTA's threads get (what a generator splits between
 * roles with setmaxnreg); an unknown target or limit is -1.
 *
 * RUN: cake-capi-target | FileCheck %s
 */

#include "cake-c/Target.h"

#include <inttypes.h>
#include <stdio.h>

static int64_t limit(const char *arch, const char *name) {
  return mlirCakeTargetLimit(mlirStringRefCreateFromCString(arch),
                             mlirStringRefCreateFromCString(name));
}

static void baseline(const char *arch, int64_t threads, int64_t ctas) {
  printf("baseline %s %" PRId64 " threads%s: %" PRId64 "\n", arch, threads,
         ctas > 1 ? ", 2 CTAs" : "",
         mlirCakeLaunchBaselineRegisters(mlirStringRefCreateFromCString(arch),
                                         threads, ctas));
}

int main(void) {
  const char *archs[] = {"sm_80", "sm_90a", "sm_100a"};
  // CHECK: sm_80 cc 80 regs/SM 65536 smem/CTA 166912 SMs 108 tmem 0 cluster 1
  // CHECK: sm_90a cc 90 regs/SM 65536 smem/CTA 232448 SMs 132 tmem 0 cluster 8
  // CHECK: sm_100a cc 100 regs/SM 65536 smem/CTA 232448 SMs 148 tmem 512
  for (int i = 0; i < 3; ++i)
    printf("%s cc %" PRId64 " regs/SM %" PRId64 " smem/CTA %" PRId64
           " SMs %" PRId64 " tmem %" PRId64 " cluster %" PRId64 "\n",
           archs[i], limit(archs[i], "compute_capability"),
           limit(archs[i], "registers_per_sm"),
           limit(archs[i], "smem_per_block"), limit(archs[i], "num_sms"),
           limit(archs[i], "tmem_columns"),
           limit(archs[i], "max_cluster_size"));
  // CHECK: baseline sm_90a 384 threads: 168
  // CHECK: baseline sm_90a 416 threads: 128
  // CHECK: baseline sm_90a 128 threads: 248
  // CHECK: baseline sm_90a 256 threads, 2 CTAs: 128
  baseline("sm_90a", 384, 1);
  baseline("sm_90a", 416, 1);
  baseline("sm_90a", 128, 1);
  baseline("sm_90a", 256, 2);
  // CHECK: unknown target: -1 -1
  // CHECK: unknown limit: -1
  printf("unknown target: %" PRId64 " %" PRId64 "\n", limit("sm_75", "num_sms"),
         mlirCakeLaunchBaselineRegisters(
             mlirStringRefCreateFromCString("sm_75"), 128, 1));
  printf("unknown limit: %" PRId64 "\n", limit("sm_90a", "warps"));
  return 0;
}
