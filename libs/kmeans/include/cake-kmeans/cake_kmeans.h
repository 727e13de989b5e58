// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- cake-kmeans/cake_kmeans.h - k-means on the GPU ------------*- C -*-===*\
|*                                                                            *|
|* k-means on the GPU: the nearest centroid of every point through the Cake   *|
|* kernel a dispatch table chooses for the problem (kmeans-table.json beside  *|
|* its bundles; libs/kmeans/kernels builds both), the centroid               *|
|* update, and Lloyd's loop over both. C11, no MLIR.                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_KMEANS_CAKE_KMEANS_H
#define CAKE_KMEANS_CAKE_KMEANS_H

/// @file
/// k-means on the GPU over Cake kernels: assignment, centroid update, Lloyd's
/// loop (C11, no MLIR).

#include "cake-rt/cake_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An opened dispatch table, its loaded bundles and the update's work
 * buffers. */
typedef struct CakeKmeans CakeKmeans;

/** Reads `dir`/kmeans-table.json into `*out`; bundles load on first use. */
CakeRtStatus cakeKmeansOpen(const char *dir, CakeKmeans **out);
/** Frees a handle, its bundles and buffers (null is allowed). */
void cakeKmeansClose(CakeKmeans *k);

/** The bundle file the table chooses for the problem and why (measured or
 * predicted), or CAKE_RT_ERROR_ARGUMENT with the reason in
 * cakeRtLastError(): D from 1 to 512; B, N, K >= 1. `dtype` is "f16" or
 * "bf16". Rows run at D rounded up to a multiple of 8 (TMA reads 16-byte
 * multiples): for another D, cakeKmeansAssign, Update and Lloyd copy x and
 * the centroids into rows padded with zeros (one pass over x per call;
 * the zeros change no distance or sum) and the table's kernel is chosen
 * for the padded width. */
CakeRtStatus cakeKmeansChoose(CakeKmeans *k, const char *dtype, int64_t B,
                              int64_t N, int64_t D, int64_t K,
                              const char **bundleFile, const char **evidence);

/** out[b][n] = argmin_k ||x[b][n] - c[b][k]||^2, distances from fp32
 * accumulation (lowest index on ties; the table's packed-argmin kernels,
 * family suffix _pk, may pick either of two centroids whose ||c||^2 - 2x.c
 * differ by less than 2^-17 of their magnitude), for
 * row-major device tensors x [B][N][D] and centroids [B][K][D] of `dtype`,
 * centroidNorms [B][K] f32 (||c||^2, computed once per Lloyd iteration)
 * and out [B][N] i32. Launched on `stream`; returns when queued. */
CakeRtStatus cakeKmeansAssign(CakeKmeans *k, const char *dtype, int64_t B,
                              int64_t N, int64_t D, int64_t K, uint64_t x,
                              uint64_t centroids, uint64_t centroidNorms,
                              uint64_t out, void *stream);

/** centroidsNew[b][k] = the mean of the points x[b][n] with
 * assignments[b][n] == k, summed in fp32 and rounded to `dtype`; a cluster
 * with no points keeps centroidsOld[b][k] (as flash-kmeans does). Points
 * whose id is outside [0, K) are ignored. Optional (0 to skip):
 * centroidNorms [B][K] f32 receives ||new||^2 and maxShift (one f32) the
 * largest ||new - old|| over all b, k. The sums go through a counting sort
 * of the assignments, so a skewed clustering costs no atomic contention;
 * with a table that names sums kernels
 * (libs/kmeans/kernels/gen-kmeans-table.py, the default) they run in Cake IR on
 * tensor cores (examples/kmeans_sums.cake.mlir), else in the runtime's CUDA C.
 * x must be 16-byte aligned where D is a multiple of 8 (elsewhere it is
 * copied). Launched on `stream`; returns when queued.
 * The handle keeps the work buffers: use one handle per concurrent stream. */
CakeRtStatus cakeKmeansUpdate(CakeKmeans *k, const char *dtype, int64_t B,
                              int64_t N, int64_t D, int64_t K, uint64_t x,
                              uint64_t assignments, uint64_t centroidsOld,
                              uint64_t centroidsNew, uint64_t centroidNorms,
                              uint64_t maxShift, void *stream);

/** Lloyd's algorithm: up to maxIters rounds of assignment and update,
 * starting from `centroids` [B][K][D], which receives the final centroids.
 * `assignments` [B][N] i32 receives the last round's assignment (made with
 * the centroids before that round's update, as flash-kmeans returns it).
 * With tol > 0 the loop stops after the first round whose largest centroid
 * shift is below tol (one host sync per round); with tol <= 0 it runs
 * maxIters rounds without syncing. *iterations and *shift (may be NULL):
 * rounds run, last round's largest shift. Returns when the work is queued,
 * or finished when tol > 0 or shift is requested. */
CakeRtStatus cakeKmeansLloyd(CakeKmeans *k, const char *dtype, int64_t B,
                             int64_t N, int64_t D, int64_t K, uint64_t x,
                             uint64_t centroids, uint64_t assignments,
                             int maxIters, float tol, int *iterations,
                             float *shift, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* CAKE_KMEANS_CAKE_KMEANS_H */
