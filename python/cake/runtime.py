# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Bundles on torch tensors, through libcake_runtime.so (ctypes).

    from cake.runtime import Bundle
    gemm = Bundle("gemm.bundle.json")        # or Bundle.from_json(text)
    gemm(a, b, c)                            # launch on the current stream
    gemm(a, b, c, stream=s, sync=True)       # wait (with a time limit)
    ms = gemm.time(a, b, c)                  # median of timed launches

Arguments are torch CUDA tensors (contiguous, row-major, rank 1..5, on
the current device, of the element type the kernel declares) or Python
ints for the kernel's index scalars. Anything else raises TypeError or
ValueError naming the argument; a launch the runtime refuses (its
launch-time checks: extents, alignment, grid) raises RuntimeError with
the runtime's message. torch is imported on first use, not at import.

The lower-level helpers (CakeRtArg, load_runtime, tensor_arg, time_ms)
are what bench/ scripts use.
"""
import ctypes

from ._libs import find_library


class CakeRtArg(ctypes.Structure):
    """include/cake-rt/cake_runtime.h's CakeRtArg."""
    _fields_ = [("isScalar", ctypes.c_int), ("data", ctypes.c_uint64),
                ("rank", ctypes.c_int32), ("shape", ctypes.c_int64 * 5),
                ("scalar", ctypes.c_int64)]


def declare(rt):
    """Declares the runtime's signatures on the CDLL `rt`; returns it."""
    vp = ctypes.c_void_p
    rt.cakeRtLastError.restype = ctypes.c_char_p
    rt.cakeRtVersion.restype = ctypes.c_char_p
    rt.cakeRtBundleLoad.argtypes = [ctypes.c_char_p, ctypes.POINTER(vp)]
    rt.cakeRtBundleLoadFromMemory.argtypes = [ctypes.c_char_p,
                                              ctypes.c_size_t,
                                              ctypes.POINTER(vp)]
    rt.cakeRtBundleDestroy.argtypes = [vp]
    rt.cakeRtBundleGetEntry.restype = ctypes.c_char_p
    rt.cakeRtBundleGetEntry.argtypes = [vp]
    rt.cakeRtBundleGetNumArgs.argtypes = [vp]
    rt.cakeRtBundleGetArgElement.restype = ctypes.c_char_p
    rt.cakeRtBundleGetArgElement.argtypes = [vp, ctypes.c_int]
    rt.cakeRtBundleGetArgRank.argtypes = [vp, ctypes.c_int]
    rt.cakeRtLaunch.argtypes = [vp, ctypes.POINTER(CakeRtArg), ctypes.c_int,
                                vp]
    rt.cakeRtSynchronize.argtypes = [vp, ctypes.c_int64]
    rt.cakeRtTime.argtypes = [vp, ctypes.POINTER(CakeRtArg), ctypes.c_int,
                              vp, ctypes.c_int, ctypes.c_int,
                              ctypes.POINTER(ctypes.c_float)]
    return rt


def load_runtime(path=None):
    """libcake_runtime.so with its signatures declared: `path`, or where
    cake._libs looks."""
    return declare(ctypes.CDLL(path) if path else
                   find_library("libcake_runtime.so"))


_runtime = None


def runtime():
    """The process's libcake_runtime.so (loaded once, where cake._libs
    looks, unless use_runtime chose one first)."""
    global _runtime
    if _runtime is None:
        _runtime = load_runtime()
    return _runtime


def use_runtime(path):
    """Makes the library at `path` the process's runtime (before the
    first bundle loads); returns it."""
    global _runtime
    rt = load_runtime(path)
    if _runtime is not None and _runtime._name != rt._name:
        raise RuntimeError(f"cake.runtime: {_runtime._name} is already in "
                           f"use; use_runtime({path!r}) comes too late")
    _runtime = rt
    return rt


def last_error(rt=None):
    return (rt or runtime()).cakeRtLastError().decode(errors="replace")


def tensor_arg(t):
    """A CakeRtArg for a contiguous torch tensor (unchecked)."""
    a = CakeRtArg()
    a.isScalar = 0
    a.data = t.data_ptr()
    a.rank = t.dim()
    for i, d in enumerate(t.shape):
        a.shape[i] = d
    return a


def scalar_arg(v):
    a = CakeRtArg()
    a.isScalar = 1
    a.scalar = v
    return a


def time_ms(fn, iters=50, warmup=10):
    """Median of `iters` calls of `fn`, each timed with CUDA events."""
    import torch
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


