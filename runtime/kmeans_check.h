// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- kmeans_check.h - Check a k-means assignment -------------*- C -*-===*\
|*                                                                            *|
|* Internal to cake-run, and free of CUDA so that it is tested on any         *|
|* machine: is the centroid a kernel chose for a point the nearest one, up to *|
|* the tie tolerance bench/kmeans states?                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_RT_KMEANS_CHECK_H
#define CAKE_RT_KMEANS_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* Element `index` of `tensor` (row-major) as a double. */
typedef double (*KmeansRead)(const void *tensor, size_t index);

/* The problem: points x (B x N x D), centroids c (B x K x D), the chosen
 * ids (B x N, int32), each read through `read`. */
typedef struct KmeansProblem {
  KmeansRead read;
  const void *x, *c;
  const int32_t *ids;
  int64_t B, N, D, K;
} KmeansProblem;

typedef struct KmeansCheck {
  size_t checked; /* points checked */
  size_t differ;  /* chose another centroid within the tolerance */
  size_t bad;     /* out of range, or farther than the tolerance allows */
} KmeansCheck;

/* The tie tolerance: an id may differ from the exact nearest only where
 * its distance is within this relative gap of the nearest one (fp16 /
 * bf16 inputs, fp32 accumulation; bench/kmeans/bench.py's TOL). */
#define KMEANS_CHECK_TOLERANCE 1e-3

/* Checks point n of batch b: its id against the nearest centroid by
 * ||x - c||^2, computed in double. Adds to `result`. */
void kmeansCheckPoint(const KmeansProblem *p, int64_t b, int64_t n,
                      KmeansCheck *result);

#endif
