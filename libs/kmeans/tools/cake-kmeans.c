// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- cake-kmeans.c - Lloyd's k-means from the command line ---------===*\
|*                                                                            *|
|* cake-kmeans [TABLE_DIR] [--shape B:N:D:K] [--dtype f16|bf16] [--iters I]   *|
|*             [--tol T] [--data blobs|noise] [--seed S]                      *|
|*                                                                            *|
|* The C entry points of cake_kmeans.h end to end: random points (Gaussian    *|
|* blobs or noise) made here, centroids started at random points, Lloyd's     *|
|* loop on the GPU (the dispatched Cake assignment and the centroid update),  *|
|* its time by CUDA events, and the k-means objective of the result on a      *|
|* sample of points, computed on the host. TABLE_DIR holds                    *|
|* kmeans-table.json and its bundles (the cake-kmeans-kernels target); by     *|
|* default the installed ../share/cake/kmeans beside the binary.              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Options.h"
#include "cake-kmeans/cake_kmeans.h"
#include "cake/Version.h"

#include <cuda.h>

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK_CU(call)                                                         \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *m_ = "?";                                                    \
      cuGetErrorString(r_, &m_);                                               \
      fprintf(stderr, "cake-kmeans: %s failed: %s\n", #call, m_);              \
      return 1;                                                                \
    }                                                                          \
  } while (0)

#define CHECK_RT(call)                                                         \
  do {                                                                         \
    if ((call) != CAKE_RT_SUCCESS) {                                           \
      fprintf(stderr, "cake-kmeans: %s\n", cakeRtLastError());                 \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double uniform(void) { /* xorshift64*, in (0, 1) */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return ((rng * 2685821657736338717ull) >> 11) * 0x1.0p-53 + 0x1.0p-54;
}
static float normal(void) {
  return (float)(sqrt(-2.0 * log(uniform())) * cos(6.283185307179586 *
                                                    uniform()));
}

/* float to IEEE half / bfloat16, round to nearest even (finite inputs). */
static uint16_t toF16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  uint32_t sign = (u >> 16) & 0x8000, exp = (u >> 23) & 0xFF,
           mant = u & 0x7FFFFF;
  int e = (int)exp - 127 + 15;
  if (e >= 31)
    return (uint16_t)(sign | 0x7C00);
  if (e <= 0) { /* subnormal or zero */
    if (e < -10)
      return (uint16_t)sign;
    mant |= 0x800000;
    int shift = 14 - e;
    uint32_t half = mant >> shift, rest = mant & ((1u << shift) - 1),
             mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1)))
      ++half;
    return (uint16_t)(sign | half);
  }
  uint32_t half = ((uint32_t)e << 10) | (mant >> 13), rest = mant & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; /* may carry into the exponent, which is still right */
  return (uint16_t)(sign | half);
}
static uint16_t toBf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
}
static float fromBits(uint16_t h, int bf16) {
  if (bf16) {
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
  }
  int e = (h >> 10) & 0x1F;
  float m = (float)(h & 0x3FF);
  float v = e ? ldexpf(1.f + m / 1024.f, e - 15) : ldexpf(m / 1024.f, -14);
  return (h & 0x8000) ? -v : v;
}

static void usage(FILE *out) {
  fprintf(out, "usage: cake-kmeans [TABLE_DIR] [--shape B:N:D:K] [--dtype "
               "f16|bf16] [--iters I] [--tol T]\n"
               "                   [--data blobs|noise] [--seed S]\n");
}

static void printHelp(void) {
  usage(stdout);
  printf(
      "Lloyd's k-means on the GPU through libcake_kmeans (cake_kmeans.h) on\n"
      "random points, timed, with the objective checked on the host.\n"
      "  TABLE_DIR         kmeans-table.json and its bundles (default: the\n"
      "                    installed ../share/cake/kmeans beside this binary)\n"
      "  --shape B:N:D:K   batches, points, width, clusters "
      "(1:1048576:128:1024)\n"
      "  --dtype T         f16 or bf16 (f16)\n"
      "  --iters I         Lloyd rounds, 1 to 100000 (10)\n"
      "  --tol T           stop after the first round whose largest centroid\n"
      "                    shift is below T (0: run every round)\n"
      "  --data KIND       blobs (Gaussian blobs around K centers) or noise\n"
      "  --seed S          the random points' seed\n"
      "  -h, --help        this help\n"
      "  --version         the Cake version\n");
}

/* A number option of cake-kmeans (tools/common/Options.h). */
static int parseInteger(const char *option, const char *text, long long lo,
                        long long hi, long long *out) {
  return cakeParseIntegerOption("cake-kmeans", option, text, lo, hi, NULL, out);
}

