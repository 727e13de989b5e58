#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs the cost model's microbenchmarks on the GPU and writes its
calibration file (calibration/<gpu>.json; docs/cost-model.md).

The kernels are bench/calibrate/gen_kernels.py's, lowered to bundles by
scripts/device-pack-cost. Every figure is a median over launches timed with
CUDA events; nothing is fitted to the kernels the model later ranks.

usage: calibrate.py --runtime libcake_runtime.so --bundles DIR --out F.json
       calibrate.py --runtime ... --bundles DIR --only mufu --update F.json
           (measure only the MUFU terms and merge them into an existing
           calibration file, leaving its other figures as they were)
       calibrate.py --runtime ... --bundles DIR --only wgmma4
           (print the wgmma rates on four warpgroups, the 256-row tiles'
           form, beside the two-warpgroup rates timed in the same run;
           writes nothing: on the H100 the two forms ran alike, so the model
           keys its rate on N alone, docs/benchmarks/cost-model.md)
       calibrate.py --runtime ... --bundles DIR --only rs
           (print the RS form's rates, A from registers, at N = 64 and 128
           and with B MN-major, beside the shared-memory form's timed in
           the same run; writes nothing)
"""
import argparse
import ctypes
import datetime
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import CakeRtArg, load_runtime, tensor_arg, time_ms  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundles", required=True)
    p.add_argument("--commit", default="")
    p.add_argument("--only", choices=["mufu", "wgmma4", "rs"], default="")
    p.add_argument("--update", default="",
                   help="with --only mufu: the calibration file to merge into")
    p.add_argument("--out", dest="out", default="")
    args = p.parse_args()
    if args.only == "mufu" and not args.update:
        sys.exit("--only mufu needs --update FILE")
    if not args.only and not args.out:
        sys.exit("--out FILE is required")

    torch.empty(1, device="cuda")
    rt = load_runtime(args.runtime)
    stream = torch.cuda.current_stream().cuda_stream
    prop = torch.cuda.get_device_properties(0)
    sms = prop.multi_processor_count

    def load(name):
        h = ctypes.c_void_p()
        path = os.path.join(args.bundles, name + ".json")
        if rt.cakeRtBundleLoad(path.encode(), ctypes.byref(h)) != 0:
            sys.exit(f"{path}: {rt.cakeRtLastError().decode()}")
        return h

    def timed(name, tensors, iters=20):
        h = load(name)
        cargs = (CakeRtArg * len(tensors))(*[tensor_arg(t) for t in tensors])

        def launch():
            if rt.cakeRtLaunch(h, cargs, len(tensors),
                               ctypes.c_void_p(stream)) != 0:
                raise RuntimeError(rt.cakeRtLastError().decode())
        launch()
        if rt.cakeRtSynchronize(ctypes.c_void_p(stream), 10000) != 0:
            print(f"{name}: {rt.cakeRtLastError().decode()}", flush=True)
            os._exit(124)
        return time_ms(launch, iters=iters, warmup=3) * 1e6  # ns

    i32 = dict(device="cuda", dtype=torch.int32)
    bf = dict(device="cuda", dtype=torch.bfloat16)

    def mufu_terms(launch_ns):
        # 4 exp2 (and 4 subtractions) per element per iteration, R
        # iterations, 4 tiles per SM; small inputs keep the accumulator
        # near 0 and the chain in (0.5, 1]. The IEEE form is timed too,
        # but this chain is MUFU-bound and hides its compare and two
        # multiplies (the H200 timed both forms alike, 2026-12-01): their
        # count is ptxas's expansion as the SASS shows it, not a time.
        R = 64
        A = torch.randn(128, 64, **bf) * 0.01
        C = torch.empty(128 * sms, 128 * 4, **bf)
        n = C.numel() * 4.0 * R
        t_ftz = timed("mufu_ftz", [A, A, torch.empty(R, **i32), C])
        t_ieee = timed("mufu_ieee", [A, A, torch.empty(R, **i32), C])
        rate = n / (t_ftz - launch_ns) / sms  # exp2 per ns per SM
        return {"mufu_ops_per_ns_per_sm": round(rate, 2),
                "exp2_ieee_extra_alu_ops": 3}, dict(
                    mufu_ftz_ns=round(t_ftz, 1), mufu_ieee_ns=round(t_ieee, 1))

    def wgmma_rate(launch_ns, name, n, rows, dt=torch.bfloat16):
        """TFLOP/s per SM of one gen_kernels.py wgmma kernel: its
        warpgroups each chaining R dependent wgmma on 64 rows, 4 tiles per
        SM (B is N x 64, or 64 x N MN-major: the same elements at N = 64)."""
        R, per_sm = 1024, 4
        A = torch.randn(rows, 64, device="cuda", dtype=dt)
        B = torch.randn(n, 64, device="cuda", dtype=dt)
        C = torch.empty(rows * sms, n * per_sm, device="cuda", dtype=dt)
        t = timed(name, [A, B, torch.empty(R, **i32), C])
        flops = sms * per_sm * 2.0 * rows * n * 64 * R
        return round(flops / (t - launch_ns) / sms / 1e3, 4)

    def wgmma_rates(launch_ns, wgs):
        """TFLOP/s per SM of wgmma_<dt>_n<N>[_w4]: `wgs` warpgroups."""
        rates = {}
        for dt, dname in ((torch.bfloat16, "bf16"), (torch.float16, "f16")):
            rates[dname] = {}
            for n in ((64, 128, 256) if wgs == 2 else (64, 128)):
                name = f"wgmma_{dname}_n{n}" + ("" if wgs == 2 else "_w4")
                rates[dname][str(n)] = wgmma_rate(launch_ns, name, n,
                                                  64 * wgs, dt)
        return rates

    def rs_rates(launch_ns):
        """TFLOP/s per SM, bf16, two warpgroups: the shared-memory form
        (wgmma_bf16_n<N>) and the RS form (wgmma_rs_bf16_n<N>[_t]) in one
        run."""
        return {name: wgmma_rate(launch_ns, name, n, 128)
                for name, n in (("wgmma_bf16_n64", 64),
                                ("wgmma_bf16_n128", 128),
                                ("wgmma_rs_bf16_n64", 64),
                                ("wgmma_rs_bf16_n128", 128),
                                ("wgmma_rs_bf16_n64_t", 64))}

    if args.only == "rs":
        launch_ns = timed("latency", [torch.randn(64, 64, **bf),
                                      torch.empty(1, **i32)], iters=200)
        print(json.dumps(dict(gpu=prop.name, tflops_per_sm=rs_rates(
            launch_ns)), indent=2))
        return

    if args.only == "wgmma4":
        launch_ns = timed("latency", [torch.randn(64, 64, **bf),
                                      torch.empty(1, **i32)], iters=200)
        print(json.dumps(dict(gpu=prop.name, two_warpgroups=wgmma_rates(
            launch_ns, 2), four_warpgroups=wgmma_rates(launch_ns, 4)),
            indent=2))
        return

    if args.only == "mufu":
        cal = json.load(open(args.update))
        launch_ns = cal["launch_ns"]
        terms, raw = mufu_terms(launch_ns)
        cal.update(terms)
        cal.setdefault("measured", {})["mufu"] = dict(
            raw, date=datetime.date.today().isoformat(), commit=args.commit)
        with open(args.update, "w") as f:
            json.dump(cal, f, indent=2)
            f.write("\n")
        print(json.dumps(dict(terms, **raw), indent=2))
        return
    raw = {}
    # Launch overhead: one tile, one pipeline step.
    one = torch.empty(1, **i32)  # %Tiles of extent 1: one tile
    launch_ns = timed("latency", [torch.randn(64, 64, **bf), one], iters=200)
    raw["launch_ns"] = launch_ns
    # Pipeline round trip: one CTA, one stage, 4096 steps of one box.
    steps = 4096
    t = timed("latency", [torch.randn(64, 64 * steps, **bf), one])
    round_trip_ns = (t - launch_ns) / (steps - 1)
    raw["latency_4096_steps_ns"] = t

    tma = {}
    hbm_best = 0.0
    for rows, cols, sw in ((64, 64, 128), (128, 64, 128), (256, 64, 128),
                           (128, 32, 64)):
        box = f"{rows}x{cols}_sw{sw}"
        # Every box once: a 1 GiB tensor.
        A = torch.randn(65536, 8192, **bf)
        tiles = torch.empty(65536, **i32)
        t = timed(f"tma_{box}_hbm", [A, tiles], iters=10)
        hbm = A.numel() * 2 / t  # bytes per ns = GB/s
        del A
        # Every tile reads the same rows: L2 hits.
        A = torch.randn(rows, 8192, **bf)
        ntiles = sms * 16
        tiles = torch.empty(ntiles * rows, **i32)
        t = timed(f"tma_{box}_l2", [A, tiles])
        l2 = ntiles * rows * 8192 * 2 / (t - launch_ns)
        tma[box] = dict(hbm_gbps=round(hbm, 1),
                        l2_gbps_per_sm=round(l2 / sms, 2))
        hbm_best = max(hbm_best, hbm)

    # Aggregate L2 -> shared memory bandwidth: each CTA rereads its own
    # 128 rows of a 34 MB tensor (L2-resident), 32 times.
    A = torch.randn(sms * 128, 1024, **bf)
    ntiles = sms * 32
    t = timed("tma_128x64_sw128_l2spread",
              [A, torch.empty(ntiles * 128, **i32)])
    l2_gbps = ntiles * 128 * 1024 * 2 / (t - launch_ns)
    del A

    wgmma = wgmma_rates(launch_ns, 2)

    # Hand-off cost: the same wgmma through a 4-stage pipe, one wait, mma
    # and release per step; the step time over the pure wgmma time.
    pipe_step = {}
    handoff = []
    for n in (64, 128, 256):
        R = 512
        per_sm = 4
        A = torch.randn(128, 64, **bf)
        B = torch.randn(n, 64, **bf)
        C = torch.empty(128 * sms, n * per_sm, **bf)
        t = timed(f"pipe_mma_bf16_n{n}", [A, B, torch.empty(R, **i32), C])
        step = (t - launch_ns) / (per_sm * R)
        pure = 2.0 * 128 * n * 64 / (wgmma["bf16"][str(n)] * 1e3)
        pipe_step[str(n)] = round(step, 1)
        # At N = 64 the step is bound by the copies, not the hand-off.
        if n >= 128:
            handoff.append(step - pure)
    raw["pipe_mma_step_ns_bf16"] = pipe_step

    # ALU: 8 ops per element per iteration, 256 iterations, 4 tiles per SM.
    R = 256
    A = torch.randn(128, 64, **bf)
    C = torch.empty(128 * sms, 128 * 4, **bf)
    t = timed("alu", [A, A, torch.empty(R, **i32), C])
    alu = C.numel() * 8.0 * R / (t - launch_ns) / sms  # ops per ns per SM
    # Stores: the same kernel, R = 1, a 512 MiB output.
    C = torch.empty(16384, 16384, **bf)
    t = timed("alu", [A, A, torch.empty(1, **i32), C], iters=10)
    store = C.numel() * 2 / t

    # The k-means epilogue: a row argmin (+ merge) per element and a 1x128
    # row load per call, beyond what their maps cost at the ALU rate.
    R, per_sm, E = 256, 4, 128 * 128
    A = torch.randn(128, 64, **bf)
    C = torch.empty(128 * sms, 128 * per_sm, **bf)
    Cn = torch.randn(R + 128, device="cuda", dtype=torch.float32)
    Out = torch.empty(128 * sms, **i32)
    ep = [A, A, torch.empty(R, **i32), Cn, Out, C]
    t = timed("epilogue_argmin", ep)
    it = (t - launch_ns) / (per_sm * R)
    argmin_ops = (it * alu - 2 * E - 3 * 128) / E
    t = timed("epilogue_load", ep)
    it = (t - launch_ns) / (per_sm * R)
    load_ns = max(0.0, it - E / alu)
    raw["epilogue_iteration_ns"] = dict(
        argmin=round((timed("epilogue_argmin", ep) - launch_ns)
                     / (per_sm * R), 1), load=round(it, 1))

    terms, raw["mufu"] = mufu_terms(launch_ns)
    cal = {
        "gpu": prop.name,
        "target": "sm_90a",
        "calibrated": True,
        "date": datetime.date.today().isoformat(),
        "commit": args.commit,
        "source": "bench/calibrate/calibrate.py on the GPU named above",
        "sm_count": sms,
        "l2_bytes": prop.L2_cache_size,
        "hbm_gbps": round(hbm_best, 1),
        "l2_gbps": round(l2_gbps, 1),
        "store_gbps": round(store, 1),
        "tma": tma,
        "pipe_round_trip_ns": round(round_trip_ns, 1),
        # Consumer time per hand-off of a stage an mma reads (wait, issue,
        # retire, release) beyond the mma itself: mean over N >= 128.
        "mma_handoff_ns": round(max(0.0, sum(handoff) / len(handoff)), 1),
        "mma_tflops_per_sm": wgmma,
        "alu_ops_per_ns_per_sm": round(alu, 2),
        # frag.argmin per element (with its cross-lane shuffles), in ALU ops.
        "argmin_ops_per_element": round(argmin_ops, 2),
        # math.exp2 and its kin (MUFU): per ns per SM, and the IEEE form's
        # extra ALU ops (kernels that do not flush denormals).
        **terms,
        # cake.load of a 1x128 row: exposed latency per call.
        "load_ns": round(load_ns, 1),
        "launch_ns": round(launch_ns, 1),
        # Not measured by a microbenchmark of its own (the tensor-core rate
        # by N covers wgmma's shared-memory reads): 128 B/clock at the
        # boost clock, from the datasheet.
        "smem_gbps_per_sm": round(128 * prop.clock_rate / 1e6, 1)
        if hasattr(prop, "clock_rate") else 253.4,
        "measured": raw,
    }
    with open(args.out, "w") as f:
        json.dump(cal, f, indent=2)
        f.write("\n")
    print(json.dumps(cal, indent=2))


if __name__ == "__main__":
    main()
