#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake's fused k-means assignment beside flash-kmeans (Triton), one run.

For each shape: fresh random data (Gaussian noise, and Gaussian blobs),
Cake's assignment checked against an fp32 reference (an index may differ
only where the two nearest distances are within the stated tolerance of
each other), then Cake and the peer timed with CUDA events, interleaved
over rounds. The peer is euclid_assign_triton twice: with its H200
heuristic config and autotuned (Triton's autotuner over its config space,
tuned before timing); Cake is compared against the better of the two. Both
get the precomputed ||c||^2, as Cake does.

--dispatch DIR adds the dispatcher (libs/kmeans/src/kmeans.c through
libs/kmeans/python/cake_kmeans.py) over DIR's kmeans-table.json as family
"dispatch". --variants lists Cake kernel families by suffix ("" is the committed
kernels, "_bn256_s2" those of libs/kmeans/kernels/gen-kmeans-variants.py --bn 256
--stages 2); every family runs on every row where it was packed (a family that
cake-verify rejects at some D, e.g. for shared-memory capacity, is left
out of that row), checked and timed, and the table shows each family and
the best.

Cake's kernels are examples/kmeans_assign.cake.mlir and the variants in
examples/kmeans-variants/ (fp16 and bf16, D = 64, 128, 256, and batched
ones that cover B > 1 in one launch).

--shapes B:N:D:K,... replaces the issue's shapes (D any multiple of 8 up
to 512, which only the dispatcher covers: pass --variants none).

usage: bench.py --runtime libcake_runtime.so --bundles DIR
                --peer DIR (holding the flash_kmeans package) [--out F]
                [--variants ,_bn256_s2 | none] [--dispatch DIR]
                [--shapes 1:262144:96:1000,...]
