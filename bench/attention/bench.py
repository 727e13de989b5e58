# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The attention forward in Cake IR beside torch's SDPA backends, on one GPU.

    python3 bench/attention/bench.py --runtime .device/lib/libcake_runtime.so \
        --bundles .device/bundles [--shapes B:H:S:D[:HKV],...] [--rounds 3]
        [--peers cudnn,flash,efficient] [--out results.json]

--bundles NAME=DIR,NAME=DIR,... times several builds of the kernels (say,
two lowerings) side by side in the same run, each checked; the first is
"cake" in the summary.

For every shape (default: the issue's), causal and not: fresh random bf16
Q, K, V (standard normal), the Cake kernel of that head dimension and mask
(DIR/attention_fwd_d{D}[_causal][_gN|_wl|_k176].json,
examples/attention/; the causal raster or work list and the long-sequence
kernel as examples/attention/dispatch.py picks them, where DIR has them;
a `_wl` kernel gets dispatch.work_list_plan's rows as a sixth argument),
checked
against an fp32 reference on sampled heads (every query row of each: the
exact softmax(Q Kᵀ / sqrt(D)) V in fp32 from the same bf16 inputs; max abs
error within bf16's tolerance, 2e-2 on these O of magnitude ~ 1/sqrt(S)
... 1), then timed beside every torch.nn.functional.scaled_dot_product_
attention backend that runs the shape there (cuDNN, flash, efficient),
the implementations interleaved round by round, each round starting one
implementation later than the last, each the median of CUDA event
timings; TFLOP/s count 4·B·H·S²·D, halved when causal. Output: the
poisoned O (NaN) is checked written everywhere.
"""
import argparse
import ctypes
import json
import math
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import CakeRtArg, load_runtime, tensor_arg, time_ms  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "examples", "attention"))
import dispatch  # noqa: E402

DEFAULT_SHAPES = ("4:32:4096:128,2:32:8192:128,1:32:16384:128,16:16:1024:128,"
                  "8:16:2048:64,4:16:4096:64,4:32:4096:128:8")
BACKENDS = [("cudnn", SDPBackend.CUDNN_ATTENTION),
            ("flash", SDPBackend.FLASH_ATTENTION),
            ("efficient", SDPBackend.EFFICIENT_ATTENTION)]
TOL = 2e-2


def scalar_arg(v):
    a = CakeRtArg()
    a.isScalar = 1
    a.scalar = v
    return a


def reference_rows(q, k, v, causal):
    """fp32 softmax(q kᵀ / sqrt(D)) v for one head: q [S, D], k, v [S, D]."""
    s = (q.float() @ k.float().T) / math.sqrt(q.shape[-1])
    if causal:
        n = s.shape[0]
        mask = torch.ones(n, n, dtype=torch.bool, device=s.device).tril()
        s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1) @ v.float()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundles", required=True)
    p.add_argument("--shapes", default=DEFAULT_SHAPES)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--causal", default="0,1")
    p.add_argument("--peers", default=",".join(n for n, _ in BACKENDS))
    p.add_argument("--out", default="")
    args = p.parse_args()

    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    torch.empty(1, device="cuda")
    rt = load_runtime(args.runtime)
    stream = torch.cuda.current_stream().cuda_stream
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}  "
          f"CUDA {torch.version.cuda}  cuDNN {torch.backends.cudnn.version()}")
    bundles = {}
    variants = []  # (name, dir): "cake" alone, or cake:NAME per build
    for item in args.bundles.split(","):
        name, _, path = item.rpartition("=")
        variants.append(("cake" + (":" + name if name else ""), path))

    sms = torch.cuda.get_device_properties(0).multi_processor_count

    def bundle(vdir, d, causal, bh, s):
        # The bundle dispatch.py picks (the causal raster or work list, the
        # 176-key kernel for long unmasked D = 128), where the build has it.
        wl = os.path.exists(os.path.join(
            vdir, f"attention_fwd_d{d}_causal_wl.json"))
        path = os.path.join(vdir, dispatch.bundle_name(d, causal, bh, s, sms,
                                                       wl) + ".json")
        if not os.path.exists(path):
            path = os.path.join(vdir, f"attention_fwd_d{d}"
                                + ("_causal" if causal else "") + ".json")
        used[vdir] = os.path.basename(path)[:-len(".json")]
        if path not in bundles:
            h = ctypes.c_void_p()
            if rt.cakeRtBundleLoad(path.encode(), ctypes.byref(h)) != 0:
                sys.exit(f"load {path}: {rt.cakeRtLastError().decode()}")
            bundles[path] = h
        return bundles[path]

    rows, failures = [], 0
    used = {}  # the bundle each build launched for the current row
    for shape in args.shapes.split(","):
        vals = [int(x) for x in shape.split(":")]
        B, H, S, D = vals[:4]
        HKV = vals[4] if len(vals) > 4 else H
        G = H // HKV
        for causal in (bool(int(c)) for c in args.causal.split(",")):
            q = torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16)
            k = torch.randn(B, HKV, S, D, device="cuda", dtype=torch.bfloat16)
            v = torch.randn(B, HKV, S, D, device="cuda", dtype=torch.bfloat16)
            o = torch.empty((B, H, S, D), device="cuda", dtype=torch.bfloat16)
            cargs = (CakeRtArg * 5)(
                tensor_arg(q.view(B * H, S, D)),
                tensor_arg(k.view(B * HKV, S, D)),
                tensor_arg(v.view(B * HKV, S, D)),
                tensor_arg(o.view(B * H, S, D)), scalar_arg(G))
            # A causal `_wl` kernel's sixth argument: dispatch.py's list.
            cargs_wl = None
            if causal:
                wl_rows = torch.tensor(
                    dispatch.work_list_plan(B * H, S, sms)[1],
                    dtype=torch.int32, device="cuda")
                cargs_wl = (CakeRtArg * 6)(*cargs, tensor_arg(wl_rows))
            # Every query row of a few heads: the first, the last, one more.
            heads = sorted({(0, 0), (B - 1, H - 1), (B // 2, H // 3)})
            refs = {(b, hh): reference_rows(q[b, hh], k[b, hh // G],
                                            v[b, hh // G], causal)
                    for b, hh in heads}

            def launcher(h, with_list):
                a, n = (cargs_wl, 6) if with_list else (cargs, 5)

                def run():
                    if rt.cakeRtLaunch(h, a, n,
                                       ctypes.c_void_p(stream)) != 0:
                        raise RuntimeError(rt.cakeRtLastError().decode())
                return run

            cakes, err, unwritten = {}, {}, {}
            for vname, vdir in variants:
                h = bundle(vdir, D, causal, B * H, S)
                run = launcher(h, used[vdir].endswith("_wl"))
                o.fill_(float("nan"))
                run()
                if rt.cakeRtSynchronize(ctypes.c_void_p(stream), 20000) != 0:
                    sys.exit(f"{shape} {vname}: "
                             f"{rt.cakeRtLastError().decode()}")
                unwritten[vname] = int(torch.isnan(o).sum().item())
                err[vname] = max((o[b, hh].float() - ref).abs().max().item()
                                 for (b, hh), ref in refs.items())
                cakes[vname] = run
            ok = all(unwritten[n] == 0 and err[n] <= TOL for n in cakes)
            failures += not ok

            def sdpa(backend):
                def run():
                    with sdpa_kernel([backend]):
                        F.scaled_dot_product_attention(
                            q, k, v, is_causal=causal,
                            enable_gqa=HKV != H)
                return run

            peers = {}
            for name, backend in BACKENDS:
                if name not in args.peers.split(","):
                    continue
                try:
                    sdpa(backend)()
                    torch.cuda.synchronize()
                    peers[name] = sdpa(backend)
                except RuntimeError:
                    pass  # this backend does not take the shape here
            fns = dict(cakes, **peers)
            times = {n: [] for n in fns}
            # Each round starts one implementation later: on a power-capped
            # GPU the one timed first after a pause runs at higher clocks
            # (run 18: the same cubin 15 % apart in two fixed positions).
            names = list(fns)
            for r in range(args.rounds):
                for n in names[r % len(names):] + names[:r % len(names)]:
                    times[n].append(time_ms(fns[n], iters=args.iters,
                                            warmup=3))
            med = {n: sorted(t)[len(t) // 2] for n, t in times.items()}
            flops = 4.0 * B * H * S * S * D / (2 if causal else 1)
            tf = {n: flops / (ms * 1e-3) / 1e12 for n, ms in med.items()}
            best = min((ms, n) for n, ms in med.items() if n in peers) \
                if peers else (float("nan"), "none")
            first = variants[0][0]
            row = dict(B=B, H=H, HKV=HKV, S=S, D=D, causal=causal,
                       ok=ok, max_abs_err=err[first],
                       unwritten=unwritten[first], ms=med, tflops=tf,
                       best_peer=best[1], speedup=best[0] / med[first],
                       speedups={n: best[0] / med[n] for n in cakes},
                       bundles={n: used[vdir] for n, vdir in variants})
            if len(cakes) > 1:
                row["max_abs_errs"] = err
            rows.append(row)
            print(f"{B}x{H}x{S}x{D}{'' if HKV == H else f' kv{HKV}'} "
                  f"{'causal' if causal else 'full  '}: "
                  + "  ".join(f"{n} {med[n]:.3f} ms {tf[n]:.0f} TF"
                              for n in med)
                  + "  -> " + ", ".join(f"{n} {row['speedups'][n]:.3f}x"
                                        for n in cakes)
                  + f" {best[1]}; err "
                  + ", ".join(f"{err[n]:.2e}" for n in cakes)
                  + f", unwritten {sum(unwritten.values())}; "
                  + ", ".join(sorted(set(row["bundles"].values())))
                  + ": "
                  f"{'ok' if ok else 'FAIL'}",
                  flush=True)
            del q, k, v, o
            torch.cuda.empty_cache()
    for vname, _ in variants:
        speedups = [r["speedups"][vname] for r in rows
                    if r["speedups"][vname] == r["speedups"][vname]]
        if speedups:
            geo = math.exp(sum(math.log(x) for x in speedups) / len(speedups))
            print(f"{vname}: geomean {geo:.3f}x the best SDPA backend, "
                  f"slowest {min(speedups):.3f}x")
    print(f"{len(rows) - failures} rows ok, {failures} failed")
    if args.out:
        with open(args.out, "w") as fh:
            json.dump(dict(gpu=torch.cuda.get_device_name(),
                           torch=torch.__version__, rows=rows), fh, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
