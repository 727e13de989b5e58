// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- kmeans_table.c - The k-means assignment's dispatch table -----------===*\
|*                                                                            *|
|* The table (libs/kmeans/kernels/gen-kmeans-table.py) names one compiled kernel per      *|
|* (dtype, 64-wide slice count, batched), and optionally ones for K up to a   *|
|* bound listed before it; each kernel serves every D in its slice range,     *|
|* the columns past D zero-filled by TMA.                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "kmeans_table.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kmeansTableParse(const char *json, size_t length, KmeansTable *table,
                     char *err, size_t errLength) {
  memset(table, 0, sizeof *table);
  cJSON *doc = cJSON_ParseWithLength(json, length);
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "variants");
  if (!doc || !cJSON_IsArray(list)) {
    snprintf(err, errLength, "k-means table: expected {\"variants\": [...]}");
    cJSON_Delete(doc);
    return 0;
  }
  const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(doc, "gpu");
  if (cJSON_IsString(gpu))
    snprintf(table->gpu, sizeof table->gpu, "%s", gpu->valuestring);
  /* "sums": {"f16": {"32": bundle, "64": ..., "128": ..., "192": ...,
   * "256": ...}, "bf16": {...}}: every dtype given names all but "32",
   * which D <= 32 takes where it is named (else the 64-row kernel). */
  const cJSON *sums = cJSON_GetObjectItemCaseSensitive(doc, "sums");
  if (sums) {
    static const char *const dtypes[2] = {"f16", "bf16"};
    int bad = !cJSON_IsObject(sums);
    const cJSON *perDtype;
    cJSON_ArrayForEach(perDtype, sums) {
      int which = -1;
      for (int j = 0; j < 2; ++j)
        if (perDtype->string && !strcmp(perDtype->string, dtypes[j]))
          which = j;
      if (which < 0 || !cJSON_IsObject(perDtype)) {
        bad = 1;
        break;
      }
      for (int r = 0; r < KMEANS_SUMS_ROW_SIZES; ++r) {
        char rows[8];
        snprintf(rows, sizeof rows, "%d", kKmeansSumsRows[r]);
        const cJSON *file =
            cJSON_GetObjectItemCaseSensitive(perDtype, rows);
        if (!file && kKmeansSumsRows[r] == 32)
          continue; /* filled from the 64-row slot below */
        if (!cJSON_IsString(file)) {
          bad = 1;
          break;
        }
        snprintf(table->sums[which][r], sizeof table->sums[which][r], "%s",
                 file->valuestring);
      }
      if (!bad && !table->sums[which][0][0])
        memcpy(table->sums[which][0], table->sums[which][1],
               sizeof table->sums[which][0]);
    }
    if (bad) {
      snprintf(err, errLength,
               "k-means table: expected \"sums\": {DTYPE: {[\"32\": bundle,] "
               "\"64\": bundle, \"128\": ..., \"192\": ..., \"256\": "
               "...}} with DTYPE f16 or bf16");
      cJSON_Delete(doc);
      return 0;
    }
  }
  int n = cJSON_GetArraySize(list);
  table->entries = calloc((size_t)(n > 0 ? n : 1), sizeof *table->entries);
  if (!table->entries) {
    snprintf(err, errLength, "k-means table: out of memory");
    cJSON_Delete(doc);
    return 0;
  }
  const cJSON *v;
  int i = 0;
  cJSON_ArrayForEach(v, list) {
    const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(v, "dtype");
    const cJSON *slices = cJSON_GetObjectItemCaseSensitive(v, "slices");
    const cJSON *batched = cJSON_GetObjectItemCaseSensitive(v, "batched");
    const cJSON *bundle = cJSON_GetObjectItemCaseSensitive(v, "bundle");
    const cJSON *evidence = cJSON_GetObjectItemCaseSensitive(v, "evidence");
    const cJSON *maxK = cJSON_GetObjectItemCaseSensitive(v, "max_k");
    /* Ranges are checked on the doubles before any cast (a cast out of
     * range is undefined behaviour). */
    if (!cJSON_IsString(dtype) || !cJSON_IsNumber(slices) ||
        !(slices->valuedouble >= 1 && slices->valuedouble <= 8) ||
        slices->valuedouble != (double)(int)slices->valuedouble ||
        !cJSON_IsBool(batched) || !cJSON_IsString(bundle) ||
        (maxK && (!cJSON_IsNumber(maxK) ||
                  !(maxK->valuedouble >= 1 && maxK->valuedouble <= 0x1p62) ||
                  maxK->valuedouble != (double)(int64_t)maxK->valuedouble))) {
      snprintf(err, errLength,
               "k-means table: variant #%d needs dtype, slices (1 to 8), "
               "batched and bundle (and max_k, when given, a positive "
               "integer)", i);
      kmeansTableFree(table);
      cJSON_Delete(doc);
      return 0;
    }
    KmeansEntry *e = &table->entries[i++];
    snprintf(e->dtype, sizeof e->dtype, "%s", dtype->valuestring);
    e->slices = slices->valueint;
    e->batched = cJSON_IsTrue(batched);
    e->maxK = maxK ? (int64_t)maxK->valuedouble : 0;
    snprintf(e->bundle, sizeof e->bundle, "%s", bundle->valuestring);
    snprintf(e->evidence, sizeof e->evidence, "%s",
             cJSON_IsString(evidence) ? evidence->valuestring : "");
  }
  table->numEntries = i;
  cJSON_Delete(doc);
  return 1;
}

