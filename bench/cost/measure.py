#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
           flash_kmeans package, cuDNN through torch SDPA for attention
           (check "attention": shapes BHxSxD,BHkvxSxD,BHkvxSxD,BHxSxD,G;
           every query row of two heads against an fp32 softmax(Q Kᵀ/√D) V,
           max abs error <= 2e-2, every element written); bring the
           results back with cake-evolve --import F.json; a shard that
           cake-evolve's stage 3 writes names the bundles' folder in
           "bundle_dir" and times the peer only with "peers": true)
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
    time_peers = True
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
        # A shard of the export (cake-evolve's stage 3) sits one folder
        # below the bundles and times the peer only if it holds the seed.
        args.bundles = os.path.join(
            os.path.dirname(os.path.abspath(args.manifest)),
            man.get("bundle_dir", "."))
        time_peers = man.get("peers", True)
        dims = [[int(v) for v in a.split("x")] for a in man["shapes"].split(",")]
        family = {"gemm": "gemm_", "attention": "attention_"}.get(
            man["check"], "kmeans_")
        attention = []
        if family == "gemm_":
            (M, K), (N, _), _ = dims
            gemm, kmeans = [(M, N, K)], []
        elif family == "attention_":
            (BH, S, D), (BHKV, _, _) = dims[0], dims[1]
            gemm, kmeans = [], []
            attention = [(BH, BHKV, S, D)]
        else:
            (N, D), (K, _) = dims[0], dims[1]
            gemm, kmeans = [], [(N, D, K)]
        names = [c["id"] for c in man["candidates"]]
        kind = {n: family for n in names}
    else:
        names = sorted(f[:-5] for f in os.listdir(args.bundles)
                       if f.endswith(".json"))
        kind = {n: n[:n.index("_") + 1] for n in names}
        attention = []
    findings = []
    for n in list(names):
        if kind[n] == "gemm_":
            argv = ["--arg", "0=1024x512", "--arg", "1=768x512",
                    "--arg", "2=1024x768", "--check", "gemm"]
        elif kind[n] == "attention_":
            d = attention[0][3]
            argv = sum((["--arg", f"{i}=2x300x{d}"] for i in range(4)), [])
            argv += ["--scalar", "4=1", "--check", "none"]
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
        if args.manifest and time_peers:
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
        if args.manifest and time_peers and args.peer_kmeans:
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
    for BH, BHKV, S, D in attention:
        G = BH // BHKV
        q = torch.randn(BH, S, D, device="cuda", dtype=torch.bfloat16)
        k = torch.randn(BHKV, S, D, device="cuda", dtype=torch.bfloat16)
        v = torch.randn(BHKV, S, D, device="cuda", dtype=torch.bfloat16)
        refs = {}
        for hh in sorted({0, BH - 1}):
            s_ = (q[hh].float() @ k[hh // G].float().T) / D ** 0.5
            refs[hh] = torch.softmax(s_, dim=-1) @ v[hh // G].float()
        g = CakeRtArg()
        g.isScalar, g.scalar = 1, G
        for n in names:
            if kind[n] != "attention_":
                continue
            o = torch.full((BH, S, D), float("nan"), device="cuda",
                           dtype=torch.bfloat16)
            cargs = (CakeRtArg * 5)(*[tensor_arg(t) for t in (q, k, v, o)],
                                    g)

            def launch(h=handles[n], cargs=cargs):
                if rt.cakeRtLaunch(h, cargs, 5, ctypes.c_void_p(stream)) != 0:
                    raise RuntimeError(rt.cakeRtLastError().decode())
            launch()
            sync(n)
            err = max(float((o[hh].float() - r).abs().max())
                      for hh, r in refs.items())
            ok = int(torch.isnan(o).sum()) == 0 and err <= 2e-2
            ms = time_ms(launch, iters=10, warmup=2)
            rows.append(dict(problem=f"attention {BH}x{S}x{D} kv {BHKV}",
                             candidate=n,
                             shapes=f"{BH}x{S}x{D},{BHKV}x{S}x{D},"
                                    f"{BHKV}x{S}x{D},{BH}x{S}x{D},{G}",
                             ms=ms, ok=ok))
            print(f"attention {BH}x{S}x{D} {n} {ms:.4f} ms err={err:.1e} "
                  f"ok={ok}", flush=True)
        if args.manifest and time_peers:
            from torch.nn.attention import SDPBackend, sdpa_kernel
            import torch.nn.functional as F

            def cudnn():
                with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
                    F.scaled_dot_product_attention(
                        q[None], k[None], v[None], enable_gqa=G > 1)
            peers["cuDNN (torch SDPA)"] = time_ms(cudnn, iters=10, warmup=2)
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
