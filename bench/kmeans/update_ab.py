# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The centroid update alone, several dispatcher tables side by side.

    python3 bench/kmeans/update_ab.py --runtime .device/lib/libcake_runtime.so \
        --tables cake=.device/kmeans,cuda=.device/kmeans-cuda \
        --shapes 1:1048576:128:1024,8:65536:128:256 [--once] \
        [--flashlib .device/peers/flashlib]

Per shape (fp16 and bf16, fresh random points, ids uniform and skewed
into 4 clusters): each table's update time (CUDA events, median of 20)
and its centroid error against an fp32 reference (lloyd.py's
reference_update). --once runs each update one time (for a profiler).
With --flashlib, flashlib's Lloyd centroid step (the Triton path:
triton_lloyd_centroid_step_euclid, the update batch_kmeans_Euclid runs each
round, with its buffers allocated once as there) is timed beside them on the
same data: its package __init__ imports a CuteDSL backend whose library is
absent here, so its Triton update module is loaded by path.
"""
import argparse
import importlib.util
import os
import types
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The k-means library's Python module (libs/kmeans/python).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "libs", "kmeans", "python"))
from cake_kmeans import CakeKmeans  # noqa: E402
from lloyd import centroid_error, reference_update  # noqa: E402


def timed(fn, reps=20):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b))
    return sorted(times)[len(times) // 2]


def load_flashlib_step(peer):
    """flashlib's triton_lloyd_centroid_step_euclid, loaded by path (its
    module imports tqdm for a demo only: a stand-in where it is absent)."""
    try:
        import tqdm  # noqa: F401
    except ImportError:
        stub = types.ModuleType("tqdm")
        stub.trange = range
        sys.modules["tqdm"] = stub
    spec = importlib.util.spec_from_file_location(
        "flashlib_kmeans_update", os.path.join(
            peer, "flashlib/primitives/kmeans/triton/update.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m.triton_lloyd_centroid_step_euclid


def flashlib_update(step, x, ids, c):
    """One round's update as batch_kmeans_Euclid runs it (buffers reused)."""
    B, K, D = c.shape
    sums = torch.zeros((B, K, D), device=x.device, dtype=torch.float32)
    cnts = torch.zeros((B, K), device=x.device, dtype=torch.int32)
    shift = torch.empty((B, K), device=x.device, dtype=torch.float32)
    out = torch.empty_like(c)
    return lambda: step(x, ids, c, sums_buf=sums, cnts_buf=cnts,
                        new_buf=out, shift_buf=shift)[0]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--tables", required=True, help="name=dir,...")
    p.add_argument("--shapes", default="1:1048576:128:1024,8:65536:128:256")
    p.add_argument("--dtypes", default="f16,bf16")
    p.add_argument("--once", action="store_true")
    p.add_argument("--flashlib", default="",
                   help="flashlib's source tree: time its update too")
    args = p.parse_args()
    tables = [t.split("=", 1) for t in args.tables.split(",")]
    kms = {name: CakeKmeans(args.runtime, d) for name, d in tables}
    step = load_flashlib_step(args.flashlib) if args.flashlib else None
    if step:
        tables.append(("flashlib", args.flashlib))
    torch.manual_seed(0)
    print("  B        N    D     K dtype  ids     " +
          "  ".join(f"{n:>14}" for n, _ in tables))
    bad = 0
    for shape in args.shapes.split(","):
        B, N, D, K = map(int, shape.split(":"))
        for dtype in args.dtypes.split(","):
            tdt = torch.float16 if dtype == "f16" else torch.bfloat16
            x = torch.randn(B, N, D, device="cuda", dtype=tdt)
            c = torch.randn(B, K, D, device="cuda", dtype=tdt)
            for kind in ("uniform", "skewed"):
                hi = K if kind == "uniform" else min(K, 4)
                ids = torch.randint(0, hi, (B, N), device="cuda",
                                    dtype=torch.int32)
                ref = reference_update(x, ids, c)
                cells = []
                runs = {name: (lambda km=km: km.update(x, ids, c))
                        for name, km in kms.items()}
                if step:
                    runs["flashlib"] = flashlib_update(step, x, ids, c)
                for name, run in runs.items():
                    got = run().clone()
                    if args.once:
                        torch.cuda.synchronize()
                        t = float("nan")
                    else:
                        t = timed(run)
                    err = centroid_error(got, ref)
                    # fp16: the 1e-3; bf16: its own rounding
                    # (unit roundoff 2^-8) is above that.
                    bad += err > (1e-3 if dtype == "f16" else 2.0 ** -8)
                    cells.append(f"{t:7.4f} {err:.0e}")
                print(f"{B:3d} {N:8d} {D:4d} {K:5d} {dtype:5s} {kind:7s} " +
                      "  ".join(f"{c:>14}" for c in cells), flush=True)
    print(f"(ms, centroid error relative to the fp32 reference); bad {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
