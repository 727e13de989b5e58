/*===- cake-rt/cake_kmeans.h - k-means assignment entry point -----*- C -*-===*\
|*                                                                            *|
|* The nearest centroid of every point, on the GPU, through the kernel a      *|
|* dispatch table chooses for the problem (kmeans-table.json beside its       *|
|* bundles; scripts/gen-kmeans-table.py writes both). C11, no MLIR.           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_RT_CAKE_KMEANS_H
#define CAKE_RT_CAKE_KMEANS_H

#include "cake-rt/cake_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CakeKmeans CakeKmeans;

/* Reads `dir`/kmeans-table.json; bundles load on first use. */
CakeRtStatus cakeKmeansOpen(const char *dir, CakeKmeans **out);
void cakeKmeansClose(CakeKmeans *k);

/* The bundle file the table chooses for the problem and why (measured or
 * predicted), or CAKE_RT_ERROR_ARGUMENT with the reason in
 * cakeRtLastError(): D must be a multiple of 8 from 8 to 512; B, N, K >= 1.
 * `dtype` is "f16" or "bf16". */
CakeRtStatus cakeKmeansChoose(CakeKmeans *k, const char *dtype, int64_t B,
                              int64_t N, int64_t D, int64_t K,
                              const char **bundleFile, const char **evidence);

/* out[b][n] = argmin_k ||x[b][n] - c[b][k]||^2 (lowest index on ties), for
 * row-major device tensors x [B][N][D] and centroids [B][K][D] of `dtype`,
 * centroidNorms [B][K] f32 (||c||^2, computed once per Lloyd iteration)
 * and out [B][N] i32. Launched on `stream`; returns when queued. */
CakeRtStatus cakeKmeansAssign(CakeKmeans *k, const char *dtype, int64_t B,
                              int64_t N, int64_t D, int64_t K, uint64_t x,
                              uint64_t centroids, uint64_t centroidNorms,
                              uint64_t out, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* CAKE_RT_CAKE_KMEANS_H */
