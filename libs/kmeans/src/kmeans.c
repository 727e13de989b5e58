// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- kmeans.c - k-means assignment entry point --------------------------===*\
|*                                                                            *|
|* cake_kmeans.h over the dispatch table (kmeans_table.c), the runtime's      *|
|* bundle loading and launch, and the centroid update (kmeans_update.c).      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "cake-kmeans/cake_kmeans.h"
#include "kmeans_table.h"
#include "kmeans_update.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct CakeKmeans {
  char dir[1024];
  KmeansTable table;
  CakeRtBundle **bundles; /* per table entry, loaded on first use */
  /* the update's sums kernels per dtype and tile rows, loaded on use */
  CakeRtBundle *sums[2][KMEANS_SUMS_ROW_SIZES];
  KmeansUpdate *update;   /* loaded on first use */
};

CakeRtStatus cakeKmeansOpen(const char *dir, CakeKmeans **out) {
  *out = NULL;
  char path[1200], err[1400];
  snprintf(path, sizeof path, "%s/kmeans-table.json", dir);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, sizeof err, "k-means: cannot read '%s'", path);
    return cakeRtFailWith(CAKE_RT_ERROR_IO, err);
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)(size > 0 ? size : 1));
  size_t got = text ? fread(text, 1, (size_t)size, f) : 0;
  fclose(f);
  CakeKmeans *k = calloc(1, sizeof *k);
  if (!text || !k || got != (size_t)size) {
    free(text);
    free(k);
    return cakeRtFailWith(CAKE_RT_ERROR_IO, "k-means: cannot read the table");
  }
  int ok = kmeansTableParse(text, got, &k->table, err, sizeof err);
  free(text);
  if (!ok) {
    free(k);
    return cakeRtFailWith(CAKE_RT_ERROR_FORMAT, err);
  }
  k->bundles = calloc((size_t)(k->table.numEntries + 1), sizeof *k->bundles);
  snprintf(k->dir, sizeof k->dir, "%s", dir);
  *out = k;
  return CAKE_RT_SUCCESS;
}

void cakeKmeansClose(CakeKmeans *k) {
  if (!k)
    return;
  for (int i = 0; i < k->table.numEntries; ++i)
    if (k->bundles[i])
      cakeRtBundleDestroy(k->bundles[i]);
  free(k->bundles);
  for (int i = 0; i < 2; ++i)
    for (int r = 0; r < KMEANS_SUMS_ROW_SIZES; ++r)
      if (k->sums[i][r])
        cakeRtBundleDestroy(k->sums[i][r]);
  kmeansUpdateDestroy(k->update);
  kmeansTableFree(&k->table);
  free(k);
}

static const KmeansEntry *choose(CakeKmeans *k, const char *dtype, int64_t B,
                                 int64_t N, int64_t D, int64_t K) {
  char err[512];
  const KmeansEntry *e =
      kmeansTableChoose(&k->table, dtype, B, N, D, K, err, sizeof err);
  if (!e)
    cakeRtFailWith(CAKE_RT_ERROR_ARGUMENT, err);
  return e;
}

CakeRtStatus cakeKmeansChoose(CakeKmeans *k, const char *dtype, int64_t B,
                              int64_t N, int64_t D, int64_t K,
                              const char **bundleFile, const char **evidence) {
  const KmeansEntry *e = choose(k, dtype, B, N, D, K);
  if (!e)
    return CAKE_RT_ERROR_ARGUMENT;
  if (bundleFile)
    *bundleFile = e->bundle;
  if (evidence)
    *evidence = e->evidence;
  return CAKE_RT_SUCCESS;
}

static CakeRtArg tensor(uint64_t data, int rank, const int64_t *shape) {
  CakeRtArg a;
  memset(&a, 0, sizeof a);
  a.data = data;
  a.rank = rank;
  for (int i = 0; i < rank; ++i)
    a.shape[i] = shape[i];
  return a;
}

/*===--- Widths that are not a multiple of 8 ------------------------------===*/

