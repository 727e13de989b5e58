#!/usr/bin/env python3
"""Measures the cost model's rank-study candidates on the GPU.

For each problem (GEMM shapes, k-means assignment shapes) and each legal
candidate of that family (bench/cost/gen_candidates.py, lowered to bundles
by scripts/device-pack-cost): fresh random inputs, one checked launch (GEMM:
||C - A B^T|| / ||A B^T|| <= 1e-2 against torch in fp32 with every element
written; k-means: bench/kmeans's tie-tolerant check), then the median of
CUDA-event-timed launches. Writes JSON: one row per (problem, candidate).

Every bundle first runs once in a child cake-run with a timeout on a small
problem: a candidate that hangs or faults there is recorded as a finding
(it passed cake-verify) and left out of the timed runs, which share one
CUDA context a hang would poison.

usage: measure.py --runtime libcake_runtime.so --cake-run BIN --bundles DIR
                  --out F.json
       measure.py --runtime ... --cake-run BIN --manifest DIR/manifest.json
                  --out F.json [--peer-kmeans DIR]
           (cake-evolve --export's candidates and its seed: the manifest's
           bundles on its one problem, timed beside the peer in the same
           run: cuBLAS (torch) for GEMM, flash-kmeans's heuristic and
           autotuned configs for k-means when --peer-kmeans holds its
           flash_kmeans package; bring the results back with cake-evolve
           --import F.json)
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "kmeans"))
from cake_rt import CakeRtArg, load_runtime, tensor_arg, time_ms  # noqa: E402
from bench import check as kmeans_check  # noqa: E402

GEMM = [(8192, 8192, 8192), (2048, 2048, 2048), (4000, 3000, 2000)]
KMEANS = [(1048576, 128, 1024), (262144, 128, 4096)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundles", default="")
    p.add_argument("--manifest", default="")
    p.add_argument("--out", required=True)
    p.add_argument("--cake-run", required=True)
    p.add_argument("--peer-kmeans", default="",
                   help="folder holding flash-kmeans's flash_kmeans package")
    p.add_argument("--gemm", default=",".join("x".join(map(str, g))
                                              for g in GEMM),
                   help="GEMM problems MxNxK,...")
    p.add_argument("--kmeans", default=",".join("x".join(map(str, k))
                                                for k in KMEANS),
                   help="k-means problems NxDxK,...")
    args = p.parse_args()
    gemm = [tuple(int(v) for v in s.split("x"))
            for s in args.gemm.split(",") if s]
    kmeans = [tuple(int(v) for v in s.split("x"))
              for s in args.kmeans.split(",") if s]
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    torch.empty(1, device="cuda")
    rt = load_runtime(args.runtime)
    stream = torch.cuda.current_stream().cuda_stream
    if args.manifest:
        # cake-evolve's export: candidate ids, one problem for all.
        man = json.load(open(args.manifest))
        args.bundles = os.path.dirname(os.path.abspath(args.manifest))
        dims = [[int(v) for v in a.split("x")] for a in man["shapes"].split(",")]
        family = "gemm_" if man["check"] == "gemm" else "kmeans_"
        if family == "gemm_":
            (M, K), (N, _), _ = dims
            gemm, kmeans = [(M, N, K)], []
        else:
            (N, D), (K, _) = dims[0], dims[1]
            gemm, kmeans = [], [(N, D, K)]
        names = [c["id"] for c in man["candidates"]]
        kind = {n: family for n in names}
    else:
        names = sorted(f[:-5] for f in os.listdir(args.bundles)
                       if f.endswith(".json"))
        kind = {n: n[:n.index("_") + 1] for n in names}
    findings = []
    for n in list(names):
        if kind[n] == "gemm_":
            argv = ["--arg", "0=1024x512", "--arg", "1=768x512",
                    "--arg", "2=1024x768", "--check", "gemm"]
        else:
            argv = ["--arg", "0=65536x128", "--arg", "1=1000x128",
                    "--arg", "2=1000", "--arg", "3=65536", "--check", "none"]
        cmd = ([args.cake_run, os.path.join(args.bundles, n + ".json")]
               + argv + ["--iters", "1", "--warmup", "0",
                         "--timeout-ms", "5000"])
        try:
            r = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=60)
            code, err = r.returncode, r.stderr
        except subprocess.TimeoutExpired as e:
            # cake-run did not even leave after its own timeout.
            code = 124
            err = e.stderr.decode() if isinstance(e.stderr, bytes) else \
                (e.stderr or "no exit within 60 s")
        print(f"screen: {n}: exit {code}", flush=True)
        if code != 0:
            what = "hang (timeout)" if code == 124 else f"exit {code}"
            tail = (err.strip().splitlines() or [""])[-1]
            findings.append(dict(candidate=n, result=what, stderr=tail))
            print(f"screen: {n}: {what}: {tail}", flush=True)
            names.remove(n)
    handles = {}
    for n in names:
        h = ctypes.c_void_p()
        path = os.path.join(args.bundles, n + ".json")
        if rt.cakeRtBundleLoad(path.encode(), ctypes.byref(h)) != 0:
            sys.exit(f"{path}: {rt.cakeRtLastError().decode()}")
        handles[n] = h

    def run(h, tensors):
        cargs = (CakeRtArg * len(tensors))(*[tensor_arg(t) for t in tensors])

        def launch():
            if rt.cakeRtLaunch(h, cargs, len(tensors),
                               ctypes.c_void_p(stream)) != 0:
                raise RuntimeError(rt.cakeRtLastError().decode())
        return launch

    def sync(what):
        if rt.cakeRtSynchronize(ctypes.c_void_p(stream), 10000) != 0:
            print(f"{what}: {rt.cakeRtLastError().decode()}", flush=True)
            os._exit(124)

    rows = []
    peers = {}
    # Warm the clocks.
    W = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    time_ms(lambda: W @ W, iters=50, warmup=5)
    del W
    for M, N, K in gemm:
        A = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        B = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
        ref = A.float() @ B.float().T
        for n in names:
            if kind[n] != "gemm_":
                continue
            C = torch.full((M, N), float("nan"), device="cuda",
                           dtype=torch.bfloat16)
            launch = run(handles[n], [A, B, C])
            launch()
            sync(n)
            ok = (int(torch.isnan(C).sum()) == 0 and
                  float((C.float() - ref).norm() / ref.norm()) <= 1e-2)
            ms = time_ms(launch, iters=10, warmup=2)
            rows.append(dict(problem=f"gemm {M}x{N}x{K}", candidate=n,
                             shapes=f"{M}x{K},{N}x{K},{M}x{N}",
                             ms=ms, ok=ok))
            print(f"gemm {M}x{N}x{K} {n} {ms:.4f} ms ok={ok}", flush=True)
        if args.manifest:
            peers["cuBLAS (torch.matmul)"] = time_ms(lambda: A @ B.T,
                                                     iters=10, warmup=2)
        del A, B, ref, C
    for N, D, K in kmeans:
        x = torch.randn(N, D, device="cuda", dtype=torch.float16)
        c = torch.randn(K, D, device="cuda", dtype=torch.float16)
        cn = (c.float() ** 2).sum(-1).contiguous()
        for n in names:
            if kind[n] != "kmeans_":
                continue
            out = torch.full((N,), -7, device="cuda", dtype=torch.int32)
            launch = run(handles[n], [x, c, cn, out])
            launch()
            sync(n)
            _, bad = kmeans_check(out, x, c)
            ms = time_ms(launch, iters=10, warmup=2)
            rows.append(dict(problem=f"kmeans 1x{N}x{D}x{K} f16", candidate=n,
                             shapes=f"{N}x{D},{K}x{D},{K},{N}", ms=ms,
                             ok=bad == 0))
            print(f"kmeans {N}x{D}x{K} {n} {ms:.4f} ms bad={bad}", flush=True)
        if args.manifest and args.peer_kmeans:
            sys.path.insert(0, args.peer_kmeans)
            from flash_kmeans.assign_euclid_triton import euclid_assign_triton
            xb, cb, x_sq = x[None], c[None], (x.float() ** 2).sum(-1)[None]
            for cfg, heur in (("heuristic", True), ("autotuned", False)):
                def peer(heur=heur):
                    return euclid_assign_triton(xb, cb, x_sq, c_sq=cn[None],
                                                use_heuristic=heur)
                peer()  # the autotuned config tunes here, before timing
                torch.cuda.synchronize()
                peers[f"flash-kmeans {cfg}"] = time_ms(peer, iters=10,
                                                       warmup=2)
    bad = [r for r in rows if not r["ok"]]
    for name, ms in peers.items():
        print(f"peer {name}: {ms:.4f} ms", flush=True)
    print(f"{len(findings)} candidates failed the screen")
    print(f"{len(rows)} measurements, {len(bad)} wrong, GPU "
          f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    with open(args.out, "w") as f:
        json.dump(dict(gpu=torch.cuda.get_device_name(),
                       torch=torch.__version__, rows=rows,
                       findings=findings, peers=peers), f, indent=1)


if __name__ == "__main__":
    main()
