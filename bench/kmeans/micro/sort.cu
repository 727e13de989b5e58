// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The k-means update's counting sort, by parts: 2M random ids over K
// clusters (512, 1024 and 4, the skewed case), counted into per-block
// shared bins warp-aggregated (__match_any_sync, one atomic per run of
// equal ids) or one shared atomic a point (or one per warp whose ids are
// all equal), then placed one point per lane or in two levels (ranked by
// cluster in shared memory, each cluster's run written contiguously). The
// two-level result is checked: a permutation grouped by cluster.
// libs/kmeans/src/kmeans_update.cu took the winners (run 22).
//
//   nvcc -arch=sm_90a -O3 -o sort bench/kmeans/micro/sort.cu && ./sort
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>
#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      printf("%s: %s\n", #x, cudaGetErrorString(e));                           \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
__device__ inline unsigned lanelt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}
template <int MODE>
__global__ void count(const int *ids, int *counts, long long N, int K,
                      long long chunk) {
  extern __shared__ int bins[];
  long long begin = blockIdx.x * chunk, end = min(begin + chunk, N);
  for (int k = threadIdx.x; k < K; k += blockDim.x)
    bins[k] = 0;
  __syncthreads();
  for (long long n = begin + threadIdx.x; n - threadIdx.x < end;
       n += blockDim.x) {
    int c = n < end ? ids[n] : -1;
    if (MODE == 0) {
      unsigned same = __match_any_sync(~0u, c);
      if (c >= 0 && (threadIdx.x % 32) == __ffs(same) - 1)
        atomicAdd(&bins[c], __popc(same));
    } else if (MODE == 1) {
      if (c >= 0)
        atomicAdd(&bins[c], 1);
    } else {
      // hybrid: aggregate only where the warp's ids are one value
      int c0 = __shfl_sync(~0u, c, 0);
      if (__all_sync(~0u, c == c0)) {
        if ((threadIdx.x % 32) == 0 && c0 >= 0)
          atomicAdd(&bins[c0], 32);
      } else if (c >= 0)
        atomicAdd(&bins[c], 1);
    }
  }
  __syncthreads();
  for (int k = threadIdx.x; k < K; k += blockDim.x)
    if (bins[k])
      atomicAdd(&counts[k], bins[k]);
}
template <int MODE>
__global__ void scatter(const int *ids, int *cursor, int *order, int *key,
                        long long N, int K, long long chunk) {
  extern __shared__ int bins[];
  long long begin = blockIdx.x * chunk, end = min(begin + chunk, N);
  for (int k = threadIdx.x; k < K; k += blockDim.x)
    bins[k] = 0;
  __syncthreads();
  for (long long n = begin + threadIdx.x; n - threadIdx.x < end;
       n += blockDim.x) {
    int c = n < end ? ids[n] : -1;
    if (c >= 0)
      atomicAdd(&bins[c], 1);
  }
  __syncthreads();
  for (int k = threadIdx.x; k < K; k += blockDim.x)
    if (bins[k])
      bins[k] = atomicAdd(&cursor[k], bins[k]);
  __syncthreads();
  for (long long n = begin + threadIdx.x; n - threadIdx.x < end;
       n += blockDim.x) {
    int c = n < end ? ids[n] : -1;
    if (MODE == 0) {
      unsigned same = __match_any_sync(~0u, c);
      int leader = __ffs(same) - 1, start = 0;
      if (c >= 0 && (threadIdx.x % 32) == leader)
        start = atomicAdd(&bins[c], __popc(same));
      start = __shfl_sync(~0u, start, leader);
      if (c >= 0) {
        int pos = start + __popc(same & lanelt());
        order[pos] = (int)n;
        if (key)
          key[pos] = c;
      }
    } else {
      if (c >= 0) {
        int pos = atomicAdd(&bins[c], 1);
        order[pos] = (int)n;
        if (key)
          key[pos] = c;
      }
    }
  }
}
// Two-level: rank the chunk's points by cluster in shared memory, then
// write each cluster's run contiguously.
__global__ void scatter2(const int *ids, int *cursor, int *order, int *key,
                         long long N, int K, int CH) {
  extern __shared__ int sm[];
  int *cnt = sm, *loc = sm + K, *gst = sm + 2 * K, *sn = sm + 3 * K,
      *sc = sn + CH;
  __shared__ int warpTot[32];
  long long begin = (long long)blockIdx.x * CH, end = min(begin + CH, N);
  int total = (int)(end - begin);
  for (int k = threadIdx.x; k < K; k += blockDim.x)
    cnt[k] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < total; i += blockDim.x) {
    int c = ids[begin + i];
    if (c >= 0 && c < K)
      atomicAdd(&cnt[c], 1);
  }
  __syncthreads();
  // exclusive scan of cnt into loc: each thread a run of per = ceil(K/1024)
  int per = (K + blockDim.x - 1) / blockDim.x, k0 = threadIdx.x * per, sum = 0;
  for (int k = k0; k < min(k0 + per, K); ++k)
    sum += cnt[k];
  int lane = threadIdx.x % 32, w = threadIdx.x / 32, incl = sum;
  for (int o = 1; o < 32; o <<= 1) {
    int v = __shfl_up_sync(~0u, incl, o);
    if (lane >= o)
      incl += v;
  }
  if (lane == 31)
    warpTot[w] = incl;
  __syncthreads();
  if (w == 0) {
    int t = lane < (int)(blockDim.x / 32) ? warpTot[lane] : 0, it = t;
    for (int o = 1; o < 32; o <<= 1) {
      int v = __shfl_up_sync(~0u, it, o);
      if (lane >= o)
        it += v;
    }
    warpTot[lane] = it - t;
  }
  __syncthreads();
  int run = warpTot[w] + incl - sum;
  for (int k = k0; k < min(k0 + per, K); ++k) {
    loc[k] = run;
    gst[k] = cnt[k] ? atomicAdd(&cursor[k], cnt[k]) : 0;
    run += cnt[k];
    cnt[k] = loc[k];
  }
  __syncthreads();
  for (int i = threadIdx.x; i < total; i += blockDim.x) {
    int c = ids[begin + i];
    if (c >= 0 && c < K) {
      int lp = atomicAdd(&cnt[c], 1);
      sn[lp] = (int)(begin + i);
      sc[lp] = c;
    }
  }
  __syncthreads();
  int placed = run; // not all threads know; recompute: cnt[K-1] end
  placed = cnt[K - 1];
  for (int i = threadIdx.x; i < placed; i += blockDim.x) {
    int c = sc[i];
    int pos = gst[c] + (i - loc[c]);
    order[pos] = sn[i];
    if (key)
      key[pos] = c;
  }
}
int main() {
  long long N = 2000000;
  for (int K : {512, 1024, 4}) {
    std::vector<int> h(N);
    for (auto &v : h)
      v = rand() % K;
    int *ids, *counts, *cursor, *order, *key;
    CK(cudaMalloc(&ids, N * 4));
    CK(cudaMalloc(&order, N * 4));
    CK(cudaMalloc(&key, N * 4));
    CK(cudaMalloc(&counts, K * 4));
    CK(cudaMalloc(&cursor, K * 4));
    CK(cudaMemcpy(ids, h.data(), N * 4, cudaMemcpyHostToDevice));
    std::vector<int> hc(K, 0), hs(K, 0);
    for (auto v : h)
      hc[v]++;
    for (int k = 1; k < K; ++k)
      hs[k] = hs[k - 1] + hc[k - 1];
    int *start;
    CK(cudaMalloc(&start, K * 4));
    CK(cudaMemcpy(start, hs.data(), K * 4, cudaMemcpyHostToDevice));
    long long chunk = (N + 263) / 264;
    chunk = chunk < 4096 ? 4096 : (chunk + 1023) / 1024 * 1024;
    unsigned blocks = (N + chunk - 1) / chunk;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    auto time = [&](auto fn) {
      for (int i = 0; i < 3; ++i)
        fn();
      CK(cudaDeviceSynchronize());
      cudaEventRecord(a);
      for (int i = 0; i < 50; ++i)
        fn();
      cudaEventRecord(b);
      CK(cudaEventSynchronize(b));
      float ms;
      cudaEventElapsedTime(&ms, a, b);
      return ms * 1000 / 50;
    };
    printf("K=%d: count match %.1f us, lane %.1f, hybrid %.1f; scatter match "
           "%.1f, lane %.1f, lane-nokey %.1f\n",
           K, time([&] {
             count<0><<<blocks, 1024, K * 4>>>(ids, counts, N, K, chunk);
           }),
           time([&] {
             count<1><<<blocks, 1024, K * 4>>>(ids, counts, N, K, chunk);
           }),
           time([&] {
             count<2><<<blocks, 1024, K * 4>>>(ids, counts, N, K, chunk);
           }),
           time([&] {
             cudaMemcpyAsync(cursor, start, K * 4, cudaMemcpyDeviceToDevice);
             scatter<0><<<blocks, 1024, K * 4>>>(ids, cursor, order, key, N, K,
                                                 chunk);
           }),
           time([&] {
             cudaMemcpyAsync(cursor, start, K * 4, cudaMemcpyDeviceToDevice);
             scatter<1><<<blocks, 1024, K * 4>>>(ids, cursor, order, key, N, K,
                                                 chunk);
           }),
           time([&] {
             cudaMemcpyAsync(cursor, start, K * 4, cudaMemcpyDeviceToDevice);
             scatter<1><<<blocks, 1024, K * 4>>>(ids, cursor, order, nullptr, N,
                                                 K, chunk);
           }));
    for (int CH : {4096, 8192, 16384}) {
      int smem = (3 * K + 2 * CH) * 4;
      CK(cudaFuncSetAttribute(
          scatter2, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      unsigned b2 = (N + CH - 1) / CH;
      float t = time([&] {
        cudaMemcpyAsync(cursor, start, K * 4, cudaMemcpyDeviceToDevice);
        scatter2<<<b2, 1024, smem>>>(ids, cursor, order, key, N, K, CH);
      });
      CK(cudaGetLastError());
      // check: order is a permutation grouped by cluster
      std::vector<int> ho(N), hk(N);
      CK(cudaMemcpy(ho.data(), order, N * 4, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(hk.data(), key, N * 4, cudaMemcpyDeviceToHost));
      std::vector<char> seen(N, 0);
      long long bad = 0;
      for (long long q = 0; q < N; ++q) {
        int o = ho[q];
        if (o < 0 || o >= N || seen[o] || h[o] != hk[q] ||
            (q && hk[q] < hk[q - 1]))
          ++bad;
        else
          seen[o] = 1;
      }
      printf("  two-level CH=%d: %.1f us (bad %lld)\n", CH, t, bad);
    }
    CK(cudaGetLastError());
  }
}
