#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Aggregate L2 -> shared-memory bandwidth against the size of the set the
CTAs read: calibrate.py's `tma_128x64_sw128_l2spread` kernel (each CTA
rereads its own rows, none shared) over sets from 1 to 66 MiB, to tell an
L2 capacity effect from the crossbar's rate (docs/benchmarks/cost-model.md).

With --sharing, the same kernels for boxes of 64, 128 and 256 rows read
a set of SMs / k row blocks, so that k CTAs read each block at once
(CTA c rereads block c mod (SMs / k)): the aggregate rate against the
sharing degree k and the box height, the two things the cost model's
`l2` term would have to tell apart.

usage: l2_sets.py --runtime .device/lib/libcake_runtime.so --bundles .device/calibrate [--sharing]
"""
import argparse
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import (CakeRtArg, launch_checked, load_bundle,  # noqa: E402
                     load_runtime, tensor_arg, time_ms)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundles", required=True)
    p.add_argument("--sharing", action="store_true")
    args = p.parse_args()
    torch.empty(1, device="cuda")
    rt = load_runtime(args.runtime)
    prop = torch.cuda.get_device_properties(0)
    sms = prop.multi_processor_count
    stream = torch.cuda.current_stream().cuda_stream
    print(f"{prop.name}, L2 {prop.L2_cache_size / 2**20:.0f} MiB, {sms} SMs")

    def timed(name, tensors, iters=20):
        h = load_bundle(rt, os.path.join(args.bundles, name + ".json"))
        launch_checked(rt, h, tensors, name)
        cargs = (CakeRtArg * len(tensors))(*[tensor_arg(t) for t in tensors])

        def launch():
            if rt.cakeRtLaunch(h, cargs, len(tensors),
                               ctypes.c_void_p(stream)) != 0:
                raise RuntimeError(rt.cakeRtLastError().decode())
        return time_ms(launch, iters=iters, warmup=3) * 1e6  # ns

    bf = dict(device="cuda", dtype=torch.bfloat16)
    i32 = dict(device="cuda", dtype=torch.int32)
    launch_ns = timed("latency", [torch.randn(64, 64, **bf),
                                  torch.empty(1, **i32)], iters=200)
    if args.sharing:
        width = 1024
        for rows in (64, 128, 256):
            name = f"tma_{rows}x64_sw128_l2spread"
            for k in (1, 2, 4, 6, 12, 33, 66, 132):
                blocks = max(1, sms // k)
                A = torch.randn(blocks * rows, width, **bf)
                # 1.1 GB a launch, as the set sweep below: the first run
                # moved 277 MB (20-30 us), short enough that subtracting
                # the launch latency gave rates above what 132 SMs'
                # shared memory can take in (128 B a clock each, ~33 TB/s
                # at 1.98 GHz), i.e. noise.
                ntiles = sms * 32 * 128 // rows
                t = timed(name, [A, torch.empty(ntiles * rows, **i32)])
                gbps = ntiles * rows * width * 2 / (t - launch_ns)
                print(f"box {rows:3d}x64, {k:3d} CTAs a block ({blocks:3d} "
                      f"blocks, {A.numel() * 2 / 2**20:5.2f} MiB): "
                      f"{gbps:8.1f} GB/s ({t / 1e3:.1f} us, launch "
                      f"{launch_ns / 1e3:.1f} us)")
        return
    for width in (2048, 1024, 512, 256, 128):
        for rows_per_cta in (128, 64, 32):
            A = torch.randn(sms * rows_per_cta, width, **bf)
            ntiles = sms * max(1, 32 * 1024 // width)
            t = timed("tma_128x64_sw128_l2spread",
                      [A, torch.empty(ntiles * 128, **i32)])
            gbps = ntiles * 128 * width * 2 / (t - launch_ns)
            print(f"set {A.numel() * 2 / 2**20:7.1f} MiB ({A.shape[0]} rows "
                  f"x {width}): {gbps:8.1f} GB/s")


if __name__ == "__main__":
    main()
