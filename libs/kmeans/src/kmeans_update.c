// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- kmeans_update.c - Launch the centroid update kernels ---------------===*\
|*                                                                            *|
|* kmeans_update.h over the driver API: the fatbin that CMake builds from     *|
|* kmeans_update.cu with nvcc and embeds as cakeKmeansUpdateFatbin.           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "kmeans_update.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CAKE_HAVE_KMEANS_UPDATE
extern const unsigned char cakeKmeansUpdateFatbin[];
#endif

enum {
  FN_HISTOGRAM_CTA,
  FN_SCATTER_CTA,
  FN_HISTOGRAM,
  FN_SCAN,
  FN_SCATTER,
  FN_SEGSUM_F16,
  FN_SEGSUM_BF16,
  FN_FINALIZE_F16,
  FN_FINALIZE_BF16,
  FN_NORMS_F16,
  FN_NORMS_BF16,
  FN_GATHER_T_F16,
  FN_GATHER_T_BF16,
  FN_WORKLIST,
  NUM_FN
};

static const char *const functionNames[NUM_FN] = {
    "cake_kmeans_histogram_cta", "cake_kmeans_scatter_cta",
    "cake_kmeans_histogram",    "cake_kmeans_scan",
    "cake_kmeans_scatter",      "cake_kmeans_segsum_f16",
    "cake_kmeans_segsum_bf16",  "cake_kmeans_finalize_f16",
    "cake_kmeans_finalize_bf16", "cake_kmeans_norms_f16",
    "cake_kmeans_norms_bf16",   "cake_kmeans_gather_t_f16",
    "cake_kmeans_gather_t_bf16", "cake_kmeans_worklist"};

/* Work buffers, grown to the largest problem seen. */
enum {
  WS_COUNTS,
  WS_CURSOR,
  WS_ORDER,
  WS_KEY,
  WS_SUMS,
  WS_XT,   /* the sorted points, transposed (Cake sums only) */
  WS_WORK, /* the sums kernel's work list */
  NUM_WS
};
#define NUM_SCRATCH 6

struct KmeansUpdate {
  CUmodule module;
  CUfunction fn[NUM_FN];
  CUdeviceptr ws[NUM_WS], scratch[NUM_SCRATCH];
  size_t wsBytes[NUM_WS], scratchBytes[NUM_SCRATCH];
};

/* Sorted 64-point chunks per work unit of the Cake sums kernel: long
 * enough that a unit's reduce store (feature rows x 64 f32) is a small
 * part of its traffic, short enough that a large cluster spreads over
 * many CTAs. */
#define CHUNKS_PER_UNIT 16

/* Points per thread group of segsum (kRunLength in kmeans_update.cu). */
#define RUN_LENGTH 32
/* The privatized histogram and scatter keep K counters in shared memory
 * (what a block gets without opting in); larger K takes global atomics. */
#define MAX_SHARED_BINS (48 * 1024 / 4)
/* Blocks the privatized kernels aim at over the whole problem: about two
 * per SM of an H100 / H200, so a chunk's global atomics are few. */
#define TARGET_BLOCKS 264
/* The most points a block of the two-level scatter ranks in shared memory
 * (two ints each, beside its 3 K counters): 8192 was as fast as 16384
 * and 1.2-1.3x faster than 4096 at 2M points (run 22). */
#define MAX_SCATTER_CHUNK 8192

CakeRtStatus kmeansUpdateCreate(KmeansUpdate **out) {
  *out = NULL;
#ifndef CAKE_HAVE_KMEANS_UPDATE
  return cakeRtFailWith(CAKE_RT_ERROR_ARGUMENT,
                        "k-means: this runtime was built without nvcc, so it "
                        "has no centroid update (rebuild with the CUDA "
                        "toolkit's nvcc on the PATH or in /usr/local/cuda)");
#else
  CakeRtStatus s = cakeRtEnsureContext();
  if (s != CAKE_RT_SUCCESS)
    return s;
  KmeansUpdate *u = calloc(1, sizeof *u);
  if (!u)
    return cakeRtFailWith(CAKE_RT_ERROR_ARGUMENT, "k-means: out of memory");
  CUresult r = cuModuleLoadData(&u->module, cakeKmeansUpdateFatbin);
  if (r != CUDA_SUCCESS) {
    free(u);
    return cakeRtCudaFail(r, "cuModuleLoadData(k-means update kernels)");
  }
  for (int i = 0; i < NUM_FN; ++i) {
    r = cuModuleGetFunction(&u->fn[i], u->module, functionNames[i]);
    if (r != CUDA_SUCCESS) {
      kmeansUpdateDestroy(u);
      return cakeRtCudaFail(r, functionNames[i]);
    }
  }
  /* The two-level scatter stages its chunk in shared memory past the
   * 48 KB a launch gets without opting in. */
  r = cuFuncSetAttribute(u->fn[FN_SCATTER_CTA],
                         CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                         (3 * MAX_SHARED_BINS + 2 * MAX_SCATTER_CHUNK) * 4);
  if (r != CUDA_SUCCESS) {
    kmeansUpdateDestroy(u);
    return cakeRtCudaFail(r, "cuFuncSetAttribute(k-means scatter)");
  }
  *out = u;
  return CAKE_RT_SUCCESS;
#endif
}