# Element types as MLIR spells them (the bundle's metadata) and torch's.
_ELEMENTS = {"bf16": "bfloat16", "f16": "float16", "f32": "float32",
             "f64": "float64", "i8": "int8", "i16": "int16", "i32": "int32",
             "i64": "int64", "f8E4M3FN": "float8_e4m3fn",
             "f8E5M2": "float8_e5m2"}


def check_tensor(t, what, dtypes=None):
    """Raises TypeError / ValueError unless `t` is a torch CUDA tensor on
    the current device, contiguous, of one of `dtypes` (torch dtypes)."""
    import torch
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{what}: expected a torch tensor, got "
                        f"{type(t).__name__}")
    if t.device.type != "cuda":
        raise ValueError(f"{what}: a {t.device.type} tensor; Cake's kernels "
                         f"take CUDA tensors")
    if t.device.index != torch.cuda.current_device():
        raise ValueError(f"{what}: on cuda:{t.device.index} but the current "
                         f"device is cuda:{torch.cuda.current_device()}")
    if dtypes is not None and t.dtype not in dtypes:
        raise TypeError(f"{what}: {t.dtype}; expected "
                        + " or ".join(str(d) for d in dtypes))
    if not t.is_contiguous():
        raise ValueError(f"{what}: not contiguous (strides {t.stride()} for "
                         f"shape {tuple(t.shape)}); pass .contiguous()")


# The input types of Cake's libraries (k-means, KNN), by torch dtype name.
LIBRARY_DTYPES = {"float16": "f16", "bfloat16": "bf16"}


def library_dtype(t, fp32=False):
    """The libraries' name of `t`'s type ("f16", "bf16"; with `fp32`,
    float32 is "f32"), or None."""
    name = str(t.dtype).replace("torch.", "")
    if fp32 and name == "float32":
        return "f32"
    return LIBRARY_DTYPES.get(name)


def check_points(x, c, what, xname="x", cname="c", fp32=False):
    """The libraries' inputs: x (N, D) or (B, N, D) and c of the same rank,
    batch and width, both float16 or both bfloat16 (or, with `fp32`, both
    float32), on one CUDA device.
    Returns contiguous 3-D views and whether x was 2-D; raises TypeError or
    ValueError naming the argument. The device is checked last, so that
    shape and type errors show on any device (and in tests without a
    GPU)."""
    import torch
    for t, n in ((x, xname), (c, cname)):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{what}: {n} must be a torch tensor, got "
                            f"{type(t).__name__}")
        if library_dtype(t, fp32) is None:
            raise TypeError(f"{what}: {n} is {t.dtype}; the kernels take "
                            f"float16 or bfloat16"
                            + (" or float32" if fp32 else ""))
    if c.dtype != x.dtype:
        raise TypeError(f"{what}: {cname} is {c.dtype} but {xname} is "
                        f"{x.dtype}")
    if x.dim() not in (2, 3) or c.dim() != x.dim():
        raise ValueError(f"{what}: {xname} and {cname} must both be (N, D) "
                         f"or (B, N, D), got {tuple(x.shape)} and "
                         f"{tuple(c.shape)}")
    squeeze = x.dim() == 2
    xb = x.unsqueeze(0) if squeeze else x
    cb = c.unsqueeze(0) if squeeze else c
    if cb.shape[0] != xb.shape[0] or cb.shape[2] != xb.shape[2]:
        raise ValueError(f"{what}: {cname} {tuple(c.shape)} does not match "
                         f"{xname} {tuple(x.shape)} (batch, D)")
    for t, n in ((x, xname), (c, cname)):
        if t.device.type != "cuda":
            raise ValueError(f"{what}: {n} is a {t.device.type} tensor; "
                             f"Cake's kernels take CUDA tensors")
    if x.device != c.device:
        raise ValueError(f"{what}: {xname} on {x.device}, {cname} on "
                         f"{c.device}")
    return xb.contiguous(), cb.contiguous(), squeeze


def current_stream():
    import torch
    return ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)


