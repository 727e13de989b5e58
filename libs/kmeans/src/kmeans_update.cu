// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- kmeans_update.cu - k-means centroid update kernels -----------------===*\
|*                                                                            *|
|* The Lloyd step after the assignment: new centroid = mean of its points.    *|
|* The steps Cake IR cannot express (a scatter, atomics) are CUDA C here,     *|
|* built by nvcc into a fatbin that libcake_kmeans embeds (kmeans_update.c   *|
|* launches them through the driver API).                                     *|
|*                                                                            *|
|* A counting sort of the assignments, so that skewed clusters cause no       *|
|* atomic contention:                                                         *|
|*   histogram  counts[b][k]          a block counts its chunk of points in   *|
|*                                    shared memory, then one global atomic   *|
|*                                    per cluster it saw                      *|
|*   scan       cursor[b][k]          exclusive prefix of counts, per batch   *|
|*   scatter    order[pos], key[pos]  points in cluster order: a block        *|
|*                                    reserves its slots per cluster once     *|
|* then the sums, in Cake IR when the dispatch table names a sums kernel:     *|
|*   gather_t   xt[d][pos]            the sorted points, transposed (the      *|
|*                                    kernel's K-major A operand)             *|
|*   worklist   work[u]               (cluster tile, 64-point chunk range)    *|
|*                                    units of at most 16 chunks              *|
|*   (examples/kmeans_sums.cake.mlir) st[d][c], one-hot wgmma per unit        *|
|* or in CUDA C:                                                              *|
|*   segsum     sums[b][k][:]         each thread group walks a run of        *|
|*                                    sorted points, 8 features per thread,   *|
|*                                    one atomic add per cluster boundary,    *|
|*                                    runs across groups merged per block     *|
|* and                                                                        *|
|*   finalize   centroids, ||c||^2,   mean (an empty cluster keeps its old    *|
|*              max shift             centroid), rounded to the input type    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

__device__ inline unsigned laneMaskLt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

__device__ inline float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(kFullMask, v, o);
  return v;
}

/* The exclusive prefix sum of v over the block (1024 threads at most, a
 * multiple of 32), and the block's total in *total. Every thread calls it;
 * `warpTotals` is 32 ints of shared memory, free again on return. */
__device__ inline int blockExclusiveScan(int v, int *warpTotals, int *total) {
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int warps = blockDim.x / 32;
  int incl = v;
  for (int o = 1; o < 32; o <<= 1) {
    int u = __shfl_up_sync(kFullMask, incl, o);
    if (lane >= o)
      incl += u;
  }
  if (lane == 31)
    warpTotals[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    int t = lane < warps ? warpTotals[lane] : 0;
    for (int o = 1; o < 32; o <<= 1) {
      int u = __shfl_up_sync(kFullMask, t, o);
      if (lane >= o)
        t += u;
    }
    warpTotals[lane] = t; /* inclusive over warps */
  }
  __syncthreads();
  int before = (warp > 0 ? warpTotals[warp - 1] : 0) + incl - v;
  *total = warpTotals[warps - 1];
  __syncthreads();
  return before;
}

template <typename T> __device__ inline float toFloat(T v);
template <> __device__ inline float toFloat<__half>(__half v) {
  return __half2float(v);
}
template <> __device__ inline float toFloat<__nv_bfloat16>(__nv_bfloat16 v) {
  return __bfloat162float(v);
}
template <typename T> __device__ inline T fromFloat(float v);
template <> __device__ inline __half fromFloat<__half>(float v) {
  return __float2half_rn(v);
}
template <> __device__ inline __nv_bfloat16 fromFloat<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

/* The cluster id of point n of batch b (-1 at or past `end` and outside
 * [0, K)) and the lanes of the warp holding the same id: the histogram and
 * the scatter make one atomic per such run. Every lane must call it. */
struct IdRun {
  int c;
  unsigned same;
  __device__ bool valid() const { return c >= 0; }
  __device__ int leader() const { return __ffs(same) - 1; }
  __device__ bool isLeader() const {
    return (int)(threadIdx.x % 32) == leader();
  }
};

