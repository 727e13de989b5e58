#!/usr/bin/env python3
"""Runs examples/mma_chain_smem.cake.mlir on the GPU and checks it.

    python3 bench/verify/check_chain.py --runtime .device/lib/libcake_runtime.so \
        BUNDLE [--rows 1000 4096 ...]

The kernel computes, per 64-row block, X = A · Bᵀ on the tensor cores,
rounds X to bf16 in registers, writes it into a shared-memory stage that
the same warpgroup then reads as the MN-major B operand of Y = E · X.
The reference does the same in fp32 from the same bf16 inputs (X rounded
to bf16 the same way; A and E padded with zero rows to whole blocks, as
TMA fills rows past the end). Fresh standard normal inputs per size;
the output is poisoned with NaN first, so a row left unwritten fails.
A transposed or mis-swizzled stage gives a relative error of order 1;
the check allows 1e-3 (fp32 summation order, and an X element whose
fp32 value lands on the other side of a bf16 rounding boundary).
Exits non-zero on any failure.
"""
import argparse
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import load_runtime, tensor_arg  # noqa: E402


def reference(a, b, e):
    rows = a.shape[0]
    blocks = (rows + 63) // 64
    pad = blocks * 64 - rows
    a = torch.nn.functional.pad(a.float(), (0, 0, 0, pad))
    e = torch.nn.functional.pad(e.float(), (0, 0, 0, pad))
    x = (a.view(blocks, 64, 64) @ b.float().T).bfloat16().float()
    y = e.view(blocks, 64, 64) @ x
    return y.reshape(blocks * 64, 64)[:rows]


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
        b = torch.randn(64, 64, device="cuda").bfloat16()
        e = torch.randn(rows, 64, device="cuda").bfloat16()
        y = torch.full((rows, 64), float("nan"), device="cuda")
        cargs = (type(tensor_arg(y)) * 4)(*(tensor_arg(t) for t in (a, b, e, y)))
        if (rt.cakeRtLaunch(h, cargs, 4, None) != 0 or
                rt.cakeRtSynchronize(None, 10000) != 0):
            sys.exit(f"{args.bundle}: {rt.cakeRtLastError().decode()}")
        want = reference(a, b, e)
        unwritten = y.isnan().sum().item()
        rel = ((y - want).norm() / want.norm()).item() if unwritten == 0 else float("inf")
        ok = unwritten == 0 and rel < 1e-3
        failed += not ok
        print(f"{os.path.basename(args.bundle)} {rows}x64: {unwritten} unwritten, "
              f"relative error {rel:.2e}: {'PASS' if ok else 'WRONG'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
