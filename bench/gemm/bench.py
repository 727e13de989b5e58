#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake GEMM beside cuBLAS (torch.matmul) on the same inputs, in one run.

For every shape and every bundle: fresh random bf16 inputs (never zeros),
C poisoned with NaN, one checked launch (||out - ref|| / ||ref|| against
torch.matmul in fp32, every element written), then all timed with CUDA
events, interleaved over several rounds (median of 20 launches per round,
median round reported, with the spread across rounds). Prints a table and writes JSON results.

Split-K bundles ("splitk" in the entry: A, B, an f32 workspace W and the
index arguments J, S, Kc; examples/gemm-variants/gemm_splitk_*) run on
shapes with fewer output tiles than --sms, once per split count in
--splits: each timed call zeroes W, launches the kernel and rounds W into
C (torch's copy kernel), so the row's time is all that C = A·Bᵀ costs.

usage: bench.py --runtime DIR/libcake_runtime.so --bundle B.json [...]
                [--shapes 8192x8192x8192,...] [--out results.json]
"""
import argparse
import ctypes
import json
import os
import sys

import torch


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import CakeRtArg, load_runtime, tensor_arg, time_ms  # noqa: E402
from cake.runtime import scalar_arg  # noqa: E402


def split_plan(M, N, K, tile, splits):
    """(J, S, Kc) of a split-K launch: Kc a multiple of 64 and no slice
    empty (S shrinks to ceil(K / Kc)); None when S would be 1."""
    kc = -(-(-(-K // splits)) // 64) * 64
    s = -(-K // kc)
    if s < 2:
        return None
    return -(-N // tile) * s, s, kc


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundle", action="append", required=True)
    p.add_argument("--shapes", default="8192x8192x8192,4096x4096x4096,"
                   "2048x2048x2048,4000x3000x2000,128x256x64")
    p.add_argument("--out", default="")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--splits", default="2,3,4,6,8",
                   help="split counts for split-K bundles")
    p.add_argument("--sms", type=int, default=132,
                   help="split-K runs where the output tiles are fewer")
    args = p.parse_args()

    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    torch.cuda.init()
    torch.empty(1, device="cuda")  # make torch's context current
    rt = load_runtime(args.runtime)
    bundles = []
    for path in args.bundle:
        h = ctypes.c_void_p()
        if rt.cakeRtBundleLoad(path.encode(), ctypes.byref(h)) != 0:
            sys.exit(f"load {path}: {rt.cakeRtLastError().decode()}")
        # Label by file name: variants of one kernel share an entry name.
        with open(path) as f:
            splitk = "splitk" in json.load(f)["entry"]
        bundles.append((os.path.basename(path).removesuffix(".json"), h,
                        splitk))

    stream = torch.cuda.current_stream().cuda_stream
    rows, failures = [], 0
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}  "
          f"CUDA {torch.version.cuda}")
    # Bring clocks up before the first timed shape.
    W = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    time_ms(lambda: W @ W, iters=100, warmup=10)
    del W
    for shape in args.shapes.split(","):
        M, N, K = (int(x) for x in shape.split("x"))
        A = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        B = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
        ref = A.float() @ B.float().T
        flops = 2.0 * M * N * K
        kernels = {"cuBLAS (torch.matmul)": lambda: torch.matmul(A, B.T)}
        checked = {"cuBLAS (torch.matmul)": dict(
            rel_err=float((torch.matmul(A, B.T).float() - ref).norm()
                          / ref.norm()))}
        runs = []
        for name, h, splitk in bundles:
            if not splitk:
                runs.append((name, h, None))
                continue
            tiles = -(-M // 128) * -(-N // 128)
            if tiles >= args.sms:
                continue
            for s in sorted({int(x) for x in args.splits.split(",")}):
                plan = split_plan(M, N, K, 128, s)
                if plan and all(p[2] != plan for p in runs):
                    runs.append((f"{name} S={plan[1]}", h, plan))
        for name, h, plan in runs:
            C = torch.full((M, N), float("nan"), device="cuda",
                           dtype=torch.bfloat16)
            if plan is None:
                cargs = (CakeRtArg * 3)(tensor_arg(A), tensor_arg(B),
                                        tensor_arg(C))

                def launch(h=h, cargs=cargs):
                    if rt.cakeRtLaunch(h, cargs, 3,
                                       ctypes.c_void_p(stream)) != 0:
                        raise RuntimeError(rt.cakeRtLastError().decode())
            else:
                W = torch.empty(M, N, device="cuda", dtype=torch.float32)
                cargs = (CakeRtArg * 6)(tensor_arg(A), tensor_arg(B),
                                        tensor_arg(W), *map(scalar_arg, plan))

                def launch(h=h, cargs=cargs, W=W, C=C):
                    W.zero_()
                    if rt.cakeRtLaunch(h, cargs, 6,
                                       ctypes.c_void_p(stream)) != 0:
                        raise RuntimeError(rt.cakeRtLastError().decode())
                    C.copy_(W)

            launch()
            torch.cuda.synchronize()
            unwritten = int(torch.isnan(C).sum())
            rel = float((C.float() - ref).norm() / ref.norm())
            ok = unwritten == 0 and rel <= 1e-2
            failures += not ok
            kernels[name] = launch
            checked[name] = dict(rel_err=rel, unwritten=unwritten, ok=ok,
                                 keep=C)
        # Interleave the kernels over several rounds so clock and power
        # drift hits all of them alike; report the median round.
        times = {name: [] for name in kernels}
        for _ in range(args.rounds):
            for name, fn in kernels.items():
                times[name].append(time_ms(fn, iters=20, warmup=3))
        t_cublas = sorted(times["cuBLAS (torch.matmul)"])[args.rounds // 2]
        for name in kernels:
            t = sorted(times[name])[args.rounds // 2]
            row = dict(shape=shape, kernel=name, ms=t, tflops=flops / t / 1e9,
                       spread=(max(times[name]) - min(times[name])) / t)
            row.update({k: v for k, v in checked[name].items() if k != "keep"})
            if name != "cuBLAS (torch.matmul)":
                row["vs_cublas"] = t_cublas / t
            rows.append(row)
    print(f"{'shape':>16} {'kernel':>32} {'ms':>9} {'TFLOP/s':>8} "
          f"{'spread':>7} {'rel_err':>9} {'vs cuBLAS':>9}")
    for r in rows:
        vs = f"{r['vs_cublas']:.3f}x" if "vs_cublas" in r else ""
        flag = "" if r.get("ok", True) else "  FAIL"
        print(f"{r['shape']:>16} {r['kernel']:>32} {r['ms']:9.4f} "
              f"{r['tflops']:8.1f} {r['spread']:7.1%} {r['rel_err']:9.2e} "
              f"{vs:>9}{flag}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(dict(gpu=torch.cuda.get_device_name(),
                           torch=torch.__version__, rows=rows), f, indent=1)
    print(f"{len(rows) - failures} rows ok, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
