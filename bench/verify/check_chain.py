#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from example_check import check_sizes  # noqa: E402


def inputs(rows):
    return [torch.randn(rows, 64, device="cuda").bfloat16(),
            torch.randn(64, 64, device="cuda").bfloat16(),
            torch.randn(rows, 64, device="cuda").bfloat16(),
            torch.full((rows, 64), float("nan"), device="cuda")]


def reference(tensors, args):
    a, b, e = tensors
    rows = a.shape[0]
    blocks = (rows + 63) // 64
    pad = blocks * 64 - rows
    a = torch.nn.functional.pad(a.float(), (0, 0, 0, pad))
    e = torch.nn.functional.pad(e.float(), (0, 0, 0, pad))
    x = (a.view(blocks, 64, 64) @ b.float().T).bfloat16().float()
    y = e.view(blocks, 64, 64) @ x
    return y.reshape(blocks * 64, 64)[:rows]


if __name__ == "__main__":
    sys.exit(check_sizes(__doc__, inputs, reference, 1e-3))
