// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/* Uses a generated kernel header with no Cake dependency: only the CUDA
 * driver API. Build (GEMM_HEADER names the generated header):
 *   cake-opt --cake-lower examples/gemm_ws_persistent.cake.mlir |
 *     cake-translate --cake-to-c-header -o gemm.h
 *   cc -std=c11 -DGEMM_HEADER='"gemm.h"' -I/usr/local/cuda/include \
 *      examples/c-header/gemm_main.c -lcuda -lm
 * Runs C = A B^T on random bf16 inputs and checks sampled elements against
 * a double-precision host reference. */
#include GEMM_HEADER

/* The launcher's name: the kernel's entry + "_launch" (another GEMM's
 * header names it with -DGEMM_LAUNCH=...). */
#ifndef GEMM_LAUNCH
#define GEMM_LAUNCH gemm_bf16_128x256x64_s4_launch
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *m_ = "?";                                                    \
      cuGetErrorString(r_, &m_);                                               \
      fprintf(stderr, "%s failed: %s\n", #call, m_);                           \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static uint16_t bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
}
static double unbf16(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

int main(void) {
  const int64_t M = 1000, N = 700, K = 256;
  int64_t sa[2] = {M, K}, sb[2] = {N, K}, sc[2] = {M, N};
  uint16_t *a = malloc(M * K * 2), *b = malloc(N * K * 2),
           *c = malloc(M * N * 2);
  srand(12345);
  for (int64_t i = 0; i < M * K; ++i)
    a[i] = bf16((float)rand() / RAND_MAX * 2 - 1);
  for (int64_t i = 0; i < N * K; ++i)
    b[i] = bf16((float)rand() / RAND_MAX * 2 - 1);
  CUdevice dev;
  CUcontext ctx;
  CUdeviceptr da, db, dc, scratch;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuMemAlloc(&da, M * K * 2));
  CHECK(cuMemAlloc(&db, N * K * 2));
  CHECK(cuMemAlloc(&dc, M * N * 2));
  CHECK(cuMemAlloc(&scratch, 1024));
  CHECK(cuMemcpyHtoD(da, a, M * K * 2));
  CHECK(cuMemcpyHtoD(db, b, N * K * 2));
  CHECK(cuMemsetD8(dc, 0xFF, M * N * 2));
  CHECK(GEMM_LAUNCH(0, scratch, da, sa, db, sb, dc, sc));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(c, dc, M * N * 2));
  double num = 0, den = 0;
  for (int s = 0; s < 1000; ++s) {
    int64_t i = rand() % M, j = rand() % N;
    double ref = 0;
    for (int64_t k = 0; k < K; ++k)
      ref += unbf16(a[i * K + k]) * unbf16(b[j * K + k]);
    double got = unbf16(c[i * N + j]);
    num += (got - ref) * (got - ref);
    den += ref * ref;
  }
  double rel = sqrt(num / den);
  printf("c-header gemm %lldx%lldx%lld: rel_err %.3e %s\n", (long long)M,
         (long long)N, (long long)K, rel, rel <= 1e-2 ? "PASS" : "FAIL");
  return rel <= 1e-2 ? 0 : 1;
}
