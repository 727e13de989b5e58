#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Variants of the split forward's kernels timed side by side: each kernel
alone, interleaved round by round, after a check of every variant.

    python3 bench/kda/split_times.py --runtime .device/lib/libcake_runtime.so \
        --recur .device/bundles/kda_recur.json \
        base=.device/base/kda_intra.json new=.device/bundles/kda_intra.json \
        chains2=.device/bundles/kda_intra.json,.device/x/kda_recur.json \
        [--shape 8192x96] [--rounds 5] [--iters 20]

Each LABEL=BUNDLE is a build of examples/kda/kda_intra (the same kernel
lowered another way, or generated with other options), run with the
--recur bundle; LABEL=INTRA,RECUR pairs it with another build of
kda_recur. Every variant's output and state are first checked
against the fp32 token recurrence (bench/kda/reference.py, fla's measure,
at most 6e-3 for the output, as check_fwd.py) on a short batch and on the
timed shape; a variant that fails is reported and not timed. Timing: per
round, each variant's intra kernel, its chain and then the whole forward, the median
of --iters CUDA-event timed calls after three warm-up calls
(cake_rt.time_ms, as bench.py times), the variants' order
rotated each round; the table gives the median over rounds. Inputs as
bench.py makes them (FlashKDA's benchmark's distributions), fresh per
shape. This is a tool for choosing between lowerings; the issue's figures
come from bench.py beside FlashKDA and fla.
"""
import argparse
import os
import statistics
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
from bench import OUT_TOL, make_inputs  # noqa: E402
from cake_kda import CakeKda  # noqa: E402
from cake_rt import time_ms  # noqa: E402
from check_fwd import check_split  # noqa: E402


def parse_shape(text):
    lens, heads = text.split("x")
    return [int(t) for t in lens.split("+")], int(heads)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--recur", required=True, help="kda_recur's bundle")
    ap.add_argument("--shape", default="8192x96")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("variants", nargs="+",
                    help="LABEL=INTRA_BUNDLE[,RECUR_BUNDLE]")
    args = ap.parse_args()
    torch.manual_seed(20261203)
    variants = []
    for spec in args.variants:
        label, sep, path = spec.partition("=")
        if not sep or not path:
            sys.exit(f"split_times: '{spec}' is not LABEL=BUNDLE")
        intra_path, _, recur_path = path.partition(",")
        variants.append((label, CakeKda(args.runtime, intra_path,
                                        recur_path or args.recur)))

    lens, H = parse_shape(args.shape)
    good = []
    for label, fwd in variants:
        ok = True
        for shape_lens, shape_h in ([[300, 77, 1], 2], [lens, H]):
            unwritten, rel_o, rel_s = check_split(fwd, shape_lens, shape_h)
            fine = unwritten == 0 and rel_o <= OUT_TOL
            ok &= fine
            print(f"{label} T={'+'.join(map(str, shape_lens))} H={shape_h}: "
                  f"{unwritten} unwritten, out err {rel_o:.2e}, "
                  f"state err {rel_s:.2e}: {'PASS' if fine else 'WRONG'}")
        if ok:
            good.append((label, fwd))

    x = make_inputs(lens, H, 128, "cuda", torch, F)
    s0 = torch.randn(len(lens), H, 128, 128, device="cuda")
    runs = [(label, fwd.prepare(x, s0)) for label, fwd in good]
    intra = {label: [] for label, _ in runs}
    chain = {label: [] for label, _ in runs}
    whole = {label: [] for label, _ in runs}
    for r in range(args.rounds):
        order = runs[r % len(runs):] + runs[:r % len(runs)]
        for label, run in order:
            intra[label].append(time_ms(run.intra, iters=args.iters,
                                        warmup=3))
            chain[label].append(time_ms(run.recur, iters=args.iters,
                                        warmup=3))
            whole[label].append(time_ms(run, iters=args.iters, warmup=3))
    print(f"\nshape {args.shape}, {args.rounds} rounds x {args.iters} "
          f"calls, medians (ms)")
    print(f"{'variant':<16} {'intra':>8} {'chain':>8} {'forward':>8} "
          f"{'intra/first':>12}")
    base = statistics.median(intra[runs[0][0]]) if runs else 0.0
    for label, _ in runs:
        i = statistics.median(intra[label])
        c = statistics.median(chain[label])
        w = statistics.median(whole[label])
        print(f"{label:<16} {i:8.3f} {c:8.3f} {w:8.3f} {i / base:12.3f}")
    return 0 if len(good) == len(variants) else 1


if __name__ == "__main__":
    sys.exit(main())