void kmeansUpdateDestroy(KmeansUpdate *u) {
  if (!u)
    return;
  for (int i = 0; i < NUM_WS; ++i)
    if (u->ws[i])
      cuMemFree(u->ws[i]);
  for (int i = 0; i < NUM_SCRATCH; ++i)
    if (u->scratch[i])
      cuMemFree(u->scratch[i]);
  if (u->module)
    cuModuleUnload(u->module);
  free(u);
}

static CakeRtStatus grow(CUdeviceptr *buf, size_t *have, size_t bytes) {
  if (*have >= bytes)
    return CAKE_RT_SUCCESS;
  if (*buf) {
    /* Work from earlier launches may still read it. */
    KMEANS_CHECK_CU(cuCtxSynchronize());
    KMEANS_CHECK_CU(cuMemFree(*buf));
    *buf = 0;
    *have = 0;
  }
  KMEANS_CHECK_CU(cuMemAlloc(buf, bytes));
  *have = bytes;
  return CAKE_RT_SUCCESS;
}

CakeRtStatus kmeansScratch(KmeansUpdate *u, int slot, size_t bytes,
                           CUdeviceptr *out) {
  CakeRtStatus s =
      grow(&u->scratch[slot], &u->scratchBytes[slot], bytes ? bytes : 4);
  *out = u->scratch[slot];
  return s;
}

static unsigned blocksFor(int64_t threads, unsigned block) {
  return (unsigned)((threads + block - 1) / block);
}

CakeRtStatus kmeansNorms(KmeansUpdate *u, int bf16, int64_t B, int64_t K,
                         int64_t D, CUdeviceptr c, CUdeviceptr norms,
                         CUstream stream) {
  long long clusters = B * K;
  int d = (int)D;
  void *args[] = {&c, &norms, &clusters, &d};
  KMEANS_CHECK_CU(cuLaunchKernel(u->fn[bf16 ? FN_NORMS_BF16 : FN_NORMS_F16],
                                  blocksFor(clusters * 32, 256), 1, 1, 256, 1,
                                  1, 0, stream, args, NULL));
  return CAKE_RT_SUCCESS;
}

