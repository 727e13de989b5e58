// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- kmeans_update.h - Centroid update on the GPU -------------*- C -*-===*\
|*                                                                            *|
|* Internal to the k-means library: launches the kernels of                  *|
|* kmeans_update.cu (a fatbin embedded at build time) and owns their         *|
|* workspace.                                                                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_KMEANS_KMEANS_UPDATE_H
#define CAKE_KMEANS_KMEANS_UPDATE_H

#include "cake-rt/cake_runtime.h"

#include <cuda.h>

/* Every driver call is checked: a failure returns with its name and text
 * in cakeRtLastError(). */
#define KMEANS_CHECK_CU(call)                                                  \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS)                                                    \
      return cakeRtCudaFail(r_, #call);                                        \
  } while (0)

typedef struct KmeansUpdate KmeansUpdate;

/* Loads the kernels (needs a CUDA device). Fails with a clear message when
 * the runtime was built without nvcc. */
CakeRtStatus kmeansUpdateCreate(KmeansUpdate **out);
void kmeansUpdateDestroy(KmeansUpdate *u);

/* newC = per-cluster means of x by `assign` (fp32 sums, rounded to the
 * element type; empty clusters keep oldC). `norms` ([B*K] f32) and
 * `maxShift` (one f32) may be 0. Arguments are checked by the caller.
 * With `sumsKernel` (examples/kmeans_sums.cake.mlir compiled for the
 * dtype) the per-cluster sums run in Cake IR on tensor cores; without, in
 * the CUDA C segsum kernel. */
CakeRtStatus kmeansUpdateRun(KmeansUpdate *u, CakeRtBundle *sumsKernel,
                             int bf16, int64_t B, int64_t N, int64_t D,
                             int64_t K, CUdeviceptr x, CUdeviceptr assign,
                             CUdeviceptr oldC, CUdeviceptr newC,
                             CUdeviceptr norms, CUdeviceptr maxShift,
                             CUstream stream);

/* norms[b][k] = ||c[b][k]||^2 in fp32. */
CakeRtStatus kmeansNorms(KmeansUpdate *u, int bf16, int64_t B, int64_t K,
                         int64_t D, CUdeviceptr c, CUdeviceptr norms,
                         CUstream stream);

/* Device buffer `slot` (0..5) of at least `bytes`, owned by `u` and kept
 * between calls (0-2: the Lloyd loop's second centroid buffer, norms,
 * shift; 3-5: x and centroids padded to kmeansRowWidth(D), kmeans.c). */
CakeRtStatus kmeansScratch(KmeansUpdate *u, int slot, size_t bytes,
                           CUdeviceptr *out);

#endif /* CAKE_KMEANS_KMEANS_UPDATE_H */