class Bundle:
    """A loaded bundle (cake-translate --cake-to-bundle's JSON)."""

    def __init__(self, path=None, *, json_text=None, timeout_ms=10000):
        self._rt = runtime()
        self._handle = ctypes.c_void_p()
        self.timeout_ms = timeout_ms
        if json_text is not None:
            data = json_text.encode() if isinstance(json_text, str) \
                else bytes(json_text)
            status = self._rt.cakeRtBundleLoadFromMemory(
                data, len(data), ctypes.byref(self._handle))
            self.source = "<memory>"
        else:
            status = self._rt.cakeRtBundleLoad(str(path).encode(),
                                               ctypes.byref(self._handle))
            self.source = str(path)
        if status != 0:
            self._handle = None
            raise RuntimeError(f"cake: cannot load bundle {self.source}: "
                               f"{last_error(self._rt)}")
        self.entry = self._rt.cakeRtBundleGetEntry(self._handle).decode()
        n = self._rt.cakeRtBundleGetNumArgs(self._handle)
        # Per argument: its element type and rank (0: an index scalar).
        self.arg_elements = [
            (self._rt.cakeRtBundleGetArgElement(self._handle, i) or
             b"").decode() for i in range(n)]
        self.arg_ranks = [self._rt.cakeRtBundleGetArgRank(self._handle, i)
                          for i in range(n)]

    @classmethod
    def from_json(cls, text, **kw):
        return cls(json_text=text, **kw)

    def _args(self, args):
        import torch
        if len(args) != len(self.arg_elements):
            raise TypeError(f"{self.entry}: takes {len(self.arg_elements)} "
                            f"arguments ({', '.join(self.arg_elements)}), "
                            f"got {len(args)}")
        out = (CakeRtArg * max(1, len(args)))()
        for i, (a, element, rank) in enumerate(
                zip(args, self.arg_elements, self.arg_ranks)):
            what = f"{self.entry}: argument {i}"
            if isinstance(a, bool) or not isinstance(a, (int, torch.Tensor)):
                raise TypeError(f"{what}: expected a tensor or an int, got "
                                f"{type(a).__name__}")
            if isinstance(a, int):
                if rank:
                    raise TypeError(f"{what}: the kernel takes a rank-{rank} "
                                    f"{element} tensor here, got an int")
                out[i] = scalar_arg(a)
                continue
            if not rank:
                raise TypeError(f"{what}: the kernel takes an {element} "
                                f"scalar here (a Python int), got a tensor")
            want = getattr(torch, _ELEMENTS.get(element, ""), None)
            check_tensor(a, what, None if want is None else (want,))
            if a.dim() != rank:
                raise ValueError(f"{what}: rank {a.dim()} (shape "
                                 f"{tuple(a.shape)}); the kernel takes rank "
                                 f"{rank}")
            out[i] = tensor_arg(a)
        return out

    def __call__(self, *args, stream=None, sync=False):
        """Launches on `stream` (a torch.cuda.Stream; default the current
        one). With sync=True, waits up to timeout_ms for it."""
        cargs = self._args(args)
        s = current_stream() if stream is None else \
            ctypes.c_void_p(stream.cuda_stream)
        if self._rt.cakeRtLaunch(self._handle, cargs, len(args), s) != 0:
            raise RuntimeError(f"{self.entry}: {last_error(self._rt)}")
        if sync and self._rt.cakeRtSynchronize(s, self.timeout_ms) != 0:
            raise RuntimeError(f"{self.entry}: {last_error(self._rt)}")

    launch = __call__

    def launch_unchecked(self, cargs, stream):
        """Launches prepared CakeRtArgs (a ctypes array) on a c_void_p
        stream without the Python-side checks: for libraries whose own
        entry points checked their tensors and allocated the rest."""
        if self._rt.cakeRtLaunch(self._handle, cargs, len(cargs),
                                 stream) != 0:
            raise RuntimeError(f"{self.entry}: {last_error(self._rt)}")

    def time(self, *args, warmup=10, iterations=50):
        """Median milliseconds of `iterations` launches on the current
        stream (the runtime's own event timing)."""
        cargs = self._args(args)
        ms = ctypes.c_float()
        if self._rt.cakeRtTime(self._handle, cargs, len(args),
                               current_stream(), warmup, iterations,
                               ctypes.byref(ms)) != 0:
            raise RuntimeError(f"{self.entry}: {last_error(self._rt)}")
        return ms.value

    def __repr__(self):
        args = ", ".join(f"{e}[{r}]" if r else e
                         for e, r in zip(self.arg_elements, self.arg_ranks))
        return f"<cake.Bundle {self.entry}({args}) from {self.source}>"

    def __del__(self):
        if getattr(self, "_handle", None):
            self._rt.cakeRtBundleDestroy(self._handle)
            self._handle = None