static int64_t roundUp(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

CakeRtStatus kmeansUpdateRun(KmeansUpdate *u, CakeRtBundle *sumsKernel,
                             int bf16, int64_t B, int64_t N, int64_t D,
                             int64_t K, CUdeviceptr x, CUdeviceptr assign,
                             CUdeviceptr oldC, CUdeviceptr newC,
                             CUdeviceptr norms, CUdeviceptr maxShift,
                             CUstream stream) {
  size_t clusters = (size_t)(B * K), points = (size_t)(B * N);
  /* The Cake sums kernel's two forms (by its arguments): it reads the
   * points through the sort's order (X, Order, Keys, Work, S:
   * examples/kmeans_sums_gather.cake.mlir) or from their sorted transposed
   * copy (XT, Keys, Work, ST: examples/kmeans_sums.cake.mlir). */
  int gatherForm = 0;
  if (sumsKernel) {
    int numArgs = cakeRtBundleGetNumArgs(sumsKernel);
    if (numArgs != 4 && numArgs != 5)
      return cakeRtFailWith(CAKE_RT_ERROR_ARGUMENT,
                            "k-means update: the sums kernel takes 4 "
                            "arguments (XT, Keys, Work, ST) or 5 (X, Order, "
                            "Keys, Work, S)");
    gatherForm = numArgs == 5;
  }
  /* The Cake sums kernel's shapes: slots padded to whole 64-slot chunks,
   * ST's clusters to whole 64-cluster tiles (TMA rows 16-byte aligned). */
  int64_t width = roundUp((int64_t)points, 64);
  int64_t stWidth = roundUp((int64_t)clusters, 64);
  int64_t tiles = stWidth / 64;
  int64_t maxUnits =
      tiles + (width / 64 + tiles + CHUNKS_PER_UNIT - 1) / CHUNKS_PER_UNIT;
  size_t need[NUM_WS] = {
      clusters * 4,
      clusters * 4,
      points * 4,
      (size_t)width * 4,
      (sumsKernel ? (size_t)stWidth : clusters) * (size_t)D * 4,
      sumsKernel && !gatherForm ? (size_t)(D * width) * 2 : 4,
      sumsKernel ? (size_t)maxUnits * 16 : 4};
  for (int i = 0; i < NUM_WS; ++i) {
    CakeRtStatus s = grow(&u->ws[i], &u->wsBytes[i], need[i]);
    if (s != CAKE_RT_SUCCESS)
      return s;
  }
  CUdeviceptr counts = u->ws[WS_COUNTS], cursor = u->ws[WS_CURSOR],
              order = u->ws[WS_ORDER], key = u->ws[WS_KEY],
              sums = u->ws[WS_SUMS];
  KMEANS_CHECK_CU(cuMemsetD32Async(counts, 0, clusters, stream));
  /* Slots no point is scattered to (ids outside [0, K)) keep key -1. */
  KMEANS_CHECK_CU(
      cuMemsetD32Async(key, 0xffffffffu, (size_t)width, stream));
  /* ... and order -1 there, which the gathering kernel reads as a row of
   * zeros (never a row of x that might hold an inf). */
  if (gatherForm)
    KMEANS_CHECK_CU(cuMemsetD32Async(order, 0xffffffffu, points, stream));
  KMEANS_CHECK_CU(cuMemsetD32Async(
      sums, 0, (sumsKernel ? (size_t)stWidth : clusters) * (size_t)D,
      stream));
  if (maxShift)
    KMEANS_CHECK_CU(cuMemsetD32Async(maxShift, 0, 1, stream));

  long long n = N, total = (long long)points, nClusters = (long long)clusters;
  int k = (int)K, d = (int)D;

  if (K <= MAX_SHARED_BINS) {
    long long chunk = (total + TARGET_BLOCKS - 1) / TARGET_BLOCKS;
    chunk = chunk < 4096 ? 4096 : (chunk + 1023) / 1024 * 1024;
    if (chunk > MAX_SCATTER_CHUNK)
      chunk = MAX_SCATTER_CHUNK;
    unsigned chunks = (unsigned)((N + chunk - 1) / chunk);
    unsigned bins = (unsigned)K * 4;
    unsigned staged = (unsigned)(3 * K + 2 * chunk) * 4;
    void *histogram[] = {&assign, &counts, &n, &k, &chunk};
    KMEANS_CHECK_CU(cuLaunchKernel(u->fn[FN_HISTOGRAM_CTA], chunks,
                                    (unsigned)B, 1, 1024, 1, 1, bins, stream,
                                    histogram, NULL));
    void *scan[] = {&counts, &cursor, &n, &k};
    KMEANS_CHECK_CU(cuLaunchKernel(u->fn[FN_SCAN], (unsigned)B, 1, 1, 1024,
                                    1, 1, 0, stream, scan, NULL));
    void *scatter[] = {&assign, &cursor, &order, &key, &n, &k, &chunk};
    KMEANS_CHECK_CU(cuLaunchKernel(u->fn[FN_SCATTER_CTA], chunks, (unsigned)B,
                                   1, 1024, 1, 1, staged, stream, scatter,
                                   NULL));
  } else {
    unsigned pointBlocks = blocksFor(N, 256);
    void *histogram[] = {&assign, &counts, &n, &k};
    KMEANS_CHECK_CU(cuLaunchKernel(u->fn[FN_HISTOGRAM], pointBlocks,
                                    (unsigned)B, 1, 256, 1, 1, 0, stream,
                                    histogram, NULL));
    void *scan[] = {&counts, &cursor, &n, &k};
    KMEANS_CHECK_CU(cuLaunchKernel(u->fn[FN_SCAN], (unsigned)B, 1, 1, 1024,
                                    1, 1, 0, stream, scan, NULL));
    void *scatter[] = {&assign, &cursor, &order, &key, &n, &k};
    KMEANS_CHECK_CU(cuLaunchKernel(u->fn[FN_SCATTER], pointBlocks,
                                    (unsigned)B, 1, 256, 1, 1, 0, stream,
                                    scatter, NULL));
  }

  long long rowStride = D, colStride = 1;
  if (sumsKernel) {
    /* The sums in Cake IR, from the keys and the work list and either the
     * points through the sort's order (S[c][d]) or their sorted transposed
     * copy, gathered first (ST[d][c]). */
    CUdeviceptr xt = u->ws[WS_XT], work = u->ws[WS_WORK];
    long long w = width, units = maxUnits;
    int chunks = CHUNKS_PER_UNIT;
    if (!gatherForm) {
      void *gather[] = {&x, &order, &key, &xt, &total, &w, &d};
      KMEANS_CHECK_CU(
          cuLaunchKernel(u->fn[bf16 ? FN_GATHER_T_BF16 : FN_GATHER_T_F16],
                         (unsigned)(width / 64), (unsigned)((D + 127) / 128), 1,
                         256, 1, 1, 0, stream, gather, NULL));
    }
    void *worklist[] = {&counts, &cursor, &work, &nClusters, &chunks, &units};
    KMEANS_CHECK_CU(cuLaunchKernel(u->fn[FN_WORKLIST], 1, 1, 1, 1024, 1, 1,
                                    0, stream, worklist, NULL));
    CakeRtArg args[5];
    memset(args, 0, sizeof args);
    CakeRtArg *next = args;
    if (gatherForm) {
      next->data = x;
      next->rank = 2;
      next->shape[0] = (int64_t)points;
      next->shape[1] = D;
      ++next;
      next->data = order;
      next->rank = 1;
      next->shape[0] = (int64_t)points;
      ++next;
    } else {
      next->data = xt;
      next->rank = 2;
      next->shape[0] = D;
      next->shape[1] = width;
      ++next;
    }
    next->data = key;
    next->rank = 1;
    next->shape[0] = width;
    ++next;
    next->data = work;
    next->rank = 2;
    next->shape[0] = maxUnits;
    next->shape[1] = 4;
    ++next;
    next->data = sums;
    next->rank = 2;
    next->shape[0] = gatherForm ? stWidth : D; /* S: clusters x D; ST */
    next->shape[1] = gatherForm ? D : stWidth;
    ++next;
    CakeRtStatus st =
        cakeRtLaunch(sumsKernel, args, (int)(next - args), stream);
    if (st != CAKE_RT_SUCCESS)
      return st;
    if (gatherForm) {
      rowStride = D;
      colStride = 1;
    } else {
      rowStride = 1;
      colStride = stWidth;
    }
  } else {
  /* segsum: blocks of whole thread groups (D / 8 threads each). */
    void *segsum[] = {&x, &order, &key, &sums, &total, &d};
    int64_t slices = D / 8, groupsPerBlock = 256 / slices;
    if (groupsPerBlock < 1)
      groupsPerBlock = 1;
    int64_t groups = (total + RUN_LENGTH - 1) / RUN_LENGTH;
    KMEANS_CHECK_CU(cuLaunchKernel(
        u->fn[bf16 ? FN_SEGSUM_BF16 : FN_SEGSUM_F16],
        (unsigned)((groups + groupsPerBlock - 1) / groupsPerBlock), 1, 1,
        (unsigned)(groupsPerBlock * slices), 1, 1,
        (unsigned)(groupsPerBlock * (D * 4 + 4)), stream, segsum, NULL));
  }
  void *finalize[] = {&sums, &rowStride, &colStride, &counts, &oldC,
                      &newC,  &norms,     &maxShift,  &nClusters, &d};
  KMEANS_CHECK_CU(cuLaunchKernel(
      u->fn[bf16 ? FN_FINALIZE_BF16 : FN_FINALIZE_F16],
      blocksFor(nClusters * 32, 256), 1, 1, 256, 1, 1, 0, stream, finalize,
      NULL));
  return CAKE_RT_SUCCESS;
}
