// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- cake_run.c - Run a Cake bundle on fresh random inputs --------------===*\
|*                                                                            *|
|* cake-run BUNDLE --arg 0=8192x8192 --arg 1=... [--check gemm|gemm-tn|copy|  *|
|*          add|kmeans|none] [--iters N] [--warmup N] [--timeout-ms T]        *|
|*          [--seed S]                                                        *|
|*                                                                            *|
|* Allocates every tensor argument, fills it with fresh random values         *|
|* (uniform in [-1, 1]; outputs are overwritten by the kernel and poisoned    *|
|* with NaN first), launches once with a timeout, optionally checks the       *|
|* result against a host reference (cake_run_checks.c), then times the        *|
|* kernel with events. cake-run --help lists every option.                    *|
|* Exit codes: 0 success, 1 failure, 2 usage, 124 timeout.                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Options.h"
#include "cake/Version.h"
#include "cake_run_internal.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void printHelp(FILE *out) {
  fprintf(
      out,
      "usage: cake-run BUNDLE --arg I=D0xD1[...] ... [--scalar I=V]\n"
      "                [--check gemm|gemm-tn|copy|add|kmeans|none]\n"
      "                [--iters N] [--warmup N] [--timeout-ms T] [--seed S]\n"
      "  --arg I=D0xD1...  the shape of tensor argument I (every argument of\n"
      "                    the kernel is given, by --arg or --scalar)\n"
      "  --scalar I=V      the value of scalar argument I\n"
      "  --check KIND      check the result of one launch (default none):\n"
      "    gemm            argument 2 must equal argument 0 times argument 1\n"
      "                    transposed (C = A B^T), checked on sampled\n"
      "                    elements against a double-precision host reference\n"
      "    gemm-tn         C = A^T B: A K x M, B K x N, C M x N, checked the\n"
      "                    same way\n"
      "    copy            argument 1 must equal argument 0, bit for bit\n"
      "    add             argument 1 (f32) must equal its random fill plus\n"
      "                    argument 0, bit for bit (a TMA reduce-sum store)\n"
      "    kmeans          arguments: points ([B x] N x D), centroids\n"
      "                    ([B x] K x D), their norms ([B x] K, f32, computed\n"
      "                    here), ids ([B x] N, i32); each sampled point's id\n"
      "                    must be its nearest centroid, up to the tie\n"
      "                    tolerance of bench/kmeans\n"
      "  --iters N         timed launches, the median reported (20; 0: none)\n"
      "  --warmup N        launches before timing (3)\n"
      "  --timeout-ms T    how long the checked launch may take (10000)\n"
      "  --seed S          the random fill's seed\n"
      "  -h, --help        this help\n"
      "  --version         the Cake version\n");
}

static void usage(void) {
  fprintf(stderr, "usage: cake-run BUNDLE --arg I=D0xD1[...] ... "
                  "[options]\nTry 'cake-run --help' for every option.\n");
}

/* A number option of cake-run (tools/common/Options.h). */
static int parseInteger(const char *name, const char *text, long long min,
                        long long max, long long *out) {
  return cakeParseIntegerOption("cake-run", name, text, min, max, NULL, out);
}

/* What the command line asked for. */
typedef struct {
  const char *bundlePath;
  CakeRtArg args[MAX_ARGS];
  int given[MAX_ARGS];
  CheckKind check;
  int iters, warmup;
  long long timeoutMs;
} RunOptions;

/* --arg I=D0xD1... or --scalar I=V into `o`. */
static int parseArgument(const char *option, const char *text, int scalar,
                         RunOptions *o) {
  char *end;
  errno = 0;
  long idx = strtol(text, &end, 10);
  if (errno || end == text || *end != '=' || idx < 0 || idx >= MAX_ARGS) {
    fprintf(stderr, "cake-run: %s expects I=VALUE with I from 0 to %d, got "
                    "'%s'\n", option, MAX_ARGS - 1, text);
    return 0;
  }
  CakeRtArg *arg = &o->args[idx];
  memset(arg, 0, sizeof *arg);
  o->given[idx] = 1;
  const char *p = end + 1;
  if (scalar) {
    long long v;
    if (!parseInteger("scalar", p, LLONG_MIN, LLONG_MAX, &v))
      return 0;
    arg->isScalar = 1;
    arg->scalar = v;
    return 1;
  }
  while (*p) {
    errno = 0;
    long long d = strtoll(p, &end, 10);
    if (arg->rank == 5 || errno || end == p || d < 0 ||
        (*end && *end != 'x')) {
      fprintf(stderr, "cake-run: --arg expects I=D0xD1... (at most 5 "
                      "non-negative dimensions), got '%s'\n", text);
      return 0;
    }
    arg->shape[arg->rank++] = d;
    p = *end ? end + 1 : end;
  }
  if (arg->rank == 0) {
    fprintf(stderr, "cake-run: --arg %s has no shape\n", text);
    return 0;
  }
  return 1;
}