"""
import argparse
import ctypes
import json
import os
import sys

import torch


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# The k-means library's Python module (libs/kmeans/python).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "libs", "kmeans", "python"))
from cake_rt import CakeRtArg, load_runtime, tensor_arg as arg, time_ms  # noqa: E402


# Indices may differ from the fp32 reference only where the distance Cake's
# choice has is within this relative gap of the best one (fp16 inputs,
# fp32 accumulation).
TOL = 1e-3


def check(ids, x, c, chunk=65536):
    """(points whose id differs from the fp32 argmin, those of them whose
    distance is more than TOL off the best, plus ids out of range), in
    chunks of points (a 2M x 4096 distance matrix would take 32 GB)."""
    cf = c.float()
    cn = (cf * cf).sum(-1)[None, :]
    differ = bad = 0
    for s in range(0, x.shape[0], chunk):
        xf, got = x[s:s + chunk].float(), ids[s:s + chunk].long()
        d = cn - 2.0 * xf @ cf.T + (xf * xf).sum(-1, keepdim=True)
        ref = d.argmin(-1)
        same = got == ref
        got_d = d.gather(-1, got.clamp(0, c.shape[0] - 1)[:, None])[:, 0]
        best_d = d.gather(-1, ref[:, None])[:, 0]
        gap = (got_d - best_d).abs() / (best_d.abs() + 1e-3)
        differ += int((~same).sum())
        bad += int(((~same) & (gap > TOL)).sum())
    out_of_range = ((ids < 0) | (ids >= c.shape[0])).sum().item()
    return differ, bad + out_of_range


def make_points(B, N, D, K, dt, blobs):
    """Fresh points [B, N, D] of dtype dt: Gaussian noise, or Gaussian
    blobs (noise 0.3) around K centers drawn with spread 4. Returns the
    points and the fp32 centers (None for noise)."""
    if not blobs:
        return torch.randn(B, N, D, device="cuda", dtype=dt), None
    centers = torch.randn(B, K, D, device="cuda") * 4
    lab = torch.randint(0, K, (B, N), device="cuda")
    x = (torch.gather(centers, 1, lab[..., None].expand(B, N, D))
         + 0.3 * torch.randn(B, N, D, device="cuda")).to(dt)
    return x, centers


def check_batch(ids, x, c):
    """check() summed over the batch of [B, N] ids, [B, N, D] points."""
    differ = bad = 0
    for b in range(x.shape[0]):
        d, w = check(ids[b], x[b], c[b])
        differ, bad = differ + d, bad + w
    return differ, bad


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundles", required=True,
                   help="folder with kmeans_assign_<dtype>_d<D>.json bundles")
    p.add_argument("--peer", required=True)
    p.add_argument("--out", default="")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--variants", default="")
    p.add_argument("--dispatch", default="",
                   help="also time the dispatcher (libs/kmeans/src/kmeans.c) over "
                   "the table in this folder, as family 'dispatch'")
    p.add_argument("--shapes", default="",
                   help="B:N:D:K,... instead of the issue's shapes")
    args = p.parse_args()
    sys.path.insert(0, args.peer)
    from flash_kmeans.assign_euclid_triton import euclid_assign_triton

    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    torch.empty(1, device="cuda")
    rt = load_runtime(args.runtime)
    stream = torch.cuda.current_stream().cuda_stream
    handles = {}

    variants = [] if args.variants == "none" else args.variants.split(",")
    if not variants and not args.dispatch:
        sys.exit("bench.py: --variants none needs --dispatch")
    km = None
    if args.dispatch:
        from cake_kmeans import CakeKmeans
        km = CakeKmeans(args.runtime, args.dispatch)

    def bundle(dtype, d, batched, suffix):
        name = (f"kmeans_assign_{dtype}_d{d}" + ("_batched" if batched else "")
                + suffix)
        if name not in handles:
            h = ctypes.c_void_p()
            path = os.path.join(args.bundles, name + ".json")
            if not os.path.exists(path) and suffix:
                return None  # a family cake-verify rejected at this D
            if rt.cakeRtBundleLoad(path.encode(), ctypes.byref(h)) != 0:
                sys.exit(f"{path}: {rt.cakeRtLastError().decode()}")
            handles[name] = h
        return handles[name]

    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
    rows, failures = [], 0
    # The (B, N, D, K); B > 1 uses the batched kernels.
    shapes = [(32, 75600, 128, 1000), (1, 1048576, 128, 1024),
              (8, 65536, 128, 256), (1, 262144, 64, 4096),
              (4, 131072, 256, 2048)]
    if args.shapes:
        shapes = [tuple(int(v) for v in s.split(":"))
                  for s in args.shapes.split(",")]
    for B, N, D, K in shapes:
        for dt in (torch.float16, torch.bfloat16):
            dname = "f16" if dt == torch.float16 else "bf16"
            data = "blobs" if (B, N) == (1, 1048576) else "noise"
            x, centers = make_points(B, N, D, K, dt, data == "blobs")
            if centers is None:
                c = torch.randn(B, K, D, device="cuda", dtype=dt)
            else:
                c = (centers + 0.1 * torch.randn(B, K, D, device="cuda")).to(dt)
            cn = (c.float() ** 2).sum(-1).contiguous()
            cake = {}
            differ = bad = 0
            for v in variants:
                out = torch.full((B, N), -7, device="cuda", dtype=torch.int32)
                h = bundle(dname, D, B > 1, v)
                if h is None:
                    continue
                if B > 1:
                    cargs = [(CakeRtArg * 4)(arg(x), arg(c), arg(cn), arg(out))]
                else:
                    cargs = [(CakeRtArg * 4)(arg(x[0]), arg(c[0]), arg(cn[0]),
                                             arg(out[0]))]

                def launch(h=h, cargs=cargs):
                    for a in cargs:
                        if rt.cakeRtLaunch(h, a, 4,
                                           ctypes.c_void_p(stream)) != 0:
                            raise RuntimeError(rt.cakeRtLastError().decode())

                launch()
                if rt.cakeRtSynchronize(ctypes.c_void_p(stream), 10000) != 0:
                    print(f"{B}x{N}x{D}x{K} {dname}{v}: "
                          f"{rt.cakeRtLastError().decode()}", flush=True)
                    os._exit(124)
                dv, bv = check_batch(out, x, c)
                differ, bad = max(differ, dv), bad + bv  # the worst variant
                cake[v or "base"] = launch
            if km is not None:
                out = torch.full((B, N), -7, device="cuda", dtype=torch.int32)
                launch = (lambda out=out: km.assign(x, c, cn, out))
                launch()
                if rt.cakeRtSynchronize(ctypes.c_void_p(stream), 10000) != 0:
                    print(f"dispatch: {rt.cakeRtLastError().decode()}",
                          flush=True)
                    os._exit(124)
                dv, bv = check_batch(out, x, c)
                differ, bad = max(differ, dv), bad + bv
                cake["dispatch"] = launch
                print(f"  dispatch chose {km.choose(dname, B, N, D, K)[0]}",
                      flush=True)
            ok = bad == 0
            failures += not ok
            x_sq = (x.float() ** 2).sum(-1)
            peers = {
                "heuristic": lambda: euclid_assign_triton(
                    x, c, x_sq, c_sq=cn, use_heuristic=True),
                "autotuned": lambda: euclid_assign_triton(
                    x, c, x_sq, c_sq=cn, use_heuristic=False),
            }
            pdiffer = 0
            for name, fn in peers.items():
                pids = fn()  # the autotuned peer tunes here, before timing
                torch.cuda.synchronize()
                pdiffer = max(pdiffer, check_batch(pids, x, c)[0])
            times = {k: [] for k in list(cake) + ["peer " + k for k in peers]}
            for _ in range(args.rounds):
                for k, fn in cake.items():
                    times[k].append(time_ms(fn, iters=20, warmup=3))
                for k, fn in peers.items():
                    times["peer " + k].append(time_ms(fn, iters=20, warmup=3))
            med = {k: sorted(v)[args.rounds // 2] for k, v in times.items()}
            best_v = min(cake, key=lambda k: med[k])
            tc = med[best_v]
            tp = min(med["peer heuristic"], med["peer autotuned"])
            flops = 2.0 * B * N * K * D
            rows.append(dict(B=B, N=N, D=D, K=K, dtype=dname, data=data,
                             cake_ms=tc, cake_variant=best_v,
                             peer_ms=tp, speedup=tp / tc, times=med,
                             cake_tflops=flops / tc / 1e9, differ=differ,
                             bad=bad, peer_differ=pdiffer, ok=ok))
            print(f"{B}x{N}x{D}x{K} {dname}: " + ", ".join(
                f"{k} {t:.4f}" for k, t in med.items())
                + f"; differ {differ} bad {bad}", flush=True)
            del x, c, cn, cake, peers
    print(f"{'B':>3} {'N':>8} {'D':>4} {'K':>5} {'dtype':>5} {'data':>6} "
          f"{'cake ms':>8} {'peer ms':>8} {'speedup':>7} {'TFLOP/s':>7} "
          f"{'differ':>6} {'bad':>4} {'peer differ':>11} variant")
    for r in rows:
        print(f"{r['B']:>3} {r['N']:>8} {r['D']:>4} {r['K']:>5} "
              f"{r['dtype']:>5} {r['data']:>6} {r['cake_ms']:8.4f} "
              f"{r['peer_ms']:8.4f} {r['speedup']:7.3f} "
              f"{r['cake_tflops']:7.1f} {r['differ']:>6} {r['bad']:>4} "
              f"{r['peer_differ']:>11} {r['cake_variant']}"
              + ("" if r["ok"] else "  FAIL"))
    sp = [r["speedup"] for r in rows]
    geo = 1.0
    for v in sp:
        geo *= v ** (1.0 / len(sp))
    print(f"geomean speedup {geo:.3f}x over the peer's better config, "
          f"slowest {min(sp):.3f}x")
    for k in ("peer heuristic", "peer autotuned"):
        g = 1.0
        for r in rows:
            g *= (r["times"][k] / r["cake_ms"]) ** (1.0 / len(rows))
        print(f"  geomean over {k}: {g:.3f}x")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)
    print(f"{len(rows) - failures} rows ok, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