__device__ inline IdRun idRun(const int *assign, long long N, int K, int b,
                              long long n, long long end) {
  int c = n < end ? assign[(long long)b * N + n] : -1;
  if (c >= K)
    c = -1;
  return {c, __match_any_sync(kFullMask, c < 0 ? -1 : c)};
}

/* Reserves the run's slots on cursor[c] (one atomic by its leader; the
 * cursors of this point's batch, shared or global memory) and writes point
 * `row` with key `keyBase + c` into its slot. Every lane must call it. */
__device__ inline void placeRun(IdRun r, int *cursor, int *order, int *key,
                                int row, int keyBase) {
  int start = 0;
  if (r.valid() && r.isLeader())
    start = atomicAdd(&cursor[r.c], __popc(r.same));
  start = __shfl_sync(kFullMask, start, r.leader());
  if (r.valid()) {
    int pos = start + __popc(r.same & laneMaskLt());
    order[pos] = row;
    key[pos] = keyBase + r.c;
  }
}

/* Adds 8 consecutive floats to global memory (16-byte aligned). */
__device__ inline void atomicAdd8(float *dst, const float *v) {
#if __CUDA_ARCH__ >= 900
  atomicAdd(reinterpret_cast<float4 *>(dst),
            make_float4(v[0], v[1], v[2], v[3]));
  atomicAdd(reinterpret_cast<float4 *>(dst + 4),
            make_float4(v[4], v[5], v[6], v[7]));
#else
  for (int j = 0; j < 8; ++j)
    atomicAdd(dst + j, v[j]);
#endif
}

template <typename T>
__device__ inline void addRow8(float *acc, const T *row) {
  uint4 raw = *reinterpret_cast<const uint4 *>(row);
  const T *v = reinterpret_cast<const T *>(&raw);
#pragma unroll
  for (int j = 0; j < 8; ++j)
    acc[j] += toFloat(v[j]);
}

/* Points per thread group in segsum: long enough that a cluster boundary is
 * rare, short enough for a few waves of groups. */
constexpr int kRunLength = 32;

/* A block covers blockDim / (D / 8) thread groups, each kRunLength
 * consecutive sorted slots, 8 features per thread. A run of equal keys that
 * ends inside a group has no other writer but the group where it starts, so
 * its sum goes straight out by atomics. The run each group ends on may go on
 * into the next groups (a large cluster): those are merged in shared memory
 * first, one atomic per block and feature, which keeps skewed clusterings
 * from piling atomics onto a few addresses. Slots of points with an id
 * outside [0, K) keep key -1 (set before the scatter): they are skipped,
 * and their row index is never read. */
template <typename T>
__device__ void segsum(const T *x, const int *order, const int *key,
                       float *sums, long long total, int D) {
  extern __shared__ float lastAcc[]; /* [groups][D], then int lastKey[groups] */
  int slices = D / 8;
  int groups = blockDim.x / slices;
  int g = threadIdx.x / slices, slice = threadIdx.x % slices;
  int *lastKey = reinterpret_cast<int *>(lastAcc + groups * D);
  long long begin = ((long long)blockIdx.x * groups + g) * kRunLength;
  long long end = min(begin + kRunLength, total);
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int runKey = -1;
  auto flush = [&]() {
    if (runKey >= 0)
      atomicAdd8(sums + (long long)runKey * D + slice * 8, acc);
#pragma unroll
    for (int j = 0; j < 8; ++j)
      acc[j] = 0.f;
  };
  /* Four rows in flight per step; the keys decide where a run ends. */
  long long p = begin;
  for (; p + 4 <= end; p += 4) {
    int k4[4];
    uint4 raw[4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
      k4[i] = key[p + i];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      long long row = k4[i] >= 0 ? order[p + i] : 0;
      raw[i] = *reinterpret_cast<const uint4 *>(x + row * D + slice * 8);
    }
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      if (k4[i] != runKey) {
        flush();
        runKey = k4[i];
      }
      const T *v = reinterpret_cast<const T *>(&raw[i]);
#pragma unroll
      for (int j = 0; j < 8; ++j)
        acc[j] += toFloat(v[j]);
    }
  }
  for (; p < end; ++p) {
    int k = key[p];
    if (k != runKey) {
      flush();
      runKey = k;
    }
    if (k >= 0)
      addRow8(acc, x + (long long)order[p] * D + slice * 8);
  }
  /* The last run: merged with the following groups' that share its key. */
