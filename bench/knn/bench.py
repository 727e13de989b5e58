#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""KNN search on the GPU: Cake's kernels beside flashlib's Triton path.

For each shape (Q queries, M corpus rows, D, k): fresh standard normal bf16
(or --dtype f16) queries and corpus; Cake's search (the norms in fp32 by the row_norms
kernel or, in the _fused kernels, from the search's own stages; the search kernel and corpus splits examples/knn/dispatch.py picks,
and for more than one split the knn_merge kernel: all of it timed) and flashlib's `flash_knn_triton` plus its
`triton_knn_gather_sqdist` (what `flash_knn` runs on its Triton backend to
return distances with the indices) are checked against an fp32 brute force
on a sample of queries, then timed interleaved (CUDA events, median).

The check (the issue's): every returned index is a true neighbour up to
fp32 ties: its exact distance is at most the exact k-th distance plus a
tolerance (1e-4 of ||x||² + max ||c||², fp32 rounding of the expansion),
no index repeats, and the returned distances are within that tolerance of
the exact ones.

flashlib's package __init__ imports its CuteDSL backend (nvidia-cutlass-dsl,
absent here): its Triton modules are loaded under stub parent packages.

--portfolio runs the issue's search portfolio (bench/portfolio/shapes.py:
every shape of --dtype that dispatch.py has a kernel for; the others are
recorded with the reason; --max-q N keeps those of at most N queries),
--shard I/N takes every N-th shape from the I-th, --w1-max-q N sets the
dispatcher's bound for the one-warpgroup kernels (run 14 compared 0 and
64), --spread-max-q N its bound for spreading few queries over the
warps (0: none), --lean times only the searches (not their parts), each
for about 0.2 s a round, and --time-limit stops starting shapes after
that many seconds (those left are recorded as not run). The
JSON is rewritten after every shape, so a run cut short keeps its rows.

usage: bench.py --runtime LIB --bundles [NAME=]DIR,... --peer FLASHLIB_DIR
                [--shapes Q:M:D:k,... | --portfolio [--max-q N]] [--lean]
                [--shard I/N] [--w1-max-q N] [--spread-max-q N]
                [--time-limit S] [--rounds 3] [--out results.json]
