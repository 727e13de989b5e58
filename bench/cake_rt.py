# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What the benchmark scripts take from libcake_runtime.so: the package's
bindings (python/cake/runtime.py: CakeRtArg, load_runtime, tensor_arg,
time_ms), plus a bundle loader and a checked launch that exit the script
with the runtime's error, as a benchmark should.
"""
import ctypes
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
from cake.runtime import (CakeRtArg, load_runtime, tensor_arg,  # noqa: E402
                          time_ms)

__all__ = ["CakeRtArg", "load_runtime", "tensor_arg", "time_ms",
           "load_bundle", "launch_checked"]


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
