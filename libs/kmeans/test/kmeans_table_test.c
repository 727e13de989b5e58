// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- kmeans_table_test.c - The dispatch table, tested without a GPU -----===*\
|*                                                                            *|
|* kmeans-table-test TABLE.json DTYPE:B:N:D:K ...  prints the bundle chosen   *|
|* for each problem, or the reason none is; update:DTYPE:B:N:D:K whether the  *|
|* centroid update takes it. See test/Runtime/.                               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "kmeans_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: cake-kmeans-table-test TABLE.json "
                    "DTYPE:B:N:D:K ...\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  static char text[1 << 20];
  size_t n = fread(text, 1, sizeof text, f);
  fclose(f);
  KmeansTable table;
  char err[512];
  if (!kmeansTableParse(text, n, &table, err, sizeof err)) {
    printf("error: %s\n", err);
    return 1;
  }
  printf("table: %d variants for %s\n", table.numEntries, table.gpu);
  for (int t = 0; t < 2; ++t)
    for (int r = 0; r < KMEANS_SUMS_ROW_SIZES; ++r)
      printf("sums %s %d rows: %s\n", t ? "bf16" : "f16", kKmeansSumsRows[r],
             table.sums[t][r][0] ? table.sums[t][r] : "(CUDA C)");
  for (int i = 2; i < argc; ++i) {
    char dtype[8];
    long long B, N, D, K;
    int update = !strncmp(argv[i], "update:", 7);
    if (sscanf(argv[i] + (update ? 7 : 0), "%7[^:]:%lld:%lld:%lld:%lld",
               dtype, &B, &N, &D, &K) != 5) {
      printf("%s: expected [update:]DTYPE:B:N:D:K\n", argv[i]);
      continue;
    }
    if (update) {
      if (kmeansCheckUpdate(dtype, B, N, D, K, err, sizeof err)) {
        const char *sums =
            table.sums[strcmp(dtype, "bf16") == 0][kmeansSumsRowsIndex(D)];
        printf("%s: ok, sums %s\n", argv[i], sums[0] ? sums : "(CUDA C)");
      }
      else
        printf("%s: error: %s\n", argv[i], err);
      continue;
    }
    const KmeansEntry *e =
        kmeansTableChoose(&table, dtype, B, N, D, K, err, sizeof err);
    if (e && kmeansRowWidth(D) != D)
      printf("%s: rows padded to %lld: %s (%s)\n", argv[i],
             (long long)kmeansRowWidth(D), e->bundle, e->evidence);
    else if (e)
      printf("%s: %s (%s)\n", argv[i], e->bundle, e->evidence);
    else
      printf("%s: error: %s\n", argv[i], err);
  }
  kmeansTableFree(&table);
  return 0;
}
