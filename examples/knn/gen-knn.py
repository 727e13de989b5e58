#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the KNN search kernels of examples/knn/.

For every query (a row of X, [Q, D] bf16 or f16) the k nearest rows of a
corpus C ([M, D], the same type) by squared Euclidean distance,

    ||x - c||^2 = ||x||^2 + ||c||^2 - 2 x.c,

with the norms given in fp32 (Xn, Cn) and x.c on the tensor cores (wgmma,
bf16 or f16 in, fp32 accumulate). The decisions, in the order they appear:

- a persistent schedule over (128-row query tile, corpus split): the
  corpus is cut into %Splits chunks of %Chunk rows (a multiple of 128,
  chosen by the host: few queries over a large corpus need many splits to
  fill the GPU), and each tile walks one chunk;
- a copy warpgroup (regs 40) that loads the query tile once (its 64-column
  slices are the stages of the query pipe) and streams the chunk's corpus
  tiles of 128 rows through a 4-stage ring;
- two consumer warpgroups (64 query rows each; `_w3`: three, 192-row
  tiles, taking turns at the tensor cores) that compute a distance tile
  per corpus tile in registers and merge it into per-row top-k lists
  (`cake.topk.insert`) kept across the chunk: the distance matrix never
  leaves registers; the chain retires late, where the distances are read;
  `_w1_bn64` (up to 64 queries): one consumer warpgroup, 64-row query and
  corpus tiles, a grid of two CTAs an SM instead of the persistent one
  (no setmaxnreg then; ptxas keeps each thread to 128 registers);
- corpus rows past M get ||c||^2 = +inf, which never enters a list;
- each split stores its lists to [m, sp] of the partial lists
  [Q, Splits, k] (k > 32: rank-major, [m, j, sp] of [Q, k, Splits] for
  the j-th best, so that the merge meets the candidates about in
  increasing order); with more than one split, `knn_merge_k{k}` (one
  warpgroup a 64-query tile) reads a query's Splits * k candidates as one
  row of the [Q, Splits * k] view, 64 columns a step (`cake.load`, past
  the row's end +inf; rank-major: the next step's loads issued first),
  and merges them with `cake.topk.insert ... indices` into the final
  [Q, k] lists.

The KNN-graph kernels (`knn_build_*`): the same with the corpus the
queries themselves (N points, one query tile per 64 * wgs rows, each
walking all of X, no splits), and on the corpus tiles that overlap the
query tile (a role-uniform `scf.if`) each row's own column masked to +inf
by `frag.iota` rows against columns: the graph excludes self.

Also the row-norms kernel (`row_norms_{bf16,f16}_dD`): ||row||^2 in fp32 for the
norms the search takes. dispatch.py picks the kernel and the splits for a
shape.

usage: gen-knn.py [OUT_DIR]   (the kernels examples/knn/ holds), or
       gen-knn.py OUT_DIR --split --d 64,128 [--k 10]   (fp32 KNN graphs
                                     from 3xbf16 products), or
       gen-knn.py OUT_DIR --table   (every kernel dispatch.py may pick, in
                                     bf16 and f16, and the fp32 graphs of
                                     dispatch.SPLIT_TABLE), or
       gen-knn.py OUT_DIR --d 64,128,256 [--k 10,16,32] [--wgs 1,2,3] [--build]
                  [--bn 64|128|256] [--stages S] [--retire-late 0|1]
                  [--dtype bf16,f16]
  (search kernels are written in both forms, taking the norms and _fused;
  one-warpgroup kernels with lists in shared memory also _fused_bound)
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import dispatch  # noqa: E402  (the table of kernels it picks from)


def copy_op(d, dtype):
    """The producer's box copy: TMA where the rows are a multiple of 16
    bytes apart, else cp.async pieces from every thread of the role
    (D = 100 in 16-bit types: 200-byte rows TMA cannot address)."""
    return "cake.tma.load" if d * 2 % 16 == 0 else "cake.cp_async.load"


def topk_type(rows, k):
    """Lists in registers up to k = 32 (4k registers a thread); past that
    in shared memory (`shared`: rows * k * 8 bytes, 7 registers)."""
    where = ", shared" if k > dispatch.REGISTER_K else ""
    return f"!cake.topk<{rows}x{k}xf32{where}>"


def partial_type(k, elem):
    """The search's partial lists: [Q, Splits, k], or [Q, k, Splits] where
    dispatch.rank_major(k)."""
    shape = f"?x{k}x?" if dispatch.rank_major(k) else f"?x?x{k}"
    return f"!cake.global<{shape}x{elem}>"