/* The kernels read rows of 16-byte multiples by TMA. A problem whose D is
 * not a multiple of 8 runs on copies of x and the centroids whose rows are
 * padded with zeros to kmeansRowWidth(D): the zeros change no distance, no
 * sum and no norm. The copies cost one pass over x per call (per call of
 * Lloyd's loop, not per round); the update scratch holds them. */
enum { SCRATCH_X = 3, SCRATCH_C = 4, SCRATCH_C_NEW = 5 };

/* dst [rows][dstCols] from src [rows][srcCols], 2-byte elements: the
 * common columns copied, dst's columns past src's (if any) zeroed. */
static CakeRtStatus copyRows(CUdeviceptr dst, int64_t dstCols, CUdeviceptr src,
                             int64_t srcCols, int64_t rows, CUstream st) {
  int64_t cols = dstCols < srcCols ? dstCols : srcCols;
  if (dstCols > cols)
    KMEANS_CHECK_CU(
        cuMemsetD2D16Async(dst + (CUdeviceptr)(cols * 2), (size_t)dstCols * 2,
                           0, (size_t)(dstCols - cols), (size_t)rows, st));
  CUDA_MEMCPY2D c;
  memset(&c, 0, sizeof c);
  c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  c.srcDevice = src;
  c.srcPitch = (size_t)srcCols * 2;
  c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c.dstDevice = dst;
  c.dstPitch = (size_t)dstCols * 2;
  c.WidthInBytes = (size_t)cols * 2;
  c.Height = (size_t)rows;
  KMEANS_CHECK_CU(cuMemcpy2DAsync(&c, st));
  return CAKE_RT_SUCCESS;
}

/* `src` [rows][D] padded to kmeansRowWidth(D) in scratch `slot`. */
static CakeRtStatus padRows(CakeKmeans *k, int slot, CUdeviceptr src,
                            int64_t rows, int64_t D, CUstream st,
                            CUdeviceptr *out) {
  CakeRtStatus s;
  if (!k->update && (s = kmeansUpdateCreate(&k->update)))
    return s;
  int64_t W = kmeansRowWidth(D);
  if ((s = kmeansScratch(k->update, slot, (size_t)(rows * W) * 2, out)))
    return s;
  return copyRows(*out, W, src, D, rows, st);
}

/* x [B][N][D] and centroids [B][K][D] padded (SCRATCH_X, SCRATCH_C). */
static CakeRtStatus padInputs(CakeKmeans *k, int64_t B, int64_t N, int64_t D,
                              int64_t K, CUdeviceptr x, CUdeviceptr centroids,
                              CUstream st, CUdeviceptr *xp, CUdeviceptr *cp) {
  CakeRtStatus s = padRows(k, SCRATCH_X, x, B * N, D, st, xp);
  return s ? s : padRows(k, SCRATCH_C, centroids, B * K, D, st, cp);
}

/* The update's limits (kmeansCheckUpdate) as a status. */
static CakeRtStatus checkUpdateLimits(const char *dtype, int64_t B, int64_t N,
                                      int64_t D, int64_t K) {
  char err[512];
  if (!kmeansCheckUpdate(dtype, B, N, D, K, err, sizeof err))
    return cakeRtFailWith(CAKE_RT_ERROR_ARGUMENT, err);
  return CAKE_RT_SUCCESS;
}

