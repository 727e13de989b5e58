// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- kmeans_check.c - Check a k-means assignment against a reference ----===*/

#include "kmeans_check.h"

#include <math.h>

/* ||x - c||^2 of point n and centroid k of batch b. */
static double distance(const KmeansProblem *p, int64_t b, int64_t n,
                       int64_t k) {
  size_t xRow = (size_t)((b * p->N + n) * p->D);
  size_t cRow = (size_t)((b * p->K + k) * p->D);
  double d = 0;
  for (int64_t j = 0; j < p->D; ++j) {
    double diff = p->read(p->x, xRow + (size_t)j) -
                  p->read(p->c, cRow + (size_t)j);
    d += diff * diff;
  }
  return d;
}

void kmeansCheckPoint(const KmeansProblem *p, int64_t b, int64_t n,
                      KmeansCheck *result) {
  ++result->checked;
  int32_t id = p->ids[b * p->N + n];
  if (id < 0 || id >= p->K) {
    ++result->bad;
    return;
  }
  double best = INFINITY;
  int64_t nearest = 0;
  for (int64_t k = 0; k < p->K; ++k) {
    double d = distance(p, b, n, k);
    if (d < best) {
      best = d;
      nearest = k;
    }
  }
  if (id == nearest)
    return;
  double got = distance(p, b, n, id);
  if ((got - best) / (best + 1e-3) <= KMEANS_CHECK_TOLERANCE)
    ++result->differ;
  else
    ++result->bad;
}
