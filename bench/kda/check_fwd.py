#!/usr/bin/env python3
"""Runs examples/kda/kda_fwd.cake.mlir on the GPU and checks it against the
token recurrence.

    python3 bench/kda/check_fwd.py --runtime .device/lib/libcake_runtime.so \
        BUNDLE [--shapes 1000x2 4096x4 ...] [--gates random|floor]

Each shape is T tokens x H heads (K = V = 128, one sequence). Inputs are
drawn as FlashKDA's benchmark draws them (q, k, v, g normal; lower bound
-5; beta = sigmoid(b)) and preprocessed here as the kernel expects them
for now: q, k L2-normalized and rounded to bf16, the log decay
a = -5 sigmoid(g') in fp32, beta in fp32 laid out [H, T], a random initial
state [H, V, K] in fp32. The reference runs the token recurrence of
bench/kda/reference.py (S <- Diag(e^a_t) S; S += beta k (v - S^T k)^T;
o = S^T (q / sqrt(K))) in fp64 on the same preprocessed values. Outputs
poisoned with NaN. Reports the relative error (Frobenius) of o and of the
final state, and fla's measure (RMS over RMS) of o; the kernel rounds its
MMA operands (the gated q and k, T, W, the state, V_new) to bf16, so the
check allows 2e-2. Exits non-zero on any failure.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from cake_rt import launch_checked, load_bundle, load_runtime  # noqa: E402


def recurrence(q, k, a, beta, v, s0):
    """fp64 token recurrence; q, k, a, v [T, H, 128], beta [T, H], s0
    [H, V, K]. Returns o [T, H, V] and the final state [H, V, K]."""
    q, k, a, beta, v = (x.double() for x in (q, k, a, beta, v))
    S = s0.double().transpose(-1, -2).clone()          # [H, K, V]
    o = torch.empty_like(v)
    scale = 128 ** -0.5
    for t in range(q.shape[0]):
        S.mul_(a[t].exp()[:, :, None])
        pred = torch.einsum("hk,hkv->hv", k[t], S)
        S.add_(torch.einsum("hk,hv->hkv", beta[t][:, None] * k[t],
                            v[t] - pred))
        o[t] = torch.einsum("hk,hkv->hv", scale * q[t], S)
    return o, S.transpose(-1, -2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--shapes", nargs="+", default=["64x1", "1000x2", "2048x4"])
    ap.add_argument("--gates", choices=["random", "floor"], default="random")
    ap.add_argument("bundle")
    args = ap.parse_args()
    rt = load_runtime(args.runtime)
    h = load_bundle(rt, args.bundle)
    torch.manual_seed(20261202)
    failed = 0
    for shape in args.shapes:
        T, H = (int(x) for x in shape.split("x"))
        dev = "cuda"

        def unit(x):
            return x * torch.rsqrt((x * x).sum(-1, keepdim=True) + 1e-6)

        q = unit(torch.randn(T, H, 128, device=dev)).bfloat16()
        k = unit(torch.randn(T, H, 128, device=dev)).bfloat16()
        v = torch.randn(T, H, 128, device=dev).bfloat16()
        if args.gates == "floor":
            a = torch.full((T, H, 128), -5.0, device=dev)
        else:
            a = -5.0 * torch.sigmoid(torch.randn(T, H, 128, device=dev))
        beta = torch.sigmoid(torch.randn(T, H, device=dev))
        s0 = 0.1 * torch.randn(H, 128, 128, device=dev)
        o = torch.full((T, H * 128), float("nan"), device=dev)
        sn = torch.full((H * 128, 128), float("nan"), device=dev)
        launch_checked(rt, h, [q.view(T, H * 128), k.view(T, H * 128),
                               a.view(T, H * 128), beta.T.contiguous(),
                               v.view(T, H * 128), s0.view(H * 128, 128),
                               o, sn], args.bundle)
        want_o, want_s = recurrence(q, k, a, beta, v, s0)
        got_o, got_s = o.view(T, H, 128).double(), sn.view(H, 128, 128).double()
        unwritten = o.isnan().sum().item() + sn.isnan().sum().item()
        rel_o = ((got_o - want_o).norm() / want_o.norm()).item()
        rel_s = ((got_s - want_s).norm() / want_s.norm()).item()
        rms = ((got_o - want_o).pow(2).mean().sqrt()
               / want_o.pow(2).mean().sqrt()).item()
        ok = unwritten == 0 and rel_o < 2e-2 and rel_s < 2e-2
        failed += not ok
        print(f"kda_fwd T={T} H={H} gates {args.gates}: {unwritten} unwritten, "
              f"o rel {rel_o:.2e} (rms ratio {rms:.2e}), state rel "
              f"{rel_s:.2e}: {'PASS' if ok else 'WRONG'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
