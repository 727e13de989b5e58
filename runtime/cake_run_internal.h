// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- cake_run_internal.h - What cake-run's files share ----------*- C -*-===*\
|*                                                                            *|
|* Host copies of the kernel's tensors with their random fill, and the        *|
|* numerical checks cake-run can run on a result (cake_run_checks.c).         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_RT_CAKE_RUN_INTERNAL_H
#define CAKE_RT_CAKE_RUN_INTERNAL_H

#include "cake-rt/cake_runtime.h"
#include "kmeans_check.h"

#include <cuda.h>

#include <stddef.h>
#include <stdint.h>

#define MAX_ARGS 16

/* Reports a failed driver call on stderr; 1 if `r` is success. */
int cuCheck(CUresult r, const char *what);

/* The fill's generator: xorshift64*, uniform in [-1, 1). */
void rngSeed(uint64_t seed);
double urand(void);

/* One tensor argument: its element type, host copy and device buffer. */
typedef struct {
  const char *element;
  int bytes;
  void *host;
  CUdeviceptr dev;
  size_t count;
} Tensor;

/* Element `i` of the host copy as a double. */
double readElement(const Tensor *t, size_t i);
/* Fills the host copy with fresh random values; 0 for an unknown type. */
int fillRandom(Tensor *t);

/* The numerical checks (--check). */
typedef enum {
  CHECK_NONE,
  CHECK_GEMM,
  CHECK_GEMM_TN,
  CHECK_COPY,
  CHECK_ADD,
  CHECK_KMEANS
} CheckKind;

/* Before the launch: checks the arguments fit the check and poisons the
 * outputs (and writes the k-means norms). Returns cake-run's status. */
int prepareCheck(CheckKind kind, CakeRtArg *args, Tensor *tensors, int n,
                 KmeansProblem *km);
/* After one launch: compares the result with a host reference and prints
 * the verdict. Returns cake-run's status. */
int verifyResult(CheckKind kind, const CakeRtArg *args, Tensor *tensors,
                 const KmeansProblem *km);

#endif
