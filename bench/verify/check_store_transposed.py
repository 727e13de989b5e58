#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs examples/store_transposed.cake.mlir on the GPU and checks it.

    python3 bench/verify/check_store_transposed.py --runtime \
        .device/lib/libcake_runtime.so BUNDLE [--rows 1000 4096 ...]

The kernel computes, per 128-row block m of A, X = A · Bᵀ on the tensor
cores and writes Xᵀ in bf16 to columns m .. m + 128 of Y
(`cake.store ... transposed`), so Y = B · Aᵀ, [128, rows]. The
reference does the same in fp32 from the same bf16 inputs, rounded to
bf16. Fresh standard normal inputs per size; the output is poisoned with
NaN first, so a column left unwritten fails, and a swapped row and
column gives an error of order 1; the check allows 1e-2 relative (bf16
rounding of the output, fp32 summation order). Exits non-zero on any
failure.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from example_check import check_sizes  # noqa: E402


def inputs(rows):
    return [torch.randn(rows, 64, device="cuda").bfloat16(),
            torch.randn(128, 64, device="cuda").bfloat16(),
            torch.full((128, rows), float("nan"), device="cuda").bfloat16()]


def reference(tensors, args):
    a, b = tensors
    return (b.float() @ a.float().T).bfloat16()


if __name__ == "__main__":
    sys.exit(check_sizes(__doc__, inputs, reference, 1e-2,
                         default_rows=(1000, 4096, 65536)))
