// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- kmeans_table.h - The k-means assignment's dispatch table -*- C -*-===*\
|*                                                                            *|
|* Internal to the runtime, and free of CUDA so that it is tested on any      *|
|* machine: which compiled variant serves a (dtype, B, N, D, K) problem.      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_KMEANS_KMEANS_TABLE_H
#define CAKE_KMEANS_KMEANS_TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct KmeansEntry {
  char dtype[8];     /* "f16", "bf16" */
  int slices;        /* h: serves D in (64(h-1), 64h] */
  int batched;       /* a leading batch dimension (B > 1) */
  int64_t maxK;      /* serves K <= maxK only; 0: any K */
  char bundle[256];  /* file name, beside the table */
  char evidence[256];
} KmeansEntry;

#define KMEANS_SUMS_ROW_SIZES 5
/* The sums kernels' tile rows (features), slot by slot: 32, 64, 128, 192
 * and 256. */
extern const int kKmeansSumsRows[KMEANS_SUMS_ROW_SIZES];

typedef struct KmeansTable {
  KmeansEntry *entries;
  int numEntries;
  char gpu[64];
  /* The centroid update's sums kernels per dtype ([0] f16, [1] bf16) and
   * tile rows (kKmeansSumsRows[i] features), files beside the table; the
   * 32-row slot, optional in the table, holds the 64-row kernel where the
   * table names none; empty: the
   * update's CUDA C sums. */
  char sums[2][KMEANS_SUMS_ROW_SIZES][256];
} KmeansTable;

/* The row width, in elements, the kernels run at for a problem of width D:
 * D rounded up to a multiple of 8 (TMA reads rows of 16-byte multiples).
 * Where it differs from D the library runs on copies of the rows padded
 * with zeros (kmeans.c). */
int64_t kmeansRowWidth(int64_t D);

/* The sums kernel's row index for D: the smallest tile of 32, 64, 128, 192
 * or 256 feature rows that covers D (256-row tiles past 256). */
int kmeansSumsRowsIndex(int64_t D);

/* Parses kmeans-table.json text; 0 and a message in `err` on failure. */
int kmeansTableParse(const char *json, size_t length, KmeansTable *table,
                     char *err, size_t errLength);
void kmeansTableFree(KmeansTable *table);

/* The entry for a problem: the first in table order whose dtype, slice
 * count and batching match and whose max_k (if any) admits K; or NULL with
 * the reason in `err` (D outside 1..512, empty problem,
 * no compiled variant). */
const KmeansEntry *kmeansTableChoose(const KmeansTable *table,
                                     const char *dtype, int64_t B, int64_t N,
                                     int64_t D, int64_t K, char *err,
                                     size_t errLength);

/* 1 if the centroid update (and so Lloyd's loop) takes the problem, else 0
 * with the reason in `err`: dtype f16 or bf16, the assignment's limits on
 * B, N, D, K, and 32-bit positions (B*N, B*K < 2^31, B <= 65535). */
int kmeansCheckUpdate(const char *dtype, int64_t B, int64_t N, int64_t D,
                      int64_t K, char *err, size_t errLength);

#endif /* CAKE_KMEANS_KMEANS_TABLE_H */
