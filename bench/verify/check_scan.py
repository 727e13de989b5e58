#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs cake.frag.scan on the GPU and checks it against a scan on the host.

    python3 bench/verify/check_scan.py --runtime .device/lib/libcake_runtime.so \
        BUNDLE[:KIND] ...

Each bundle is test/Conversion/Inputs/frag-scan.mlir (KIND sum, the
default) or the same kernel with the scan's kind replaced (min, max),
lowered: row i of its output holds the inclusive scan of
(7 i + 3 j) mod 11 - 5 over j = 0..63 (small integers: exact in f32, so
the comparison is bit for bit). Rows: 1000 (a ragged last tile) and 4096.
Exits non-zero on any difference.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import launch_checked, load_bundle, load_runtime  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runtime", required=True)
    ap.add_argument("bundles", nargs="+")
    args = ap.parse_args()
    rt = load_runtime(args.runtime)
    failed = 0
    for spec in args.bundles:
        path, _, kind = spec.partition(":")
        kind = kind or "sum"
        h = load_bundle(rt, path)
        for rows in (1000, 4096):
            out = torch.full((rows, 64), float("nan"), device="cuda")
            launch_checked(rt, h, [out], path)
            i = torch.arange(rows, device="cuda")[:, None]
            j = torch.arange(64, device="cuda")[None, :]
            x = ((7 * i + 3 * j) % 11 - 5).float()
            want = {"sum": lambda t: t.cumsum(1),
                    "min": lambda t: t.cummin(1).values,
                    "max": lambda t: t.cummax(1).values}[kind](x)
            bad = (out != want).sum().item()
            failed += bad != 0
            print(f"{os.path.basename(path)} {kind} {rows}x64: "
                  f"{bad} of {rows * 64} elements differ"
                  f"{'' if bad == 0 else ' WRONG'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
