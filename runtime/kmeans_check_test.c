// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- kmeans_check_test.c - kmeansCheckPoint on known answers ------------===*\
|*                                                                            *|
|* usage: cake-kmeans-check-test                                              *|
|* Prints one line per case: the counts the checker reports.                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "kmeans_check.h"

#include <stdio.h>

static double readDouble(const void *tensor, size_t index) {
  return ((const double *)tensor)[index];
}

static void run(const char *name, const KmeansProblem *p) {
  KmeansCheck r = {0, 0, 0};
  for (int64_t b = 0; b < p->B; ++b)
    for (int64_t n = 0; n < p->N; ++n)
      kmeansCheckPoint(p, b, n, &r);
  printf("%s: checked %zu differ %zu bad %zu\n", name, r.checked, r.differ,
         r.bad);
}

int main(void) {
  /* Two batches of three 2-D points and three centroids. */
  const double x[] = {0, 0, 10, 10, 5, 0, /* batch 1: */ 1, 1, -4, 0, 9, 9};
  const double c[] = {0, 1, 10, 9, 5, 1, /* batch 1: */ 9, 8, 1, 0, -5, 0};
  KmeansProblem p = {readDouble, x, c, NULL, 2, 3, 2, 3};
  const int32_t right[] = {0, 1, 2, 1, 2, 0};
  p.ids = right;
  run("nearest", &p);
  const int32_t wrong[] = {1, 1, 2, 1, 2, 7}; /* a far one, out of range */
  p.ids = wrong;
  run("wrong", &p);
  /* A tie within the tolerance: the point is as far from both. */
  const double tx[] = {0, 0};
  const double tc[] = {1, 0, -1, 0};
  KmeansProblem tie = {readDouble, tx, tc, NULL, 1, 1, 2, 2};
  const int32_t second[] = {1};
  tie.ids = second;
  run("tie", &tie);
  return 0;
}
