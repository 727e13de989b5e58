#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake GEMM beside cuBLAS (torch.matmul) on the same inputs, in one run.

For every shape and every bundle: fresh random bf16 inputs (never zeros),
C poisoned with NaN, one checked launch (||out - ref|| / ||ref|| against
torch.matmul in fp32, every element written), then all timed with CUDA
events, interleaved over several rounds (median of 20 launches per round,
median round reported, with the spread across rounds). Prints a table and
writes JSON results.

FP8 bundles (A and B float8 e4m3, then the scales Sa and Sb as one-element
f32 tensors, then C bf16; examples/gemm-variants/gemm_e4m3_*) run beside
torch._scaled_mm (cuBLASLt) on e4m3 inputs drawn as 16·N(0, 1) rounded to
e4m3 and per-tensor scales in [0.01, 0.135), checked against the fp32
product of the same e4m3 values times sa·sb.

--table DIR adds a row per shape for the GEMM table: the kernel and split
that python/cake/gemm_dispatch.py chooses, from the bundles
scripts/device-pack-gemm wrote to DIR (with --table, --bundle is
optional).

Split-K bundles ("splitk" in the entry: A, B, for fp8 the scales Sa and
Sb, an f32 workspace W and the index arguments J, S, Kc;
examples/gemm-variants/gemm_splitk_*) run on
shapes with fewer output tiles than --sms, once per split count in
--splits: each timed call zeroes W, launches the kernel and rounds W into
C (torch's copy kernel), so the row's time is all that C = A·Bᵀ costs.

usage: bench.py --runtime DIR/libcake_runtime.so --bundle B.json [...]
                [--shapes 8192x8192x8192,...] [--out results.json]
                [--splits 2,3,4] [--rounds 5] [--table .device/gemm]
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
from cake import gemm_dispatch  # noqa: E402


def inputs(kind, M, N, K):
    """A, B, the extra kernel arguments, the fp32 reference and the peer."""
    if kind == "bf16":
        A = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        B = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
        return (A, B, [], A.float() @ B.float().T, "cuBLAS (torch.matmul)",
                lambda: torch.matmul(A, B.T))
    # e4m3 with per-tensor scales, as torch._scaled_mm takes them: values
    # spread over e4m3's range, scales that bring the product back.
    e4m3 = torch.float8_e4m3fn
    A = (torch.randn(M, K, device="cuda") * 16).to(e4m3)
    B = (torch.randn(N, K, device="cuda") * 16).to(e4m3)
    sa = torch.rand(1, device="cuda") / 8 + 0.01
    sb = torch.rand(1, device="cuda") / 8 + 0.01
    ref = (A.float() @ B.float().T) * (sa * sb)
    Bt = B.T  # column-major, the layout _scaled_mm's second operand needs
    return (A, B, [sa, sb], ref, "torch._scaled_mm (cuBLASLt)",
            lambda: torch._scaled_mm(A, Bt, scale_a=sa, scale_b=sb,
                                     out_dtype=torch.bfloat16))


def run_shape(rt, stream, args, kind, group, table, M, N, K, rows):
    """Checks and times one shape's group of bundles (and the table's
    choice) beside their peer; appends the rows, returns the number of
    failed checks."""
    A, B, extra, ref, peer, peer_fn = inputs(kind, M, N, K)
    flops = 2.0 * M * N * K
    kernels = {peer: peer_fn}
    try:
        peer_out = peer_fn()
    except RuntimeError as e:  # _scaled_mm wants every dimension % 16 == 0
        print(f"{M}x{N}x{K} {kind}: skipped, the peer refuses the shape "
              f"({str(e).splitlines()[0]})", flush=True)
        return 0
    checked = {peer: dict(rel_err=float((peer_out.float() - ref).norm()
                                        / ref.norm()))}
    failures = 0
    runs = []
    for b in group:
        if not b["splitk"]:
            runs.append((b["name"], b["h"], None))
            continue
        tiles = -(-M // 128) * -(-N // 128)
        if tiles >= args.sms:
            continue
        for s in sorted({int(x) for x in args.splits.split(",")}):
            plan = gemm_dispatch.split_plan(
                M, N, K, s, step=gemm_dispatch.k_step(kind))
            if plan and all(p[2] != plan for p in runs):
                runs.append((f"{b['name']} S={plan[1]}", b["h"], plan))
    if table:
        name, plan = gemm_dispatch.choose(M, N, K, dtype=kind, sms=args.sms)
        label = f"table: {name}" + (f" S={plan[1]}" if plan else "")
        runs.append((label, table[name], plan))
    for name, h, plan in runs:
        C = torch.full((M, N), float("nan"), device="cuda",
                       dtype=torch.bfloat16)
        if plan is None:
            ts = [A, B, *extra, C]
            cargs = (CakeRtArg * len(ts))(*map(tensor_arg, ts))

            def launch(h=h, cargs=cargs):
                if rt.cakeRtLaunch(h, cargs, len(cargs),
                                   ctypes.c_void_p(stream)) != 0:
                    raise RuntimeError(rt.cakeRtLastError().decode())
        else:
            W = torch.empty(M, N, device="cuda", dtype=torch.float32)
            ts = [A, B, *extra, W]
            cargs = (CakeRtArg * (len(ts) + 3))(*map(tensor_arg, ts),
                                                *map(scalar_arg, plan))

            def launch(h=h, cargs=cargs, W=W, C=C):
                W.zero_()
                if rt.cakeRtLaunch(h, cargs, len(cargs),
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
        checked[name] = dict(rel_err=rel, unwritten=unwritten, ok=ok)
    # Interleave the kernels over several rounds so clock and power drift
    # hits all of them alike; report the median round.
    times = {name: [] for name in kernels}
    for _ in range(args.rounds):
        for name, fn in kernels.items():
            times[name].append(time_ms(fn, iters=20, warmup=3))
    t_peer = sorted(times[peer])[args.rounds // 2]
    for name in kernels:
        t = sorted(times[name])[args.rounds // 2]
        row = dict(shape=f"{M}x{N}x{K}", dtype=kind, kernel=name, ms=t,
                   tflops=flops / t / 1e9, peer=peer,
                   spread=(max(times[name]) - min(times[name])) / t)
        row.update(checked[name])
        if name != peer:
            row["vs_peer"] = t_peer / t
        rows.append(row)
    return failures


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundle", action="append", default=[])
    p.add_argument("--table", default="",
                   help="the GEMM table's bundles (scripts/device-pack-gemm)")
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
            meta = json.load(f)
        kind = "e4m3" if meta["args"][0]["element"] == "f8E4M3FN" else "bf16"
        bundles.append(dict(name=os.path.basename(path).removesuffix(".json"),
                            h=h, splitk="splitk" in meta["entry"], kind=kind))

    table = {}
    if args.table:
        for name in gemm_dispatch.VARIANTS:
            h = ctypes.c_void_p()
            path = os.path.join(args.table, name + ".json")
            if rt.cakeRtBundleLoad(path.encode(), ctypes.byref(h)) != 0:
                sys.exit(f"load {path}: {rt.cakeRtLastError().decode()}")
            table[name] = h
    if not bundles and not table:
        p.error("nothing to run: give --bundle or --table")

    stream = torch.cuda.current_stream().cuda_stream
    rows, failures = [], 0
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}  "
          f"CUDA {torch.version.cuda}")
    # Bring clocks up before the first timed shape.
    W = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    time_ms(lambda: W @ W, iters=100, warmup=10)
    del W
    # Rows are printed and the JSON rewritten shape by shape, so a run cut
    # short by a time limit still leaves what it measured.
    print(f"{'shape':>16} {'kernel':>32} {'ms':>9} {'TFLOP/s':>8} "
          f"{'spread':>7} {'rel_err':>9} {'vs peer':>9}", flush=True)
    for shape in args.shapes.split(","):
        M, N, K = (int(x) for x in shape.split("x"))
        for kind in ("bf16", "e4m3"):
            group = [b for b in bundles if b["kind"] == kind]
            if not group and not table:
                continue
            first = len(rows)
            failures += run_shape(rt, stream, args, kind, group, table,
                                  M, N, K, rows)
            for r in rows[first:]:
                vs = f"{r['vs_peer']:.3f}x" if "vs_peer" in r else ""
                flag = "" if r.get("ok", True) else "  FAIL"
                print(f"{r['shape']:>16} {r['kernel']:>32} {r['ms']:9.4f} "
                      f"{r['tflops']:8.1f} {r['spread']:7.1%} "
                      f"{r['rel_err']:9.2e} {vs:>9}{flag}", flush=True)
            if args.out:
                with open(args.out, "w") as f:
                    json.dump(dict(gpu=torch.cuda.get_device_name(),
                                   torch=torch.__version__, rows=rows), f,
                              indent=1)
    print(f"{len(rows) - failures} rows ok, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