CakeRtStatus cakeKmeansAssign(CakeKmeans *k, const char *dtype, int64_t B,
                              int64_t N, int64_t D, int64_t K, uint64_t x,
                              uint64_t centroids, uint64_t centroidNorms,
                              uint64_t out, void *stream) {
  const KmeansEntry *e = choose(k, dtype, B, N, D, K);
  if (!e)
    return CAKE_RT_ERROR_ARGUMENT;
  int64_t W = kmeansRowWidth(D);
  if (W != D) {
    CUdeviceptr xp, cp;
    CakeRtStatus s =
        padInputs(k, B, N, D, K, x, centroids, (CUstream)stream, &xp, &cp);
    return s ? s
             : cakeKmeansAssign(k, dtype, B, N, W, K, xp, cp, centroidNorms,
                                out, stream);
  }
  int i = (int)(e - k->table.entries);
  if (!k->bundles[i]) {
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", k->dir, e->bundle);
    CakeRtStatus s = cakeRtBundleLoad(path, &k->bundles[i]);
    if (s != CAKE_RT_SUCCESS)
      return s;
  }
  /* Batched kernels take [B, ...] tensors; the others one batch. */
  CakeRtArg args[4];
  if (e->batched) {
    int64_t xs[3] = {B, N, D}, cs[3] = {B, K, D}, ns[2] = {B, K},
            os[2] = {B, N};
    args[0] = tensor(x, 3, xs);
    args[1] = tensor(centroids, 3, cs);
    args[2] = tensor(centroidNorms, 2, ns);
    args[3] = tensor(out, 2, os);
  } else {
    int64_t xs[2] = {N, D}, cs[2] = {K, D}, ns[1] = {K}, os[1] = {N};
    args[0] = tensor(x, 2, xs);
    args[1] = tensor(centroids, 2, cs);
    args[2] = tensor(centroidNorms, 1, ns);
    args[3] = tensor(out, 1, os);
  }
  return cakeRtLaunch(k->bundles[i], args, 4, stream);
}

/*===--- Centroid update and Lloyd's loop ---------------------------------===*/

/* The update's limits (kmeansCheckUpdate), x's alignment for 16-byte row
 * loads, and the kernels loaded. */
/* The table's sums kernel for the dtype and D, loaded on first use; NULL
 * in *out where the table names none (the CUDA C sums). */
static CakeRtStatus sumsKernel(CakeKmeans *k, int bf16, int64_t D,
                               CakeRtBundle **out) {
  int r = kmeansSumsRowsIndex(D);
  *out = NULL;
  if (!k->table.sums[bf16][r][0])
    return CAKE_RT_SUCCESS;
  if (!k->sums[bf16][r]) {
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", k->dir, k->table.sums[bf16][r]);
    CakeRtStatus s = cakeRtBundleLoad(path, &k->sums[bf16][r]);
    if (s != CAKE_RT_SUCCESS)
      return s;
  }
  *out = k->sums[bf16][r];
  return CAKE_RT_SUCCESS;
}

static CakeRtStatus checkUpdate(CakeKmeans *k, const char *dtype, int64_t B,
                                int64_t N, int64_t D, int64_t K, uint64_t x,
                                int *bf16, CakeRtBundle **sums) {
  CakeRtStatus s = checkUpdateLimits(dtype, B, N, D, K);
  if (s != CAKE_RT_SUCCESS)
    return s;
  *bf16 = !strcmp(dtype, "bf16");
  if (x % 16)
    return cakeRtFailWith(CAKE_RT_ERROR_ARGUMENT,
                          "k-means: x must be 16-byte aligned");
  s = sumsKernel(k, *bf16, D, sums);
  if (s != CAKE_RT_SUCCESS)
    return s;
  if (!k->update)
    return kmeansUpdateCreate(&k->update);
  return CAKE_RT_SUCCESS;
}

CakeRtStatus cakeKmeansUpdate(CakeKmeans *k, const char *dtype, int64_t B,
                              int64_t N, int64_t D, int64_t K, uint64_t x,
                              uint64_t assignments, uint64_t centroidsOld,
                              uint64_t centroidsNew, uint64_t centroidNorms,
                              uint64_t maxShift, void *stream) {
  int64_t W = kmeansRowWidth(D);
  if (W != D) {
    CUstream st = (CUstream)stream;
    CUdeviceptr xp, cp, np;
    CakeRtStatus s;
    if ((s = checkUpdateLimits(dtype, B, N, D, K)) ||
        (s = padInputs(k, B, N, D, K, x, centroidsOld, st, &xp, &cp)) ||
        (s = kmeansScratch(k->update, SCRATCH_C_NEW, (size_t)(B * K * W) * 2,
                           &np)) ||
        (s = cakeKmeansUpdate(k, dtype, B, N, W, K, xp, assignments, cp, np,
                              centroidNorms, maxShift, stream)))
      return s;
    return copyRows(centroidsNew, D, np, W, B * K, st);
  }
  int bf16;
  CakeRtBundle *sums;
  CakeRtStatus s = checkUpdate(k, dtype, B, N, D, K, x, &bf16, &sums);
  if (s != CAKE_RT_SUCCESS)
    return s;
  return kmeansUpdateRun(k->update, sums, bf16, B, N, D, K, x,
                         assignments, centroidsOld, centroidsNew,
                         centroidNorms, maxShift, (CUstream)stream);
}