#pragma unroll
  for (int j = 0; j < 8; ++j)
    lastAcc[g * D + slice * 8 + j] = acc[j];
  if (slice == 0)
    lastKey[g] = runKey;
  __syncthreads();
  if (runKey < 0 || (g > 0 && lastKey[g - 1] == runKey))
    return;
  for (int h = g + 1; h < groups && lastKey[h] == runKey; ++h)
#pragma unroll
    for (int j = 0; j < 8; ++j)
      acc[j] += lastAcc[h * D + slice * 8 + j];
  atomicAdd8(sums + (long long)runKey * D + slice * 8, acc);
}

/* One warp per (batch, cluster). */
/* sums[w][d] is at sums[w * rowStride + d * colStride]: (D, 1) as segsum
 * writes it, (1, width) for the Cake sums kernel's transposed ST. */
template <typename T>
__device__ void finalize(const float *sums, long long rowStride,
                         long long colStride, const int *counts,
                         const T *oldC, T *newC, float *norms,
                         unsigned *maxShift, long long clusters, int D) {
  long long w = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (w >= clusters)
    return;
  int n = counts[w];
  float sq = 0.f, shift = 0.f;
  for (int d = lane; d < D; d += 32) {
    long long i = w * D + d;
    float old = toFloat(oldC[i]);
    /* An empty cluster keeps its centroid (as flash-kmeans does). */
    float sum = sums[w * rowStride + d * colStride];
    T rounded = n > 0 ? fromFloat<T>(sum / (float)n) : oldC[i];
    float v = toFloat(rounded);
    newC[i] = rounded;
    sq += v * v;
    shift += (v - old) * (v - old);
  }
  sq = warpSum(sq);
  shift = warpSum(shift);
  if (lane == 0) {
    if (norms)
      norms[w] = sq;
    if (maxShift) /* non-negative floats order as their bit patterns */
      atomicMax(maxShift, __float_as_uint(sqrtf(shift)));
  }
}

/* xt[d][pos] = x[order[pos]][d] over 64 slots x 128 features per block
 * of 256 threads, 16 bytes (8 features or 8 slots) per access on both
 * sides, through shared memory; 0 past `total`, past D and in slots no
 * point was placed in (key -1). D is a multiple of 8 and x 16-byte
 * aligned (checked by the caller), `width` a multiple of 64. Every load
 * of a thread is issued before its first store: the slot's key and row,
 * then four rows' features, so a block waits on two round trips to
 * memory, not eight. */
template <typename T>
__device__ void gatherTransposed(const T *x, const int *order, const int *key,
                                 T *xt, long long total, long long width,
                                 int D) {
  /* Rows of 128 features padded by 2 (65 words): reads of a column by
   * threads 8 rows apart fall in 2 banks at most; rows are written as
   * 4-byte words. */
  __shared__ T tile[64][130];
  long long p0 = (long long)blockIdx.x * 64;
  int d0 = blockIdx.y * 128;
  int part = threadIdx.x % 16, line = threadIdx.x / 16; /* 16 x 16 */
  int d = d0 + part * 8;
  int rows[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    long long pos = p0 + line + 16 * i;
    int k = pos < total ? key[pos] : -1;
    int o = pos < total ? order[pos] : 0;
    rows[i] = k >= 0 && d < D ? o : -1;
  }
  uint4 v[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    v[i] = make_uint4(0, 0, 0, 0);
    if (rows[i] >= 0)
      v[i] = *reinterpret_cast<const uint4 *>(x + (long long)rows[i] * D + d);
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    unsigned *row =
        reinterpret_cast<unsigned *>(&tile[line + 16 * i][part * 8]);
    row[0] = v[i].x;
    row[1] = v[i].y;
    row[2] = v[i].z;
    row[3] = v[i].w;
  }
  __syncthreads();
  int slot = threadIdx.x % 8, feature = threadIdx.x / 8; /* 8 x 32 */
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    int f = feature + 32 * i;
    if (d0 + f >= D)
      break;
    __align__(16) T out[8];
#pragma unroll
    for (int j = 0; j < 8; ++j)
      out[j] = tile[slot * 8 + j][f];
    *reinterpret_cast<uint4 *>(xt + (long long)(d0 + f) * width + p0 +
                               slot * 8) =
        *reinterpret_cast<const uint4 *>(out);
  }
}

