#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""KNN build on the GPU: Cake's k-nearest-neighbour graph beside flashlib's.

For each shape (N points, D, k): fresh standard normal bf16 points X;
Cake's build (||x||^2 by the row_norms kernel, then the knn_build kernel
dispatch.choose_build picks: all of it timed; fp32 points: the split
kernel's bf16 pieces and norms, then the 3xbf16 build kernel) and flashlib's Triton path
(`flash_knn_triton(X, X, k)` plus `triton_knn_gather_sqdist` for the
distances: what `flash_knn(x=X, c=X, k)` runs, the call of flashlib's own
build benchmark, benchmarks/micro/bench_knn_build.py) are checked against
an fp32 brute force on a sample of rows (bench.check: Cake's graph
excludes each point itself, flashlib's includes it), then timed
interleaved (CUDA events, median). flashlib does slightly less work:
k lists that may hold the point itself, where Cake's hold k others.

--portfolio, --shard, --lean and --time-limit as in bench.py: the
issue's build portfolio of --dtype (shapes without a kernel recorded with
the reason), every N-th shape, about 0.2 s of launches a round (else
2 s), no shape started after S seconds; the JSON is rewritten after every
shape.

usage: build.py --runtime LIB --bundles DIR --peer FLASHLIB_DIR
                [--shapes N:D:k,... | --portfolio] [--shard I/N] [--lean]
                [--time-limit S] [--rounds 3] [--out results.json]