/* Waits for the stream; a kernel that runs this long has hung. */
#define LLOYD_SYNC_TIMEOUT_MS 60000

CakeRtStatus cakeKmeansLloyd(CakeKmeans *k, const char *dtype, int64_t B,
                             int64_t N, int64_t D, int64_t K, uint64_t x,
                             uint64_t centroids, uint64_t assignments,
                             int maxIters, float tol, int *iterations,
                             float *shift, void *stream) {
  int64_t W = kmeansRowWidth(D);
  if (W != D) {
    CUstream st = (CUstream)stream;
    CUdeviceptr xp, cp;
    CakeRtStatus s;
    if ((s = checkUpdateLimits(dtype, B, N, D, K)) ||
        (s = padInputs(k, B, N, D, K, x, centroids, st, &xp, &cp)) ||
        (s = cakeKmeansLloyd(k, dtype, B, N, W, K, xp, cp, assignments,
                             maxIters, tol, iterations, shift, stream)) ||
        (s = copyRows(centroids, D, cp, W, B * K, st)))
      return s;
    /* Finished on return where the padded loop was (see the header). */
    return tol > 0.f || shift ? cakeRtSynchronize(stream, LLOYD_SYNC_TIMEOUT_MS)
                              : CAKE_RT_SUCCESS;
  }
  int bf16;
  CakeRtBundle *sums;
  CakeRtStatus s = checkUpdate(k, dtype, B, N, D, K, x, &bf16, &sums);
  if (s != CAKE_RT_SUCCESS)
    return s;
  if (maxIters < 1)
    return cakeRtFailWith(CAKE_RT_ERROR_ARGUMENT,
                          "k-means: maxIters must be at least 1");
  size_t cBytes = (size_t)(B * K * D) * 2;
  CUdeviceptr other, norms, shiftDev;
  if ((s = kmeansScratch(k->update, 0, cBytes, &other)) ||
      (s = kmeansScratch(k->update, 1, (size_t)(B * K) * 4, &norms)) ||
      (s = kmeansScratch(k->update, 2, 4, &shiftDev)))
    return s;
  CUstream st = (CUstream)stream;
  if ((s = kmeansNorms(k->update, bf16, B, K, D, centroids, norms, st)))
    return s;
  CUdeviceptr cur = centroids, next = other;
  float lastShift = 0.f;
  int it = 0;
  while (it < maxIters) {
    if ((s = cakeKmeansAssign(k, dtype, B, N, D, K, x, cur, norms,
                              assignments, stream)) ||
        (s = kmeansUpdateRun(k->update, sums, bf16, B, N, D, K, x,
                             assignments, cur, next, norms, shiftDev, st)))
      return s;
    ++it;
    CUdeviceptr t = cur;
    cur = next;
    next = t;
    /* The convergence test reads the shift on the host: one sync per round,
     * made only when a tolerance can stop the loop. */
    if (tol > 0.f) {
      KMEANS_CHECK_CU(cuMemcpyDtoHAsync(&lastShift, shiftDev, 4, st));
      if ((s = cakeRtSynchronize(stream, LLOYD_SYNC_TIMEOUT_MS)))
        return s;
      if (lastShift < tol)
        break;
    }
  }
  if (cur != centroids)
    KMEANS_CHECK_CU(cuMemcpyDtoDAsync(centroids, cur, cBytes, st));
  if (shift && tol <= 0.f) {
    KMEANS_CHECK_CU(cuMemcpyDtoHAsync(&lastShift, shiftDev, 4, st));
    if ((s = cakeRtSynchronize(stream, LLOYD_SYNC_TIMEOUT_MS)))
      return s;
  }
  if (shift)
    *shift = lastShift;
  if (iterations)
    *iterations = it;
  return CAKE_RT_SUCCESS;
}
