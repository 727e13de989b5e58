# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The k-means assignment alone, several dispatcher tables side by side.

    python3 bench/kmeans/assign_ab.py --runtime .device/lib/libcake_runtime.so \
        --tables now=.device/kmeans,bn64=.device/kmeans-bn64 \
        --shapes 1:2000000:256:7,8:131072:256:64 [--peer .device/peers/flashlib]

Per shape (bf16 by default; fresh points, centroids drawn from them): each
table's assignment time (CUDA events, median of 20) and its check against
the fp32 reference (bench.py's check: an index may differ from the
reference's only where the two nearest distances tie within tolerance;
"bad" counts the others). With --peer, flashlib's euclid_assign_triton
(its H200 heuristic config and, unless --no-autotune, its autotuned one)
is timed beside them on the same data, given ||c||^2 as Cake is. For
choosing table entries; lloyd.py is the benchmark of record.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "libs", "kmeans", "python"))
from cake_kmeans import CakeKmeans  # noqa: E402
from bench import check_batch  # noqa: E402
from lloyd import load_peer  # noqa: E402
from update_ab import timed  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--tables", required=True, help="name=dir,...")
    p.add_argument("--shapes", required=True, help="B:N:D:K,...")
    p.add_argument("--dtype", choices=("f16", "bf16"), default="bf16")
    p.add_argument("--peer", default="", help="flashlib's source tree")
    p.add_argument("--no-autotune", action="store_true",
                   help="time only the peer's heuristic config")
    args = p.parse_args()
    tables = [t.split("=", 1) for t in args.tables.split(",")]
    kms = {name: CakeKmeans(args.runtime, d) for name, d in tables}
    peer = load_peer("flashlib", args.peer)[1] if args.peer else None
    names = list(kms) + (["peer"] if peer else [])
    dt = torch.float16 if args.dtype == "f16" else torch.bfloat16
    torch.manual_seed(0)
    print("  B        N    D     K  " + "  ".join(f"{n:>16}" for n in names)
          + "  kernels")
    bad_total = 0
    for shape in args.shapes.split(","):
        B, N, D, K = map(int, shape.split(":"))
        x = torch.randn(B, N, D, device="cuda", dtype=dt)
        pick = torch.randint(0, N, (B, K), device="cuda")
        c = torch.gather(x, 1, pick[..., None].expand(B, K, D)).contiguous()
        cn = (c.float() ** 2).sum(-1).contiguous()
        cells, kernels = [], []
        for name, km in kms.items():
            ids = km.assign(x, c, cn)
            torch.cuda.synchronize()
            differ, bad = check_batch(ids, x, c)
            bad_total += bad
            t = timed(lambda km=km, ids=ids: km.assign(x, c, cn, ids))
            cells.append(f"{t:7.4f} d{differ} b{bad}")
            kernels.append(km.choose(args.dtype, B, N, D, K)[0])
        if peer:
            x_sq = (x.float() ** 2).sum(-1)
            runs = [lambda: peer(x, c, x_sq, cn, True)]
            if not args.no_autotune:
                runs.append(lambda: peer(x, c, x_sq, cn, False))
            best = min(timed(r) for r in runs)
            cells.append(f"{best:7.4f}")
        print(f"{B:3d} {N:8d} {D:4d} {K:5d}  " +
              "  ".join(f"{c:>16}" for c in cells) + "  " +
              " ".join(kernels), flush=True)
    print(f"(ms; d: indices that differ from the fp32 reference at a tie, "
          f"b: wrong ones); bad {bad_total}")
    return 1 if bad_total else 0


if __name__ == "__main__":
    sys.exit(main())
