# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""How steady one attention kernel's time is, launch by launch.

    python3 bench/attention/stability.py --runtime .device/lib/libcake_runtime.so \
        --bundle .device/bundles/attention_fwd_d128.json [--shape 4:32:4096:128]
        [--launches 200] [--allocations 3]

For each of a few fresh allocations of Q, K, V, O: every launch timed on
its own (CUDA events around it, back to back), then cuDNN's the same way,
printing min / median / 90th percentile / max, so that run-to-run spread
(runs 9 and 15 of docs/benchmarks/attention.md) can be told apart from
launch-to-launch spread.
"""
import argparse
import ctypes
import os
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import CakeRtArg, load_runtime, tensor_arg  # noqa: E402


def per_launch(fn, n):
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    for _ in range(3):
        fn()
    for i in range(n):
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    return [s.elapsed_time(e) for s, e in zip(starts, ends)]


def summary(ts):
    ts = sorted(ts)
    return (f"min {ts[0]:.3f} median {statistics.median(ts):.3f} "
            f"p90 {ts[int(len(ts) * 0.9)]:.3f} max {ts[-1]:.3f} ms")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundle", required=True)
    p.add_argument("--shape", default="4:32:4096:128")
    p.add_argument("--causal", type=int, default=0)
    p.add_argument("--launches", type=int, default=200)
    p.add_argument("--allocations", type=int, default=3)
    args = p.parse_args()
    B, H, S, D = (int(x) for x in args.shape.split(":"))
    rt = load_runtime(args.runtime)
    h = ctypes.c_void_p()
    if rt.cakeRtBundleLoad(args.bundle.encode(), ctypes.byref(h)) != 0:
        sys.exit(f"load {args.bundle}: {rt.cakeRtLastError().decode()}")
    stream = torch.cuda.current_stream().cuda_stream
    for a in range(args.allocations):
        q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16)
                   for _ in range(3))
        o = torch.empty_like(q)
        g = CakeRtArg()
        g.isScalar, g.scalar = 1, 1  # G: one query head per KV head
        cargs = (CakeRtArg * 5)(*(tensor_arg(t.view(B * H, S, D))
                                  for t in (q, k, v, o)), g)

        def cake():
            if rt.cakeRtLaunch(h, cargs, 5, ctypes.c_void_p(stream)) != 0:
                raise RuntimeError(rt.cakeRtLastError().decode())

        def cudnn():
            with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
                F.scaled_dot_product_attention(q, k, v,
                                               is_causal=bool(args.causal))

        print(f"allocation {a} (Q at {q.data_ptr():#x}): "
              f"cake {summary(per_launch(cake, args.launches))}; "
              f"cudnn {summary(per_launch(cudnn, args.launches))}",
              flush=True)
        del q, k, v, o
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
