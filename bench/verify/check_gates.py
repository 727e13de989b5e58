#!/usr/bin/env python3
"""Runs examples/chunk_gates.cake.mlir on the GPU and checks it.

    python3 bench/verify/check_gates.py --runtime .device/lib/libcake_runtime.so \
        BUNDLE [--kind sum|min|max] [--rows 1000 4096 ...]

The kernel computes, per 128-row block, X = A · Bᵀ on the tensor cores,
Γ = the inclusive scan of X down each column (cake.frag.scan ... down:
in-warp shuffles, then each warp's column totals through a shared-memory
scratch), and Y = Γ - Γ[127] (cake.frag.row). --kind names the scan of a
variant whose source has the kind replaced (min, max: running minimum or
maximum). The reference does the same in fp32 from the same bf16 inputs
(A padded with zero rows to whole blocks, as TMA fills rows past the end).
Fresh standard normal inputs per size; the output is poisoned with NaN
first. A wrong warp order, a missing carry or a stale scratch gives an
error of order 1; the check allows 1e-5 relative (fp32 summation order
in X and in the scan; min and max select, so theirs is X's alone). Exits
non-zero on any failure.
"""
import argparse
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import load_runtime, tensor_arg  # noqa: E402


def reference(a, b, kind):
    rows = a.shape[0]
    blocks = (rows + 127) // 128
    a = torch.nn.functional.pad(a.float(), (0, 0, 0, blocks * 128 - rows))
    x = a.view(blocks, 128, 64) @ b.float().T
    if kind == "sum":
        g = torch.cumsum(x, dim=1)
    elif kind == "min":
        g = torch.cummin(x, dim=1).values
    else:
        g = torch.cummax(x, dim=1).values
    y = g - g[:, 127:128, :]
    return y.reshape(blocks * 128, 128)[:rows]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--kind", choices=["sum", "min", "max"], default="sum")
    ap.add_argument("--rows", type=int, nargs="+", default=[1000, 4096, 65536])
    ap.add_argument("bundle")
    args = ap.parse_args()
    rt = load_runtime(args.runtime)
    h = ctypes.c_void_p()
    if rt.cakeRtBundleLoad(args.bundle.encode(), ctypes.byref(h)) != 0:
        sys.exit(f"load {args.bundle}: {rt.cakeRtLastError().decode()}")
    failed = 0
    torch.manual_seed(20261201)
    for rows in args.rows:
        a = torch.randn(rows, 64, device="cuda").bfloat16()
        b = torch.randn(128, 64, device="cuda").bfloat16()
        y = torch.full((rows, 128), float("nan"), device="cuda")
        cargs = (type(tensor_arg(y)) * 3)(*(tensor_arg(t) for t in (a, b, y)))
        if (rt.cakeRtLaunch(h, cargs, 3, None) != 0 or
                rt.cakeRtSynchronize(None, 10000) != 0):
            sys.exit(f"{args.bundle}: {rt.cakeRtLastError().decode()}")
        want = reference(a, b, args.kind)
        unwritten = y.isnan().sum().item()
        rel = ((y - want).norm() / want.norm()).item() if unwritten == 0 else float("inf")
        ok = unwritten == 0 and rel < 1e-5
        failed += not ok
        print(f"{os.path.basename(args.bundle)} {args.kind} {rows}x128: "
              f"{unwritten} unwritten, relative error {rel:.2e}: "
              f"{'PASS' if ok else 'WRONG'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
