#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs examples/chunk_solve.cake.mlir on the GPU and checks it.

    python3 bench/verify/check_solve.py --runtime .device/lib/libcake_runtime.so \
        BUNDLE [--rows 1000 4096 ...] [--scale 0.1] [--merge]

Per 64-row chunk the kernel forms L = A · Bᵀ on the tensor cores, solves
T = (I + strict_tril(L))⁻¹ in fp32 (cake.frag.tril_inverse) and computes
U = bf16(T) · V. The reference forms L in fp64 from the same bf16 inputs
(A, B and V padded with zero rows to whole chunks, as TMA fills rows past
the end), inverts I + tril(L, -1) in fp64, and rounds T to bf16 for U.
Fresh normal inputs per size, scaled so that L's entries have standard
deviation `--scale` (0.1, about KDA's β·k_i·k_j over 128 normalized
channels; 0.3 makes T's entries grow to about 5). Outputs poisoned with
NaN first, so a row left unwritten fails. A wrong block of the solve gives
a relative error of order 1 in T; the check allows 1e-4 for T (fp32
against fp64, amplified by T's growth) and 2e-3 for U (an element of T on
the other side of a bf16 rounding boundary). `--merge` checks
examples/chunk_solve_merge.cake.mlir (the same arguments and results; the
off-diagonal blocks of T formed by f16 wgmmas): T within 2e-3 (f16's
rounding, 4.9e-4, through four products), U as before. Exits non-zero on
any failure.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from example_check import check_sizes  # noqa: E402


def options(ap):
    ap.add_argument("--scale", type=float, default=0.1,
                    help="standard deviation of L's entries")
    ap.add_argument("--merge", action="store_true",
                    help="the bundle is chunk_solve_merge (f16 merges)")


def inputs(rows, args):
    # L_ij = Σ_64 a b with a, b ~ N(0, s²): std 8 s².
    s = (args.scale / 8) ** 0.5
    return [(s * torch.randn(rows, 64, device="cuda")).bfloat16(),
            (s * torch.randn(rows, 64, device="cuda")).bfloat16(),
            torch.randn(rows, 64, device="cuda").bfloat16(),
            torch.full((rows, 64), float("nan"), device="cuda"),
            torch.full((rows, 64), float("nan"), device="cuda")]


def reference(tensors, args):
    a, b, v = tensors
    rows = a.shape[0]
    chunks = (rows + 63) // 64
    pad = chunks * 64 - rows

    def blocks(x):
        x = torch.nn.functional.pad(x.double(), (0, 0, 0, pad))
        return x.view(chunks, 64, 64)

    lower = torch.tril(blocks(a) @ blocks(b).transpose(1, 2), -1)
    eye = torch.eye(64, dtype=torch.float64, device="cuda")
    t = torch.linalg.inv(eye + lower)
    u = t.bfloat16().double() @ blocks(v)

    def rows_of(x):
        return x.reshape(chunks * 64, 64)[:rows].float()

    return rows_of(t), rows_of(u)


if __name__ == "__main__":
    sys.exit(check_sizes(__doc__, inputs, reference,
                         lambda args: (2e-3 if args.merge else 1e-4, 2e-3),
                         add_options=options,
                         label=lambda args: f"scale {args.scale}"
                         + (" merge" if args.merge else ""),
                         outputs=2))
