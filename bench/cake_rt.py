# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ctypes bindings to libcake_runtime.so and timing shared by the benches.

Only what the benchmark scripts need: the CakeRtArg struct, a loader that
declares the functions' signatures, a tensor-to-argument helper for torch
tensors, a bundle loader and a checked launch of torch tensors, and
CUDA-event timing (median of many launches).
"""
import ctypes
import sys

import torch


class CakeRtArg(ctypes.Structure):
    _fields_ = [("isScalar", ctypes.c_int), ("data", ctypes.c_uint64),
                ("rank", ctypes.c_int32), ("shape", ctypes.c_int64 * 5),
                ("scalar", ctypes.c_int64)]


def load_runtime(path):
    rt = ctypes.CDLL(path)
    rt.cakeRtLastError.restype = ctypes.c_char_p
    rt.cakeRtBundleLoad.argtypes = [ctypes.c_char_p,
                                    ctypes.POINTER(ctypes.c_void_p)]
    rt.cakeRtLaunch.argtypes = [ctypes.c_void_p, ctypes.POINTER(CakeRtArg),
                                ctypes.c_int, ctypes.c_void_p]
    rt.cakeRtSynchronize.argtypes = [ctypes.c_void_p, ctypes.c_int64]
    rt.cakeRtBundleGetEntry.restype = ctypes.c_char_p
    rt.cakeRtBundleGetEntry.argtypes = [ctypes.c_void_p]
    return rt


def tensor_arg(t):
    a = CakeRtArg()
    a.isScalar = 0
    a.data = t.data_ptr()
    a.rank = t.dim()
    for i, d in enumerate(t.shape):
        a.shape[i] = d
    return a


def load_bundle(rt, path):
    """The bundle at `path`, or exit with the runtime's error."""
    h = ctypes.c_void_p()
    if rt.cakeRtBundleLoad(path.encode(), ctypes.byref(h)) != 0:
        sys.exit(f"load {path}: {rt.cakeRtLastError().decode()}")
    return h


def launch_checked(rt, h, tensors, label, timeout_ms=10000):
    """One launch on torch tensors (every argument a tensor), synchronized
    within `timeout_ms`; exits with the runtime's error on failure."""
    cargs = (CakeRtArg * len(tensors))(*(tensor_arg(t) for t in tensors))
    if (rt.cakeRtLaunch(h, cargs, len(tensors), None) != 0 or
            rt.cakeRtSynchronize(None, timeout_ms) != 0):
        sys.exit(f"{label}: {rt.cakeRtLastError().decode()}")


def time_ms(fn, iters=50, warmup=10):
    """Median of `iters` launches of `fn`, each timed with CUDA events."""
    for _ in range(warmup):
        fn()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    for i in range(iters):
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in zip(starts, ends))
    return times[len(times) // 2]
