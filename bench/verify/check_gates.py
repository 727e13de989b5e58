#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs examples/chunk_gates.cake.mlir on the GPU and checks it.

    python3 bench/verify/check_gates.py --runtime .device/lib/libcake_runtime.so \
        BUNDLE [--kind sum|min|max] [--segment 16|32|64] [--reverse]
        [--rows 1000 4096 ...]

The kernel computes, per 128-row block, X = A · Bᵀ on the tensor cores,
Γ = the inclusive scan of X down each column (cake.frag.scan ... down:
in-warp shuffles, then each warp's column totals through a shared-memory
scratch), and Y = Γ - Γ[127] (cake.frag.row). --kind names the scan of a
variant whose source has the kind replaced (min, max: running minimum or
maximum); --segment S names a variant whose scan is `down segment(S)`:
it restarts every S rows (KDA's 16-token chunks in one tile), so the
reference scans each S-row segment of a block alone; --reverse, a variant
whose scan is `down reverse` (each row to its segment's end). The
reference does the same in fp32 from the same bf16 inputs
(A padded with zero rows to whole blocks, as TMA fills rows past the end).
Fresh standard normal inputs per size; the output is poisoned with NaN
first. A wrong warp order, a missing carry or a stale scratch gives an
error of order 1; the check allows 1e-5 relative (fp32 summation order
in X and in the scan; min and max select, so theirs is X's alone). Exits
non-zero on any failure.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from example_check import check_sizes  # noqa: E402
from check_row import inputs  # noqa: E402  (the same A, B and Y)

SCANS = {"sum": lambda x: torch.cumsum(x, dim=1),
         "min": lambda x: torch.cummin(x, dim=1).values,
         "max": lambda x: torch.cummax(x, dim=1).values}


def reference(tensors, args):
    a, b = tensors
    rows = a.shape[0]
    blocks = (rows + 127) // 128
    a = torch.nn.functional.pad(a.float(), (0, 0, 0, blocks * 128 - rows))
    x = a.view(blocks, 128, 64) @ b.float().T
    seg = args.segment or 128
    x = x.reshape(blocks * 128 // seg, seg, 128)
    if args.reverse:
        g = SCANS[args.kind](x.flip(1)).flip(1)
    else:
        g = SCANS[args.kind](x)
    g = g.reshape(blocks, 128, 128)
    y = g - g[:, 127:128, :]
    return y.reshape(blocks * 128, 128)[:rows]


def options(ap):
    ap.add_argument("--kind", choices=sorted(SCANS), default="sum")
    ap.add_argument("--segment", type=int, choices=(16, 32, 64), default=0)
    ap.add_argument("--reverse", action="store_true")


if __name__ == "__main__":
    sys.exit(check_sizes(__doc__, inputs, reference, 1e-5, options,
                         label=lambda args: args.kind +
                         (" reverse" if args.reverse else "") +
                         (f" segment({args.segment})" if args.segment else "")))
