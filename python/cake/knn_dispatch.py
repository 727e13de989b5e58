#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Which KNN search kernel of examples/knn/ to launch for a shape, and how
to split the corpus (cake.knn's chooser; examples/knn/gen-knn.py writes the
kernels of its TABLE).

The rule is measured, not searched yet (KNN run 4 on the H200,
docs/benchmarks/knn.md): three consumer warpgroups (`_w3`, 192-row query
tiles) from 2048 queries on (2.63x flashlib at 4096 x 1M against 2.30x
for two), two below; and query tiles x corpus splits filling the SMs
once up to 256 queries (fewer partial lists to merge: 0.270 against
0.305 ms at 16 x 1M), twice above (0.288 against 0.412 ms at
1024 x 131072); run 5 measured the result.

usage: python3 -m cake.knn_dispatch Q M D K [--sms 132] [--dtype bf16|f16]
                                          (prints: bundle splits chunk)
       python3 -m cake.knn_dispatch --build N D K [--dtype bf16|f16|f32]
                                          (prints: bundle)
(examples/knn/dispatch.py runs the same.)
"""
import argparse
import math
import sys

# The kernels the choosers pick from, as (build, D, k, consumer
# warpgroups; one means 64-row corpus tiles too); `gen-knn.py OUT --table`
# writes them all (with the
# row-norms kernel of each D) for scripts/device-pack. D = 96, 100 and 200
# read 64-column slices past the row's end, which the copies fill with
# zeros. D = 100 (200-byte rows, which TMA cannot address: its pitches are
# multiples of 16 bytes) is copied by the load role's threads in 8-byte
# cp.async pieces (cake.cp_async.load).
# k = 64 and 100 keep each row's list in shared memory (!cake.topk<...,
# shared>: rows * k * 8 bytes beside the rings), which leaves room for one
# or two consumer warpgroups, not three.
TABLE = ([(False, d, 10, w) for d in (64, 96, 100, 128, 200)
          for w in (1, 2, 3)]
         + [(False, 128, 100, w) for w in (1, 2)]
         + [(True, 64, 10, 2), (True, 64, 10, 3), (True, 96, 10, 3),
            (True, 128, 10, 3), (True, 256, 10, 2)]
         + [(True, d, 32, 2) for d in (64, 96, 128, 256)]
         + [(True, d, 64, 2) for d in (64, 96, 128, 256)])

# fp32 points: KNN graphs only, from 3xbf16 products (gen-knn.py's
# split_kernel writes each fp32 row as bf16 pieces, the queries [xh | xl |
# xh] and the corpus [xh | xh | xl]; the build kernel takes the two, with
# two consumer warpgroups). (D, k) for which --table writes the pair.
SPLIT_DTYPE = "f32"
SPLIT_TABLE = [(d, 10) for d in (64, 96, 128, 256)]


def split_name(d):
    """The kernel that writes fp32 rows of D as bf16 pieces, with the
    fp32 norms (before a SPLIT_DTYPE build)."""
    return f"knn_split3_f32_d{d}"


def split_width(d):
    """Columns of one bf16 piece of a split fp32 row: D rounded up to the
    64-column slices the kernels copy (the padding is zeros)."""
    return -(-d // 64) * 64


# Lists of up to REGISTER_K entries live in registers (4k a thread), longer
# ones in shared memory.
REGISTER_K = 32


# Every search kernel of TABLE also comes as `..._fused` (gen-knn.py
# --table writes both), which reduces the query and corpus norms from its
# own stages instead of taking them from the row_norms kernel. KNN run 11
# (H200, docs/benchmarks/knn.md, both forms timed on 15 shapes): fused is
# 11-32 % faster up to 256 queries, where the search reads the corpus at
# the copy engines' pace and the norms pass cost a second read of it;
# from 1024 queries it is 2-7 % slower with two consumer warpgroups and
# 12-28 % with three (the reduction meets the role's threads every tile).
FUSED_MAX_Q = 256


def with_norms(name, fused=None, q=0):
    """The search kernel `name` in its form that computes the norms itself
    (`fused`), or takes them; None picks by the rule: fused up to
    FUSED_MAX_Q queries."""
    if fused is None:
        fused = q <= FUSED_MAX_Q
    return name + "_fused" if fused else name


# Input types: every kernel of TABLE comes in each (gen-knn.py --table);
# the distances are fp32 from wgmma's fp32 accumulation either way.
DTYPES = ("bf16", "f16")


# The merge of a search's corpus splits, per k (gen-knn.py's knn_merge_k*).
MERGE_K = (10, 100)


def merge_name(k):
    if k not in MERGE_K:
        raise ValueError(f"no KNN merge kernel for k = {k}; the table has "
                         f"k in {list(MERGE_K)}")
    return f"knn_merge_k{k}"


def rank_major(k):
    """Whether the search kernels for k store their partial lists
    rank-major ([Q, k, Splits]: every split's j-th best side by side) rather
    than split after split ([Q, Splits, k]). A shared list (k >
    REGISTER_K) pays a scan of its row for every candidate that enters it
    after the first k, and a merge reading the rank-major row meets the
    candidates about in increasing order: at k = 100 over 128 splits of
    8192 rows, 73 enter after the fill against 475 split after split (a
    simulation of sorted lists of normal distances)."""
    return k > REGISTER_K


def partial_shape(q, splits, k):
    """The shape of the search kernels' partial lists for q queries."""
    return (q, k, splits) if rank_major(k) else (q, splits, k)


def merge_groups(q, splits, k, cols=64):
    """How many groups of splits the merge takes in a first pass (1: one
    pass). knn_merge reads a row's candidates `cols` at a time, each step
    waiting for its loads, so a few queries over many splits are a long
    chain of steps in one warp (16 queries x 128 splits: 20 steps). A
    first pass over the [Q * g, splits / g * k] view (the same memory:
    g rows a query) and a second over its [Q, g * k] result take
    ceil(splits / g * k / cols) + ceil(g * k / cols) steps: g is the
    divisor of `splits` with the fewest, kept only if it saves at least
    two steps (the second launch costs about one), and only up to 64
    queries (from a whole 64-row tile on, the rows fill the warps). KNN
    run 12 (H200): 0.026-0.036 ms against 0.032-0.050 for one pass on
    ten rows of 1-64 queries. Rank-major partial lists (rank_major) merge
    in one pass: a group of their columns is a group of ranks, and every
    group but the first would insert about every candidate."""
    steps = lambda g: (-(-(splits // g) * k // cols)
                       + (-(-g * k // cols) if g > 1 else 0))
    if q > 64 or splits < 4 or rank_major(k):
        return 1
    best = min((g for g in range(1, splits + 1) if splits % g == 0),
               key=lambda g: (steps(g), g))
    return best if steps(best) + 2 <= steps(1) else 1


def kernel_name(build, d, k, wgs, dtype="bf16"):
    if dtype not in DTYPES:
        raise ValueError(f"no KNN kernels for {dtype} inputs; the table has "
                         f"{list(DTYPES)}")
    if (build, d, k, wgs) not in TABLE:
        have = sorted({(d_, k_) for b, d_, k_, _ in TABLE if b == build})
        raise ValueError(
            f"no KNN {'build' if build else 'search'} kernel for D = {d}, "
            f"k = {k} with {wgs} consumer warpgroups; the table has (D, k) "
            f"in {have}")
    return (f"knn_{'build' if build else 'search'}_{dtype}_d{d}_k{k}"
            + {1: "_w1_bn64", 2: "", 3: "_w3"}[wgs])


# Up to W1_MAX_Q queries: the one-warpgroup kernels (`_w1_bn64`: 64 query
# rows, 64-row corpus tiles, a grid of two CTAs an SM over twice as many
# corpus splits). KNN run 14 (H200, docs/benchmarks/knn.md, both rules in
# one call): 1.29-1.62x faster than the two-warpgroup kernels at 1-64
# queries (1 x 10M x 64: 0.507 against 0.823 ms), 1.19-1.21x slower at
# 128-512. The two-warpgroup kernels spend a whole 128-row query tile's
# product and insertion per corpus tile on a handful of queries, one CTA
# an SM.
W1_MAX_Q = 64


# Up to SPREAD_MAX_Q queries with lists in shared memory, the queries are
# spread over the one-warpgroup kernel's four warps instead of filling
# warp 0's rows in order. A shared list's insertion is a serial chain of
# steps in the warp, each step one candidate of each of the warp's rows
# (the busiest row sets the count), and a thread's second row (r + 8)
# steps after its first: 16 queries in order are 16 rows of warp 0, 4
# spread. The rows without a query are NaN, whose distances never enter a
# list, so they cost no steps.
SPREAD_MAX_Q = 32
SPREAD_ROWS = 64  # the one-warpgroup kernels' query tile


def query_rows(q, k):
    """The row of the kernel's query tile each of q queries takes, or None
    where query i is row i."""
    if k <= REGISTER_K or q > SPREAD_MAX_Q or q > W1_MAX_Q:
        return None
    # Warp w holds rows 16 w .. 16 w + 15, a thread rows r and r + 8.
    return [16 * (i % 4) + i // 4 for i in range(q)]


# The fewest corpus rows a split walks. A shared list (k > REGISTER_K)
# pays for every candidate that enters it (a store and a scan of its row's
# list), about k (1 + ln(rows / k)) of a split's rows, so longer splits
# insert a smaller share, and fewer splits leave fewer lists to merge (KNN
# run 16, k = 100 at 1 x 1M: 1.29 ms with 8192, 1.58 with 1024, 1.66 with
# 32768); bench.py --min-chunk overrides LARGE_K_MIN_CHUNK.
LARGE_K_MIN_CHUNK = 8192


def min_chunk(k):
    return 1024 if k <= REGISTER_K else LARGE_K_MIN_CHUNK


# From BOUND_MIN_Q to BOUND_MAX_Q queries with lists in shared memory,
# over a corpus of at least BOUND_MIN_M rows, the search runs twice: first
# over the corpus' first BOUND_SAMPLE rows (splits of BOUND_CHUNK rows,
# then the merge), whose k-th distance of each query bounds the k-th over
# the whole corpus from above; then over the whole corpus with that bound
# (the `_bound` kernels), which drop every candidate above it before the
# lists see it. A split of `chunk` rows then takes about
# chunk * k / BOUND_SAMPLE entries (k = 100, 8192-row splits: about 100,
# every one a fill step) where it took k (1 + ln(chunk / k)), about 540,
# each past the k-th a scan of the row's list. Exact: every true
# neighbour is at most the bound, and the sample's own k lie within it.
# KNN run 22 (H200, docs/benchmarks/knn.md, both plans in one call, k =
# 100): 1.06x faster at 8 x 1M, 1.24-1.29x at 64 queries, but 9-11 %
# slower at one query (the first pass and its merge cost ~0.06 ms, and a
# lone query's insertions were not what its time went to), a tie at two;
# first-pass splits of 128 rows 1-4 % faster than 256; a sample of 16384
# no faster. bench.py --bound-max-q (0: never), --bound-sample and
# --bound-chunk override them.
BOUND_MIN_Q = 4
BOUND_MAX_Q = W1_MAX_Q
BOUND_SAMPLE = 8192
BOUND_CHUNK = 128
BOUND_MIN_M = 4 * BOUND_SAMPLE


def bound_sample(q, m, k, fused=True):
    """Corpus rows (from the first) whose k-th distance bounds the search
    of q queries over m rows, or 0 for a search without a bound. The
    `_bound` kernels come in the _fused form only."""
    if (k <= REGISTER_K or not BOUND_MIN_Q <= q <= min(BOUND_MAX_Q, W1_MAX_Q)
            or m < BOUND_MIN_M or not fused):
        return 0
    return BOUND_SAMPLE


def bound_plan(sample):
    """(corpus splits, chunk rows) of the first pass over `sample` rows."""
    return sample // BOUND_CHUNK, BOUND_CHUNK


def choose(q, m, d, k, sms, fused=None, dtype="bf16"):
    """(bundle name, corpus splits, chunk rows) for Q queries over M rows;
    `fused` forces the form that computes the norms (True) or takes them
    (False), None picks by with_norms' rule. A name ending in `_bound`
    takes the bound of a first pass (bound_sample, bound_plan): the same
    kernel without the suffix over the sample, then the merge."""
    wgs = 1 if q <= W1_MAX_Q else 3 if q >= 2048 and k <= REGISTER_K else 2
    # Tiles x splits fill the SMs' CTA slots once (the one-warpgroup
    # kernels have two an SM) up to 256 queries, twice above.
    waves = 2 if wgs == 1 or q > 256 else 1
    tiles = math.ceil(q / (64 * wgs))
    splits = max(1, min(math.ceil(waves * sms / tiles),
                        math.ceil(m / min_chunk(k))))
    # A chunk is a whole number of corpus tiles (128 rows; 256 keeps it so
    # for 256-row tiles too).
    chunk = math.ceil(math.ceil(m / splits) / 256) * 256
    name = with_norms(kernel_name(False, d, k, wgs, dtype), fused, q)
    if bound_sample(q, m, k, name.endswith("_fused")):
        name += "_bound"
    return name, math.ceil(m / chunk), chunk


def choose_build(n, d, k, wgs=None, dtype="bf16"):
    """The KNN-graph kernel for N points (every query tile walks all of X:
    64K points fill the SMs many times over without splits). KNN build
    runs 1-2 (docs/benchmarks/knn.md): three consumer warpgroups are
    faster at D = 96 and 128 (3-12 %) and at D = 64 from 262144 points
    (3-9 %), two at D = 64 x 65536 (6 %) and D = 256 (22-25 %: three
    spill more); k = 32 lists do not fit three warpgroups' registers.
    fp32 points (dtype SPLIT_DTYPE) take split_name(d) first: the build
    kernel reads its two tensors of bf16 pieces."""
    if dtype == SPLIT_DTYPE:
        if (d, k) not in SPLIT_TABLE or wgs not in (None, 2):
            raise ValueError(
                f"no fp32 KNN build kernel for D = {d}, k = {k}"
                + (f" with {wgs} consumer warpgroups" if wgs else "")
                + f"; the table has (D, k) in {SPLIT_TABLE}, two consumer "
                "warpgroups")
        return f"knn_build_f32_d{d}_k{k}"
    if wgs is None:
        wgs = 3 if k <= 16 and d <= 128 and (d > 64 or n >= 131072) else 2
    return kernel_name(True, d, k, wgs, dtype)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", action="store_true",
                    help="the KNN-graph kernel for N points of D, k")
    ap.add_argument("sizes", type=int, nargs="+", metavar="Q M D K")
    ap.add_argument("--sms", type=int, default=132)
    ap.add_argument("--dtype", default="bf16", help=f"one of {DTYPES}")
    a = ap.parse_args()
    try:
        if a.build:
            if len(a.sizes) != 3:
                ap.error("--build takes N D K")
            name = choose_build(*a.sizes, dtype=a.dtype)
            if a.dtype == SPLIT_DTYPE:
                print(split_name(a.sizes[1]), end=" ")
            print(name)
            return
        if len(a.sizes) != 4:
            ap.error("a search takes Q M D K")
        print(*choose(*a.sizes, a.sms, dtype=a.dtype))
    except ValueError as e:
        sys.exit(f"knn_dispatch: error: {e}")


if __name__ == "__main__":
    main()
