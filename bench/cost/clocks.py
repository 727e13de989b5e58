#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Does the GPU's state change what a harness measures? (issue #27)

bench/cost/measure.py (a short burst per candidate: 2 warm-up and 10
timed launches) and bench/gemm/bench.py (interleaved rounds of 3 + 20)
timed the same GEMM bundle 11 % apart on the H200 (GEMM run 13). This
times one bundle and cuBLAS at one shape under both regimes and under
controlled ones, and reads the SM clock, power and temperature from
nvidia-smi around each sample:

  cold   after 2 s idle, a burst of N launches (N = 10, 20, 100)
  hot    right after 3 s of sustained cuBLAS 8192^3, the same bursts

Each sample is checked against the fp32 product first. One table per
call; nothing here is a pass/fail test.

usage: clocks.py --runtime LIB --bundle GEMM.json [--shape MxNxK]
"""
import argparse
import ctypes
import os
import subprocess
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from cake_rt import CakeRtArg, load_runtime, tensor_arg, time_ms  # noqa: E402


def gpu_state():
    """SM clock (MHz), power (W) and temperature (C) now."""
    out = subprocess.run(
        ["nvidia-smi", "--query-gpu=clocks.sm,power.draw,temperature.gpu",
         "--format=csv,noheader,nounits"],
        capture_output=True, text=True, check=True).stdout
    clock, power, temp = (float(v) for v in out.split(",")[:3])
    return clock, power, temp


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundle", required=True)
    p.add_argument("--shape", default="512x8192x28672")
    args = p.parse_args()
    M, N, K = (int(v) for v in args.shape.split("x"))

    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    torch.empty(1, device="cuda")
    rt = load_runtime(args.runtime)
    h = ctypes.c_void_p()
    if rt.cakeRtBundleLoad(args.bundle.encode(), ctypes.byref(h)) != 0:
        sys.exit(f"{args.bundle}: {rt.cakeRtLastError().decode()}")
    stream = torch.cuda.current_stream().cuda_stream
    A = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    B = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
    C = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
    cargs = (CakeRtArg * 3)(*[tensor_arg(t) for t in (A, B, C)])

    def cake():
        if rt.cakeRtLaunch(h, cargs, 3, ctypes.c_void_p(stream)) != 0:
            raise RuntimeError(rt.cakeRtLastError().decode())

    cake()
    torch.cuda.synchronize()
    ref = A.float() @ B.float().T
    err = float((C.float() - ref).norm() / ref.norm())
    if torch.isnan(C).any() or err > 1e-2:
        sys.exit(f"wrong result: rel. error {err:.2e}")
    W = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)

    def heat(seconds):
        end = time.time() + seconds
        while time.time() < end:
            for _ in range(20):
                W @ W
            torch.cuda.synchronize()

    kernels = {"cake": cake, "cuBLAS": lambda: A @ B.T}
    print(f"GPU: {torch.cuda.get_device_name()}  {args.bundle}  "
          f"{M}x{N}x{K}  rel. error {err:.2e}")
    print(f"{'regime':>6} {'kernel':>7} {'N':>4} {'ms':>8} "
          f"{'MHz before':>10} {'MHz after':>9} {'W after':>7} {'C':>4}")
    for regime in ("cold", "hot", "cold", "hot"):
        for name, fn in kernels.items():
            for n in (10, 20, 100):
                if regime == "cold":
                    time.sleep(2)
                else:
                    heat(3)
                before = gpu_state()[0]
                ms = time_ms(fn, iters=n, warmup=2)
                clock, power, temp = gpu_state()
                print(f"{regime:>6} {name:>7} {n:4d} {ms:8.4f} "
                      f"{before:10.0f} {clock:9.0f} {power:7.0f} {temp:4.0f}",
                      flush=True)


if __name__ == "__main__":
    main()
