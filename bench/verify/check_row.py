#!/usr/bin/env python3
"""Runs examples/frag_row.cake.mlir on the GPU and checks it.

    python3 bench/verify/check_row.py --runtime .device/lib/libcake_runtime.so \
        BUNDLE [--rows 1000 4096 ...]

The kernel computes, per 128-row block, X = A · Bᵀ on the tensor cores
and Y = X - X[127] + X[5]: rows 127 and 5 of the block (held by one warp
each) broadcast to every row through cake.frag.row's shared-memory
scratch and named barrier. The reference does the same in fp32 from the
same bf16 inputs (A padded with zero rows to whole blocks, as TMA fills
rows past the end, so a ragged last block's row 127 is zero). Fresh
standard normal inputs per size; the output is poisoned with NaN first,
so a row left unwritten fails. A wrong row, a wrong column or a stale
scratch gives an error of order 1; the check allows 1e-4 relative
(fp32 summation order). Exits non-zero on any failure.
"""
import argparse
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import load_runtime, tensor_arg  # noqa: E402


def reference(a, b):
    rows = a.shape[0]
    blocks = (rows + 127) // 128
    a = torch.nn.functional.pad(a.float(), (0, 0, 0, blocks * 128 - rows))
    x = a.view(blocks, 128, 64) @ b.float().T
    y = x - x[:, 127:128, :] + x[:, 5:6, :]
    return y.reshape(blocks * 128, 128)[:rows]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runtime", required=True)
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
        want = reference(a, b)
        unwritten = y.isnan().sum().item()
        rel = ((y - want).norm() / want.norm()).item() if unwritten == 0 else float("inf")
        ok = unwritten == 0 and rel < 1e-4
        failed += not ok
        print(f"{os.path.basename(args.bundle)} {rows}x128: {unwritten} unwritten, "
              f"relative error {rel:.2e}: {'PASS' if ok else 'WRONG'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
