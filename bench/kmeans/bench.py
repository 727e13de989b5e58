#!/usr/bin/env python3
"""Cake's fused k-means assignment beside flash-kmeans (Triton), one run.

For each shape: fresh random data (Gaussian noise, and Gaussian blobs),
Cake's assignment checked against an fp32 reference (an index may differ
only where the two nearest distances are within the stated tolerance of
each other), then Cake and the peer (euclid_assign_triton with its H200
heuristic config) timed with CUDA events, interleaved over rounds.

Today's Cake kernel is examples/kmeans_assign.cake.mlir: B = 1, D = 128,
fp16. Other (B, D, dtype) of the issue's table are not run here yet.

usage: bench.py --runtime libcake_runtime.so --bundle kmeans.json
                --peer DIR (holding the flash_kmeans package) [--out F]
"""
import argparse
import ctypes
import json
import os
import sys

import torch


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import CakeRtArg, load_runtime, tensor_arg as arg, time_ms  # noqa: E402


# Indices may differ from the fp32 reference only where the distance Cake's
# choice has is within this relative gap of the best one (fp16 inputs,
# fp32 accumulation).
TOL = 1e-3


def check(ids, x, c):
    xf, cf = x.float(), c.float()
    d = (cf * cf).sum(-1)[None, :] - 2.0 * xf @ cf.T  # ||x||^2 dropped
    xsq = (xf * xf).sum(-1, keepdim=True)
    d = d + xsq
    ref = d.argmin(-1)
    same = ids.long() == ref
    got_d = d.gather(-1, ids.long().clamp(0, c.shape[0] - 1)[:, None])[:, 0]
    best_d = d.gather(-1, ref[:, None])[:, 0]
    gap = (got_d - best_d).abs() / (best_d.abs() + 1e-3)
    bad = (~same) & (gap > TOL)
    out_of_range = ((ids < 0) | (ids >= c.shape[0])).sum().item()
    return int((~same).sum()), int(bad.sum()) + out_of_range


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundle", required=True)
    p.add_argument("--peer", required=True)
    p.add_argument("--out", default="")
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    sys.path.insert(0, args.peer)
    from flash_kmeans.assign_euclid_triton import euclid_assign_triton

    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    torch.empty(1, device="cuda")
    rt = load_runtime(args.runtime)
    h = ctypes.c_void_p()
    if rt.cakeRtBundleLoad(args.bundle.encode(), ctypes.byref(h)) != 0:
        sys.exit(rt.cakeRtLastError().decode())
    stream = torch.cuda.current_stream().cuda_stream
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
    rows, failures = [], 0
    shapes = [(1048576, 128, 1024), (75600, 128, 1000), (65536, 128, 256),
              (131072, 128, 2048)]
    for N, D, K in shapes:
        for data in ("noise", "blobs"):
            if data == "noise":
                x = torch.randn(N, D, device="cuda", dtype=torch.float16)
                c = torch.randn(K, D, device="cuda", dtype=torch.float16)
            else:
                centers = torch.randn(K, D, device="cuda") * 4
                lab = torch.randint(0, K, (N,), device="cuda")
                x = (centers[lab] + 0.3 * torch.randn(N, D, device="cuda")).half()
                c = (centers + 0.1 * torch.randn(K, D, device="cuda")).half()
            cn = (c.float() ** 2).sum(-1).contiguous()
            out = torch.full((N,), -7, device="cuda", dtype=torch.int32)
            cargs = (CakeRtArg * 4)(arg(x), arg(c), arg(cn), arg(out))

            def cake():
                if rt.cakeRtLaunch(h, cargs, 4, ctypes.c_void_p(stream)) != 0:
                    raise RuntimeError(rt.cakeRtLastError().decode())

            cake()
            # A hang must end the run, not the lease: wait with a deadline.
            if rt.cakeRtSynchronize(ctypes.c_void_p(stream), 10000) != 0:
                print(f"N={N} K={K} {data}: {rt.cakeRtLastError().decode()}",
                      flush=True)
                os._exit(124)
            differ, bad = check(out, x, c)
            ok = bad == 0
            failures += not ok
            xb, cb = x[None], c[None]
            x_sq = (x.float() ** 2).sum(-1)[None]
            peer = lambda: euclid_assign_triton(xb, cb, x_sq, use_heuristic=True)
            pids = peer()
            torch.cuda.synchronize()
            pdiffer, pbad = check(pids[0], x, c)
            tc, tp = [], []
            for _ in range(args.rounds):
                tc.append(time_ms(cake, iters=20, warmup=3))
                tp.append(time_ms(peer, iters=20, warmup=3))
            tc = sorted(tc)[args.rounds // 2]
            tp = sorted(tp)[args.rounds // 2]
            flops = 2.0 * N * K * D
            rows.append(dict(N=N, D=D, K=K, data=data, cake_ms=tc, peer_ms=tp,
                             speedup=tp / tc, cake_tflops=flops / tc / 1e9,
                             differ=differ, bad=bad, peer_differ=pdiffer,
                             peer_bad=pbad, ok=ok))
    print(f"{'N':>8} {'D':>4} {'K':>5} {'data':>6} {'cake ms':>8} "
          f"{'peer ms':>8} {'speedup':>7} {'TFLOP/s':>7} {'differ':>6} "
          f"{'bad':>4} {'peer differ':>11}")
    for r in rows:
        print(f"{r['N']:>8} {r['D']:>4} {r['K']:>5} {r['data']:>6} "
              f"{r['cake_ms']:8.4f} {r['peer_ms']:8.4f} {r['speedup']:7.3f} "
              f"{r['cake_tflops']:7.1f} {r['differ']:>6} {r['bad']:>4} "
              f"{r['peer_differ']:>11}" + ("" if r["ok"] else "  FAIL"))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)
    print(f"{len(rows) - failures} rows ok, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
