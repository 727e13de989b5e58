#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs examples/kda_chunk_intra.cake.mlir on the GPU and checks it.

    python3 bench/verify/check_kda_intra.py --runtime .device/lib/libcake_runtime.so \
        BUNDLE [--rows 1000 4096 ...] [--gates random|floor]

Per 64-token chunk the kernel computes KDA's intra-chunk quantities from
L2-normalized keys k (bf16), log decays a (f32), β (f32) and values v
(bf16, 64 columns): Γ = cumsum(a) within the chunk, L = strict_tril(
Diag(β)·(k e^Γ)(k e^−Γ)ᵀ), T = (I + L)⁻¹, W = T·(β k e^Γ) and U = T·(β v).
The reference computes the same in fp64 from the same inputs (rows past
the end are zero, as the kernel's loads pad them), with the pairwise decay
e^(Γ_i − Γ_j) formed directly. Inputs as FlashKDA's benchmark draws them:
a = −5·sigmoid(x) (lower bound −5), β = sigmoid(x), k normalized; with
`--gates floor` every a is −5, so Γ reaches −320 in a chunk and a kernel
that formed e^−Γ over the whole chunk would overflow. Outputs poisoned
with NaN. The kernel rounds its MMA operands (the gated keys, T, β v) to
bf16, as fla's and FlashKDA's kernels do: the check allows 2e-2 relative
(Frobenius) error; a wrong block or a wrong decay gives errors of order 1.
Exits non-zero on any failure.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from example_check import check_sizes  # noqa: E402


def options(ap):
    ap.add_argument("--gates", choices=["random", "floor"], default="random")


def inputs(rows, args):
    k = torch.randn(rows, 128, device="cuda")
    k = (k * torch.rsqrt((k * k).sum(-1, keepdim=True) + 1e-6)).bfloat16()
    if args.gates == "floor":
        a = torch.full((rows, 128), -5.0, device="cuda")
    else:
        a = -5.0 * torch.sigmoid(torch.randn(rows, 128, device="cuda"))
    beta = torch.sigmoid(torch.randn(rows, device="cuda"))
    v = torch.randn(rows, 64, device="cuda").bfloat16()
    return [k, a, beta, v,
            torch.full((rows, 128), float("nan"), device="cuda"),
            torch.full((rows, 64), float("nan"), device="cuda")]


def reference(tensors, args):
    k, a, beta, v = tensors
    rows = k.shape[0]
    chunks = (rows + 63) // 64
    pad = chunks * 64 - rows

    def blocks(x):
        x = x.double()
        x = torch.nn.functional.pad(x, (0, 0, 0, pad) if x.dim() == 2
                                    else (0, pad))
        return x.view(chunks, 64, *x.shape[1:])

    k, a, beta, v = blocks(k), blocks(a), blocks(beta), blocks(v)
    g = a.cumsum(1)                                  # [chunks, 64, 128]
    eye = torch.eye(64, dtype=torch.float64, device="cuda")
    strict = torch.tril(torch.ones(64, 64, dtype=torch.bool,
                                   device="cuda"), -1)
    w = torch.empty(chunks, 64, 128, dtype=torch.float64, device="cuda")
    u = torch.empty(chunks, 64, 64, dtype=torch.float64, device="cuda")
    for c0 in range(0, chunks, 32):
        c1 = min(c0 + 32, chunks)
        kc, gc, bc = k[c0:c1], g[c0:c1], beta[c0:c1]
        # e^(Γ_i − Γ_j) over the channels, kept where j < i (≤ 1 there).
        d = gc[:, :, None, :] - gc[:, None, :, :]
        d = torch.where(strict[None, :, :, None], d, torch.zeros_like(d))
        lower = (kc[:, :, None, :] * kc[:, None, :, :] * d.exp()).sum(-1)
        lower = lower * strict * bc[:, :, None]
        t = torch.linalg.inv(eye + lower)
        w[c0:c1] = t @ (bc[:, :, None] * kc * gc.exp())
        u[c0:c1] = t @ (bc[:, :, None] * v[c0:c1])

    def rows_of(x):
        return x.reshape(chunks * 64, -1)[:rows].float()

    return rows_of(w), rows_of(u)


if __name__ == "__main__":
    sys.exit(check_sizes(__doc__, inputs, reference, (2e-2, 2e-2),
                         add_options=options,
                         label=lambda args: f"gates {args.gates}",
                         default_rows=(1000, 4096, 16384), outputs=2))