/* P/share/cake/kmeans beside P/bin/cake-kmeans, if it holds a table. */
static int installedTable(char *out, size_t size) {
  char exe[2048];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return 0;
  exe[n] = 0;
  char *slash = strrchr(exe, '/');
  if (slash)
    *slash = 0;
  char table[2300];
  snprintf(out, size, "%s/../share/cake/kmeans", exe);
  snprintf(table, sizeof table, "%s/kmeans-table.json", out);
  return access(table, R_OK) == 0;
}

int main(int argc, char **argv) {
  enum {
    OPT_SHAPE = 256,
    OPT_DTYPE,
    OPT_ITERS,
    OPT_TOL,
    OPT_DATA,
    OPT_SEED,
    OPT_VERSION
  };
  static const struct option longOptions[] = {
      {"shape", required_argument, NULL, OPT_SHAPE},
      {"dtype", required_argument, NULL, OPT_DTYPE},
      {"iters", required_argument, NULL, OPT_ITERS},
      {"tol", required_argument, NULL, OPT_TOL},
      {"data", required_argument, NULL, OPT_DATA},
      {"seed", required_argument, NULL, OPT_SEED},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, OPT_VERSION},
      {NULL, 0, NULL, 0}};
  const char *dtype = "f16", *data = "blobs";
  long long B = 1, N = 1048576, D = 128, K = 1024, v;
  int iters = 10;
  float tol = 0.f;
  // --help answers on stdout with success, on any machine (the driver is
  // loaded only by the first CUDA call).
  opterr = 0; /* the messages below name the option */
  int opt;
  while ((opt = getopt_long(argc, argv, ":h", longOptions, NULL)) != -1) {
    switch (opt) {
    case OPT_SHAPE: {
      char extra;
      if (sscanf(optarg, "%lld:%lld:%lld:%lld%c", &B, &N, &D, &K, &extra) !=
          4) {
        fprintf(stderr, "cake-kmeans: --shape wants B:N:D:K, got '%s'\n",
                optarg);
        return 2;
      }
      break;
    }
    case OPT_DTYPE:
      dtype = optarg;
      break;
    case OPT_ITERS:
      if (!parseInteger("iters", optarg, 1, 100000, &v))
        return 2;
      iters = (int)v;
      break;
    case OPT_TOL: {
      char *end;
      tol = strtof(optarg, &end);
      if (end == optarg || *end || !(tol >= 0.f)) {
        fprintf(stderr, "cake-kmeans: --tol expects a number >= 0, got '%s'\n",
                optarg);
        return 2;
      }
      break;
    }
    case OPT_DATA:
      data = optarg;
      if (strcmp(data, "blobs") && strcmp(data, "noise")) {
        fprintf(stderr, "cake-kmeans: --data is blobs or noise, not '%s'\n",
                data);
        return 2;
      }
      break;
    case OPT_SEED:
      if (!parseInteger("seed", optarg, 0, LLONG_MAX, &v))
        return 2;
      rng = (uint64_t)v | 1;
      break;
    case 'h':
      printHelp();
      return 0;
    case OPT_VERSION:
      printf("cake-kmeans (Cake) %s\n", CAKE_VERSION_STRING);
      return 0;
    case ':':
      fprintf(stderr, "cake-kmeans: option '%s' needs a value\n",
              argv[optind - 1]);
      usage(stderr);
      return 2;
    default:
      fprintf(stderr, "cake-kmeans: unknown option '%s'\n", argv[optind - 1]);
      usage(stderr);
      return 2;
    }
  }
  if (optind < argc - 1) {
    fprintf(stderr, "cake-kmeans: one TABLE_DIR expected, got '%s' and '%s'\n",
            argv[optind], argv[optind + 1]);
    usage(stderr);
    return 2;
  }
  /* Without TABLE_DIR: the table installed beside this binary. */
  char installed[2200];
  const char *dir = optind < argc ? argv[optind] : NULL;
  if (!dir) {
    if (!installedTable(installed, sizeof installed)) {
      fprintf(stderr, "cake-kmeans: no TABLE_DIR given and no installed "
                      "table (../share/cake/kmeans beside this binary)\n");
      usage(stderr);
      return 2;
    }
    dir = installed;
  }
  int bf16 = !strcmp(dtype, "bf16");
  if (!bf16 && strcmp(dtype, "f16")) {
    fprintf(stderr, "cake-kmeans: --dtype is f16 or bf16, not '%s'\n", dtype);
    return 2;
  }
  if (B < 1 || N < 1 || D < 1 || K < 1 || K > N) {
    fprintf(stderr, "cake-kmeans: need B, N, D >= 1 and 1 <= K <= N\n");
    return 2;
  }

  CakeKmeans *km;
  CHECK_RT(cakeKmeansOpen(dir, &km));
  const char *bundle, *evidence;
  CHECK_RT(cakeKmeansChoose(km, dtype, B, N, D, K, &bundle, &evidence));

  /* Points: blobs around K random centers (spread 4, noise 0.3), or noise;
   * the first centroids: K points drawn at random. */
  size_t nx = (size_t)(B * N * D), nc = (size_t)(B * K * D);
  uint16_t *x = malloc(nx * 2), *c = malloc(nc * 2);
  float *centers = malloc((size_t)(K * D) * sizeof(float));
  if (!x || !c || !centers) {
    fprintf(stderr, "cake-kmeans: out of host memory\n");
    return 1;
  }
  uint16_t (*convert)(float) = bf16 ? toBf16 : toF16;
  int blobs = !strcmp(data, "blobs");
  for (long long b = 0; b < B; ++b) {
    for (long long i = 0; i < K * D; ++i)
      centers[i] = 4.f * normal();
    for (long long n = 0; n < N; ++n) {
      const float *ctr = centers + (long long)(uniform() * K) % K * D;
      for (long long d = 0; d < D; ++d)
        x[(b * N + n) * D + d] =
            convert(blobs ? ctr[d] + 0.3f * normal() : normal());
    }
    for (long long k = 0; k < K; ++k)
      memcpy(c + (b * K + k) * D,
             x + (b * N + (long long)(uniform() * N) % N) * D, (size_t)D * 2);
  }

  CHECK_CU(cuInit(0));
  CUdevice dev;
  CUcontext ctx;
  CHECK_CU(cuDeviceGet(&dev, 0));
  CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK_CU(cuCtxSetCurrent(ctx));
  CUdeviceptr dx, dc, dids;
  CHECK_CU(cuMemAlloc(&dx, nx * 2));
  CHECK_CU(cuMemAlloc(&dc, nc * 2));
  CHECK_CU(cuMemAlloc(&dids, (size_t)(B * N) * 4));
  CHECK_CU(cuMemcpyHtoD(dx, x, nx * 2));
  CHECK_CU(cuMemcpyHtoD(dc, c, nc * 2));

  /* One untimed round loads the kernels; then the timed run. */
  CUdeviceptr dc0;
  CHECK_CU(cuMemAlloc(&dc0, nc * 2));
  CHECK_CU(cuMemcpyDtoD(dc0, dc, nc * 2));
  CHECK_RT(cakeKmeansLloyd(km, dtype, B, N, D, K, dx, dc0, dids, 1, 0.f,
                           NULL, NULL, NULL));
  CUevent start, stop;
  CHECK_CU(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CHECK_CU(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  int rounds = 0;
  float shift = 0.f, ms = 0.f;
  CHECK_CU(cuEventRecord(start, NULL));
  CHECK_RT(cakeKmeansLloyd(km, dtype, B, N, D, K, dx, dc, dids, iters, tol,
                           &rounds, &shift, NULL));
  CHECK_CU(cuEventRecord(stop, NULL));
  CHECK_CU(cuEventSynchronize(stop));
  CHECK_CU(cuEventElapsedTime(&ms, start, stop));
  CHECK_CU(cuMemcpyDtoH(c, dc, nc * 2));

  /* The objective on up to 4096 points of batch 0: mean squared distance
   * to the nearest final centroid, in double. */
  long long sample = N < 4096 ? N : 4096;
  double objective = 0;
  for (long long s = 0; s < sample; ++s) {
    const uint16_t *p = x + (s * (N / sample)) * D;
    double best = INFINITY;
    for (long long k = 0; k < K; ++k) {
      double dist = 0;
      for (long long d = 0; d < D; ++d) {
        double diff = fromBits(p[d], bf16) - fromBits(c[k * D + d], bf16);
        dist += diff * diff;
      }
      if (dist < best)
        best = dist;
    }
    objective += best / (double)sample;
  }
  printf("cake-kmeans: B=%lld N=%lld D=%lld K=%lld %s %s, assignment "
         "kernel %s (%s)\n",
         B, N, D, K, dtype, data, bundle, evidence);
  printf("  %d rounds in %.3f ms (%.3f ms a round), last shift %.4g, "
         "objective %.6g on %lld points\n",
         rounds, ms, ms / (rounds ? rounds : 1), shift, objective, sample);

  cakeKmeansClose(km);
  CHECK_CU(cuMemFree(dx));
  CHECK_CU(cuMemFree(dc));
  CHECK_CU(cuMemFree(dc0));
  CHECK_CU(cuMemFree(dids));
  free(x);
  free(c);
  free(centers);
  return 0;
}
