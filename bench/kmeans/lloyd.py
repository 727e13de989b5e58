#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake's k-means beside flash-kmeans, one run: assignment, centroid
update and a 10-round Lloyd loop.

For each of the issue's shapes and fp16 / bf16, on fresh random data
(Gaussian noise; Gaussian blobs for B=1, N=1048576):

  assign  Cake's dispatched assignment (cakeKmeansAssign) and the peer's
          euclid_assign_triton, heuristic and autotuned config, both given
          ||c||^2; checked as bench.py checks (an index may differ from the
          fp32 reference only within the tie tolerance).
  update  Cake's cakeKmeansUpdate (libs/kmeans/src/kmeans_update.cu through
          libcake_kmeans) and the peer's triton_centroid_update_sorted_euclid
          (torch.sort + its chunk kernel), both from the same assignment
          (Cake's, of the initial centroids). Checked against an fp32
          reference (index_add_ of the points, empty clusters keep the old
          centroid): every element within one unit in the last place of
          the input type of the reference, plus 1e-5 of the centroid's
          largest element (the sums' order differs, and a rounding can
          fall either side), and for fp16 every centroid
          within 1e-3 relative (||cake - ref|| / ||ref||; bf16's own
          rounding, 2^-9 relative, is above 1e-3).
  lloyd   10 rounds from the same initial centroids (points drawn at
          random), tol 0: Cake's cakeKmeansLloyd (dispatched assignment +
          update, in C) and the peer's batch_kmeans_Euclid with its
          heuristic and its autotuned assignment config. Checked: the
          k-means objective of Cake's final centroids (mean squared distance
          of every point to its nearest centroid, fp32) within 1e-3
          relative of a torch fp32 reference Lloyd's from the same start.

A skewed row (every point of one shape in a handful of clusters) times
both updates where atomics would contend.

--profile prints instead the GPU time of every kernel of Cake's update
(torch.profiler; it sees kernels launched through the driver API too) at
each --shapes entry (default 1 x 1048576 x 128 x 1024), fp16, random and
skewed ids.

With --peer-kind flashlib the peer is FlashML's flashlib (its Triton
path: euclid_assign_triton, triton_centroid_update_sorted_euclid and
batch_kmeans_Euclid of flashlib/primitives/kmeans/triton, the same names
and conventions; its package __init__ imports a CuteDSL backend whose
library is absent on the bench machine, so its packages are stood in for
and the Triton modules loaded from the source tree).

--portfolio runs the issue's 124-shape k-means portfolio
(bench/portfolio/shapes.py; bf16 unless --dtype says otherwise) instead of
--shapes, with --shard I/N, --time-limit S and --only as the KNN scripts
take them, writing the JSON after every shape (bench/portfolio/report.py
summarizes it). --lean times only the Lloyd loops (the assignment and the
update are still checked), which is what the portfolio's bar counts.

usage: lloyd.py --runtime libcake_runtime.so --dispatch DIR --peer DIR
                [--peer-kind flash-kmeans|flashlib]
                [--out F] [--rounds 3] [--shapes B:N:D:K,...] [--profile]
                [--dtype f16|bf16] [--portfolio [--shard I/N]
                [--time-limit S]] [--lean]
