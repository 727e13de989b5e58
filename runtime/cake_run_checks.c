// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- cake_run_checks.c - cake-run's inputs and result checks ------------===*\
|*                                                                            *|
|* The random fill of the kernel's tensors, and the checks of --check: each   *|
|* prepares its outputs before the launch (poisoned, so an element the        *|
|* kernel never writes is seen) and compares the result with a host           *|
|* reference after it.                                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "cake_run_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cuCheck(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return 1;
  const char *msg = NULL;
  cuGetErrorString(r, &msg);
  fprintf(stderr, "cake-run: %s failed: %s\n", what, msg ? msg : "?");
  return 0;
}

static uint64_t rngState = 0x9E3779B97F4A7C15ull;

void rngSeed(uint64_t seed) {
  rngState = seed * 0x9E3779B97F4A7C15ull + 1;
}

double urand(void) { /* xorshift64*, uniform in [-1, 1) */
  rngState ^= rngState >> 12;
  rngState ^= rngState << 25;
  rngState ^= rngState >> 27;
  uint64_t x = rngState * 0x2545F4914F6CDD1Dull;
  return (double)(x >> 11) / (double)(1ull << 53) * 2.0 - 1.0;
}

static uint16_t toBf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  uint32_t rounding = 0x7FFF + ((u >> 16) & 1);
  return (uint16_t)((u + rounding) >> 16);
}
static float fromBf16(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint16_t toF16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  uint32_t sign = (u >> 16) & 0x8000;
  int32_t e = (int32_t)((u >> 23) & 0xFF) - 127 + 15;
  uint32_t m = u & 0x7FFFFF;
  if (e <= 0)
    return (uint16_t)sign; /* inputs here are never that small but zero */
  if (e >= 31)
    return (uint16_t)(sign | 0x7C00);
  uint32_t h = sign | (uint32_t)e << 10 | m >> 13;
  if ((m & 0x1FFF) > 0x1000 || ((m & 0x1FFF) == 0x1000 && (h & 1)))
    ++h;
  return (uint16_t)h;
}
static float fromF16(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1F,
           m = h & 0x3FF, u;
  if (e == 0)
    u = sign; /* subnormals flushed: not produced by this tool */
  else if (e == 31)
    u = sign | 0x7F800000 | m << 13;
  else
    u = sign | (e - 15 + 127) << 23 | m << 13;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

double readElement(const Tensor *t, size_t i) {
  if (strcmp(t->element, "bf16") == 0)
    return fromBf16(((uint16_t *)t->host)[i]);
  if (strcmp(t->element, "f16") == 0)
    return fromF16(((uint16_t *)t->host)[i]);
  if (strcmp(t->element, "f32") == 0)
    return ((float *)t->host)[i];
  if (strcmp(t->element, "i32") == 0)
    return ((int32_t *)t->host)[i];
  return NAN;
}

int fillRandom(Tensor *t) {
  for (size_t i = 0; i < t->count; ++i) {
    float v = (float)urand();
    if (strcmp(t->element, "bf16") == 0)
      ((uint16_t *)t->host)[i] = toBf16(v);
    else if (strcmp(t->element, "f16") == 0)
      ((uint16_t *)t->host)[i] = toF16(v);
    else if (strcmp(t->element, "f32") == 0)
      ((float *)t->host)[i] = v;
    else if (strcmp(t->element, "i32") == 0)
      ((int32_t *)t->host)[i] = (int32_t)(v * 1000);
    else {
      fprintf(stderr, "cake-run: cannot fill element type %s\n", t->element);
      return 0;
    }
  }
  return 1;
}

static double readTensor(const void *t, size_t i) {
  return readElement((const Tensor *)t, i);
}

/* --check kmeans: checks the four arguments' shapes and types, writes the
 * centroids' norms (of the values as rounded) over the random fill and
 * poisons the ids (-1). Returns cake-run's status. */
static int prepareKmeans(const CakeRtArg *args, Tensor *tensors, int n,
                         KmeansProblem *p) {
  const CakeRtArg *x = &args[0], *c = &args[1], *cn = &args[2],
                  *ids = &args[3];
  int tensorsOnly = n == 4 && !x->isScalar && !c->isScalar &&
                    !cn->isScalar && !ids->isScalar;
  int batched = tensorsOnly && x->rank == 3;
  int rank = batched ? 3 : 2;
  if (!tensorsOnly || x->rank != rank || c->rank != rank ||
      cn->rank != rank - 1 || ids->rank != rank - 1 ||
      strcmp(tensors[2].element, "f32") != 0 ||
      strcmp(tensors[3].element, "i32") != 0 ||
      (batched && (c->shape[0] != x->shape[0] || cn->shape[0] != x->shape[0] ||
                   ids->shape[0] != x->shape[0])) ||
      c->shape[rank - 1] != x->shape[rank - 1] ||
      cn->shape[rank - 2] != c->shape[rank - 2] ||
      ids->shape[rank - 2] != x->shape[rank - 2]) {
    fprintf(stderr, "cake-run: --check kmeans needs points [B x] N x D, "
                    "centroids [B x] K x D, norms [B x] K (f32) and ids "
                    "[B x] N (i32)\n");
    return 2;
  }
  p->read = readTensor;
  p->x = &tensors[0];
  p->c = &tensors[1];
  p->ids = (const int32_t *)tensors[3].host;
  p->B = batched ? x->shape[0] : 1;
  p->N = x->shape[rank - 2];
  p->D = x->shape[rank - 1];
  p->K = c->shape[rank - 2];
  float *norms = (float *)tensors[2].host;
  for (int64_t k = 0; k < p->B * p->K; ++k) {
    double sum = 0;
    for (int64_t j = 0; j < p->D; ++j) {
      double v = readElement(&tensors[1], (size_t)(k * p->D + j));
      sum += v * v;
    }
    norms[k] = (float)sum;
  }
  Tensor *t = &tensors[2];
  if (!cuCheck(cuMemcpyHtoD(t->dev, t->host, t->count * (size_t)t->bytes),
               "cuMemcpyHtoD (norms)") ||
      !cuCheck(cuMemsetD8(args[3].data, 0xFF,
                          tensors[3].count * (size_t)tensors[3].bytes),
               "cuMemsetD8 (poison)"))
    return 1;
  return 0;
}

/* Poisons output `i` (all bytes 0xFF: NaN for floats, -1 for ids). */
static int poison(const CakeRtArg *args, const Tensor *tensors, int i) {
  return cuCheck(cuMemsetD8(args[i].data, 0xFF,
                            tensors[i].count * (size_t)tensors[i].bytes),
                 "cuMemsetD8 (poison)");
}

int prepareCheck(CheckKind kind, CakeRtArg *args, Tensor *tensors, int n,
                 KmeansProblem *km) {
  switch (kind) {
  case CHECK_NONE:
    return 0;
  case CHECK_KMEANS:
    return prepareKmeans(args, tensors, n, km);
  case CHECK_COPY:
    if (n != 2 || tensors[0].count != tensors[1].count ||
        tensors[0].bytes != tensors[1].bytes) {
      fprintf(stderr, "cake-run: --check copy needs two tensors of the same "
                      "size and element type\n");
      return 2;
    }
    return poison(args, tensors, 1) ? 0 : 1;
  case CHECK_ADD:
    if (n != 2 || tensors[0].count != tensors[1].count ||
        strcmp(tensors[0].element, "f32") != 0 ||
        strcmp(tensors[1].element, "f32") != 0) {
      fprintf(stderr, "cake-run: --check add needs two f32 tensors of the "
                      "same size\n");
      return 2;
    }
    return 0;
  case CHECK_GEMM:
  case CHECK_GEMM_TN: {
    /* gemm: A M x K, B N x K; gemm-tn: A K x M, B K x N. */
    int tn = kind == CHECK_GEMM_TN, mAxis = tn ? 1 : 0;
    if (n != 3 || args[0].rank != 2 || args[1].rank != 2 || args[2].rank != 2 ||
        args[0].shape[1 - mAxis] != args[1].shape[1 - mAxis] ||
        args[2].shape[0] != args[0].shape[mAxis] ||
        args[2].shape[1] != args[1].shape[mAxis]) {
      fprintf(stderr,
              tn ? "cake-run: --check gemm-tn needs A KxM, B KxN, C MxN\n"
                 : "cake-run: --check gemm needs A MxK, B NxK, C MxN\n");
      return 2;
    }
    return poison(args, tensors, 2) ? 0 : 1;
  }
  }
  return 0;
}

/* C = A B^T (or, tn, C = A^T B) on sampled elements (the corners always)
 * against a double-precision reference; no element left unwritten. */
static int verifyGemm(const CakeRtArg *args, Tensor *tensors, int tn) {
  int status = 0;
  Tensor *A = &tensors[0], *B = &tensors[1], *C = &tensors[2];
  int64_t M = args[2].shape[0], N = args[2].shape[1];
  int64_t K = args[0].shape[tn ? 0 : 1];
  /* Element (row, k) of A and (col, k) of B: strides of row/col and k. */
  int64_t aRow = tn ? 1 : K, aK = tn ? M : 1;
  int64_t bCol = tn ? 1 : K, bK = tn ? N : 1;
  if (!cuCheck(cuMemcpyDtoH(C->host, C->dev, C->count * (size_t)C->bytes),
               "cuMemcpyDtoH")) {
    status = 1;
  } else {
    size_t unwritten = 0;
    for (size_t i = 0; i < C->count; ++i)
      if (isnan(readElement(C, i)))
        ++unwritten;
    double num = 0, den = 0;
    int samples = 2048;
    for (int s = 0; s < samples; ++s) {
      int64_t r = (int64_t)((urand() + 1) / 2 * (double)M) % M;
      int64_t c = (int64_t)((urand() + 1) / 2 * (double)N) % N;
      if (s < 4) { /* always include the corners: ragged edges */
        r = (s & 1) ? M - 1 : 0;
        c = (s & 2) ? N - 1 : 0;
      }
      double ref = 0;
      for (int64_t k = 0; k < K; ++k)
        ref += readElement(A, (size_t)(r * aRow + k * aK)) *
               readElement(B, (size_t)(c * bCol + k * bK));
      double got = readElement(C, (size_t)(r * N + c));
      num += (got - ref) * (got - ref);
      den += ref * ref;
    }
    double rel = sqrt(num / (den > 0 ? den : 1));
    int ok = unwritten == 0 && rel <= 1e-2;
    printf("check %s: %zu unwritten, rel_err %.3e over %d samples: %s\n",
           tn ? "gemm-tn" : "gemm", unwritten, rel, samples,
           ok ? "PASS" : "FAIL");
    if (!ok)
      status = 1;
  }
  return status;
}

  /* One launch has run: every element of the output took exactly one
   * addition (at L2), the same IEEE sum as the host's. */
static int verifyAdd(Tensor *tensors) {
  int status = 0;
  Tensor *in = &tensors[0], *out = &tensors[1];
  float *got = malloc(out->count * sizeof(float));
  if (!got || !cuCheck(cuMemcpyDtoH(got, out->dev, out->count * sizeof(float)),
                       "cuMemcpyDtoH")) {
    status = 1;
  } else {
    size_t differ = 0;
    for (size_t i = 0; i < out->count; ++i) {
      float want = ((float *)out->host)[i] + ((float *)in->host)[i];
      differ += memcmp(&want, &got[i], sizeof want) != 0;
    }
    printf("check add: %zu of %zu elements differ: %s\n", differ,
           out->count, differ ? "FAIL" : "PASS");
    if (differ)
      status = 1;
  }
  free(got);
  return status;
}

/* The output equals the input, bit for bit. */
static int verifyCopy(Tensor *tensors) {
  int status = 0;
  Tensor *in = &tensors[0], *out = &tensors[1];
  size_t bytes = out->count * (size_t)out->bytes;
  if (!cuCheck(cuMemcpyDtoH(out->host, out->dev, bytes), "cuMemcpyDtoH")) {
    status = 1;
  } else {
    size_t differ = 0;
    for (size_t i = 0; i < bytes; ++i)
      differ += ((unsigned char *)in->host)[i] !=
                ((unsigned char *)out->host)[i];
    printf("check copy: %zu of %zu bytes differ: %s\n", differ, bytes,
           differ ? "FAIL" : "PASS");
    if (differ)
      status = 1;
  }
  return status;
}

/* Sampled points' ids against the nearest centroid (kmeans_check.h). */
static int verifyKmeans(Tensor *tensors, const KmeansProblem *problem) {
  int status = 0;
  const KmeansProblem km = *problem;
  Tensor *ids = &tensors[3];
  if (!cuCheck(cuMemcpyDtoH(ids->host, ids->dev,
                            ids->count * (size_t)ids->bytes),
               "cuMemcpyDtoH")) {
    status = 1;
  } else {
    /* Sampled points (each against every centroid, in double), the
     * first and the last always: the tails. */
    KmeansCheck r = {0, 0, 0};
    int samples = 512;
    for (int s = 0; s < samples; ++s) {
      int64_t b = (int64_t)((urand() + 1) / 2 * (double)km.B) % km.B;
      int64_t p = (int64_t)((urand() + 1) / 2 * (double)km.N) % km.N;
      if (s < 2) {
        b = s ? km.B - 1 : 0;
        p = s ? km.N - 1 : 0;
      }
      kmeansCheckPoint(&km, b, p, &r);
    }
    printf("check kmeans: %zu points, %zu within the tie tolerance, %zu "
           "wrong: %s\n",
           r.checked, r.differ, r.bad, r.bad ? "FAIL" : "PASS");
    if (r.bad)
      status = 1;
  }
  return status;
}

int verifyResult(CheckKind kind, const CakeRtArg *args, Tensor *tensors,
                 const KmeansProblem *km) {
  switch (kind) {
  case CHECK_NONE:
    return 0;
  case CHECK_GEMM:
  case CHECK_GEMM_TN:
    return verifyGemm(args, tensors, kind == CHECK_GEMM_TN);
  case CHECK_ADD:
    return verifyAdd(tensors);
  case CHECK_COPY:
    return verifyCopy(tensors);
  case CHECK_KMEANS:
    return verifyKmeans(tensors, km);
  }
  return 0;
}
