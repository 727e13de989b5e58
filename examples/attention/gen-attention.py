#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the attention forward kernels of examples/attention/.

One kernel per head dimension (64, 128) and mask (causal or not):
softmax(Q Kᵀ / sqrt(D)) V for bf16 Q, K, V of shape [B·H, S, D] (K and V
[B·Hkv, S, D]; G = H / Hkv query heads share a KV head, G = 1 without
GQA), fp32 softmax state, bf16 O. The decisions, in the order they appear:

- a persistent schedule over (head, 128-row query tile);
- a copy warpgroup (regs 24) that loads the query tile once per tile,
  into a ring of two stages so that the next tile's Q lands during this
  one's key loop, and streams K and V tiles of 128 keys through their own
  two-stage rings, so that S = Q Kᵀ can start before V has landed;
- two consumer warpgroups (regs 240, 64 query rows each; three at regs
  160 for D = 64 without the mask, 192-row query tiles as
  FlashAttention-3's) that keep O, the
  running row max m and the running row sum l across the key loop
  (online softmax): S = Q Kᵀ on wgmma from shared memory, m and l
  updated, O rescaled, P = bf16(exp2(S·c − m)) with c = log2(e)/sqrt(D),
  then O += P V with P as wgmma's A straight from registers and V read
  MN-major (mn_major);
- the key loop software-pipelined (--overlap 1, the default; the form of
  FlashAttention-3's intra-warpgroup overlap): the first key tile is
  peeled, and step j converts P_{j-1} to bf16, issues S_j, rescales O by
  step j-1's factor, issues O += P_{j-1} V_{j-1} and computes the softmax
  of S_j while that runs; the last P V follows the loop. The
  kernel asks for retire-late (each wgmma retires where its result is
  read), which is what lets the softmax run beside the product;
- the mask (keys past S, and with causal those past the query's row)
  only on the last key tile, the one it can cut: the loop is split at
  max(128, 128·floor((ub − 1)/128)), and the copies split theirs alike
  so both sides' hand-off counts read the same;
- denormals flushed (--ftz 1, the default; FlashAttention builds with
  --use_fast_math): exp2 is one MUFU.EX2;
- the consumer warpgroups in ping-pong (--pingpong 1, the default): they
  take turns issuing a step's wgmmas (wg-order; a turn spans S and the
  previous P V), so one's softmax runs beside the other's products, and
  the warp index is broadcast so descriptors stay in uniform registers;
- the epilogue O · (1 / l), one reciprocal per row (--rcp 1; a
  division per element cost S = 1024 about 7 %, attention run 20),
  written bf16 into a shared-memory stage that the copy warpgroup stores
  by TMA one tile behind, after its next copies (--staged-epilogue 1,
  cuDNN's epilogue; TMA clips the rows past S);
- with causal, the same kernel also rasterized over groups of 2 and 4
  heads (`_g2`, `_g4`: the schedule's group_m): a persistent CTA takes
  every P-th tile, and under the causal mask a tile's work grows with its
  query rows, so in head-major order a CTA may see only the long tiles
  (at 16×16×1024, a third more keys than the mean). dispatch.py's
  causal_group_m picks, per shape, the raster whose static assignment
  gives the busiest CTA the least work.

Head dimension 128 is two 64-column halves of every tile (one 128-byte
swizzle atom each): S sums the two halves' products, and O is two
accumulators, one per half of V.

usage: gen-attention.py [OUT_DIR] [--overlap 0|1] [--ftz 0|1] [--pingpong 0|1]
                        [--q-stages 1|2] [--reverse 0|1] [--wgs 2|3]
                        [--p-bf16 0|1] [--load-regs N|spill-free]
                        [--key-tile 64|128] [--kv-stages 2|3|4]
                        [--slabs 1|2] [--staged-epilogue 0|1] [--work-list 0|1]
       (default: this folder, the first three on, two Q stages, the
       staged epilogue, in order. Two Q stages alone measured no faster on
       the H200 (attention runs 10-11); with the staged epilogue the pair
       gained 6 % over the 14 rows and 15-30 % at S = 1024 on an H100
       (attention run 34). The reversed walk measured no faster.)

--key-tile 64 halves the key step (S and P take half the registers), which
is what lets three consumer warpgroups (--wgs 3, 192-row query tiles)
hold D = 128 at regs(160): each K and V tile then serves 192 query rows
instead of 128. --slabs 2 makes the query tile two slabs of 64 rows a
warpgroup, each with its own fragments (S, P, O, m, l), so each K and V
tile serves 256 rows (run 28 inferred cuDNN's kernel did; its SASS, run
33, shows 128-row tiles); with
64-key steps it fits regs(240) for D = 128 with P carried in bf16, and
spills least one step at a time (--overlap 0). The pipelined form
measured slower than the shipped kernels (attention runs 30-31).

--key-tile 176 (FlashAttention-3's step at D = 128) and 192 make the key
steps longer, the last one masked where S is no multiple of the step.
On the H200 (attention run 33) they gain 1.1-3.6 % at D = 128 without the
mask from S = 4096 on and lose at S = 1024, under the mask (192) and at
D = 64: the kernels keep 128 keys, and the generator also writes
attention_fwd_d128_k176, which dispatch.py launched for unmasked D = 128
from S = 4096 on until run 34's kernels (the staged epilogue, which the
176-key stages leave no room for) replaced the 128-key ones beside it
(dispatch.LONG_S).

--staged-epilogue 0 stores O from registers (row-masked st.global), the
form before attention run 34.

--work-list 1 also writes each causal kernel over a work list
(`_causal_wl`, a sixth argument [rows, 2] of i32 (head, first row)): the
persistent CTAs walk its rows instead of the (head, query tile) grid, so
the host deals the unequal causal tiles (dispatch.work_list_plan: each to
the CTA that frees first, longest first within groups of heads). Rows of
head BH pad the list; they need the staged epilogue, whose TMA store
clips them.
"""
import argparse
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The compiler's table of hardware limits (generated from it).
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from cake.targets import BASELINE_REGISTERS, LIMITS  # noqa: E402

TARGET = "sm_90a"  # the kernels' target, and whose limits size them


def kernel(d, causal, kv_stages=2, overlap=False, ftz=False, pingpong=False,
           q_stages=None, reverse=False, group_m=1, wgs=2, p_bf16=False,
           rcp=True, rotate=False, fence_waits=False, load_regs=None,
           key_tile=128, slabs=1, staged=None, work_list=False, suffix=""):
    halves = d // 64
    rows_q = 64 * wgs  # query rows per slab: 64 per consumer warpgroup
    # slabs = 2: the tile is two slabs of rows_q rows (each warpgroup 64
    # rows of each, as the GEMM ping-pong's top and bottom fragments), so
    # each K and V tile serves twice the query rows.
    T = [""] if slabs == 1 else ["", "_b"]
    rows_t = rows_q * slabs  # query rows per tile
    if slabs > 1 and rotate:
        sys.exit("gen-attention.py: two slabs need --rotate 0")
    if staged and (rotate or slabs > 1):
        sys.exit("gen-attention.py: --staged-epilogue needs --rotate 0 "
                 "and --slabs 1")
    bn = key_tile  # keys per step
    # Unless asked, the output stage and with it a second Q stage, where
    # shared memory holds them beside the K and V stages: measured together
    # (attention run 34: the stage gained most; two Q stages alone gained
    # nothing on the H200, runs 10-11). 1 KiB is left for the barriers and
    # the derived scratch.
    budget = (LIMITS[TARGET]["smem_per_block"]
              - LIMITS[TARGET]["smem_reserved_per_block"] - 1024)

    def smem(q_st, st):
        return 2 * d * (q_st * rows_t + 2 * kv_stages * bn
                        + (rows_q if st else 0))

    if staged is None:
        staged = not rotate and slabs == 1 and smem(1, True) <= budget
    if work_list and (rotate or reverse or not staged):
        sys.exit("gen-attention.py: --work-list needs --rotate 0, "
                 "--reverse 0 (the list orders the tiles) and the staged "
                 "epilogue (whose TMA store clips a padding row's output)")
    if q_stages is None:
        q_stages = 2 if staged and smem(2, staged) <= budget else 1
    kn = f"%c{bn}"  # the key loop's step
    name = (f"attention_fwd_d{d}" + ("_causal" if causal else "")
            + (f"_g{group_m}" if group_m > 1 else "")
            + ("_wl" if work_list else "") + suffix)
    g = f"!cake.global<?x?x{d}xbf16>"
    ring = "!cake.ring<{s} x %dx64xbf16, swizzle = 128>" % bn
    q_ring = f"!cake.ring<{q_stages} x {rows_q}x64xbf16, swizzle = 128>"
    kv_ring = ring.format(s=kv_stages)
    c = math.log2(math.e) / math.sqrt(d)
    h = list(range(halves))
    col = ["%c0", "%c64"]  # the first column of each 64-column half of D
    L = []
    w = L.append
    w(f"// Generated by examples/attention/gen-attention.py: the attention forward,")
    w(f"// head dimension {d}, " + ("causal" if causal else "not causal")
      + ". softmax(Q Kᵀ / sqrt(D)) V over [B·H, S, D] tensors; G query")
    w(f"// heads share each of the [B·Hkv, S, D] key and value heads.")
    w(f"cake.kernel @{name}(%Q: {g}, %K: {g}, %V: {g},")
    wl = "!cake.global<?x2xi32>"  # the work list's (head, first row) rows
    w(f"    %O: {g}, %G: index" + (f", %WL: {wl})" if work_list else ")"))
    w(f"    attributes {{target = #cake.target<\"{TARGET}\">,")
    # retire-late (cake-set-retire-late): each wgmma group retires where its
    # result is read, which is what lets the pipelined loop's softmax run
    # beside the previous step's P V. flush-denormals (nvcc's --ftz, as
    # FlashAttention builds with --use_fast_math): exp2 is one MUFU.EX2.
    # wg-order (cake-set-wg-order): the two consumer warpgroups take turns
    # issuing a step's wgmmas (under retire-late a turn spans S and the
    # previous P V), so one's softmax runs beside the other's products, as
    # FlashAttention-3's ping-pong; uniform-warp (cake-set-uniform-warp)
    # keeps the descriptors in uniform registers. fence-waits
    # (cake-set-fence-waits): a fence before each late wait, without which
    # ptxas hoists the wait for P V above the softmax it should overlap.
    # work_list: the persistent CTAs walk the rows of %WL (one tile a row,
    # the host's order: dispatch.work_list_plan) instead of the (head, query
    # tile) grid.
    sched_tile = "[1, 2]" if work_list else f"[1, {rows_t}]"
    w(f"                schedule = #cake.persistent<tile = {sched_tile}, group_m = {group_m}>"
      + (",\n                cake.retire_late = true" if overlap else "")
      + (",\n                cake.fence_waits = true"
         if overlap and fence_waits else "")
      + (",\n                cake.flush_denormals = true" if ftz else "")
      + (",\n                cake.wg_order = true,\n                cake.uniform_warp = true"
         if pingpong else "") + "} {")
    for t in T:
        for i in h:
            w(f"  %q{i}{t} = cake.ring : {q_ring}")
    for i in h:
        w(f"  %k{i} = cake.ring : {kv_ring}")
    for i in h:
        w(f"  %v{i} = cake.ring : {kv_ring}")
    w(f"  %pq = cake.pipe " + ", ".join(f"%q{i}{t}" for t in T for i in h)
      + " : " + ", ".join(q_ring for _ in T for _ in h))
    w(f"  %pk = cake.pipe " + ", ".join(f"%k{i}" for i in h) + " : "
      + ", ".join(kv_ring for _ in h))
    w(f"  %pv = cake.pipe " + ", ".join(f"%v{i}" for i in h) + " : "
      + ", ".join(kv_ring for _ in h))
    # staged: the epilogue writes O's halves into one shared-memory stage
    # and the copy warpgroup stores it by TMA, one tile behind (cuDNN's
    # epilogue, attention run 33; what cake-stage-epilogue="into=load"
    # derives, written out).
    o_ring = f"!cake.ring<1 x {rows_q}x64xbf16, swizzle = 128>"
    if staged:
        for i in h:
            w(f"  %os{i} = cake.ring : {o_ring}")
        w(f"  %po = cake.pipe " + ", ".join(f"%os{i}" for i in h) + " : "
          + ", ".join(o_ring for _ in h))

    def common(indent):
        p = " " * indent
        w(f"{p}%BH = cake.dim %Q, 0 : {g}")
        w(f"{p}%S = cake.dim %Q, 1 : {g}")
        w(f"{p}%c0 = arith.constant 0 : index")
        if len(h) > 1 or bn == 64:  # the second half of D; 64-key steps
            w(f"{p}%c64 = arith.constant 64 : index")
        w(f"{p}%c128 = arith.constant 128 : index")
        if bn not in (64, 128):  # a key step of other than 64 or 128 keys
            w(f"{p}{kn} = arith.constant {bn} : index")
        if rows_t != 128:
            w(f"{p}%cq = arith.constant {rows_t} : index")
        if work_list:
            w(f"{p}%NW = cake.dim %WL, 0 : {wl}")
            w(f"{p}%W2 = cake.dim %WL, 1 : {wl}")
            w(f"{p}%cw1 = arith.constant 1 : index")

    def tiles_head(indent, results="", carry=""):
        # With reverse, each head's query tiles are walked last first: under
        # a causal mask the last tiles have the most keys, and longest-first
        # leaves the short ones for the persistent CTAs' last round.
        # `results` and `carry`: a rotated tile loop's results and iter_args.
        p = " " * indent
        if work_list:
            # A row of head BH pads a CTA's share of the list: its loads
            # are past the tensors (TMA fills zeros) and so is its TMA
            # store (clipped), so it runs as a one-step tile that writes
            # nothing, and no role branches on it.
            w(f"{p}{results}cake.tiles (%wi, %wz) in (%NW, %W2){carry} {{")
            w(f"{p}  %bh = cake.scalar.load %WL[%wi, %c0] : {wl}")
            w(f"{p}  %m = cake.scalar.load %WL[%wi, %cw1] : {wl}")
            return
        if not reverse:
            w(f"{p}{results}cake.tiles (%bh, %m) in (%BH, %S){carry} {{")
            return
        w(f"{p}{results}cake.tiles (%bh, %mt) in (%BH, %S){carry} {{")
        w(f"{p}  %c127r = arith.constant {rows_t - 1} : index")
        w(f"{p}  %c128r = arith.constant {rows_t} : index")
        w(f"{p}  %send = arith.addi %S, %c127r : index")
        w(f"{p}  %ntiles = arith.divui %send, %c128r : index")
        w(f"{p}  %span = arith.muli %ntiles, %c128r : index")
        w(f"{p}  %mlast = arith.subi %span, %c128r : index")
        w(f"{p}  %m = arith.subi %mlast, %mt : index")

    def slab_rows(indent):
        # The second slab's first row.
        if slabs > 1:
            p = " " * indent
            step = "%c128"  # common() defines it
            if rows_q != 128:
                step = "%cslab"
                w(f"{p}%cslab = arith.constant {rows_q} : index")
            w(f"{p}%m_b = arith.addi %m, {step} : index")

    def bound(indent):
        # The keys a query tile attends to: all, or up to its last row.
        p = " " * indent
        if causal:
            w(f"{p}%mend = arith.addi %m, {'%c128' if rows_t == 128 else '%cq'} : index")
            w(f"{p}%ub = arith.minui %S, %mend : index")
        else:
            w(f"{p}%ub = arith.addi %S, %c0 : index")
        if overlap:
            # The last key tile, the only one a mask can cut (past S, or
            # the causal diagonal): max(bn, bn floor((ub - 1) / bn)),
            # so that [bn, nlast) holds the unmasked tiles after the first.
            w(f"{p}%c1 = arith.constant 1 : index")
            w(f"{p}%ub1 = arith.subi %ub, %c1 : index")
            if causal and rows_t != bn:
                # A query tile of other than bn rows: the diagonal can
                # cross several key tiles, the mask starts at the one
                # holding its first row.
                w(f"{p}%ubm = arith.minui %ub1, %m : index")
                w(f"{p}%lastq = arith.divui %ubm, {kn} : index")
            else:
                w(f"{p}%lastq = arith.divui %ub1, {kn} : index")
            w(f"{p}%lastn = arith.muli %lastq, {kn} : index")
            w(f"{p}%nlast = arith.maxui %lastn, {kn} : index")

    # The copy warpgroup.
    # setmaxnreg's pool is what the CTA launches with (its threads at the
    # launch baseline, from the compiler's target table): the copy
    # warpgroup's share, the consumers' the rest (a multiple of 8). At 24
    # the copy warpgroup's coordinates and bounds spill (ptxas: 24-108
    # bytes of local stores); `--load-regs spill-free` gives it 40 beside two
    # consumers (232 each; the unmasked kernels then spill nothing, but
    # the masked D = 128 consumers would spill 108-148 bytes, so they keep
    # 24 and 240) and 32 beside three (160 each).
    if load_regs is None:
        load_regs = 24
    elif load_regs == "spill-free":
        load_regs = 24 if causal and d == 128 else {2: 40, 3: 32, 4: 24}[wgs]
    threads = 128 * (wgs + 1)
    pool = threads * BASELINE_REGISTERS[TARGET][threads]
    regs = (pool - 128 * load_regs) // (128 * wgs) // 8 * 8
    w(f"  cake.role \"load\" warpgroups(1) regs({load_regs}) {{")
    common(4)
    if staged:
        # The tile loop carries whether this is the CTA's first tile and
        # the previous tile's corner, whose output it stores.
        w(f"    %true = arith.constant true")
        w(f"    %false = arith.constant false")
        tiles_head(4, "%lt:3 = ", " iter_args(%first = %true, %pbh = %c0, "
                   "%pm = %c0)\n        -> (i1, index, index)")
    else:
        tiles_head(4)
    w(f"      %kvh = arith.divui %bh, %G : index")
    w(f"      %sq = cake.pipe.acquire %pq : !cake.pipe<{q_stages}>")
    slab_rows(6)
    for t in T:
        for i in h:
            w(f"      cake.tma.load %Q[%bh, %m{t}, {col[i]}] -> %q{i}{t}[%sq] : {g} -> {q_ring}")
    w(f"      cake.pipe.commit %pq, %sq : !cake.pipe<{q_stages}>")
    bound(6)

    def load_kv(p, n, sfx):
        for pipe, buf, src in (("pk", "k", "K"), ("pv", "v", "V")):
            w(f"{p}%s{buf}{sfx} = cake.pipe.acquire %{pipe} : !cake.pipe<{kv_stages}>")
            for i in h:
                w(f"{p}cake.tma.load %{src}[%kvh, {n}, {col[i]}] -> %{buf}{i}[%s{buf}{sfx}] : {g} -> {kv_ring}")
            w(f"{p}cake.pipe.commit %{pipe}, %s{buf}{sfx} : !cake.pipe<{kv_stages}>")

    # With the consumer's first key tile peeled off its loop, the copies
    # peel it too, so both sides' hand-off counts read alike (1 + the
    # loop's trips) for sync.trip-count-mismatch.
    if overlap:
        # The copies walk the key tiles in the consumer's three pieces.
        load_kv(" " * 6, "%c0", "_f")
        for lo, hi in ((kn, "%nlast"), ("%nlast", "%ub")):
            w(f"      scf.for %n = {lo} to {hi} step {kn} {{")
            load_kv(" " * 8, "%n", "")
            w(f"      }}")
    else:
        w(f"      scf.for %n = %c0 to %ub step {kn} {{")
        load_kv(" " * 8, "%n", "")
        w(f"      }}")

    def send(p, bh, m):
        # The previous tile's output, from its stage to O by TMA.
        w(f"{p}%so = cake.pipe.wait %po : !cake.pipe<1>")
        for i in h:
            w(f"{p}cake.tma.store %os{i}[%so] -> %O[{bh}, {m}, {col[i]}] : {o_ring} -> {g}")
        w(f"{p}cake.pipe.release %po, %so : !cake.pipe<1>")

    if staged:
        # After this tile's copies, the previous tile's output; the last
        # tile's after the loop.
        w(f"      %more = arith.xori %first, %true : i1")
        w(f"      scf.if %more {{")
        send(" " * 8, "%pbh", "%pm")
        w(f"      }}")
        w(f"      cake.tiles.yield %false, %bh, %m : i1, index, index")
        w(f"    }}")
        w(f"    %ran = arith.xori %lt#0, %true : i1")
        w(f"    scf.if %ran {{")
        send(" " * 6, "%lt#1", "%lt#2")
        w(f"    }}")
    else:
        w(f"    }}")
    w(f"  }}")

    # The consumer warpgroups.
    acc = f"!cake.frag<{rows_q}x{bn}xf32>"
    o = f"!cake.frag<{rows_q}x64xf32>"
    row = f"!cake.frag<{rows_q}x1xf32>"
    w(f"  cake.role \"attn\" warpgroups({wgs}) regs({regs}) {{")
    common(4)
    w(f"    %ninf = arith.constant 0xFF800000 : f32")
    w(f"    %zero = arith.constant 0.0 : f32")
    w(f"    %scale = arith.constant {c:.9e} : f32")
    # rotate: the tile loop carries each tile's output to the next
    # iteration, whose epilogue stores it right after issuing the next
    # tile's first S = Q Kᵀ, so the stores and the 1 / l scaling run beside
    # that product instead of in front of it (the last tile's epilogue
    # follows the loop). Carried: whether this is the CTA's first tile, the
    # unscaled O halves, l, and the tile's coordinates.
    carry_types = ["i1"] + [o for _ in h] + [row, "index", "index"]
    if rotate:
        w(f"    %true = arith.constant true")
        w(f"    %false = arith.constant false")
        for i in h:
            w(f"    %oz{i} = cake.frag.zero : {o}")
        w(f"    %lz = cake.frag.splat %zero : {row}")
        names = ["%first"] + [f"%po{i}" for i in h] + ["%pl", "%pbh", "%pm"]
        inits = ["%true"] + [f"%oz{i}" for i in h] + ["%lz", "%c0", "%c0"]
        tiles_head(4, f"%tr:{len(names)} = ",
                   " iter_args(" + ", ".join(f"{a} = {b}" for a, b in zip(names, inits))
                   + ")\n        -> (" + ", ".join(carry_types) + ")")
    else:
        tiles_head(4)
    w(f"      %sq = cake.pipe.wait %pq : !cake.pipe<{q_stages}>")
    for i in h:
        w(f"      %o{i}_0 = cake.frag.zero : {o}")
    w(f"      %m_0 = cake.frag.splat %ninf : {row}")
    w(f"      %l_0 = cake.frag.splat %zero : {row}")
    slab_rows(6)
    for t in T:
        w(f"      %rows{t} = cake.frag.iota base %m{t} : !cake.frag<{rows_q}x1xi32>")
    bound(6)

    def scores(p, sfx, n):
        # S = Q Kᵀ for the key tile at n, released once read; one S per
        # slab.
        for t in T:  # each slab's chain from its own zero
            w(f"{p}%z{sfx}{t} = cake.frag.zero : {acc}")
        w(f"{p}%sk{sfx} = cake.pipe.wait %pk : !cake.pipe<{kv_stages}>")
        out = []
        for t in T:
            prev = f"%z{sfx}{t}"
            for i in h:
                w(f"{p}%s{i}{sfx}{t} = cake.mma wgmma %q{i}{t}[%sq], %k{i}[%sk{sfx}], {prev}")
                w(f"{p}  : {q_ring}, {kv_ring}, {acc}")
                prev = f"%s{i}{sfx}{t}"
            out.append(prev)
        return out

    def release_k(p, sfx):
        w(f"{p}cake.pipe.release %pk, %sk{sfx} : !cake.pipe<{kv_stages}>")

    def softmax(p, sfx, s_val, n, rmax, rsum, masked=True, rows="%rows"):
        # The mask (keys past S, and with causal past the query's row), the
        # new row max and the rescale factor alpha, P = exp2(S·c − m) and
        # the new row sum. Returns (m, alpha, P, l).
        if not masked:
            w(f"{p}%mx{sfx} = cake.frag.reduce max {s_val} : {acc} -> {row}")
            return softmax_rest(p, sfx, s_val, rmax, rsum)
        w(f"{p}%cols{sfx} = cake.frag.iota base {n} : !cake.frag<1x{bn}xi32>")
        w(f"{p}%sm{sfx} = cake.frag.map {s_val}, %cols{sfx}, {rows}")
        w(f"{p}    : ({acc}, !cake.frag<1x{bn}xi32>, !cake.frag<{rows_q}x1xi32>)")
        w(f"{p}    -> {acc} {{")
        w(f"{p}^bb0(%x: f32, %col: i32, %row: i32):")
        w(f"{p}  %sl = arith.index_cast %S : index to i32")
        w(f"{p}  %in = arith.cmpi ult, %col, %sl : i32")
        if causal:
            w(f"{p}  %past = arith.cmpi ule, %col, %row : i32")
            w(f"{p}  %keep = arith.andi %in, %past : i1")
        else:
            w(f"{p}  %keep = arith.andi %in, %in : i1")
        w(f"{p}  %y = arith.select %keep, %x, %ninf : f32")
        w(f"{p}  cake.frag.yield %y : f32")
        w(f"{p}}}")
        w(f"{p}%mx{sfx} = cake.frag.reduce max %sm{sfx} : {acc} -> {row}")
        return softmax_rest(p, sfx, f"%sm{sfx}", rmax, rsum)

    def softmax_rest(p, sfx, sm, rmax, rsum):
        w(f"{p}%mn{sfx}:2 = cake.frag.map {rmax}, %mx{sfx} : ({row}, {row}) -> ({row}, {row}) {{")
        w(f"{p}^bb0(%mo: f32, %xr: f32):")
        w(f"{p}  %xs = arith.mulf %xr, %scale : f32")
        w(f"{p}  %nm = arith.maximumf %mo, %xs : f32")
        w(f"{p}  %dm = arith.subf %mo, %nm : f32")
        w(f"{p}  %alpha = math.exp2 %dm : f32")
        w(f"{p}  cake.frag.yield %nm, %alpha : f32, f32")
        w(f"{p}}}")
        w(f"{p}%p{sfx} = cake.frag.map {sm}, %mn{sfx}#0 : ({acc}, {row}) -> {acc} {{")
        w(f"{p}^bb0(%x: f32, %nm: f32):")
        w(f"{p}  %t = arith.mulf %x, %scale : f32")
        w(f"{p}  %u = arith.subf %t, %nm : f32")
        w(f"{p}  %e = math.exp2 %u : f32")
        w(f"{p}  cake.frag.yield %e : f32")
        w(f"{p}}}")
        w(f"{p}%ps{sfx} = cake.frag.reduce sum %p{sfx} : {acc} -> {row}")
        w(f"{p}%ln{sfx} = cake.frag.map {rsum}, %mn{sfx}#1, %ps{sfx} : ({row}, {row}, {row}) -> {row} {{")
        w(f"{p}^bb0(%lo: f32, %a: f32, %s: f32):")
        w(f"{p}  %la = arith.mulf %lo, %a : f32")
        w(f"{p}  %lsum = arith.addf %la, %s : f32")
        w(f"{p}  cake.frag.yield %lsum : f32")
        w(f"{p}}}")
        return f"%mn{sfx}#0", f"%mn{sfx}#1", f"%p{sfx}", f"%ln{sfx}"

    def rescale(p, sfx, outs, alpha):
        # O · alpha, per half of the head dimension.
        for i, oi in zip(h, outs):
            w(f"{p}%or{i}{sfx} = cake.frag.map {oi}, {alpha} : ({o}, {row}) -> {o} {{")
            w(f"{p}^bb0(%x: f32, %a: f32):")
            w(f"{p}  %r = arith.mulf %x, %a : f32")
            w(f"{p}  cake.frag.yield %r : f32")
            w(f"{p}}}")
        return [f"%or{i}{sfx}" for i in h]

    pb_t = f"!cake.frag<{rows_q}x{bn}xbf16>"

    def to_bf16(p, sfx, pf):
        w(f"{p}%pb{sfx} = cake.frag.convert {pf} : {acc} -> {pb_t}")
        return f"%pb{sfx}"

    def pv(p, sfx, pbs, outss):
        # O += P V: P (bf16) as wgmma's A from registers, V read MN-major,
        # per slab (pbs and outss: one P and one list of O halves each).
        # The stage is released by the caller.
        w(f"{p}%sv{sfx} = cake.pipe.wait %pv : !cake.pipe<{kv_stages}>")
        res = []
        for t, pb, outs in zip(T, pbs, outss):
            for i, oi in zip(h, outs):
                w(f"{p}%on{i}{sfx}{t} = cake.mma wgmma {pb}, %v{i}[%sv{sfx}] mn_major, {oi}")
                w(f"{p}  : {pb_t}, {kv_ring}, {o}")
            res.append([f"%on{i}{sfx}{t}" for i in h])
        return res

    def release_v(p, sfx):
        w(f"{p}cake.pipe.release %pv, %sv{sfx} : !cake.pipe<{kv_stages}>")

    def epilogue(p, sfx, outs, l, bh, m):
        # O / l, bf16, stored. With rcp, 1 / l once per row and a multiply
        # per element (FlashAttention's way): a division per element is a
        # MUFU.RCP and a refinement with a slow-path check each, 64 of them
        # per thread at D = 128.
        if rcp:
            w(f"{p}%linv{sfx} = cake.frag.map {l} : ({row}) -> {row} {{")
            w(f"{p}^bb0(%l: f32):")
            w(f"{p}  %one = arith.constant 1.0 : f32")
            w(f"{p}  %r = arith.divf %one, %l : f32")
            w(f"{p}  cake.frag.yield %r : f32")
            w(f"{p}}}")
            l = f"%linv{sfx}"
        for i in h:
            w(f"{p}%of{i}{sfx} = cake.frag.map {outs[i]}, {l} : ({o}, {row}) -> {o} {{")
            w(f"{p}^bb0(%x: f32, %l: f32):")
            w(f"{p}  %r = arith.{'mulf' if rcp else 'divf'} %x, %l : f32")
            w(f"{p}  cake.frag.yield %r : f32")
            w(f"{p}}}")
            w(f"{p}%ob{i}{sfx} = cake.frag.convert %of{i}{sfx} : {o} -> !cake.frag<{rows_q}x64xbf16>")
            if not staged:
                w(f"{p}cake.store %ob{i}{sfx} -> %O[{bh}, {m}, {col[i]}] : !cake.frag<{rows_q}x64xbf16> -> {g}")
        if staged:
            # Into the stage, for the copy warpgroup's TMA store.
            w(f"{p}%st{sfx} = cake.pipe.acquire %po : !cake.pipe<1>")
            for i in h:
                w(f"{p}cake.smem.write %ob{i}{sfx} -> %os{i}[%st{sfx}] : !cake.frag<{rows_q}x64xbf16> -> {o_ring}")
            w(f"{p}cake.fence.proxy_async")
            w(f"{p}cake.pipe.commit %po, %st{sfx} : !cake.pipe<1>")

    if not overlap:
        # One step at a time: S and P never live beside the next S, which
        # is what two slabs at D = 128 need to fit the registers.
        per = halves + 2  # values carried per slab: the O halves, m, l
        carried = [v + t for t in T
                   for v in [f"%o{i}" for i in h] + ["%rmax", "%rsum"]]
        inits = ([f"%o{i}_0" for i in h] + ["%m_0", "%l_0"]) * len(T)
        types = ([o for _ in h] + [row, row]) * len(T)
        w(f"      %res:{len(carried)} = scf.for %n = %c0 to %ub step {kn}")
        w(f"          iter_args(" + ", ".join(f"{a} = {b}" for a, b in zip(carried, inits))
          + ")")
        w(f"          -> (" + ", ".join(types) + ") {")
        p = " " * 8
        s_vals = scores(p, "", "%n")
        release_k(p, "")
        pbs, outss, yields = [], [], []
        for t, s_val in zip(T, s_vals):
            mn, alpha, pf, ln = softmax(p, t, s_val, "%n", f"%rmax{t}",
                                        f"%rsum{t}", rows="%rows" + t)
            outss.append(rescale(p, t, [f"%o{i}{t}" for i in h], alpha))
            pbs.append(to_bf16(p, t, pf))
            yields.append([mn, ln])
        outss = pv(p, "", pbs, outss)
        release_v(p, "")
        w(f"        scf.yield " + ", ".join(v for outs, ml in zip(outss, yields)
                                         for v in outs + ml)
          + " : " + ", ".join(types))
        w(f"      }}")
        w(f"      cake.pipe.release %pq, %sq : !cake.pipe<{q_stages}>")
        finals = [[f"%res#{j * per + i}" for i in h] for j in range(len(T))]
        lress = [f"%res#{j * per + halves + 1}" for j in range(len(T))]
        final, lres = finals[0], lress[0]
    else:
        # Software-pipelined (FlashAttention-3's intra-warpgroup overlap):
        # step j issues S_j = Q K_j, rescales O by the previous step's
        # alpha, issues O += P_{j-1} V_{j-1} and computes the softmax of
        # S_j while that product runs (retire-late retires each wgmma where
        # its result is read: S at the softmax, P V at the end of the
        # step). Nothing in the step reads O after its P V is issued, so
        # ptxas has no reason to hoist that wait above the softmax. The
        # first key tile's S and softmax come before the loop, the last
        # rescale and P V after it.
        p = " " * 6
        s_vals = scores(p, "_f", "%c0")
        release_k(p, "_f")
        if rotate:
            # The previous tile's epilogue, beside this tile's first S
            # (retire-late keeps it in flight through a branch that only
            # computes and stores).
            w(f"{p}%more = arith.xori %first, %true : i1")
            w(f"{p}scf.if %more {{")
            epilogue(p + "  ", "_p", [f"%po{i}" for i in h], "%pl", "%pbh", "%pm")
            w(f"{p}}}")
        # P crosses the loop in f32, in the registers S had, and becomes
        # bf16 at the top of the next step, before that step's S = Q Kᵀ
        # takes those registers (FlashAttention-3 converts it after the
        # step's last wait): converted at the end of the step, its
        # registers would be the previous P's, which the previous P V may
        # still read, and ptxas would wait for that product first.
        # With p_bf16, P crosses the loop already packed (half the
        # registers: what three consumer warpgroups at regs(160) need);
        # run 17 measured it 4-8 % faster without the mask (S = 1024,
        # D = 64) and no faster with it, so the causal kernels keep f32.
        # Each slab carries its own O halves, m, l, P and alpha.
        state = []
        for t, s_val in zip(T, s_vals):
            mn, alpha, pf, ln = softmax(p, "_f" + t, s_val, "%c0", "%m_0",
                                        "%l_0", rows="%rows" + t)
            if p_bf16:
                pf = to_bf16(p, "_f" + t, pf)
            state += [f"%o{i}_0" for i in h] + [mn, ln, pf, alpha]
        per = halves + 4  # values carried per slab
        carried = [v + t for t in T
                   for v in [f"%o{i}" for i in h] + ["%rmax", "%rsum", "%pp", "%ra"]]
        types = ([o for _ in h] + [row, row, pb_t if p_bf16 else acc, row]) * len(T)
        # The unmasked key tiles, then the last one with its mask.
        for res, lo, hi, masked in (("%mid", kn, "%nlast", False),
                                    ("%res", "%nlast", "%ub", True)):
            w(f"      {res}:{len(carried)} = scf.for %n = {lo} to {hi} step {kn}")
            w(f"          iter_args(" + ", ".join(f"{a} = {b}" for a, b in zip(carried, state))
              + ")")
            w(f"          -> (" + ", ".join(types) + ") {")
            p = " " * 8
            pbs = [f"%pp{t}" if p_bf16 else to_bf16(p, t, f"%pp{t}") for t in T]
            s_vals = scores(p, "", "%n")
            outss = [rescale(p, t, [f"%o{i}{t}" for i in h], f"%ra{t}") for t in T]
            outss = pv(p, "", pbs, outss)
            release_k(p, "")
            yields = []
            for t, s_val, outs in zip(T, s_vals, outss):
                mn, alpha, pf, ln = softmax(p, t, s_val, "%n", f"%rmax{t}",
                                            f"%rsum{t}", masked, rows="%rows" + t)
                if p_bf16:
                    pf = to_bf16(p, "_n" + t, pf)
                yields += outs + [mn, ln, pf, alpha]
            release_v(p, "")
            w(f"        scf.yield " + ", ".join(yields) + " : "
              + ", ".join(types))
            w(f"      }}")
            state = [f"{res}#{i}" for i in range(len(carried))]
        w(f"      cake.pipe.release %pq, %sq : !cake.pipe<{q_stages}>")
        p = " " * 6
        pbs, outss, lress = [], [], []
        for j, t in enumerate(T):
            b = j * per
            pbs.append(f"%res#{b + halves + 2}" if p_bf16
                       else to_bf16(p, "_l" + t, f"%res#{b + halves + 2}"))
            outss.append(rescale(p, "_l" + t, [f"%res#{b + i}" for i in h],
                                 f"%res#{b + halves + 3}"))
            lress.append(f"%res#{b + halves + 1}")
        finals = pv(p, "_l", pbs, outss)
        release_v(p, "_l")
        final, lres = finals[0], lress[0]
    if rotate:
        w(f"      cake.tiles.yield %false, " + ", ".join(final) + f", {lres}, %bh, %m : "
          + ", ".join(carry_types))
        w(f"    }}")
        # The CTA's last tile, if it had any.
        w(f"    %ran = arith.xori %tr#0, %true : i1")
        w(f"    scf.if %ran {{")
        epilogue(" " * 6, "_t", [f"%tr#{1 + i}" for i in h], f"%tr#{1 + halves}",
                 f"%tr#{2 + halves}", f"%tr#{3 + halves}")
        w(f"    }}")
    else:
        for t, fin, lr in zip(T, finals, lress):
            epilogue(" " * 6, t, fin, lr, "%bh", "%m" + t)
        w(f"    }}")
    w(f"  }}")
    w(f"}}")
    return name, "\n".join(L) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="?", default=HERE)
    ap.add_argument("--overlap", type=int, default=1,
                    help="1: the software-pipelined key loop (default), "
                    "0: one step at a time")
    ap.add_argument("--ftz", type=int, default=1,
                    help="1: flush f32 denormals to zero (default)")
    ap.add_argument("--q-stages", type=int, choices=(1, 2),
                    help="stages of the query ring (2: the next tile's Q "
                    "loads during this one's key loop; the default beside "
                    "the staged epilogue where shared memory holds it)")
    ap.add_argument("--reverse", type=int, default=0,
                    help="1: walk each head's query tiles last first")
    ap.add_argument("--pingpong", type=int, default=1,
                    help="1: the consumer warpgroups take turns issuing "
                    "their wgmmas, descriptors in uniform registers "
                    "(default)")
    ap.add_argument("--rcp", type=int, default=1, choices=(0, 1),
                    help="1: the epilogue multiplies by 1 / l, one "
                    "reciprocal per row (default); 0: divides each element")
    ap.add_argument("--wgs", type=int, choices=(2, 3, 4),
                    help="consumer warpgroups for every kernel, 64 query "
                    "rows each (default: 3 for D = 64 without the mask, "
                    "2 otherwise)")
    ap.add_argument("--rotate", type=int, default=0, choices=(0, 1),
                    help="1: each tile's epilogue runs at the start of the "
                    "next, beside its first S = Q Kᵀ (a tile loop with "
                    "carried values; needs --overlap 1)")
    ap.add_argument("--p-bf16", type=int, choices=(0, 1),
                    help="1: P crosses the key loop packed to bf16 "
                    "(default: without the mask)")
    ap.add_argument("--load-regs", choices=("24", "32", "40", "56",
                                            "spill-free"),
                    help="registers of the copy warpgroup, the consumers "
                    "taking the rest (default 24; spill-free: 40 beside two "
                    "consumers but 24 for the masked D = 128 kernels, 32 "
                    "beside three)")
    ap.add_argument("--key-tile", type=int, default=128,
                    choices=(64, 128, 160, 176, 192),
                    help="keys per step of the key loop (176 and 192 need "
                    "--p-bf16 1 under the mask to fit regs(240), and "
                    "--wgs 2 at D = 64)")
    ap.add_argument("--kv-stages", type=int, default=2, choices=(2, 3, 4),
                    help="stages of the K and V rings")
    ap.add_argument("--slabs", type=int, default=1, choices=(1, 2),
                    help="2: query tiles of two slabs, each warpgroup 64 "
                    "rows of each (two fragments, as the GEMM ping-pong's "
                    "top and bottom), so each K and V tile serves twice "
                    "the rows (needs --key-tile 64 to fit the registers)")
    ap.add_argument("--staged-epilogue", type=int, choices=(0, 1),
                    help="1: the output through shared memory, stored by "
                    "the copy warpgroup with TMA one tile behind (the "
                    "default where shared memory holds it, with --rotate 0 "
                    "and --slabs 1); 0: stored from registers")
    ap.add_argument("--work-list", type=int, default=0, choices=(0, 1),
                    help="1: also write each causal kernel over a work list "
                    "(`_causal_wl`: the persistent CTAs walk the rows of a "
                    "host-built [tiles, 2] list of (head, first row), "
                    "dispatch.work_list_plan's longest-first dealing)")
    ap.add_argument("--fence-waits", type=int, default=0, choices=(0, 1),
                    help="1: a fence before each late wgmma wait, so that "
                    "ptxas keeps the softmax beside the previous P V")
    args = ap.parse_args()
    out = args.out
    os.makedirs(out, exist_ok=True)
    options = dict(overlap=bool(args.overlap), ftz=bool(args.ftz),
                   pingpong=bool(args.pingpong), q_stages=args.q_stages,
                   reverse=bool(args.reverse), rcp=bool(args.rcp),
                   rotate=bool(args.rotate),
                   fence_waits=bool(args.fence_waits),
                   key_tile=args.key_tile, kv_stages=args.kv_stages,
                   slabs=args.slabs,
                   staged=(None if args.staged_epilogue is None
                           else bool(args.staged_epilogue)),
                   load_regs=(args.load_regs
                              if args.load_regs in (None, "spill-free")
                              else int(args.load_regs)))
    kernels = []  # (d, causal, the kernel's options)
    for d in (64, 128):
        for causal in (False, True):
            # Causal tiles differ in work: the same kernel rasterized over
            # groups of 2 or 4 heads, for dispatch.causal_group_m to pick.
            # Measured on the H200 (attention run 17): without the mask,
            # P carried packed gained 5-8 % (S = 1024, D = 64) and three
            # consumer warpgroups a further 4-5 % at D = 64; with it, both
            # lost (the 192-row tiles' diagonal crosses two key tiles).
            wgs = args.wgs or (3 if d == 64 and not causal else 2)
            p_bf16 = (not causal) if args.p_bf16 is None else bool(args.p_bf16)
            for group_m in (1, 2, 4) if causal else (1,):
                kernels.append((d, causal, dict(options, group_m=group_m,
                                                wgs=wgs, p_bf16=p_bf16)))
            if causal and args.work_list:
                kernels.append((d, causal, dict(options, wgs=wgs,
                                                p_bf16=p_bf16,
                                                work_list=True)))
    if args.key_tile == 128 and args.slabs == 1 and args.wgs in (None, 2):
        # The long-sequence kernel (dispatch.LONG_S): 176-key steps,
        # FlashAttention-3's, 1.1-3.6 % faster than run 33's 128-key
        # kernel on unmasked D = 128 from S = 4096 on (H200) and slower at
        # S = 1024 (attention run 33). One Q stage and register stores:
        # the 176-key K and V stages leave no room for a second Q stage or
        # an output stage.
        kernels.append((128, False, dict(options, key_tile=176, wgs=2,
                                         p_bf16=True, suffix="_k176")))
    for d, causal, opts in kernels:
        name, text = kernel(d, causal, **opts)
        path = os.path.join(out, name + ".cake.mlir")
        with open(path, "w") as fh:
            fh.write(text)
        print("wrote", path)

if __name__ == "__main__":
    main()
