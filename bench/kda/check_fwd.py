#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs Cake's KDA forward on the GPU and checks it against the token
recurrence: examples/kda/kda_fwd (one bundle) or the split forward,
examples/kda/kda_intra then kda_recur (two bundles, bench/kda/cake_kda.py).

    python3 bench/kda/check_fwd.py --runtime .device/lib/libcake_runtime.so \
        BUNDLE [RECUR_BUNDLE] [--shapes 1000x2 300+77x4 ...] [--gates random|floor]

Each shape is T tokens x H heads (K = V = 128): one sequence, or with
lengths joined by '+' several in one batch (the split forward only; its
kernels take the sequences' bounds as cu_seqlens do). Inputs as
FlashKDA's benchmark makes them (bench/kda/bench.py's make_inputs: q, k
L2-normalized standard normals, v, g, b standard normal, A_log and
dt_bias uniform [0, 1), lower bound -5, scale 1/sqrt(K)) with a random
fp32 initial state; the kernel normalizes q and k, takes sigmoid(b) and
the gate itself. With `--gates floor`, g = 20 puts every log decay at the
lower bound -5 (Gamma reaches -320 in a 64-token chunk). The reference is
bench/kda/reference.py's token recurrence in fp32 on the same inputs; the
check is fla's measure, RMS error over RMS, at most 6e-3 for the output
(bench.py's bar) and reported for the final state. Outputs poisoned with
NaN. Exits non-zero on any failure.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import LOWER_BOUND, OUT_TOL, make_inputs  # noqa: E402
from cake_rt import launch_checked, load_bundle, load_runtime  # noqa: E402
from reference import err_ratio, kda_recurrent  # noqa: E402


def check_split(fwd, lens, H, gates="random", name="kda_intra+kda_recur"):
    """Runs the split forward (a CakeKda) once on fresh inputs of these
    lengths and heads, outputs poisoned with NaN first, within a time
    limit; returns (unwritten elements, output error, state error) against
    the fp32 token recurrence. Exits on a launch or runtime error."""
    x, s0 = _inputs(lens, H, gates, fwd.state_bf16)
    run = fwd.prepare(x, s0)
    o, sn = run()
    o.fill_(float("nan"))
    sn.fill_(float("nan"))
    run()
    # Within a time limit, as launch_checked: a hang is a failure.
    if fwd.rt.cakeRtSynchronize(None, 10000) != 0:
        sys.exit(f"{name}: {fwd.rt.cakeRtLastError().decode()}")
    return _compare(x, s0, o.float(), sn.float(), lens, H)


def check_fused(rt, h, bundle, T, H, gates="random"):
    """check_split's measure for kda_fwd (one sequence of T tokens)."""
    x, s0 = _inputs([T], H, gates, False)
    o = torch.full((T, H * 128), float("nan"), device="cuda")
    sn = torch.full((H * 128, 128), float("nan"), device="cuda")
    launch_checked(rt, h, [x["q"].view(T, H * 128), x["k"].view(T, H * 128),
                           x["v"].view(T, H * 128), x["g"].view(T, H * 128),
                           x["beta"].view(T, H), x["A_log"], x["dt_bias"],
                           s0.view(H * 128, 128), o, sn], bundle)
    return _compare(x, s0, o, sn, [T], H)


def _inputs(lens, H, gates, state_bf16):
    import torch.nn.functional as F
    x = make_inputs(lens, H, 128, "cuda", torch, F)
    if gates == "floor":
        x["g"] = torch.full_like(x["g"], 20.0)
    s0 = torch.randn(len(lens), H, 128, 128, device="cuda")
    if state_bf16:
        s0 = s0.bfloat16().float()  # what the kernel reads
    return x, s0


def _compare(x, s0, o, sn, lens, H):
    want_o, want_s = kda_recurrent(
        x["q"], x["k"], x["v"], x["g"], x["beta"], x["scale"],
        x["A_log"], x["dt_bias"], LOWER_BOUND, s0, x["cu"])
    T, N = sum(lens), len(lens)
    got_o, got_s = o.view(1, T, H, 128), sn.view(N, H, 128, 128)
    unwritten = o.isnan().sum().item() + sn.isnan().sum().item()
    return unwritten, err_ratio(got_o, want_o), err_ratio(got_s, want_s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--shapes", nargs="+", default=["64x1", "1000x2", "2048x4"])
    ap.add_argument("--gates", choices=["random", "floor"], default="random")
    ap.add_argument("bundles", nargs="+",
                    help="kda_fwd's bundle, or kda_intra's and kda_recur's")
    args = ap.parse_args()
    if len(args.bundles) > 2:
        sys.exit("check_fwd: one bundle (kda_fwd) or two (kda_intra, kda_recur)")
    split = len(args.bundles) == 2
    if split:
        from cake_kda import CakeKda
        fwd = CakeKda(args.runtime, *args.bundles)
    else:
        rt = load_runtime(args.runtime)
        h = load_bundle(rt, args.bundles[0])
    name = "kda_intra+kda_recur" if split else "kda_fwd"
    torch.manual_seed(20261202)
    failed = 0
    for shape in args.shapes:
        lens_s, H = shape.split("x")
        lens, H = [int(t) for t in lens_s.split("+")], int(H)
        if len(lens) > 1 and not split:
            sys.exit("check_fwd: kda_fwd takes one sequence")
        if split:
            unwritten, rel_o, rel_s = check_split(fwd, lens, H, args.gates)
        else:
            unwritten, rel_o, rel_s = check_fused(rt, h, args.bundles[0],
                                                  lens[0], H, args.gates)
        ok = unwritten == 0 and rel_o <= OUT_TOL
        failed += not ok
        print(f"{name} T={lens_s} H={H} gates {args.gates}: {unwritten} unwritten, "
              f"out err {rel_o:.2e}, state err {rel_s:.2e}: "
              f"{'PASS' if ok else 'WRONG'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
