#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The k-means update without a sort, in Cake IR, beside the library's
update and flashlib's, one run (issue #22, item 3).

For each shape B = 1, N, D, K (default: the Lloyd shapes of the issue
with B = 1) and input type, on fresh random points (Gaussian blobs at
N = 1048576, noise otherwise) and the Cake assignment of K points drawn
as centroids, three updates from the same assignment:

  ir        zero Sums [K, D] f32, Counts [K, 1] i32 and the shift, then
            kmeans_update_scatter (every point added to its cluster's sums
            and count by red.global.add) and kmeans_update_finalize (the
            means, rounded; their norms; the largest shift): the bundles
            libs/kmeans/kernels/gen_update_scatter.py writes for the type
            and D, in --bundles (all timed, the zeroing included);
  library   cakeKmeansUpdate (the counting sort and the sums of
            libs/kmeans, through its Python module);
  flashlib  triton_centroid_update_sorted_euclid (torch.sort and its
            chunk kernel), with --peer.

Every result checked as lloyd.py checks an update (one unit in the last
place of the type, plus 1e-5 of the centroid's largest element); the IR
update's norms against the fp32 norms of its centroids. A skewed row (a
tenth of the points in one cluster) follows each shape, where atomics
contend. Times: medians of --rounds interleaved rounds of 10 calls.

usage: update_scatter.py --runtime libcake_runtime.so --dispatch DIR
                         --bundles DIR --peer DIR [--shapes N:D:K,...]
                         [--dtype bf16|f16] [--rounds 5] [--out F]
"""
import argparse
import ctypes
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "libs", "kmeans",
                                "kernels"))
from lloyd import (CakeKmeans, load_peer, make_points,  # noqa: E402
                   reference_update, time_ms, ulps_off, update_ok)
from cake_rt import (CakeRtArg, load_bundle, load_runtime,  # noqa: E402
                     tensor_arg)
from gen_update_scatter import name as kernel_name  # noqa: E402


class IrUpdate:
    """The two bundles of one (type, D) and their work buffers."""

    def __init__(self, rt, folder, dtype, d, k):
        self.rt = rt
        self.scatter = load_bundle(
            rt, os.path.join(folder, kernel_name("scatter", dtype, d) + ".json"))
        self.finalize = load_bundle(
            rt, os.path.join(folder, kernel_name("finalize", dtype, d) + ".json"))
        self.sums = torch.empty(k, d, device="cuda")
        self.counts = torch.empty(k, 1, device="cuda", dtype=torch.int32)
        self.shift = torch.empty(1, 1, device="cuda", dtype=torch.int32)

    def _launch(self, h, tensors):
        args = (CakeRtArg * len(tensors))(*(tensor_arg(t) for t in tensors))
        stream = torch.cuda.current_stream().cuda_stream
        if self.rt.cakeRtLaunch(h, args, len(tensors),
                                ctypes.c_void_p(stream)) != 0:
            sys.exit(f"update_scatter: {self.rt.cakeRtLastError().decode()}")

    def __call__(self, x, ids, old, new, norms):
        self.sums.zero_()
        self.counts.zero_()
        self.shift.zero_()
        self._launch(self.scatter, [x, ids, self.sums, self.counts])
        self._launch(self.finalize, [self.sums, self.counts.view(-1), old,
                                     new, norms, self.shift])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runtime", required=True)
    p.add_argument("--dispatch", required=True,
                   help="folder with kmeans-table.json and its bundles")
    p.add_argument("--bundles", required=True,
                   help="folder with the gen_update_scatter bundles")
    p.add_argument("--peer", required=True, help="flashlib's source tree")
    p.add_argument("--shapes",
                   default="1048576:128:1024,2000000:32:512,262144:64:4096")
    p.add_argument("--dtype", choices=("bf16", "f16"), default="bf16")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--out", default="")
    a = p.parse_args()
    _, _, peer_update = load_peer("flashlib", a.peer)
    rt = load_runtime(a.runtime)
    km = CakeKmeans(a.runtime, a.dispatch)
    dt = torch.bfloat16 if a.dtype == "bf16" else torch.float16
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}")
    rows, failures = [], 0
    for spec in a.shapes.split(","):
        n, d, k = (int(v) for v in spec.split(":"))
        ir = IrUpdate(rt, a.bundles, a.dtype, d, k)
        for skew in (False, True):
            x, _ = make_points(1, n, d, k, dt, n == 1048576)
            pick = torch.randint(0, n, (1, k), device="cuda")
            c0 = torch.gather(x, 1, pick[..., None].expand(1, k, d)).contiguous()
            cn = (c0.float() ** 2).sum(-1).contiguous()
            ids = km.assign(x, c0, cn)
            if skew:
                ids[torch.rand_like(ids, dtype=torch.float) < 0.1] = 0
            ids32 = ids.to(torch.int32).contiguous()
            ref = reference_update(x, ids32, c0)
            new = torch.empty(k, d, device="cuda", dtype=dt)
            norms = torch.empty(k, device="cuda")
            calls = {
                "ir": lambda: ir(x[0], ids32[0], c0[0], new, norms),
                "library": lambda: km.update(x, ids, c0),
                "flashlib": lambda: peer_update(x, ids, c0)}
            calls["ir"]()
            got = {"ir": new.view(1, k, d).clone(),
                   "library": calls["library"](),
                   "flashlib": calls["flashlib"]()}
            torch.cuda.synchronize()
            ok = {name: update_ok(c, ref) for name, c in got.items()}
            v = new.float()
            nrel = ((norms - (v * v).sum(-1)).norm()
                    / (v * v).sum(-1).norm()).item()
            ok["ir"] = ok["ir"] and nrel < 1e-5
            failures += not ok["ir"] or not ok["library"]
            times = {name: [] for name in calls}
            for r in range(a.rounds):
                order = list(calls)[r % 3:] + list(calls)[:r % 3]
                for name in order:
                    times[name].append(time_ms(calls[name], iters=10,
                                               warmup=1))
            med = {name: sorted(t)[len(t) // 2] for name, t in times.items()}
            row = dict(n=n, d=d, k=k, dtype=a.dtype, skewed=skew, ms=med,
                       ok=ok, ulps={m: ulps_off(c, ref)
                                    for m, c in got.items()},
                       norms_rel=nrel)
            rows.append(row)
            print(f"1x{n}x{d} K={k} {a.dtype}{' skewed' if skew else ''}: "
                  + "  ".join(f"{m} {med[m]:.3f} ms"
                              f"{'' if ok[m] else ' WRONG'}" for m in calls)
                  + f"  ir/flashlib {med['flashlib'] / med['ir']:.2f}x"
                  f"  ir/library {med['library'] / med['ir']:.2f}x")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(dict(gpu=torch.cuda.get_device_name(),
                           torch=torch.__version__, rows=rows), f, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