"""
import argparse
import ctypes
import importlib.util
import json
import math
import os
import sys
import types

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from cake_rt import (CakeRtArg, load_bundle, load_runtime,  # noqa: E402
                     tensor_arg, time_ms)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "examples", "knn"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "portfolio"))
import dispatch  # noqa: E402
import shapes as portfolio  # noqa: E402

DEFAULT_SHAPES = ("1:1048576:128:10,16:1048576:128:10,256:1048576:128:10,"
                  "4096:1048576:128:10,1024:131072:128:10,4096:4194304:128:10")
SAMPLE = 64  # queries checked per shape


def scalar_arg(v):
    a = CakeRtArg()
    a.isScalar = 1
    a.scalar = v
    return a


def load_flashlib(peer):
    for name in ("flashlib", "flashlib.primitives", "flashlib.primitives.knn"):
        m = types.ModuleType(name)
        m.__path__ = [os.path.join(peer, *name.split("."))]
        sys.modules[name] = m
    from flashlib.primitives.knn.triton.dispatch import flash_knn_triton
    spec = importlib.util.spec_from_file_location(
        "flashlib_gather", os.path.join(
            peer, "flashlib/kernels/distance/triton/knn_gather_l2sq.py"))
    g = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(g)
    return flash_knn_triton, g.triton_knn_gather_sqdist


def check(x, c, dist, idx, k, sample, exclude_self=False, ordered=True):
    """Worst violation over the sampled queries (0 when all hold). With
    `exclude_self` (a KNN graph, c is x), row i's own column is no
    neighbour. `ordered`: every row's distances must not decrease (Cake's
    are the very values its lists were sorted by; the peer returns fp32
    distances recomputed after its selection, whose order may differ
    within rounding, so for it a row counts as unsorted only past the
    tolerance)."""
    xs = x[sample].float()
    cf = c.float()
    exact = ((xs * xs).sum(1, keepdim=True) + (cf * cf).sum(1)[None, :]
             - 2.0 * xs @ cf.T)
    if exclude_self:
        exact[torch.arange(len(sample), device=x.device), sample] = math.inf
    kth = exact.topk(k, dim=1, largest=False).values[:, -1]
    tol = 1e-4 * ((xs * xs).sum(1) + (cf * cf).sum(1).max())
    got = idx[sample].long()
    if (got < 0).any() or (got >= c.shape[0]).any():
        return {"bad_index": True}
    d_exact = exact.gather(1, got)
    outside = (d_exact - (kth + tol)[:, None]).clamp(min=0).max().item()
    derr = (dist[sample].float() - d_exact).abs().max().item()
    dup = sum(int(len(set(r.tolist())) != k) for r in got)
    # Each row nearest first (the merge's early exit relies on the
    # splits' lists being sorted).
    ds = dist[sample].float()
    slack = 0.0 if ordered else tol.max().item()
    unsorted = int((ds[:, 1:] < ds[:, :-1] - slack).any(dim=1).sum().item())
    ok = outside == 0 and derr <= tol.max().item() and dup == 0 \
        and unsorted == 0
    return {"ok": ok, "outside": outside, "dist_err": derr, "dup_rows": dup,
            "unsorted_rows": unsorted, "tol": tol.max().item()}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundles", required=True)
    p.add_argument("--peer", required=True)
    p.add_argument("--shapes", default=DEFAULT_SHAPES)
    p.add_argument("--dtype", default="bf16", choices=dispatch.DTYPES,
                   help="the queries' and corpus' type (both implementations)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--norms", default="auto",
                   choices=("auto", "fused", "separate", "both"),
                   help="the search kernels that reduce the norms from their "
                   "own stages (_fused), those that take them from the "
                   "row_norms kernel, both (timed side by side), or what "
                   "dispatch.py picks")
    p.add_argument("--merges", default="",
                   help="NAME=BUNDLE,...: other merge kernels, timed as parts")
    portfolio.add_run_arguments(p, "knn-search")
    p.add_argument("--lean", action="store_true",
                   help="time the searches only, about 0.2 s a round each")
    p.add_argument("--max-q", type=int, default=0,
                   help="with --portfolio: only its shapes of at most this "
                   "many queries")
    p.add_argument("--min-chunk", type=int, default=None,
                   help="dispatch.LARGE_K_MIN_CHUNK for this run (the "
                   "fewest corpus rows a split of a k > 32 search walks)")
    p.add_argument("--w1-max-q", type=int, default=None,
                   help="dispatch.W1_MAX_Q for this run (the one-warpgroup "
                   "kernels up to that many queries)")
    p.add_argument("--spread-max-q", type=int, default=None,
                   help="dispatch.SPREAD_MAX_Q for this run (0: every "
                   "query in its own row, in order)")
    p.add_argument("--bound-max-q", type=int, default=None,
                   help="dispatch.BOUND_MAX_Q for this run (0: no bounded "
                   "second pass, dispatch.bound_sample)")
    p.add_argument("--bound-sample", type=int, default=None,
                   help="dispatch.BOUND_SAMPLE for this run (the corpus "
                   "rows whose k-th distance bounds the second pass)")
    p.add_argument("--bound-chunk", type=int, default=None,
                   help="dispatch.BOUND_CHUNK for this run (rows a split "
                   "of the first pass walks; a multiple of 64)")
    p.add_argument("--out", default="")
    args = p.parse_args()
    # choose() reads the chooser's own module (python/cake/knn_dispatch.py,
    # which examples/knn/dispatch.py re-exports): set its constants there.
    chooser = sys.modules[dispatch.choose.__module__]
    if args.w1_max_q is not None:
        chooser.W1_MAX_Q = args.w1_max_q
    if args.min_chunk is not None:
        chooser.LARGE_K_MIN_CHUNK = args.min_chunk
    if args.spread_max_q is not None:
        chooser.SPREAD_MAX_Q = args.spread_max_q
    if args.bound_max_q is not None:
        chooser.BOUND_MAX_Q = args.bound_max_q
    if args.bound_sample is not None:
        chooser.BOUND_SAMPLE = args.bound_sample
        chooser.BOUND_MIN_M = 4 * args.bound_sample
    if args.bound_chunk is not None:
        chooser.BOUND_CHUNK = args.bound_chunk

    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    rt = load_runtime(args.runtime)
    knn_triton, gather = load_flashlib(args.peer)
    stream = torch.cuda.current_stream().cuda_stream
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}  "
          f"CUDA {torch.version.cuda}")
    # (name, dir, fused norms or None for dispatch.py's pick): "cake"
    # alone, or cake:NAME per build, with "+fused" / "+separate" when both
    # forms are timed.
    variants = []
    modes = {"auto": [None], "fused": [True], "separate": [False],
             "both": [False, True]}[args.norms]
    for item in args.bundles.split(","):
        name, _, path = item.rpartition("=")
        for fused in modes:
            tag = "" if len(modes) == 1 else (
                "+fused" if fused else "+separate")
            variants.append(("cake" + (":" + name if name else "") + tag,
                             path, fused))
    handles = {}
    rows, failures = [], 0
    plan = portfolio.PortfolioRun(
        "knn-search", args, {"gpu": torch.cuda.get_device_name(),
                             "torch": torch.__version__},
        keep=(lambda sh: sh[0] <= args.max_q) if args.max_q else None,
        sms=sms)
    for shape in plan.shapes():
        Q, M, D, k = (int(v) for v in shape.split(":"))
        # The kernel and the corpus splits dispatch.py picks for the shape.
        kname, splits, chunk = dispatch.choose(Q, M, D, k, sms,
                                               dtype=args.dtype)
        hs, fused_of, first_of = {}, {}, {}
        for vname, vdir, fused in variants:
            name = dispatch.choose(Q, M, D, k, sms, fused, args.dtype)[0]
            # A `_bound` kernel's first pass: the kernel without the bound.
            names = [name] + ([name[:-len("_bound")]]
                              if name.endswith("_bound") else [])
            for n in names:
                path = os.path.join(vdir, n + ".json")
                if path not in handles:
                    handles[path] = load_bundle(rt, path)
            hs[vname] = handles[os.path.join(vdir, name + ".json")]
            first_of[vname] = (handles[os.path.join(vdir, names[1] + ".json")]
                               if len(names) > 1 else None)
            fused_of[vname] = "_fused" in name
        tdt = {"bf16": torch.bfloat16, "f16": torch.float16}[args.dtype]
        x = torch.randn(Q, D, device="cuda", dtype=tdt)
        c = torch.randn(M, D, device="cuda", dtype=tdt)
        # dispatch.query_rows' plan: few queries with shared lists are
        # spread over the kernel's 64-row tile (the other rows NaN); the
        # kernel and the merge then see QK rows, and the search returns
        # the queries' rows of the result (placing and picking timed).
        spread = dispatch.query_rows(Q, k)
        QK = dispatch.SPREAD_ROWS if spread else Q
        at = torch.tensor(spread or [], device="cuda", dtype=torch.long)
        xk = (torch.full((QK, D), float("nan"), device="cuda", dtype=tdt)
              if spread else x)
        # The splits' partial lists ([QK, splits, k], or rank-major
        # [QK, k, splits]: dispatch.partial_shape), and the merged [QK, k].
        shape = dispatch.partial_shape(QK, splits, k)
        pdist = torch.empty(shape, device="cuda", dtype=torch.float32)
        pidx = torch.empty(shape, device="cuda", dtype=torch.int32)
        dist = torch.empty(QK, k, device="cuda", dtype=torch.float32)
        idx = torch.empty(QK, k, device="cuda", dtype=torch.int32)
        # Each build's merge kernel (the first build's for the parts).
        merge_of = {}
        for vname, vdir, _ in variants:
            mpath = os.path.join(vdir, dispatch.merge_name(k) + ".json")
            if mpath not in handles:
                handles[mpath] = load_bundle(rt, mpath)
            merge_of[vname] = handles[mpath]
        mh0 = merge_of[variants[0][0]]
        margs = (CakeRtArg * 4)(
            tensor_arg(pdist.view(QK, splits * k)),
            tensor_arg(pidx.view(QK, splits * k)), tensor_arg(dist),
            tensor_arg(idx))
        # dispatch.merge_groups' plan: with g > 1 a first pass merges each
        # query's splits in g groups ([Q * g, splits / g * k] view of the
        # same lists), a second the g lists of each query.
        groups = dispatch.merge_groups(QK, splits, k)
        passes = [margs]
        if groups > 1:
            gdist = torch.empty(QK * groups, k, device="cuda",
                                dtype=torch.float32)
            gidx = torch.empty(QK * groups, k, device="cuda", dtype=torch.int32)
            passes = [
                (CakeRtArg * 4)(
                    tensor_arg(pdist.view(QK * groups, splits // groups * k)),
                    tensor_arg(pidx.view(QK * groups, splits // groups * k)),
                    tensor_arg(gdist), tensor_arg(gidx)),
                (CakeRtArg * 4)(
                    tensor_arg(gdist.view(QK, groups * k)),
                    tensor_arg(gidx.view(QK, groups * k)), tensor_arg(dist),
                    tensor_arg(idx))]
        xn = torch.empty(QK, device="cuda", dtype=torch.float32)
        cn = torch.empty(M, device="cuda", dtype=torch.float32)

        cargs = (CakeRtArg * 8)(
            tensor_arg(xk), tensor_arg(c), tensor_arg(xn), tensor_arg(cn),
            tensor_arg(pdist), tensor_arg(pidx), scalar_arg(splits),
            scalar_arg(chunk))
        # The _fused kernels take no norms.
        fargs = (CakeRtArg * 6)(
            tensor_arg(xk), tensor_arg(c), tensor_arg(pdist), tensor_arg(pidx),
            scalar_arg(splits), scalar_arg(chunk))
        # dispatch.bound_sample's plan: a first pass over the corpus' first
        # rows and its merge give each query row's bound (the k-th
        # distance there), which the `_bound` kernel takes after the corpus.
        bsample = (dispatch.bound_sample(Q, M, k) if kname.endswith("_bound")
                   else 0)
        if bsample:
            s1, ch1 = dispatch.bound_plan(bsample)
            shape1 = dispatch.partial_shape(QK, s1, k)
            p1d = torch.empty(shape1, device="cuda", dtype=torch.float32)
            p1i = torch.empty(shape1, device="cuda", dtype=torch.int32)
            d1 = torch.empty(QK, k, device="cuda", dtype=torch.float32)
            i1 = torch.empty(QK, k, device="cuda", dtype=torch.int32)
            bound = torch.empty(QK, device="cuda", dtype=torch.float32)
            first_args = (CakeRtArg * 6)(
                tensor_arg(xk), tensor_arg(c[:bsample]), tensor_arg(p1d),
                tensor_arg(p1i), scalar_arg(s1), scalar_arg(ch1))
            first_merge = (CakeRtArg * 4)(
                tensor_arg(p1d.view(QK, s1 * k)),
                tensor_arg(p1i.view(QK, s1 * k)), tensor_arg(d1),
                tensor_arg(i1))
            bargs = (CakeRtArg * 7)(
                tensor_arg(xk), tensor_arg(c), tensor_arg(bound),
                tensor_arg(pdist), tensor_arg(pidx), scalar_arg(splits),
                scalar_arg(chunk))

        npath = os.path.join(variants[0][1],
                             f"row_norms_{args.dtype}_d{D}.json")
        if npath not in handles:
            handles[npath] = load_bundle(rt, npath)
        nargs = [(CakeRtArg * 2)(tensor_arg(t), tensor_arg(tn))
                 for t, tn in ((xk, xn), (c, cn))]

        def norms():
            # ||.||^2 in fp32 by Cake's row_norms kernel.
            for a in nargs:
                if rt.cakeRtLaunch(handles[npath], a, 2,
                                   ctypes.c_void_p(stream)) != 0:
                    raise RuntimeError(rt.cakeRtLastError().decode())

        def launch(h, a):
            if rt.cakeRtLaunch(h, a, len(a), ctypes.c_void_p(stream)) != 0:
                raise RuntimeError(rt.cakeRtLastError().decode())

        def kernel(h, fused=False, first=None, mh=mh0):
            a = fargs if fused else cargs

            def run():
                if first is not None:
                    # The bound: the first pass, its merge, the k-th.
                    launch(first, first_args)
                    launch(mh, first_merge)
                    bound.copy_(d1[:, k - 1])
                    launch(h, bargs)
                    return
                launch(h, a)
            return run

        def merge(plan=passes, mh=mh0):
            # Cake's knn_merge kernel over the [Q, splits * k] view, in
            # one pass or two.
            if splits == 1:
                return pdist.view(QK, k), pidx.view(QK, k)
            for a in plan:
                if rt.cakeRtLaunch(mh, a, 4,
                                   ctypes.c_void_p(stream)) != 0:
                    raise RuntimeError(rt.cakeRtLastError().decode())
            return dist, idx

        def merge_one():
            return merge([margs])

        def merge_torch():
            # The same merge in torch (runs 1-7 timed this one), for the
            # parts' table.
            if splits == 1:
                return pdist.view(QK, k), pidx.view(QK, k)
            best = pdist.view(QK, -1).topk(k, dim=1, largest=False)
            return best.values, pidx.view(QK, -1).gather(1, best.indices)

        def search(h, fused, first=None, mh=mh0):
            run = kernel(h, fused, first, mh)

            def whole():
                if spread:
                    xk.fill_(float("nan"))
                    xk[at] = x
                if not fused:
                    norms()
                run()
                d_, i_ = merge(mh=mh)
                return (d_[at], i_[at]) if spread else (d_, i_)
            return whole

        def flashlib():
            i = knn_triton(x[None], c[None], k)
            return gather(x[None], c[None], i)[0], i[0]

        def flashlib_idx():
            return knn_triton(x[None], c[None], k)

        sample = torch.randperm(Q, device="cuda")[:SAMPLE]
        results = {}
        checked = [(v, search(hs[v], fused_of[v], first_of[v], merge_of[v]))
                   for v, _, _ in variants]
        for name, fn in checked + [("flashlib", flashlib)]:
            pdist.fill_(float("nan"))
            dist.fill_(float("nan"))
            got_d, got_i = fn()
            if rt.cakeRtSynchronize(ctypes.c_void_p(stream), 20000) != 0:
                plan.save(rows)
                sys.exit(f"{shape}: {rt.cakeRtLastError().decode()}")
            torch.cuda.synchronize()
            results[name] = check(x, c, got_d, got_i, k, sample,
                                  ordered=name != "flashlib")
        ok = all(r.get("ok") for r in results.values())
        failures += not ok
        # The parts of the first build's search, for where time goes.
        parts = [] if args.lean else [("flashlib_idx", flashlib_idx),
                                      ("norms", norms),
                                      ("kernel", kernel(hs[variants[0][0]],
                                                        fused_of[variants[0][0]],
                                                        first_of[variants[0][0]])),
                                      ("merge", merge),
                                      ("merge_one", merge_one),
                                      ("merge_torch", merge_torch)]
        impls = checked + [("flashlib", flashlib)] + parts
        for item in filter(None, "" if args.lean else args.merges.split(",")):
            mname, _, mfile = item.partition("=")
            if mfile not in handles:
                handles[mfile] = load_bundle(rt, mfile)

            def other(h=handles[mfile]):
                if splits > 1 and rt.cakeRtLaunch(
                        h, margs, 4, ctypes.c_void_p(stream)) != 0:
                    raise RuntimeError(rt.cakeRtLastError().decode())
            impls.append(("merge:" + mname, other))
        iters = args.iters
        if args.lean:
            # About 0.2 s of launches an implementation a round.
            t0 = time_ms(checked[0][1], iters=2, warmup=1)
            iters = max(3, min(args.iters, int(200 / max(t0, 1e-3))))
        times = {n: [] for n, _ in impls}
        for r in range(args.rounds):
            order = impls[r % len(impls):] + impls[:r % len(impls)]
            for n, fn in order:
                times[n].append(time_ms(fn, iters=iters, warmup=3))
        med = {n: sorted(t)[len(t) // 2] for n, t in times.items()}
        first = variants[0][0]
        row = {"Q": Q, "M": M, "D": D, "k": k, "dtype": args.dtype,
               "merge_groups": groups, "query_rows": QK,
               "kernel": kname, "bound_sample": bsample,
               "fused": fused_of,
               "splits": splits,
               "chunk": chunk, "ms": med, "check": results,
               "speedup": {v: med["flashlib"] / med[v] for v, _, _ in variants}}
        rows.append(row)
        plan.save(rows)
        if args.lean:
            print(f"{Q:>5} x {M:>8} x {D} k={k} {kname} splits={splits:<4} "
                  + " ".join(f"{v} {med[v]:.4f}" for v, _, _ in variants)
                  + f" | flashlib {med['flashlib']:.4f} | "
                  + " ".join(f"x{row['speedup'][v]:.3f}"
                             for v, _, _ in variants)
                  + f"  {'ok' if ok else 'FAIL'}", flush=True)
        else:
            print(f"{Q:>5} x {M:>8} x {D} k={k} {kname} splits={splits:<4} "
                + " ".join(f"{v} {med[v]:.4f}" for v, _, _ in variants)
                + f" | flashlib {med['flashlib']:.4f} (idx only "
                f"{med['flashlib_idx']:.4f}) | {first}: norms "
                f"{med['norms']:.4f} kernel {med['kernel']:.4f} merge "
                f"{med['merge']:.4f} (groups {groups}; one pass "
                f"{med['merge_one']:.4f}, torch {med['merge_torch']:.4f}"
                + "".join(f", {n[6:]} {t:.4f}" for n, t in med.items()
                          if n.startswith("merge:"))
                + ") | "
                + " ".join(f"x{row['speedup'][v]:.3f}" for v, _, _ in variants)
                + f"  {'ok' if ok else 'FAIL'}", flush=True)
        if not ok:
            print(json.dumps(results), flush=True)
    for v, _, _ in variants:
        if rows:
            g = math.exp(sum(math.log(r["speedup"][v]) for r in rows)
                         / len(rows))
            print(f"geomean {v} vs flashlib (with distances): {g:.3f}x")
    plan.summary(rows)
    print(f"failures {failures}")
    plan.save(rows)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
