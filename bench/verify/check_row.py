#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from example_check import check_sizes  # noqa: E402


def inputs(rows):
    return [torch.randn(rows, 64, device="cuda").bfloat16(),
            torch.randn(128, 64, device="cuda").bfloat16(),
            torch.full((rows, 128), float("nan"), device="cuda")]


def reference(tensors, args):
    a, b = tensors
    rows = a.shape[0]
    blocks = (rows + 127) // 128
    a = torch.nn.functional.pad(a.float(), (0, 0, 0, blocks * 128 - rows))
    x = a.view(blocks, 128, 64) @ b.float().T
    y = x - x[:, 127:128, :] + x[:, 5:6, :]
    return y.reshape(blocks * 128, 128)[:rows]


if __name__ == "__main__":
    sys.exit(check_sizes(__doc__, inputs, reference, 1e-4))