def kernel(d, k, stages=4, bn=128, wgs=2, name=None, retire_late=True,
           build=False, fused=False, dtype="bf16", split=False,
           bound=False):
    """The search kernel, or with `build` the KNN-graph kernel: queries and
    corpus are the same rows X, one chunk (the whole of X) a query tile,
    and a corpus tile that overlaps the query tile masks each row's own
    column to +inf (self is not its own neighbour). With `fused` (search
    only: `..._fused`), the kernel takes no norms: it reduces the query
    tile's and each corpus tile's rows from the stages the MMA reads
    (`cake.smem.reduce sum squared`), so the corpus is read once, not
    twice (few queries: the norms pass was a third of the time)."""
    assert not (build and fused), "the graph kernels take their norms"
    # `bound` (search only, `..._bound`): the kernel also takes %Bound, an
    # upper bound on each query row's k-th distance (the k-th of a sample
    # of the corpus: dispatch.bound_sample), and drops every candidate
    # above it before the lists see it, so that a split's list takes about
    # chunk * k / sample entries, not k (1 + ln(chunk / k)).
    assert not (bound and build)
    # `split` (build only): fp32 points as split_kernel's bf16 pieces, the
    # queries [xh | xl | xh] (%X) and the corpus [xh | xh | xl] (%XC), so
    # the products are 3xbf16; the norms are the fp32 rows'.
    assert not split or (build and dtype == "bf16")
    shown_d, shown_dtype = d, ("f32" if split else dtype)
    if split:
        d = 3 * split_width(d)
    halves = -(-d // 64)  # the copies zero-fill the columns past D
    rows = 64 * wgs  # query rows per tile: 64 per consumer warpgroup
    # One consumer warpgroup (`_w1`, search only): 64 query rows, a grid of
    # one CTA per (query tile, corpus split) instead of a persistent one,
    # and two CTAs an SM (no setmaxnreg then: ptxas holds every thread to
    # 128 registers), so that few queries keep two CTAs' loads and
    # insertions in flight on every SM rather than one CTA whose second
    # warpgroup holds no queries.
    assert wgs != 1 or not build, "the graph kernels take 2 or 3 warpgroups"
    regs = {1: None, 2: 232, 3: 152}[wgs]
    what = "build" if build else "search"
    name = name or (f"knn_{what}_{shown_dtype}_d{shown_d}_k{k}"
                    + {1: "_w1", 2: "", 3: "_w3"}[wgs]
                    + (f"_bn{bn}" if bn != 128 else "")
                    + ("_fused" if fused else "")
                    + ("_bound" if bound else ""))
    g = f"!cake.global<?x{d}x{dtype}>"
    xr = f"!cake.ring<{halves} x {rows}x64x{dtype}, swizzle = 128>"
    cr = f"!cake.ring<{stages} x {bn}x64x{dtype}, swizzle = 128>"
    tk = topk_type(rows, k)
    acc_t = f"!cake.frag<{rows}x{bn}xf32>"
    L = []
    w = L.append
    if build:
        w(f"// Generated by examples/knn/gen-knn.py: KNN build, {shown_dtype}, D = {shown_d},")
        w(f"// k = {k}. The k nearest other rows of each row of X by squared")
        w(f"// Euclidean distance: the k-nearest-neighbour graph.")
        if split:
            w(f"// fp32 points as bf16 pieces (knn_split3_f32_d{shown_d}): queries")
            w(f"// [xh | xl | xh] in %X, corpus [xh | xh | xl] in %XC, {d} columns.")
            w(f"cake.kernel @{name}(%X: {g}, %XC: {g}, %Xn: !cake.global<?xf32>,")
        else:
            w(f"cake.kernel @{name}(%X: {g}, %Xn: !cake.global<?xf32>,")
        w(f"    %Dist: !cake.global<?x{k}xf32>, %Idx: !cake.global<?x{k}xi32>)")
    else:
        w(f"// Generated by examples/knn/gen-knn.py: KNN search, {dtype}, D = {d},")
        w(f"// k = {k}. The k nearest corpus rows of each query by squared")
        w(f"// Euclidean distance, per corpus split (see the generator).")
        w(f"cake.kernel @{name}(%X: {g}, %C: {g},")
        if not fused:
            w(f"    %Xn: !cake.global<?xf32>, %Cn: !cake.global<?xf32>,")
        if bound:
            w(f"    %Bound: !cake.global<?xf32>,")
        w(f"    %Dist: {partial_type(k, 'f32')}, %Idx: {partial_type(k, 'i32')},")
        w(f"    %Splits: index, %Chunk: index)")
    # The corpus and its norms: X and Xn themselves when building a graph.
    C, Cn = (("%XC" if split else "%X"), "%Xn") if build else ("%C", "%Cn")
    tiles = "cake.tiles (%m) in (%Q)" if build else \
        "cake.tiles (%m, %sp) in (%Q, %Splits)"
    w(f"    attributes {{target = #cake.target<\"sm_90a\">,")
    # retire-late: the chain's last wgmma retires where the distances are
    # read, so the ||c||^2 loads issue beside it. Three warpgroups take
    # turns issuing their chains (wg-order), so one's filter runs beside
    # another's products. KNN run 4: each the fastest of its kind.
    extra = ""
    if retire_late:
        extra += ",\n                cake.retire_late = true"
    if wgs == 3:
        extra += (",\n                cake.mma_chain = true,"
                  "\n                cake.wg_order = true")
    tile = f"[{rows}]" if build else f"[{rows}, 1]"
    if wgs == 1:
        w(f"                schedule = #cake.grid<tile = {tile}>,")
        w(f"                cake.ctas_per_sm = 2" + extra + "} {")
    else:
        w(f"                schedule = #cake.persistent<tile = {tile}, "
          f"group_m = 1>" + extra + "} {")
    w(f"  %x = cake.ring : {xr}")
    w(f"  %c = cake.ring : {cr}")
    w(f"  %px = cake.pipe %x : {xr}")
    w(f"  %pc = cake.pipe %c : {cr}")

    def common(p):
        w(f"{p}%Q = cake.dim %X, 0 : {g}")
        w(f"{p}%M = cake.dim {C}, 0 : {g}")
        w(f"{p}%cbn = arith.constant {bn} : index")
        if build:
            w(f"{p}%crows = arith.constant {rows} : index")
        for i in range(halves):
            w(f"{p}%d{i} = arith.constant {64 * i} : index")

    def chunk(p):
        if build:  # all of X
            w(f"{p}%n0 = arith.constant 0 : index")
            w(f"{p}%n1 = arith.addi %n0, %M : index")
            return
        # The chunk of corpus rows this tile walks: [n0, min(n0 + Chunk, M)).
        w(f"{p}%n0 = arith.muli %sp, %Chunk : index")
        w(f"{p}%end = arith.addi %n0, %Chunk : index")
        w(f"{p}%n1 = arith.minui %end, %M : index")

    copy = copy_op(d, dtype)
    load_regs = "" if regs is None else " regs(40)"
    w(f"  cake.role \"load\" warpgroups(1){load_regs} {{")
    common("    ")
    w(f"    {tiles} {{")
    for i in range(halves):
        w(f"      %sx{i} = cake.pipe.acquire %px : !cake.pipe<{halves}>")
        w(f"      {copy} %X[%m, %d{i}] -> %x[%sx{i}] : {g} -> {xr}")
        w(f"      cake.pipe.commit %px, %sx{i} : !cake.pipe<{halves}>")
    chunk("      ")
    w(f"      scf.for %n = %n0 to %n1 step %cbn {{")
    for i in range(halves):
        w(f"        %s{i} = cake.pipe.acquire %pc : !cake.pipe<{stages}>")
        w(f"        {copy} {C}[%n, %d{i}] -> %c[%s{i}] : {g} -> {cr}")
        w(f"        cake.pipe.commit %pc, %s{i} : !cake.pipe<{stages}>")
    w(f"      }}")
    w(f"    }}")
    w(f"  }}")

    search_regs = "" if regs is None else f" regs({regs})"
    w(f"  cake.role \"search\" warpgroups({wgs}){search_regs} {{")
    common("    ")
    w(f"    %inf = arith.constant 0x7F800000 : f32")
    if fused:
        w(f"    %mi = arith.index_cast %M : index to i32")
    w(f"    {tiles} {{")
    for i in range(halves):
        w(f"      %sx{i} = cake.pipe.wait %px : !cake.pipe<{halves}>")
    w(f"      // Query rows past Q: +inf, so their candidates never pass the")
    w(f"      // filter (no insertion work for a tile's padding).")
    if fused:
        xs = ", ".join(f"%sx{i}" for i in range(halves))
        w(f"      %xs = cake.smem.reduce sum squared %x[{xs}] : {xr} -> !cake.frag<{rows}x1xf32>")
        w(f"      %qi = arith.index_cast %Q : index to i32")
        w(f"      %xrow = cake.frag.iota base %m : !cake.frag<{rows}x1xi32>")
        w(f"      %xn = cake.frag.map %xs, %xrow")
        w(f"          : (!cake.frag<{rows}x1xf32>, !cake.frag<{rows}x1xi32>) -> !cake.frag<{rows}x1xf32> {{")
        w(f"      ^bb0(%xv: f32, %xr: i32):")
        w(f"        %xin = arith.cmpi ult, %xr, %qi : i32")
        w(f"        %xm = arith.select %xin, %xv, %inf : f32")
        w(f"        cake.frag.yield %xm : f32")
        w(f"      }}")
    else:
        w(f"      %xn = cake.load %Xn[%m] pad %inf : !cake.global<?xf32> -> !cake.frag<{rows}x1xf32>")
    if bound:
        # The bound with a relative slack of 2^-20: the sample's own k-th
        # candidate must pass, whatever the rounding.
        w(f"      %tau = cake.load %Bound[%m] pad %inf : !cake.global<?xf32> -> !cake.frag<{rows}x1xf32>")
        w(f"      %tb = cake.frag.map %tau : (!cake.frag<{rows}x1xf32>) -> !cake.frag<{rows}x1xf32> {{")
        w(f"      ^bb0(%tv: f32):")
        w(f"        %slack = arith.constant 9.5367431640625e-07 : f32")
        w(f"        %ta = math.absf %tv : f32")
        w(f"        %tt = arith.mulf %ta, %slack : f32")
        w(f"        %tw = arith.addf %tv, %tt : f32")
        w(f"        cake.frag.yield %tw : f32")
        w(f"      }}")
    w(f"      %l0 = cake.topk.init : {tk}")
    chunk("      ")
    w(f"      %lists = scf.for %n = %n0 to %n1 step %cbn")
    w(f"          iter_args(%l = %l0) -> ({tk}) {{")
    acc = "%zero"
    w(f"        %zero = cake.frag.zero : {acc_t}")
    if fused:
        # The tile's norms before its products: the reduction meets the
        # role's threads, so no wgmma group may be in flight across it.
        for i in range(halves):
            w(f"        %s{i} = cake.pipe.wait %pc : !cake.pipe<{stages}>")
        cs = ", ".join(f"%s{i}" for i in range(halves))
        w(f"        %cs = cake.smem.reduce sum squared %c[{cs}] : {cr} -> !cake.frag<1x{bn}xf32>")
        for i in range(halves):
            w(f"        %dot{i} = cake.mma wgmma %x[%sx{i}], %c[%s{i}], {acc}")
            w(f"          : {xr}, {cr}, {acc_t}")
            w(f"        cake.pipe.release %pc, %s{i} : !cake.pipe<{stages}>")
            acc = f"%dot{i}"
        w(f"        // Corpus rows past M (zeros from TMA): +inf, which never")
        w(f"        // enters a list.")
        w(f"        %ccol = cake.frag.iota base %n : !cake.frag<1x{bn}xi32>")
        w(f"        %cn = cake.frag.map %cs, %ccol")
        w(f"            : (!cake.frag<1x{bn}xf32>, !cake.frag<1x{bn}xi32>) -> !cake.frag<1x{bn}xf32> {{")
        w(f"        ^bb0(%cv: f32, %cc: i32):")
        w(f"          %cin = arith.cmpi ult, %cc, %mi : i32")
        w(f"          %cm = arith.select %cin, %cv, %inf : f32")
        w(f"          cake.frag.yield %cm : f32")
        w(f"        }}")
    else:
        for i in range(halves):
            w(f"        %s{i} = cake.pipe.wait %pc : !cake.pipe<{stages}>")
            w(f"        %dot{i} = cake.mma wgmma %x[%sx{i}], %c[%s{i}], {acc}")
            w(f"          : {xr}, {cr}, {acc_t}")
            w(f"        cake.pipe.release %pc, %s{i} : !cake.pipe<{stages}>")
            acc = f"%dot{i}"
        w(f"        // Corpus rows past M: +inf, which never enters a list.")
        w(f"        %cn = cake.load {Cn}[%n] pad %inf : !cake.global<?xf32> -> !cake.frag<1x{bn}xf32>")
    row1 = f"!cake.frag<{rows}x1xf32>"
    w(f"        %dist = cake.frag.map {acc}, %cn, %xn" + (", %tb" if bound else ""))
    w(f"            : ({acc_t}, !cake.frag<1x{bn}xf32>, {row1}"
      + (f", {row1})" if bound else ")"))
    w(f"            -> {acc_t} {{")
    w(f"        ^bb0(%xc: f32, %c2: f32, %x2: f32" + (", %bv: f32):" if bound else "):"))
    w(f"          %two = arith.constant -2.0 : f32")
    w(f"          %t = arith.mulf %xc, %two : f32")
    w(f"          %u = arith.addf %t, %c2 : f32")
    w(f"          %dd = arith.addf %u, %x2 : f32")
    if bound:
        w(f"          // Above the bound (or NaN): +inf, which never enters.")
        w(f"          %in = arith.cmpf ole, %dd, %bv : f32")
        w(f"          %db = arith.select %in, %dd, %inf : f32")
        w(f"          cake.frag.yield %db : f32")
    else:
        w(f"          cake.frag.yield %dd : f32")
    w(f"        }}")
    cand = "%dist"
    if build:
        cand = "%cand"
        w(f"        // A corpus tile that overlaps the query tile: each row's own")
        w(f"        // column is +inf (self is not its own neighbour).")
        w(f"        %mtop = arith.addi %m, %crows : index")
        w(f"        %nend = arith.addi %n, %cbn : index")
        w(f"        %below = arith.cmpi ult, %n, %mtop : index")
        w(f"        %above = arith.cmpi ult, %m, %nend : index")
        w(f"        %diag = arith.andi %below, %above : i1")
        w(f"        %cand = scf.if %diag -> ({acc_t}) {{")
        w(f"          %cols = cake.frag.iota base %n : !cake.frag<1x{bn}xi32>")
        w(f"          %rowi = cake.frag.iota base %m : !cake.frag<{rows}x1xi32>")
        w(f"          %masked = cake.frag.map %dist, %cols, %rowi")
        w(f"              : ({acc_t}, !cake.frag<1x{bn}xi32>, !cake.frag<{rows}x1xi32>)")
        w(f"              -> {acc_t} {{")
        w(f"          ^bb0(%dv: f32, %col: i32, %row: i32):")
        w(f"            %same = arith.cmpi eq, %col, %row : i32")
        w(f"            %dself = arith.select %same, %inf, %dv : f32")
        w(f"            cake.frag.yield %dself : f32")
        w(f"          }}")
        w(f"          scf.yield %masked : {acc_t}")
        w(f"        }} else {{")
        w(f"          scf.yield %dist : {acc_t}")
        w(f"        }}")
    w(f"        %l2 = cake.topk.insert %l, {cand} base %n : {tk}, {acc_t}")
    w(f"        scf.yield %l2 : {tk}")
    w(f"      }}")
    for i in range(halves):
        w(f"      cake.pipe.release %px, %sx{i} : !cake.pipe<{halves}>")
    if build:
        w(f"      %left = arith.subi %Q, %m : index")
        w(f"      cake.topk.store %lists -> %Dist, %Idx[%m] rows %left")
        w(f"        : {tk} -> !cake.global<?x{k}xf32>, !cake.global<?x{k}xi32>")
    else:
        if dispatch.rank_major(k):
            w(f"      // Split sp's j-th best goes to [m, j, sp] of the [Q, k, Splits]")
            w(f"      // partial lists, beside the other splits' j-th best: knn_merge")
            w(f"      // reads a query's row about in increasing order.")
            w(f"      cake.topk.store %lists -> %Dist, %Idx[%m, %sp] rank_major")
        else:
            w(f"      // Split sp's lists go to [m, sp] of the [Q, Splits, k] partial")
            w(f"      // lists, beside the other splits' (knn_merge reads a query's")
            w(f"      // Splits * k candidates as one row).")
            w(f"      cake.topk.store %lists -> %Dist, %Idx[%m, %sp]")
        w(f"        : {tk} -> {partial_type(k, 'f32')}, {partial_type(k, 'i32')}")
    w(f"    }}")
    w(f"  }}")
    w(f"}}")
    return name, "\n".join(L) + "\n"


def merge_kernel(k, cols=64, prefetch=False, early_exit=None, name=None):
    """The k best of each row of [Q, W] partial lists (values and indices,
    W = Splits * k): the second step of a search over corpus splits.
    `cols` columns a step: KNN run 9 timed 64 and 128, and 32 and 64 with
    the next step's loads issued before this step's insertion, all within
    a few microseconds (the insertion, not the loads, bounds it); 64 is
    the widest that does not spill. With `prefetch` the next step's
    columns are loaded before this step's insertion (KNN run 20: 0.27
    against 0.32 ms at 1 x 1M, k = 100 rank-major). `early_exit` (by
    default where the partial lists are rank-major: dispatch.rank_major)
    prefetches and stops once the lists refuse a whole band of columns
    (below)."""
    if early_exit is None:
        early_exit = dispatch.rank_major(k)
    name = name or f"knn_merge_k{k}"
    tk = topk_type(64, k)
    L = []
    w = L.append
    w(f"// Generated by examples/knn/gen-knn.py: the merge of a KNN search's")
    w(f"// corpus splits. Row q of the [Q, W] partial lists (W = Splits * {k}:")
    w(f"// each split's {k} best of query q) to the row's {k} best, ties to the")
    w(f"// lower index.")
    if early_exit:
        w(f"// The lists must be rank-major ([Q, {k}, Splits], each sorted: the")
        w(f"// search's topk.store ... rank_major): the merge stops once Splits")
        w(f"// consecutive columns are refused, which is exact only in that order.")
    w(f"cake.kernel @{name}(%PD: !cake.global<?x?xf32>, %PI: !cake.global<?x?xi32>,")
    w(f"    %Dist: !cake.global<?x{k}xf32>, %Idx: !cake.global<?x{k}xi32>)")
    w(f"    attributes {{target = #cake.target<\"sm_90a\">,")
    w(f"                schedule = #cake.persistent<tile = [64], group_m = 1>}} {{")
    w(f"  cake.role \"merge\" warpgroups(1) {{")
    w(f"    %Q = cake.dim %PD, 0 : !cake.global<?x?xf32>")
    w(f"    %W = cake.dim %PD, 1 : !cake.global<?x?xf32>")
    w(f"    %c0 = arith.constant 0 : index")
    w(f"    %cols = arith.constant {cols} : index")
    w(f"    %inf = arith.constant 0x7F800000 : f32")
    w(f"    %none = arith.constant -1 : i32")
    w(f"    cake.tiles (%m) in (%Q) {{")
    fd, fi = f"!cake.frag<64x{cols}xf32>", f"!cake.frag<64x{cols}xi32>"
    gd, gi = "!cake.global<?x?xf32>", "!cake.global<?x?xi32>"
    w(f"      %l0 = cake.topk.init : {tk}")
    if early_exit:
        # Rank-major partial lists ([Q, k, S] viewed as [Q, k S]): every
        # list's j-th entry comes before any list's (j+1)-th. Once S
        # consecutive columns (one entry of each list) are refused, no
        # later one can enter (each list is sorted, the lists' largest
        # entries only decrease): the steps after that skip their loads
        # and insertion (`%quiet` counts the refused columns).
        w(f"      %kk = arith.constant {k} : index")
        w(f"      %S = arith.divui %W, %kk : index")
        w(f"      // Columns past W and rows past Q: +inf, never a candidate.")
        w(f"      %pd0 = cake.load %PD[%m, %c0] pad %inf : {gd} -> {fd}")
        w(f"      %pi0 = cake.load %PI[%m, %c0] pad %none : {gi} -> {fi}")
        w(f"      %lists, %pdl, %pil, %ql = scf.for %c = %c0 to %W step %cols")
        w(f"          iter_args(%l = %l0, %pd = %pd0, %pi = %pi0, %quiet = %c0)")
        w(f"          -> ({tk}, {fd}, {fi}, index) {{")
        w(f"        %live = arith.cmpi ult, %quiet, %S : index")
        w(f"        %r:4 = scf.if %live -> ({tk}, {fd}, {fi}, index) {{")
        w(f"          // The next step's columns, in flight during this insertion.")
        w(f"          %cn = arith.addi %c, %cols : index")
        w(f"          %pdn = cake.load %PD[%m, %cn] pad %inf : {gd} -> {fd}")
        w(f"          %pin = cake.load %PI[%m, %cn] pad %none : {gi} -> {fi}")
        w(f"          %more = cake.topk.admits %l, %pd indices %pi : {tk}, {fd}, {fi}")
        w(f"          %l2 = cake.topk.insert %l, %pd indices %pi : {tk}, {fd}, {fi}")
        w(f"          %refused = arith.addi %quiet, %cols : index")
        w(f"          %q2 = arith.select %more, %c0, %refused : index")
        w(f"          scf.yield %l2, %pdn, %pin, %q2 : {tk}, {fd}, {fi}, index")
        w(f"        }} else {{")
        w(f"          scf.yield %l, %pd, %pi, %quiet : {tk}, {fd}, {fi}, index")
        w(f"        }}")
        w(f"        scf.yield %r#0, %r#1, %r#2, %r#3 : {tk}, {fd}, {fi}, index")
        w(f"      }}")
    elif prefetch:
        w(f"      // Columns past W and rows past Q: +inf, never a candidate.")
        w(f"      %pd0 = cake.load %PD[%m, %c0] pad %inf : {gd} -> {fd}")
        w(f"      %pi0 = cake.load %PI[%m, %c0] pad %none : {gi} -> {fi}")
        w(f"      %lists, %pdl, %pil = scf.for %c = %c0 to %W step %cols")
        w(f"          iter_args(%l = %l0, %pd = %pd0, %pi = %pi0) -> ({tk}, {fd}, {fi}) {{")
        w(f"        // The next step's columns, in flight during this insertion.")
        w(f"        %cn = arith.addi %c, %cols : index")
        w(f"        %pdn = cake.load %PD[%m, %cn] pad %inf : {gd} -> {fd}")
        w(f"        %pin = cake.load %PI[%m, %cn] pad %none : {gi} -> {fi}")
        w(f"        %l2 = cake.topk.insert %l, %pd indices %pi : {tk}, {fd}, {fi}")
        w(f"        scf.yield %l2, %pdn, %pin : {tk}, {fd}, {fi}")
        w(f"      }}")
    else:
        w(f"      %lists = scf.for %c = %c0 to %W step %cols")
        w(f"          iter_args(%l = %l0) -> ({tk}) {{")
        w(f"        // Columns past W and rows past Q: +inf, never a candidate.")
        w(f"        %pd = cake.load %PD[%m, %c] pad %inf : {gd} -> {fd}")
        w(f"        %pi = cake.load %PI[%m, %c] pad %none : {gi} -> {fi}")
        w(f"        %l2 = cake.topk.insert %l, %pd indices %pi : {tk}, {fd}, {fi}")
        w(f"        scf.yield %l2 : {tk}")
        w(f"      }}")
    w(f"      cake.topk.store %lists -> %Dist, %Idx[%m]")
    w(f"        : {tk} -> !cake.global<?x{k}xf32>, !cake.global<?x{k}xi32>")
    w(f"    }}")
    w(f"  }}")
    w(f"}}")
    return name, "\n".join(L) + "\n"


split_width = dispatch.split_width


def split_kernel(d):
    """fp32 rows as bf16 pieces for products of about fp32 accuracy
    (3xbf16): x = xh + xl with xh = bf16(x), xl = bf16(x - xh). The
    queries become [xh | xl | xh] and the corpus [xh | xh | xl] (each
    piece split_width(d) columns), so that one bf16 product of the two is
    xh.ch + xl.ch + xh.cl: the dropped xl.cl is about 2^-16 of x.c. Also
    ||x||^2 in fp32 from the fp32 rows (exact norms, as the distances
    need)."""
    p = split_width(d)
    blocks = p // 64
    name = f"knn_split3_f32_d{d}"
    gx = f"!cake.global<?x{d}xf32>"
    gs = f"!cake.global<?x{3 * p}xbf16>"
    ff, fb = "!cake.frag<64x64xf32>", "!cake.frag<64x64xbf16>"
    L = []
    w = L.append
    w(f"// Generated by examples/knn/gen-knn.py: fp32 rows of D = {d} as bf16")
    w(f"// pieces (3xbf16 products): queries [xh | xl | xh], corpus")
    w(f"// [xh | xh | xl], {p} columns a piece, and ||x||^2 in fp32.")
    w(f"cake.kernel @{name}(%X: {gx}, %XQ: {gs}, %XC: {gs},")
    w(f"    %Xn: !cake.global<?xf32>)")
    w(f"    attributes {{target = #cake.target<\"sm_90a\">,")
    w(f"                schedule = #cake.persistent<tile = [64], group_m = 1>}} {{")
    w(f"  cake.role \"split\" warpgroups(1) {{")
    w(f"    %N = cake.dim %X, 0 : {gx}")
    w(f"    %zero = arith.constant 0.0 : f32")
    for c in sorted({64 * j + o for j in range(blocks) for o in (0, p, 2 * p)}):
        w(f"    %c{c} = arith.constant {c} : index")
    w(f"    cake.tiles (%m) in (%N) {{")
    prev = None
    for j in range(blocks):
        c = 64 * j
        w(f"      // Columns past D (and rows past N): zeros.")
        w(f"      %x{j} = cake.load %X[%m, %c{c}] pad %zero : {gx} -> {ff}")
        w(f"      %h{j} = cake.frag.convert %x{j} : {ff} -> {fb}")
        w(f"      %hf{j} = cake.frag.convert %h{j} : {fb} -> {ff}")
        w(f"      %r{j} = cake.frag.map %x{j}, %hf{j} : ({ff}, {ff}) -> {ff} {{")
        w(f"      ^bb0(%v: f32, %vh: f32):")
        w(f"        %vl = arith.subf %v, %vh : f32")
        w(f"        cake.frag.yield %vl : f32")
        w(f"      }}")
        w(f"      %l{j} = cake.frag.convert %r{j} : {ff} -> {fb}")
        for piece, (q, cpiece) in enumerate(((f"%h{j}", f"%h{j}"),
                                              (f"%l{j}", f"%h{j}"),
                                              (f"%h{j}", f"%l{j}"))):
            at = f"%c{c + piece * p}"
            w(f"      cake.store {q} -> %XQ[%m, {at}] : {fb} -> {gs}")
            w(f"      cake.store {cpiece} -> %XC[%m, {at}] : {fb} -> {gs}")
        w(f"      %q{j} = cake.frag.map %x{j} : ({ff}) -> {ff} {{")
        w(f"      ^bb0(%v: f32):")
        w(f"        %vv = arith.mulf %v, %v : f32")
        w(f"        cake.frag.yield %vv : f32")
        w(f"      }}")
        w(f"      %s{j} = cake.frag.reduce sum %q{j} : {ff} -> !cake.frag<64x1xf32>")
        if prev is None:
            prev = f"%s{j}"
        else:
            w(f"      %a{j} = cake.frag.map {prev}, %s{j} : (!cake.frag<64x1xf32>, !cake.frag<64x1xf32>) -> !cake.frag<64x1xf32> {{")
            w(f"      ^bb0(%u: f32, %v: f32):")
            w(f"        %uv = arith.addf %u, %v : f32")
            w(f"        cake.frag.yield %uv : f32")
            w(f"      }}")
            prev = f"%a{j}"
    w(f"      cake.store {prev} -> %Xn[%m] : !cake.frag<64x1xf32> -> !cake.global<?xf32>")
    w(f"    }}")
    w(f"  }}")
    w(f"}}")
    return name, "\n".join(L) + "\n"


def norms_kernel(d, stages=4, dtype="bf16"):
    """||row||^2 in fp32 of a [M, D] bf16 or f16 tensor: the corpus norms
    the search takes (and the queries'), read once at the copy engines'
    pace."""
    halves = -(-d // 64)  # TMA zero-fills the columns past D
    name = f"row_norms_{dtype}_d{d}"
    g = f"!cake.global<?x{d}x{dtype}>"
    r = f"!cake.ring<{stages} x 128x64x{dtype}, swizzle = 128>"
    L = []
    w = L.append
    w(f"// Generated by examples/knn/gen-knn.py: the squared norm of each row")
    w(f"// of a [M, {d}] {dtype} tensor, in fp32 (the KNN search's ||c||^2).")
    w(f"cake.kernel @{name}(%C: {g}, %Cn: !cake.global<?xf32>)")
    w(f"    attributes {{target = #cake.target<\"sm_90a\">,")
    w(f"                schedule = #cake.persistent<tile = [128], group_m = 1>}} {{")
    w(f"  %c = cake.ring : {r}")
    w(f"  %pc = cake.pipe %c : {r}")
    w(f"  cake.role \"load\" warpgroups(1) regs(40) {{")
    w(f"    %M = cake.dim %C, 0 : {g}")
    for i in range(halves):
        w(f"    %d{i} = arith.constant {64 * i} : index")
    w(f"    cake.tiles (%m) in (%M) {{")
    for i in range(halves):
        w(f"      %s{i} = cake.pipe.acquire %pc : !cake.pipe<{stages}>")
        w(f"      {copy_op(d, dtype)} %C[%m, %d{i}] -> %c[%s{i}] : {g} -> {r}")
        w(f"      cake.pipe.commit %pc, %s{i} : !cake.pipe<{stages}>")
    w(f"    }}")
    w(f"  }}")
    w(f"  cake.role \"norm\" warpgroups(2) regs(232) {{")
    w(f"    %M = cake.dim %C, 0 : {g}")
    w(f"    cake.tiles (%m) in (%M) {{")
    prev = None
    for i in range(halves):
        w(f"      %s{i} = cake.pipe.wait %pc : !cake.pipe<{stages}>")
        w(f"      %t{i} = cake.smem.read %c[%s{i}] : {r} -> !cake.frag<128x64x{dtype}>")
        w(f"      cake.pipe.release %pc, %s{i} : !cake.pipe<{stages}>")
        w(f"      %f{i} = cake.frag.convert %t{i} : !cake.frag<128x64x{dtype}> -> !cake.frag<128x64xf32>")
        w(f"      %q{i} = cake.frag.map %f{i} : (!cake.frag<128x64xf32>) -> !cake.frag<128x64xf32> {{")
        w(f"      ^bb0(%v: f32):")
        w(f"        %vv = arith.mulf %v, %v : f32")
        w(f"        cake.frag.yield %vv : f32")
        w(f"      }}")
        w(f"      %r{i} = cake.frag.reduce sum %q{i} : !cake.frag<128x64xf32> -> !cake.frag<128x1xf32>")
        if prev is not None:
            w(f"      %a{i} = cake.frag.map {prev}, %r{i} : (!cake.frag<128x1xf32>, !cake.frag<128x1xf32>) -> !cake.frag<128x1xf32> {{")
            w(f"      ^bb0(%u: f32, %v: f32):")
            w(f"        %uv = arith.addf %u, %v : f32")
            w(f"        cake.frag.yield %uv : f32")
            w(f"      }}")
            prev = f"%a{i}"
        else:
            prev = f"%r{i}"
    w(f"      cake.store {prev} -> %Cn[%m] : !cake.frag<128x1xf32> -> !cake.global<?xf32>")
    w(f"    }}")
    w(f"  }}")
    w(f"}}")
    return name, "\n".join(L) + "\n"


# What examples/knn/ holds: the D = 128 kernels, for reading and the tests.
COMMITTED = [(False, 128, 10, 1), (False, 128, 10, 2), (False, 128, 10, 3),
             (True, 128, 10, 3)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default=HERE)
    ap.add_argument("--d", help="head dims (default: the committed set)")
    ap.add_argument("--k", default="10")
    ap.add_argument("--bn", type=int, default=None, choices=(64, 128, 256),
                    help="corpus rows a tile (default 128; 64 for --wgs 1)")
    ap.add_argument("--stages", type=int, default=4)
    ap.add_argument("--wgs", default="2,3",
                    help="consumer warpgroups (64 query rows each)")
    ap.add_argument("--retire-late", type=int, default=1, choices=(0, 1))
    ap.add_argument("--build", action="store_true",
                    help="the KNN-graph kernels (knn_build_*) instead")
    ap.add_argument("--table", action="store_true",
                    help="every kernel dispatch.py may pick (in every dtype)")
    ap.add_argument("--dtype", default="bf16",
                    help="input types, of dispatch.DTYPES (default bf16)")
    ap.add_argument("--split", action="store_true",
                    help="fp32 KNN-graph kernels of 3xbf16 products for --d "
                    "and --k (knn_build_f32_*, two consumer warpgroups; "
                    "D > 128 with --stages 2 to fit shared memory) and "
                    "their split kernels (knn_split3_f32_*)")
    a = ap.parse_args()
    def write_split(pairs):
        for d, k in pairs:
            name, text = kernel(d, k, stages=a.stages if d <= 128 else 2,
                                wgs=2, build=True, split=True,
                                retire_late=bool(a.retire_late))
            with open(os.path.join(a.out, name + ".cake.mlir"), "w") as f:
                f.write(text)
        for d in sorted({d for d, _ in pairs}):
            name, text = split_kernel(d)
            with open(os.path.join(a.out, name + ".cake.mlir"), "w") as f:
                f.write(text)

    if a.split:
        if not a.d:
            ap.error("--split takes --d")
        write_split([(d, k) for d in map(int, a.d.split(","))
                     for k in map(int, a.k.split(","))])
        return
    if a.table:
        write_split(dispatch.SPLIT_TABLE)
    dtypes = list(dispatch.DTYPES) if a.table else a.dtype.split(",")
    for dt in dtypes:
        if dt not in dispatch.DTYPES:
            ap.error(f"--dtype {dt}: expected one of {dispatch.DTYPES}")
    if a.table:
        todo = dispatch.TABLE
    elif a.d:
        todo = [(a.build, d, k, w) for d in map(int, a.d.split(","))
                for k in map(int, a.k.split(","))
                for w in map(int, a.wgs.split(","))]
    else:
        todo = COMMITTED
    for (build, d, k, wgs), dt in ((t, dt) for t in todo for dt in dtypes):
        # Search kernels in both forms: taking the norms, and _fused.
        for fused in (False,) if build else (False, True):
            # The one-warpgroup kernels take 64-row corpus tiles (at 128,
            # ptxas spills 300-500 bytes under their 128 registers).
            bn = a.bn or (64 if wgs == 1 else 128)
            name, text = kernel(d, k, stages=a.stages, bn=bn, wgs=wgs,
                                retire_late=bool(a.retire_late), build=build,
                                fused=fused, dtype=dt)
            with open(os.path.join(a.out, name + ".cake.mlir"), "w") as f:
                f.write(text)
            # The bounded second pass of few queries with shared lists
            # (dispatch.bound_sample): _fused_bound.
            if fused and wgs == 1 and k > dispatch.REGISTER_K:
                name, text = kernel(d, k, stages=a.stages, bn=bn, wgs=wgs,
                                    retire_late=bool(a.retire_late),
                                    fused=True, dtype=dt, bound=True)
                with open(os.path.join(a.out, name + ".cake.mlir"),
                          "w") as f:
                    f.write(text)
    # The merge of a search's corpus splits, for each k searched.
    for k in sorted({k for build, _, k, _ in todo if not build}):
        name, text = merge_kernel(k)
        with open(os.path.join(a.out, name + ".cake.mlir"), "w") as f:
            f.write(text)
    for d, dt in ((d, dt) for d in sorted({d for _, d, _, _ in todo})
                  for dt in dtypes):
        name, text = norms_kernel(d, dtype=dt)
        with open(os.path.join(a.out, name + ".cake.mlir"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