"""
import argparse
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# The k-means library's Python module (libs/kmeans/python).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "libs", "kmeans", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "portfolio"))
from shapes import PortfolioRun, add_run_arguments  # noqa: E402
from cake_rt import time_ms  # noqa: E402
from cake_kmeans import CakeKmeans  # noqa: E402
from bench import check_batch, make_points  # noqa: E402

ITERS = 10
TOL_CENTROID = 1e-3
TOL_OBJECTIVE = 1e-3


def reference_update(x, ids, c):
    """fp32 means per cluster; empty clusters keep c. [B, K, D] fp32."""
    B, N, D = x.shape
    K = c.shape[1]
    sums = torch.zeros(B, K, D, device=x.device)
    counts = torch.zeros(B, K, device=x.device)
    for b in range(B):
        sums[b].index_add_(0, ids[b].long(), x[b].float())
        counts[b].index_add_(0, ids[b].long(),
                             torch.ones(N, device=x.device))
    mean = sums / counts.clamp(min=1)[..., None]
    return torch.where(counts[..., None] > 0, mean, c.float())


def nearest(x, c, chunk=65536):
    """fp32 argmin and squared distance of every point, in chunks."""
    B, N, _ = x.shape
    ids = torch.empty(B, N, device=x.device, dtype=torch.long)
    dist = torch.empty(B, N, device=x.device)
    cf = c.float()
    cn = (cf * cf).sum(-1)
    for b in range(B):
        for s in range(0, N, chunk):
            xf = x[b, s:s + chunk].float()
            d = cn[b][None, :] - 2.0 * xf @ cf[b].T + (xf * xf).sum(-1)[:, None]
            v, i = d.min(-1)
            ids[b, s:s + chunk], dist[b, s:s + chunk] = i, v.clamp(min=0)
    return ids, dist


def objective(x, c):
    return nearest(x, c)[1].mean().item()


def reference_lloyd(x, c0, iters):
    """fp32 assignment, fp32 means rounded to the input type each round."""
    c = c0.clone()
    for _ in range(iters):
        ids, _ = nearest(x, c)
        c = reference_update(x, ids, c).to(x.dtype)
    return c


def centroid_error(got, ref):
    """Largest ||got - ref|| / ||ref|| over clusters (ref in fp32)."""
    num = (got.float() - ref).norm(dim=-1)
    return (num / ref.norm(dim=-1).clamp(min=1e-6)).max().item()


def ulps_off(got, ref):
    """Largest distance of an element from the fp32 reference, in units in
    the last place of the input type at the reference's magnitude, after
    1e-5 of its centroid's largest element (what the fp32 sums of a large
    cluster may differ by, in another order) is granted."""
    mant = {torch.float16: 10, torch.bfloat16: 7}[got.dtype]
    ulp = torch.ldexp(torch.ones_like(ref),
                      torch.frexp(ref.abs().clamp(min=1e-30))[1] - 1 - mant)
    slack = 1e-5 * ref.abs().amax(-1, keepdim=True)
    return ((got.float() - ref).abs() - slack).clamp(min=0).div(ulp).max().item()


def update_ok(got, ref):
    if ulps_off(got, ref) > 1.0:
        return False
    return got.dtype != torch.float16 or centroid_error(got, ref) <= TOL_CENTROID


def profile(km, shape):
    from torch.profiler import ProfilerActivity, profile as torch_profile
    B, N, D, K = shape
    x = torch.randn(B, N, D, device="cuda", dtype=torch.float16)
    c0 = torch.randn(B, K, D, device="cuda", dtype=torch.float16)
    for name, ids in (("random ids", torch.randint(0, K, (B, N),
                                                   device="cuda",
                                                   dtype=torch.int32)),
                      ("4 clusters", torch.randint(0, 4, (B, N),
                                                   device="cuda",
                                                   dtype=torch.int32))):
        km.update(x, ids, c0)
        torch.cuda.synchronize()
        with torch_profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(5):
                km.update(x, ids, c0)
            torch.cuda.synchronize()
        print(f"--- update {B}x{N}x{D}x{K}, {name} (5 calls) ---")
        print(prof.key_averages().table(sort_by="cuda_time_total",
                                        row_limit=12))


def load_peer(kind, peer):
    """The peer's (batch_kmeans_Euclid, assign(x, c, x_sq, c_sq, heuristic),
    sorted centroid update)."""
    if kind == "flash-kmeans":
        sys.path.insert(0, peer)
        from flash_kmeans.kmeans_triton_impl import batch_kmeans_Euclid
        from flash_kmeans.assign_euclid_triton import euclid_assign_triton
        from flash_kmeans.centroid_update_triton import \
            triton_centroid_update_sorted_euclid
        return (batch_kmeans_Euclid,
                lambda x, c, x_sq, c_sq, heur: euclid_assign_triton(
                    x, c, x_sq, c_sq=c_sq, use_heuristic=heur),
                triton_centroid_update_sorted_euclid)
    import types
    try:
        import tqdm  # noqa: F401
    except ImportError:
        stub = types.ModuleType("tqdm")
        stub.trange = range
        sys.modules["tqdm"] = stub
    for name in ("flashlib", "flashlib.primitives",
                 "flashlib.primitives.kmeans",
                 "flashlib.primitives.kmeans.triton"):
        m = types.ModuleType(name)
        m.__path__ = [os.path.join(peer, *name.split("."))]
        sys.modules[name] = m
    from flashlib.primitives.kmeans.triton.kmeans import batch_kmeans_Euclid
    from flashlib.primitives.kmeans.triton.assign import euclid_assign_triton
    from flashlib.primitives.kmeans.triton.update import \
        triton_centroid_update_sorted_euclid
    return (batch_kmeans_Euclid,
            lambda x, c, x_sq, c_sq, heur: euclid_assign_triton(
                x, c, c_sq=c_sq, use_heuristic=heur),
            triton_centroid_update_sorted_euclid)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--dispatch", required=True,
                   help="folder with kmeans-table.json and its bundles")
    p.add_argument("--peer", required=True)
    p.add_argument("--peer-kind", choices=("flash-kmeans", "flashlib"),
                   default="flash-kmeans")
    p.add_argument("--out", default="")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--shapes", default="")
    p.add_argument("--profile", action="store_true")
    p.add_argument("--dtype", choices=("f16", "bf16"),
                   help="one input type (default: both; bf16 with "
                   "--portfolio)")
    p.add_argument("--lean", action="store_true",
                   help="time only the Lloyd loops")
    add_run_arguments(p, "kmeans")
    args = p.parse_args()
    if args.portfolio and not args.dtype:
        args.dtype = "bf16"
    if args.profile:
        km = CakeKmeans(args.runtime, args.dispatch)
        for spec in (args.shapes or "1:1048576:128:1024").split(","):
            profile(km, tuple(int(v) for v in spec.split(":")))
        return
    batch_kmeans_Euclid, peer_assign_fn, triton_centroid_update_sorted_euclid \
        = load_peer(args.peer_kind, args.peer)

    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    km = CakeKmeans(args.runtime, args.dispatch)
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
    if not args.shapes and not args.portfolio:
        args.shapes = ("32:75600:128:1000,1:1048576:128:1024,"
                       "8:65536:128:256,1:262144:64:4096,4:131072:256:2048")
    plan = PortfolioRun("kmeans", args, dict(
        gpu=torch.cuda.get_device_name(), torch=torch.__version__,
        peer=args.peer_kind, rounds=args.rounds, lean=args.lean))
    dtypes = [dt for dt in (torch.float16, torch.bfloat16)
              if not args.dtype
              or args.dtype == ("f16" if dt == torch.float16 else "bf16")]
    rows, failures = [], 0

    def median(fn, iters):
        ts = [time_ms(fn, iters=iters, warmup=1) for _ in range(args.rounds)]
        return sorted(ts)[len(ts) // 2]

    for spec in plan.shapes():
        B, N, D, K = (int(v) for v in spec.split(":"))
        for dt in dtypes:
            started = time.monotonic()
            dname = "f16" if dt == torch.float16 else "bf16"
            data = "blobs" if (B, N) == (1, 1048576) else "noise"
            x, _ = make_points(B, N, D, K, dt, data == "blobs")
            pick = torch.randint(0, N, (B, K), device="cuda")
            c0 = torch.gather(x, 1, pick[..., None].expand(B, K, D)).contiguous()

            # --- assignment of c0 ---
            cn = (c0.float() ** 2).sum(-1).contiguous()
            ids = km.assign(x, c0, cn)
            torch.cuda.synchronize()
            differ, bad = check_batch(ids, x, c0)
            x_sq = (x.float() ** 2).sum(-1)
            peer_assign = {
                n: (lambda heur=heur: peer_assign_fn(x, c0, x_sq, cn, heur))
                for n, heur in (("heuristic", True), ("autotuned", False))}
            if args.lean:
                t_asg, t_asg_peer, best_asg = None, {}, None
            else:
                for fn in peer_assign.values():
                    fn()  # the autotuned config tunes here
                t_asg = median(lambda: km.assign(x, c0, cn, ids), 20)
                t_asg_peer = {n: median(fn, 20)
                              for n, fn in peer_assign.items()}
                best_asg = min(t_asg_peer.values())

            # --- update, from Cake's assignment of c0 ---
            ref = reference_update(x, ids, c0)
            got = km.update(x, ids, c0)
            peer_c = triton_centroid_update_sorted_euclid(x, ids, c0)
            torch.cuda.synchronize()
            err, ulps = centroid_error(got, ref), ulps_off(got, ref)
            peer_err = centroid_error(peer_c, ref)
            upd_ok = update_ok(got, ref)
            if args.lean:
                t_upd = t_upd_peer = None
            else:
                t_upd = median(lambda: km.update(x, ids, c0), 10)
                t_upd_peer = median(
                    lambda: triton_centroid_update_sorted_euclid(x, ids, c0),
                    10)

            # --- Lloyd, 10 rounds, tol 0 ---
            ids_c, c_cake, it = km.lloyd(x, c0, max_iters=ITERS)
            torch.cuda.synchronize()
            c_ref = reference_lloyd(x, c0, ITERS)
            j_cake, j_ref = objective(x, c_cake), objective(x, c_ref)
            peers, peer_error = {}, None
            for name, heur in (("heuristic", True), ("autotuned", False)):
                fn = (lambda heur=heur: batch_kmeans_Euclid(
                    x, K, max_iters=ITERS, tol=0.0,
                    init_centroids=c0.clone(), use_heuristic=heur))
                try:
                    _, c_peer, _ = fn()  # the autotuned config tunes here
                except Exception as e:  # a shape the peer does not take
                    peer_error = f"{name}: {type(e).__name__}: {e}"[:300]
                    continue
                peers[name] = (fn, objective(x, c_peer))
            j_err = abs(j_cake - j_ref) / j_ref
            lloyd_ok = j_err <= TOL_OBJECTIVE and it == ITERS
            t_lloyd = median(lambda: km.lloyd(x, c0, max_iters=ITERS), 2)
            t_peer = {n: median(fn, 2) for n, (fn, _) in peers.items()}
            best_peer = min(t_peer, key=t_peer.get) if t_peer else None
            lloyd_x = t_peer[best_peer] / t_lloyd if t_peer else None
            ok = upd_ok and lloyd_ok and bad == 0
            failures += not ok
            row = dict(B=B, N=N, D=D, K=K, dtype=dname, data=data,
                       assign_ms=t_asg, peer_assign_ms=t_asg_peer,
                       assign_speedup=best_asg / t_asg if t_asg else None,
                       differ=differ,
                       bad=bad,
                       update_ms=t_upd, peer_update_ms=t_upd_peer,
                       update_speedup=t_upd_peer / t_upd if t_upd else None,
                       centroid_err=err, centroid_ulps=ulps,
                       peer_centroid_err=peer_err,
                       lloyd_ms=t_lloyd, peer_lloyd_ms=t_peer,
                       peer_best=best_peer, peer_error=peer_error,
                       lloyd_speedup=lloyd_x,
                       objective=j_cake, objective_ref=j_ref,
                       objective_peer={n: j for n, (_, j) in peers.items()},
                       objective_err=j_err, ok=ok,
                       seconds=time.monotonic() - started,
                       # the fields bench/portfolio/report.py reads
                       kernel=km.choose(dname, B, N, D, K)[0],
                       speedup=lloyd_x,
                       check=dict(assign=dict(ok=bad == 0),
                                  update=dict(ok=upd_ok),
                                  lloyd=dict(ok=lloyd_ok)))
            rows.append(row)
            plan.save(rows)
            print(f"{B}x{N}x{D}x{K} {dname}: assign {fmt(t_asg, '.4f')} vs "
                  f"{fmt(best_asg, '.4f')} (differ {differ} bad {bad}); "
                  f"update {fmt(t_upd, '.4f')} vs "
                  f"{fmt(t_upd_peer, '.4f')} (err {err:.1e} {ulps:.2f} ulp, "
                  f"peer {peer_err:.1e}); "
                  f"lloyd {t_lloyd:.3f} vs " + ", ".join(
                      f"{n} {t:.3f}" for n, t in t_peer.items())
                  + f"; objective {j_cake:.5g} ref {j_ref:.5g} peer "
                  + ", ".join(f"{j:.5g}" for _, j in peers.values())
                  + (f"; peer failed: {peer_error}" if peer_error else "")
                  + ("" if ok else "  FAIL"), flush=True)
            del x, c0, ids, ref, got, peer_c, c_cake, c_ref, peers, x_sq, cn

    if args.portfolio:
        plan.summary(rows)
        report(rows, failures)
        plan.save(rows)
        sys.exit(1 if failures else 0)

    # Skew: every point in one of 4 clusters (atomics would serialize).
    B, N, D, K = 1, 1048576, 128, 1024
    x = torch.randn(B, N, D, device="cuda", dtype=torch.float16)
    c0 = torch.randn(B, K, D, device="cuda", dtype=torch.float16)
    ids = torch.randint(0, 4, (B, N), device="cuda", dtype=torch.int32)
    got, ref = km.update(x, ids, c0), reference_update(x, ids, c0)
    err = centroid_error(got, ref)
    skew = dict(B=B, N=N, D=D, K=K, clusters_used=4, centroid_err=err,
                update_ms=median(lambda: km.update(x, ids, c0), 10),
                peer_update_ms=median(
                    lambda: triton_centroid_update_sorted_euclid(x, ids, c0),
                    10))
    failures += not update_ok(got, ref)
    skew["centroid_ulps"] = ulps_off(got, ref)
    print(f"skewed 1x{N}x{D}x{K} f16 (4 clusters used): update "
          f"{skew['update_ms']:.4f} vs peer {skew['peer_update_ms']:.4f}, "
          f"err {err:.1e} {skew['centroid_ulps']:.2f} ulp"
          + ("" if update_ok(got, ref) else "  FAIL"))
    report(rows, failures)
    plan.save(rows, skew=skew)
    sys.exit(1 if failures else 0)


def fmt(v, spec):
    """v formatted, or '-' for a figure not measured (--lean, a peer that
    failed)."""
    return "-" if v is None else format(v, spec)


def report(rows, failures):
    print(f"{'B':>3} {'N':>8} {'D':>4} {'K':>5} {'dtype':>5} "
          f"{'asg ms':>7} {'peer':>7} {'x':>6} "
          f"{'upd ms':>7} {'peer':>7} {'x':>6} {'lloyd ms':>8} {'peer':>8} "
          f"{'x':>6} {'obj err':>8}")
    for r in rows:
        peer_asg = min(r["peer_assign_ms"].values(), default=None)
        peer_lloyd = r["peer_lloyd_ms"].get(r["peer_best"])
        print(f"{r['B']:>3} {r['N']:>8} {r['D']:>4} {r['K']:>5} "
              f"{r['dtype']:>5} {fmt(r['assign_ms'], '7.4f'):>7} "
              f"{fmt(peer_asg, '7.4f'):>7} "
              f"{fmt(r['assign_speedup'], '6.3f'):>6} "
              f"{fmt(r['update_ms'], '7.4f'):>7} "
              f"{fmt(r['peer_update_ms'], '7.4f'):>7} "
              f"{fmt(r['update_speedup'], '6.2f'):>6} "
              f"{r['lloyd_ms']:8.3f} {fmt(peer_lloyd, '8.3f'):>8}"
              f" {fmt(r['lloyd_speedup'], '6.3f'):>6} "
              f"{r['objective_err']:8.1e}"
              + ("" if r["ok"] else "  FAIL"))

    def geo(name):
        v = [r[name] for r in rows if r[name] is not None]
        if not v:
            return "-"
        g = 1.0
        for a in v:
            g *= a ** (1.0 / len(v))
        return f"{g:.3f}x over {len(v)}, slowest {min(v):.3f}x"
    print(f"assignment geomean {geo('assign_speedup')}")
    print(f"Lloyd ({ITERS} rounds) geomean {geo('lloyd_speedup')} (the "
          f"peer's better config); update geomean {geo('update_speedup')}")
    print(f"{len(rows) - failures} rows ok, {failures} failed")


if __name__ == "__main__":
    main()