const int kKmeansSumsRows[KMEANS_SUMS_ROW_SIZES] = {32, 64, 128, 192, 256};

int kmeansSumsRowsIndex(int64_t D) {
  if (D <= 32)
    return 0;
  int64_t tiles = (D + 63) / 64;
  return (int)(tiles > 4 ? 4 : tiles);
}

void kmeansTableFree(KmeansTable *table) {
  free(table->entries);
  table->entries = NULL;
  table->numEntries = 0;
}

int64_t kmeansRowWidth(int64_t D) { return (D + 7) / 8 * 8; }

/* The limits the assignment and the update share. */
static int checkShape(int64_t B, int64_t N, int64_t D, int64_t K, char *err,
                      size_t errLength) {
  if (B < 1 || N < 1 || K < 1) {
    snprintf(err, errLength,
             "k-means: B, N and K must be at least 1 (got B=%lld N=%lld "
             "K=%lld)",
             (long long)B, (long long)N, (long long)K);
    return 0;
  }
  if (D < 1 || D > 512) {
    snprintf(err, errLength,
             "k-means: D=%lld is not supported: D must be from 1 to 512",
             (long long)D);
    return 0;
  }
  return 1;
}

int kmeansCheckUpdate(const char *dtype, int64_t B, int64_t N, int64_t D,
                      int64_t K, char *err, size_t errLength) {
  if (!dtype || (strcmp(dtype, "f16") && strcmp(dtype, "bf16"))) {
    snprintf(err, errLength,
             "k-means: dtype '%s' is not supported (f16 or bf16)",
             dtype ? dtype : "(null)");
    return 0;
  }
  if (!checkShape(B, N, D, K, err, errLength))
    return 0;
  /* Slots and clusters are 32-bit, padded to whole 64-slot chunks and
   * 64-cluster tiles for the sums kernel. */
  if (B > 65535 || B * N > INT32_MAX - 63 || B * K > INT32_MAX - 63) {
    snprintf(err, errLength,
             "k-means: the centroid update needs B <= 65535 and B*N, B*K "
             "at most 2^31 - 64 (got B=%lld N=%lld K=%lld)",
             (long long)B, (long long)N, (long long)K);
    return 0;
  }
  return 1;
}

const KmeansEntry *kmeansTableChoose(const KmeansTable *table,
                                     const char *dtype, int64_t B, int64_t N,
                                     int64_t D, int64_t K, char *err,
                                     size_t errLength) {
  if (!checkShape(B, N, D, K, err, errLength))
    return NULL;
  int slices = (int)((kmeansRowWidth(D) + 63) / 64);
  int batched = B > 1;
  for (int i = 0; i < table->numEntries; ++i) {
    const KmeansEntry *e = &table->entries[i];
    if (!strcmp(e->dtype, dtype) && e->slices == slices &&
        e->batched == batched && (e->maxK == 0 || K <= e->maxK))
      return e;
  }
  snprintf(err, errLength,
           "k-means: no compiled variant for dtype %s, D=%lld (%d slices)%s "
           "in the table",
           dtype, (long long)D, slices, batched ? ", batched" : "");
  return NULL;
}