"""
import argparse
import ctypes
import json
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "knn"))
sys.path.insert(0, os.path.join(HERE, "..", "portfolio"))
from bench import SAMPLE, check, load_flashlib  # noqa: E402
from cake_rt import (CakeRtArg, load_bundle, load_runtime,  # noqa: E402
                     tensor_arg, time_ms)
import dispatch  # noqa: E402
import shapes as portfolio  # noqa: E402

DEFAULT_SHAPES = ("65536:64:10,131072:64:10,262144:64:10,500000:64:10,"
                  "65536:128:10,262144:128:10,500000:128:10,"
                  "131072:256:10,500000:256:10")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundles", required=True)
    p.add_argument("--peer", required=True)
    p.add_argument("--shapes", default=DEFAULT_SHAPES)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--dtype", default="bf16",
                   choices=dispatch.DTYPES + (dispatch.SPLIT_DTYPE,),
                   help="the points' type (both implementations; f32: "
                   "Cake's 3xbf16 split, flashlib's Triton dot on fp32)")
    p.add_argument("--wgs", default="",
                   help="also time these consumer warpgroup counts (2,3)")
    portfolio.add_run_arguments(p, "knn-build")
    p.add_argument("--lean", action="store_true",
                   help="about 0.2 s of launches a round, not 2 s")
    p.add_argument("--out", default="")
    args = p.parse_args()

    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    rt = load_runtime(args.runtime)
    knn_triton, gather = load_flashlib(args.peer)
    stream = torch.cuda.current_stream().cuda_stream
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}  "
          f"CUDA {torch.version.cuda}")
    handles = {}

    def bundle(name):
        path = os.path.join(args.bundles, name + ".json")
        if path not in handles:
            handles[path] = load_bundle(rt, path)
        return handles[path]

    def launch(h, cargs):
        if rt.cakeRtLaunch(h, cargs, len(cargs), ctypes.c_void_p(stream)):
            raise RuntimeError(rt.cakeRtLastError().decode())

    rows, failures = [], 0
    plan = portfolio.PortfolioRun(
        "knn-build", args, {"gpu": torch.cuda.get_device_name(),
                            "torch": torch.__version__})
    for shape in plan.shapes():
        N, D, k = (int(v) for v in shape.split(":"))
        kname = dispatch.choose_build(N, D, k, dtype=args.dtype)
        split = args.dtype == dispatch.SPLIT_DTYPE
        hn = bundle(dispatch.split_name(D) if split
                    else f"row_norms_{args.dtype}_d{D}")
        # The dispatcher's kernel first, then any other warpgroup count.
        variants = [("cake", kname)] + [
            (f"cake_w{w}", dispatch.choose_build(N, D, k, int(w),
                                                 args.dtype))
            for w in filter(None, args.wgs.split(","))]
        x = torch.randn(N, D, device="cuda",
                        dtype={"bf16": torch.bfloat16, "f16": torch.float16,
                               "f32": torch.float32}[args.dtype])
        xn = torch.empty(N, device="cuda", dtype=torch.float32)
        dist = torch.empty(N, k, device="cuda", dtype=torch.float32)
        idx = torch.empty(N, k, device="cuda", dtype=torch.int32)
        if split:
            # fp32: the split kernel writes the bf16 pieces (queries and
            # corpus) and the norms, the build reads the pieces.
            cols = 3 * dispatch.split_width(D)
            xq, xc = (torch.empty(N, cols, device="cuda",
                                  dtype=torch.bfloat16) for _ in range(2))
            nargs = (CakeRtArg * 4)(tensor_arg(x), tensor_arg(xq),
                                    tensor_arg(xc), tensor_arg(xn))
            bargs = (CakeRtArg * 5)(tensor_arg(xq), tensor_arg(xc),
                                    tensor_arg(xn), tensor_arg(dist),
                                    tensor_arg(idx))
        else:
            nargs = (CakeRtArg * 2)(tensor_arg(x), tensor_arg(xn))
            bargs = (CakeRtArg * 4)(tensor_arg(x), tensor_arg(xn),
                                    tensor_arg(dist), tensor_arg(idx))

        def build(h):
            def run():
                launch(hn, nargs)
                launch(h, bargs)
                return dist, idx
            return run
        builds = [(v, build(bundle(n))) for v, n in variants]
        cake = builds[0][1]

        def flashlib():
            i = knn_triton(x[None], x[None], k)
            return gather(x[None], x[None], i)[0], i[0]

        sample = torch.randperm(N, device="cuda")[:SAMPLE]
        results = {}
        for name, fn, excl in ([(v, b, True) for v, b in builds]
                               + [("flashlib", flashlib, False)]):
            dist.fill_(float("nan"))
            d, i = fn()
            if rt.cakeRtSynchronize(ctypes.c_void_p(stream), 60000) != 0:
                plan.save(rows)
                sys.exit(f"{shape}: {rt.cakeRtLastError().decode()}")
            torch.cuda.synchronize()
            results[name] = check(x, x, d, i, k, sample, exclude_self=excl,
                                  ordered=name != "flashlib")
        ok = all(r.get("ok") for r in results.values())
        failures += not ok
        # About two seconds (--lean: 0.2 s) of launches an implementation
        # a round.
        t0 = time_ms(cake, iters=3, warmup=1)
        budget = 200 if args.lean else 2000
        iters = max(3, min(20, int(budget / max(t0, 1e-3))))
        impls = builds + [("flashlib", flashlib)]
        times = {n: [] for n, _ in impls}
        for r in range(args.rounds):
            s = r % len(impls)
            for n, fn in impls[s:] + impls[:s]:
                times[n].append(time_ms(fn, iters=iters, warmup=2))
        med = {n: sorted(t)[len(t) // 2] for n, t in times.items()}
        tflops = 2.0 * N * N * D / (med["cake"] * 1e-3) / 1e12
        row = {"N": N, "D": D, "k": k, "dtype": args.dtype, "kernel": kname,
               "variants": dict(variants), "ms": med,
               "cake_tflops": tflops, "check": results,
               "speedup": med["flashlib"] / med["cake"]}
        rows.append(row)
        plan.save(rows)
        print(f"{N:>7} x {D:>3} k={k:<3} {kname:<28} cake {med['cake']:9.3f} "
              f"({tflops:5.1f} TFLOP/s) "
              + "".join(f"{v} {med[v]:9.3f} " for v, _ in variants[1:])
              + f"| flashlib {med['flashlib']:9.3f} | "
              f"x{row['speedup']:.3f}  {'ok' if ok else 'FAIL'}", flush=True)
        if not ok:
            print(json.dumps(results), flush=True)
        del x, xn, dist, idx, nargs, bargs
    if rows:
        g = math.exp(sum(math.log(r["speedup"]) for r in rows) / len(rows))
        print(f"geomean cake vs flashlib (build, with distances): {g:.3f}x; "
              f"slowest x{min(r['speedup'] for r in rows):.3f}")
    plan.summary(rows)
    print(f"failures {failures}")
    plan.save(rows)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