template <typename T>
__device__ void norms(const T *c, float *out, long long clusters, int D) {
  long long w = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (w >= clusters)
    return;
  float sq = 0.f;
  for (int d = lane; d < D; d += 32) {
    float v = toFloat(c[w * D + d]);
    sq += v * v;
  }
  sq = warpSum(sq);
  if (lane == 0)
    out[w] = sq;
}

} // namespace

extern "C" {

/* Counts the ids of points [begin, end) of batch b into shared `bins`, one
 * shared atomic a point. (Aggregating a warp's equal ids first, with
 * __match_any_sync, was 3.3x slower at 2M points over 512 clusters and no
 * faster over 4: bench/kmeans/micro/sort.cu, run 22.) */
__device__ void countChunk(const int *assign, int *bins, long long N, int K,
                           int b, long long begin, long long end) {
  for (int k = threadIdx.x; k < K; k += blockDim.x)
    bins[k] = 0;
  __syncthreads();
  for (long long n = begin + threadIdx.x; n < end; n += blockDim.x) {
    int c = assign[(long long)b * N + n];
    if (c >= 0 && c < K)
      atomicAdd(&bins[c], 1);
  }
  __syncthreads();
}

/* The privatized histogram (K ints of shared memory): grid (ceil(N /
 * chunk), B); each block counts its chunk, then adds each non-zero bin to
 * counts with one global atomic. */
__global__ void cake_kmeans_histogram_cta(const int *assign, int *counts,
                                          long long N, int K,
                                          long long chunk) {
  extern __shared__ int bins[];
  int b = blockIdx.y;
  long long begin = blockIdx.x * chunk, end = min(begin + chunk, N);
  countChunk(assign, bins, N, K, b, begin, end);
  for (int k = threadIdx.x; k < K; k += blockDim.x)
    if (bins[k])
      atomicAdd(&counts[(long long)b * K + k], bins[k]);
}

/* The block's exclusive scan of bins[0, K) into first[0, K); returns the
 * total. Each thread scans a run of consecutive bins, then the runs'
 * totals are scanned across the block. */
__device__ int scanBins(const int *bins, int *first, int K) {
  __shared__ int warpTotals[32];
  int per = (K + blockDim.x - 1) / blockDim.x;
  int k0 = threadIdx.x * per, k1 = min(k0 + per, K);
  int own = 0;
  for (int k = k0; k < k1; ++k)
    own += bins[k];
  int total;
  int run = blockExclusiveScan(own, warpTotals, &total);
  for (int k = k0; k < k1; ++k) {
    first[k] = run;
    run += bins[k];
  }
  __syncthreads();
  return total;
}

/* The privatized scatter, in two levels so the writes are runs: the block
 * counts its chunk, reserves each cluster's slots with one global atomic
 * on its cursor, ranks its points by cluster in shared memory, then
 * writes each cluster's run of order and key contiguously (3.4x faster
 * than placing each point from its own lane at 2M points over 512
 * clusters, where every write hit its own sector). Shared memory: 3 K +
 * 2 chunk ints (the launch opts in past 48 KB). */
__global__ void cake_kmeans_scatter_cta(const int *assign, int *cursor,
                                        int *order, int *key, long long N,
                                        int K, long long chunk) {
  extern __shared__ int bins[];
  int *first = bins + K, *reserved = bins + 2 * K;
  int *stagedRow = bins + 3 * K, *stagedKey = stagedRow + chunk;
  int b = blockIdx.y;
  long long begin = blockIdx.x * chunk, end = min(begin + chunk, N);
  countChunk(assign, bins, N, K, b, begin, end);
  int placed = scanBins(bins, first, K);
  for (int k = threadIdx.x; k < K; k += blockDim.x) {
    reserved[k] =
        bins[k] ? atomicAdd(&cursor[(long long)b * K + k], bins[k]) : 0;
    bins[k] = first[k]; /* now the block's cursor */
  }
  __syncthreads();
  for (long long n = begin + threadIdx.x; n < end; n += blockDim.x) {
    int c = assign[(long long)b * N + n];
    if (c >= 0 && c < K) {
      int at = atomicAdd(&bins[c], 1);
      stagedRow[at] = (int)((long long)b * N + n);
      stagedKey[at] = c;
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < placed; i += blockDim.x) {
    int c = stagedKey[i];
    int pos = reserved[c] + (i - first[c]);
    order[pos] = stagedRow[i];
    key[pos] = b * K + c;
  }
}

/* Without shared memory (K too large for it): grid (ceil(N / block), B),
 * warp-aggregated global atomics. Ids outside [0, K) are not counted. */
__global__ void cake_kmeans_histogram(const int *assign, int *counts,
                                      long long N, int K) {
  long long n = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  IdRun r = idRun(assign, N, K, b, n, N);
  if (r.valid() && r.isLeader())
    atomicAdd(&counts[(long long)b * K + r.c], __popc(r.same));
}

/* One block of 1024 threads per batch: cursor[b][k] = b * N + the number of
 * batch b's points in clusters below k. */
__global__ void cake_kmeans_scan(const int *counts, int *cursor, long long N,
                                 int K) {
  __shared__ int warpTotals[32];
  int b = blockIdx.x, carry = 0;
  for (int base = 0; base < K; base += blockDim.x) {
    int k = base + threadIdx.x;
    int v = k < K ? counts[(long long)b * K + k] : 0;
    int total;
    int before = blockExclusiveScan(v, warpTotals, &total);
    if (k < K)
      cursor[(long long)b * K + k] = (int)((long long)b * N) + carry + before;
    carry += total;
  }
}

/* Without shared memory: grid (ceil(N / block), B): order[pos] = row of x
 * (b * N + n) and key[pos] = b * K + cluster, with pos taken from the
 * cluster's cursor. */
__global__ void cake_kmeans_scatter(const int *assign, int *cursor, int *order,
                                    int *key, long long N, int K) {
  long long n = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  placeRun(idRun(assign, N, K, b, n, N), cursor + (long long)b * K, order,
           key, (int)((long long)b * N + n), b * K);
}

__global__ void cake_kmeans_segsum_f16(const __half *x, const int *order,
                                       const int *key, float *sums,
                                       long long total, int D) {
  segsum(x, order, key, sums, total, D);
}
__global__ void cake_kmeans_segsum_bf16(const __nv_bfloat16 *x,
                                        const int *order, const int *key,
                                        float *sums, long long total, int D) {
  segsum(x, order, key, sums, total, D);
}

__global__ void cake_kmeans_finalize_f16(const float *sums, long long rowStride,
                                         long long colStride,
                                         const int *counts,
                                         const __half *oldC, __half *newC,
                                         float *norms, unsigned *maxShift,
                                         long long clusters, int D) {
  finalize(sums, rowStride, colStride, counts, oldC, newC, norms, maxShift,
           clusters, D);
}
__global__ void cake_kmeans_finalize_bf16(const float *sums,
                                          long long rowStride,
                                          long long colStride,
                                          const int *counts,
                                          const __nv_bfloat16 *oldC,
                                          __nv_bfloat16 *newC, float *norms,
                                          unsigned *maxShift,
                                          long long clusters, int D) {
  finalize(sums, rowStride, colStride, counts, oldC, newC, norms, maxShift,
           clusters, D);
}

/* The Cake sums kernel's operands (examples/kmeans_sums.cake.mlir). */
__global__ void cake_kmeans_gather_t_f16(const __half *x, const int *order,
                                         const int *key, __half *xt,
                                         long long total, long long width,
                                         int D) {
  gatherTransposed(x, order, key, xt, total, width, D);
}
__global__ void cake_kmeans_gather_t_bf16(const __nv_bfloat16 *x,
                                          const int *order, const int *key,
                                          __nv_bfloat16 *xt, long long total,
                                          long long width, int D) {
  gatherTransposed(x, order, key, xt, total, width, D);
}

/* One block of 1024 threads. Cluster tile t holds clusters [64t, 64t + 64)
 * (of the B * K flattened ones), whose points are one range of sorted
 * slots (cursor is each cluster's end after the scatter). Its 64-slot
 * chunks that overlap the range go to units of at most chunksPerUnit
 * chunks: work[u] = (64t, first slot, end slot, 0). Entries past the last
 * unit up to maxUnits are empty units (0, 0, 0, 0), which add zeros. The
 * units of a pass's 1024 tiles are written by the whole block (a unit
 * finds its tile by a binary search of the tiles' first units), so a few
 * large clusters are not written by one thread (36 us at 2M points in 4
 * clusters, run 20). */
__global__ void cake_kmeans_worklist(const int *counts, const int *cursor,
                                     int *work, long long clusters,
                                     int chunksPerUnit, long long maxUnits) {
  __shared__ int warpTotals[32];
  __shared__ int firstUnit[1024];
  __shared__ long long firstChunk[1024], endChunk[1024];
  long long carry = 0;
  long long tiles = (clusters + 63) / 64;
  for (long long base = 0; base < tiles; base += blockDim.x) {
    long long t = base + threadIdx.x;
    long long lo = 0, hi = 0;
    int units = 0;
    if (t < tiles) {
      long long first = 64 * t, last = min(64 * t + 63, clusters - 1);
      lo = (long long)cursor[first] - counts[first];
      hi = cursor[last];
      if (hi > lo) {
        lo /= 64;
        hi = (hi + 63) / 64;
        units = (int)((hi - lo + chunksPerUnit - 1) / chunksPerUnit);
      }
    }
    int total;
    firstUnit[threadIdx.x] = blockExclusiveScan(units, warpTotals, &total);
    firstChunk[threadIdx.x] = lo;
    endChunk[threadIdx.x] = hi;
    __syncthreads();
    for (int v = threadIdx.x; v < total && carry + v < maxUnits;
         v += blockDim.x) {
      /* The last tile whose first unit is at or before v holds it. */
      int a = 0, b = blockDim.x - 1;
      while (a < b) {
        int m = (a + b + 1) / 2;
        if (firstUnit[m] <= v)
          a = m;
        else
          b = m - 1;
      }
      long long c =
          firstChunk[a] + (long long)(v - firstUnit[a]) * chunksPerUnit;
      int4 e = make_int4((int)(64 * (base + a)), (int)(64 * c),
                         (int)(64 * min(c + chunksPerUnit, endChunk[a])), 0);
      reinterpret_cast<int4 *>(work)[carry + v] = e;
    }
    carry += total;
    __syncthreads();
  }
  for (long long u = carry + threadIdx.x; u < maxUnits; u += blockDim.x)
    reinterpret_cast<int4 *>(work)[u] = make_int4(0, 0, 0, 0);
}

__global__ void cake_kmeans_norms_f16(const __half *c, float *out,
                                      long long clusters, int D) {
  norms(c, out, clusters, D);
}
__global__ void cake_kmeans_norms_bf16(const __nv_bfloat16 *c, float *out,
                                       long long clusters, int D) {
  norms(c, out, clusters, D);
}

} // extern "C"