/* Fills `o` from the command line. Returns -1 to go on, else the exit
 * status (0 after --help, 2 after a usage error). */
static int parseOptions(int argc, char **argv, RunOptions *o) {
  enum {
    OPT_ARG = 256,
    OPT_SCALAR,
    OPT_CHECK,
    OPT_ITERS,
    OPT_WARMUP,
    OPT_TIMEOUT,
    OPT_SEED,
    OPT_VERSION
  };
  static const struct option longOptions[] = {
      {"arg", required_argument, NULL, OPT_ARG},
      {"scalar", required_argument, NULL, OPT_SCALAR},
      {"check", required_argument, NULL, OPT_CHECK},
      {"iters", required_argument, NULL, OPT_ITERS},
      {"warmup", required_argument, NULL, OPT_WARMUP},
      {"timeout-ms", required_argument, NULL, OPT_TIMEOUT},
      {"seed", required_argument, NULL, OPT_SEED},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, OPT_VERSION},
      {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  o->iters = 20;
  o->warmup = 3;
  o->timeoutMs = 10000;
  opterr = 0; /* the messages below name the option */
  int c, index;
  long long v;
  while ((c = getopt_long(argc, argv, ":h", longOptions, &index)) != -1) {
    switch (c) {
    case OPT_ARG:
    case OPT_SCALAR:
      if (!parseArgument(c == OPT_SCALAR ? "--scalar" : "--arg", optarg,
                         c == OPT_SCALAR, o))
        return 2;
      break;
    case OPT_CHECK:
      o->check = !strcmp(optarg, "gemm")      ? CHECK_GEMM
                 : !strcmp(optarg, "gemm-tn") ? CHECK_GEMM_TN
                 : !strcmp(optarg, "copy")    ? CHECK_COPY
                 : !strcmp(optarg, "add")     ? CHECK_ADD
                 : !strcmp(optarg, "kmeans")  ? CHECK_KMEANS
                 : !strcmp(optarg, "none")    ? CHECK_NONE
                                              : (CheckKind)-1;
      if ((int)o->check < 0) {
        fprintf(stderr,
                "cake-run: --check is gemm, gemm-tn, copy, add, kmeans "
                "or "
                "none, not '%s'\n",
                optarg);
        return 2;
      }
      break;
    case OPT_ITERS:
    case OPT_WARMUP:
      if (!parseInteger(longOptions[index].name, optarg, 0, 1000000, &v))
        return 2;
      *(c == OPT_ITERS ? &o->iters : &o->warmup) = (int)v;
      break;
    case OPT_TIMEOUT:
      if (!parseInteger("timeout-ms", optarg, 1, LLONG_MAX / 1000, &v))
        return 2;
      o->timeoutMs = v;
      break;
    case OPT_SEED:
      if (!parseInteger("seed", optarg, 0, LLONG_MAX, &v))
        return 2;
      rngSeed((uint64_t)v);
      break;
    case 'h':
      printHelp(stdout);
      return 0;
    case OPT_VERSION:
      printf("cake-run (Cake) %s\n", CAKE_VERSION_STRING);
      return 0;
    case ':':
      fprintf(stderr, "cake-run: option '%s' needs a value\n",
              argv[optind - 1]);
      usage();
      return 2;
    default:
      fprintf(stderr, "cake-run: unknown option '%s'\n", argv[optind - 1]);
      usage();
      return 2;
    }
  }
  if (optind != argc - 1) {
    if (optind < argc - 1)
      fprintf(stderr, "cake-run: one bundle expected, got '%s' and '%s'\n",
              argv[optind], argv[optind + 1]);
    else
      fprintf(stderr, "cake-run: no bundle given\n");
    usage();
    return 2;
  }
  o->bundlePath = argv[optind];
  return -1;
}

/* Allocates, fills and uploads every tensor argument. */
static int allocateTensors(CakeRtBundle *bundle, CakeRtArg *args,
                           Tensor *tensors, int n) {
  for (int i = 0; i < n; ++i) {
    if (args[i].isScalar)
      continue;
    Tensor *t = &tensors[i];
    t->element = cakeRtBundleGetArgElement(bundle, i);
    t->bytes =
        (strcmp(t->element, "f32") == 0 || strcmp(t->element, "i32") == 0) ? 4
                                                                           : 2;
    t->count = 1;
    for (int d = 0; d < args[i].rank; ++d)
      t->count *= (size_t)args[i].shape[d];
    t->host = malloc(t->count * (size_t)t->bytes + 1);
    if (!t->host || !fillRandom(t) ||
        !cuCheck(cuMemAlloc(&t->dev, t->count * (size_t)t->bytes + 16),
                 "cuMemAlloc") ||
        !cuCheck(cuMemcpyHtoD(t->dev, t->host, t->count * (size_t)t->bytes),
                 "cuMemcpyHtoD"))
      return 1;
    args[i].data = t->dev;
  }
  return 0;
}

/* One launch, waited for with the timeout; prints the grid. */
static int launchOnce(CakeRtBundle *bundle, CakeRtArg *args, int n,
                      long long timeoutMs, int status) {
  int64_t grid = 0;
  if (!status) {
    CakeRtStatus s = cakeRtGridSize(bundle, args, n, &grid);
    if (s == CAKE_RT_SUCCESS)
      s = cakeRtLaunch(bundle, args, n, NULL);
    if (s == CAKE_RT_SUCCESS)
      s = cakeRtSynchronize(NULL, timeoutMs);
    if (s != CAKE_RT_SUCCESS) {
      fprintf(stderr, "cake-run: %s\n", cakeRtLastError());
      status = s == CAKE_RT_ERROR_TIMEOUT ? 124 : 1;
    }
    if (s == CAKE_RT_ERROR_TIMEOUT) {
      /* The kernel still runs: freeing its memory or unloading its module
       * would wait for it forever. Leave now; the driver tears the
       * context down with the process. */
      fflush(stdout);
      fflush(stderr);
      _exit(124);
    }
  }
  printf("kernel %s: grid %lld\n", cakeRtBundleGetEntry(bundle),
         (long long)grid);
  return status;
}

/* Times the kernel with events and prints the median (and a rate for gemm
 * and copy). */
static int timeKernel(CakeRtBundle *bundle, CakeRtArg *args, int n,
                      const Tensor *tensors, const RunOptions *o) {
  int status = 0;
  int iters = o->iters, warmup = o->warmup;
  int isGemm = o->check == CHECK_GEMM || o->check == CHECK_GEMM_TN;
  int isCopy = o->check == CHECK_COPY;
  float ms = 0;
  if (cakeRtTime(bundle, args, n, NULL, warmup, iters, &ms) !=
      CAKE_RT_SUCCESS) {
    fprintf(stderr, "cake-run: %s\n", cakeRtLastError());
    status = 1;
  } else if (isGemm) {
    /* 2 M N K: C's elements times twice the length of A's other axis. */
    double flops = 2.0 * (double)tensors[2].count *
                   (double)args[0].shape[o->check == CHECK_GEMM ? 1 : 0];
    printf("time: %.4f ms (median of %d), %.1f TFLOP/s\n", ms, iters,
           flops / (ms * 1e-3) / 1e12);
  } else if (isCopy) {
    double bytes = 2.0 * (double)tensors[0].count * tensors[0].bytes;
    printf("time: %.4f ms (median of %d), %.1f GB/s (read + write)\n", ms,
           iters, bytes / (ms * 1e-3) / 1e9);
  } else {
    printf("time: %.4f ms (median of %d)\n", ms, iters);
  }
  return status;
}

int main(int argc, char **argv) {
  RunOptions o;
  int status = parseOptions(argc, argv, &o);
  if (status >= 0)
    return status;

  CakeRtBundle *bundle = NULL;
  if (cakeRtBundleLoad(o.bundlePath, &bundle) != CAKE_RT_SUCCESS) {
    fprintf(stderr, "cake-run: %s\n", cakeRtLastError());
    return 1;
  }
  int n = cakeRtBundleGetNumArgs(bundle);
  for (int i = 0; i < n; ++i)
    if (!o.given[i]) {
      fprintf(stderr, "cake-run: argument #%d not given (--arg/--scalar)\n", i);
      return 2;
    }

  CakeRtArg *args = o.args;
  Tensor tensors[MAX_ARGS];
  memset(tensors, 0, sizeof tensors);
  KmeansProblem km = {0};
  status = allocateTensors(bundle, args, tensors, n);
  if (!status)
    status = prepareCheck(o.check, args, tensors, n, &km);
  status = launchOnce(bundle, args, n, o.timeoutMs, status);
  if (!status)
    status = verifyResult(o.check, args, tensors, &km);
  if (!status && o.iters > 0)
    status = timeKernel(bundle, args, n, tensors, &o);

  for (int i = 0; i < n; ++i) {
    if (tensors[i].dev)
      cuMemFree(tensors[i].dev);
    free(tensors[i].host);
  }
  cakeRtBundleDestroy(bundle);
  return status;
}
