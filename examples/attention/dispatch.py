#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Which build of the attention forward to launch for a shape.

The causal kernels come in three rasters (gen-attention.py: group_m 1, 2
and 4, names without a suffix, `_g2` and `_g4`). A persistent CTA takes
every P-th tile of the raster (P = the CTAs launched, min(tiles, SMs)),
and under the causal mask a query tile's work is the key tiles up to its
last row, so the busiest CTA, which sets the time, depends on how the
raster deals long and short tiles out. causal_group_m replays the
lowering's raster (passes/Conversion/CakeToNVVM/Schedule.cpp, group-M
rasterization) for the shape and picks the group whose busiest CTA has the
least work: exact for the static schedule, with a tile's fixed cost (its Q
load, the last P V, the epilogue) counted as one key step. It assumes the
generator's causal kernels, 128-row query tiles (not `--wgs 3`'s 192).

The 176-key kernel (`_k176`, FlashAttention-3's step) measured 1.1-3.6 %
faster than run 33's 128-key kernel on unmasked D = 128 from S = 4096 on
(H200, attention run 33). The 128-key kernels that replaced those (the
staged epilogue and two Q stages, run 34) gained 2.2-6.3 % over them on
the same rows (H100), and the 176-key kernel cannot take the staged
epilogue (its stages fill shared memory); until the two are timed side by
side, LONG_S is None and dispatch launches the 128-key kernel everywhere
(set LONG_S to 4096 for run 33's choice).

Causal kernels written with `gen-attention.py --work-list 1` (`_wl`) walk
a host-built list instead of a raster: work_list_plan deals the tiles as a
dynamic scheduler would (each to the CTA that frees first), longest
first within groups of heads that run together (K and V stay shared in
L2), and lays CTA c's k-th tile at row k·P + c, which is what the
persistent schedule hands CTA c; rows of head BH pad the CTAs that got
fewer tiles (out of the tensors: their loads read zeros and their TMA
store is clipped; each costs about a short tile). It is used where its
busiest CTA beats the best raster's by more than a percent.

  python3 dispatch.py BH S [SMS]     prints each raster's busiest CTA, the
                                     work list's, and the bundle of each D
                                     and mask
"""
import functools
import heapq
import sys

TILE = 128          # query rows and keys per tile
GROUPS = (1, 2, 4)  # the rasters gen-attention.py writes
FIXED_STEPS = 1     # a tile's cost beyond its key steps, in key steps
LONG_S = None       # from here on, unmasked D = 128 takes 176-key steps


def tile_steps(s, tq):
    """Key steps (plus the fixed cost) of query tile tq under the mask."""
    return -(-min(s, (tq + 1) * TILE) // TILE) + FIXED_STEPS


def busiest_cta(bh, s, sms, group_m):
    """Key steps (plus each tile's fixed cost) of the busiest CTA."""
    tiles_n = -(-s // TILE)
    total = bh * tiles_n
    ctas = min(total, sms)
    load = [0] * ctas
    group_size = group_m * tiles_n
    for t in range(total):
        group = t // group_size
        first = group * group_m
        rows = min(bh - first, group_m)
        in_group = t % group_size
        tn = in_group // rows  # the query tile within its head
        load[t % ctas] += tile_steps(s, tn)
    return max(load)


@functools.lru_cache(maxsize=256)
def causal_group_m(bh, s, sms):
    """The group_m (of GROUPS) whose raster gives the busiest CTA the least
    causal work; the smaller group on a tie."""
    return min(GROUPS, key=lambda g: (busiest_cta(bh, s, sms, g), g))


PAD_STEPS = 2       # a padding row's cost: one key step and the fixed part


@functools.lru_cache(maxsize=64)
def work_list_plan(bh, s, sms):
    """(busiest CTA in steps, rows) of the best work list for a causal
    [bh, s] problem: the tiles in groups of 1, 2 or 4 heads, longest first
    within a group, each dealt to the CTA that frees first; rows are
    (head, first row), CTA c's k-th at k·P + c, padded with (bh, 0)."""
    tiles_n = -(-s // TILE)
    ctas = min(bh * tiles_n, sms)
    best = None
    for g in GROUPS:
        order = [(first + r, tq) for first in range(0, bh, g)
                 for tq in reversed(range(tiles_n))
                 for r in range(min(g, bh - first))]
        free = [(0, c) for c in range(ctas)]  # (busy until, CTA)
        dealt = [[] for _ in range(ctas)]
        for head, tq in order:
            t, c = heapq.heappop(free)
            dealt[c].append((head, tq * TILE))
            heapq.heappush(free, (t + tile_steps(s, tq), c))
        k = max(len(x) for x in dealt)
        busy = dict((c, t) for t, c in free)
        busiest = max(busy[c] + (k - len(dealt[c])) * PAD_STEPS
                      for c in range(ctas))
        if best is None or busiest < best[0]:
            rows = [None] * (k * ctas)
            for c, x in enumerate(dealt):
                x = x + [(bh, 0)] * (k - len(x))
                for i, row in enumerate(x):
                    rows[i * ctas + c] = row
            best = (busiest, rows)
    return best


def use_work_list(bh, s, sms):
    """Whether the work list's busiest CTA beats the best raster's by more
    than a percent."""
    raster = busiest_cta(bh, s, sms, causal_group_m(bh, s, sms))
    return work_list_plan(bh, s, sms)[0] < 0.99 * raster


def bundle_name(d, causal, bh, s, sms, work_lists=False):
    """The bundle (without .json) to launch for a [bh, s, d] problem;
    with work_lists, the build has the `_wl` causal kernels (launched with
    work_list_plan's rows as their last argument where use_work_list)."""
    name = f"attention_fwd_d{d}" + ("_causal" if causal else "")
    if d == 128 and not causal and LONG_S is not None and s >= LONG_S:
        return name + "_k176"
    if causal and work_lists and use_work_list(bh, s, sms):
        return name + "_wl"
    if causal:
        g = causal_group_m(bh, s, sms)
        if g > 1:
            name += f"_g{g}"
    return name


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    try:
        bh, s = int(sys.argv[1]), int(sys.argv[2])
        sms = int(sys.argv[3]) if len(sys.argv) == 4 else 132
    except ValueError:
        bh = s = sms = 0
    if bh <= 0 or s <= 0 or sms <= 0:
        sys.exit("dispatch.py: BH, S and SMS must be positive integers")
    for g in GROUPS:
        print(f"group_m {g}: busiest CTA {busiest_cta(bh, s, sms, g)} steps")
    print("pick: group_m", causal_group_m(bh, s, sms))
    print(f"work list: busiest CTA {work_list_plan(bh, s, sms)[0]} steps"
          + (", used" if use_work_list(bh, s, sms) else ", not used"))
    for d in (64, 128):
        for causal in (False, True):
            print(f"D = {d}{', causal' if causal else ''}:",
                  bundle_name(d, causal, bh, s, sms),
                  "(with work lists: "
                  + bundle_name(d, causal, bh, s, sms, True) + ")")
