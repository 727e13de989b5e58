#!/usr/bin/env python3
"""Which KNN search kernel of examples/knn/ to launch for a shape, and how
to split the corpus.

The rule is measured, not searched yet (KNN run 4 on the H200,
docs/benchmarks/knn.md): three consumer warpgroups (`_w3`, 192-row query
tiles) from 2048 queries on (2.63x flashlib at 4096 x 1M against 2.30x
for two), two below; and query tiles x corpus splits filling the SMs
once up to 256 queries (fewer partial lists to merge: 0.270 against
0.305 ms at 16 x 1M), twice above (0.288 against 0.412 ms at
1024 x 131072); run 5 measured the result.

usage: dispatch.py Q M D K [--sms 132]   (prints: bundle splits chunk)
"""
import argparse
import math


def choose(q, m, d, k, sms):
    """(bundle name, corpus splits, chunk rows) for Q queries over M rows."""
    wgs = 3 if q >= 2048 else 2
    waves = 1 if q <= 256 else 2
    tiles = math.ceil(q / (64 * wgs))
    splits = max(1, min(math.ceil(waves * sms / tiles), math.ceil(m / 1024)))
    # A chunk is a whole number of corpus tiles (128 rows; 256 keeps it so
    # for 256-row tiles too).
    chunk = math.ceil(math.ceil(m / splits) / 256) * 256
    name = f"knn_search_bf16_d{d}_k{k}" + ("_w3" if wgs == 3 else "")
    return name, math.ceil(m / chunk), chunk


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for a in ("q", "m", "d", "k"):
        ap.add_argument(a, type=int)
    ap.add_argument("--sms", type=int, default=132)
    a = ap.parse_args()
    print(*choose(a.q, a.m, a.d, a.k, a.sms))


if __name__ == "__main__":
    main()
