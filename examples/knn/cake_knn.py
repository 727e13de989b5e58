# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake's KNN search and KNN graph from Python, in flashlib's conventions.

    from cake_knn import CakeKnn
    knn = CakeKnn(bundles_dir, runtime="libcake_runtime.so")
    vals, idxs = knn.flash_knn(x, c, k)      # like flashlib's flash_knn
    vals, idxs = knn.knn_graph(x, k)         # self excluded

x is (B, N, D) or (N, D), c (B, M, D) or (M, D), torch CUDA tensors of
bf16 or f16 (the same type); the results are (B, N, k) or (N, k): fp32
squared distances ||x - c||^2 (as ||x||^2 + ||c||^2 - 2 x.c from the
tensor cores' fp32 accumulation) and int32 indices into c, each row
sorted by distance, ties to the lower index. `return_distances=False`
returns the indices alone, as flashlib's does.

The kernels are the bundles of examples/knn/ (`gen-knn.py OUT --table`,
then cake-opt --cake-lower and cake-translate --cake-to-bundle, as
scripts/device-pack does); dispatch.py picks the kernel, the corpus
splits and the merge for each shape, exactly as bench/knn/bench.py times
them. Errors (a shape the table has no kernel for, a bad argument, a
failed launch) raise ValueError or RuntimeError with the reason.
"""
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dispatch  # noqa: E402

_DTYPES = {torch.bfloat16: "bf16", torch.float16: "f16"}


class _Arg(ctypes.Structure):
    # libcake_runtime's CakeRtArg.
    _fields_ = [("isScalar", ctypes.c_int), ("data", ctypes.c_uint64),
                ("rank", ctypes.c_int32), ("shape", ctypes.c_int64 * 5),
                ("scalar", ctypes.c_int64)]


def _tensor(t):
    a = _Arg()
    a.data = t.data_ptr()
    a.rank = t.dim()
    for i, d in enumerate(t.shape):
        a.shape[i] = d
    return a


def _scalar(v):
    a = _Arg()
    a.isScalar = 1
    a.scalar = v
    return a


class CakeKnn:
    def __init__(self, bundles, runtime="libcake_runtime.so"):
        if not os.path.isdir(bundles):
            raise ValueError(f"no bundle directory {bundles!r}")
        self.bundles = bundles
        self.rt = ctypes.CDLL(runtime)
        self.rt.cakeRtLastError.restype = ctypes.c_char_p
        self.rt.cakeRtBundleLoad.argtypes = [ctypes.c_char_p,
                                             ctypes.POINTER(ctypes.c_void_p)]
        self.rt.cakeRtLaunch.argtypes = [ctypes.c_void_p,
                                         ctypes.POINTER(_Arg), ctypes.c_int,
                                         ctypes.c_void_p]
        self.handles = {}
        self.sms = None

    def _bundle(self, name):
        if name not in self.handles:
            path = os.path.join(self.bundles, name + ".json")
            if not os.path.exists(path):
                raise ValueError(f"no bundle {path} (build the table: "
                                 f"gen-knn.py OUT --table, then lower it)")
            h = ctypes.c_void_p()
            if self.rt.cakeRtBundleLoad(path.encode(), ctypes.byref(h)):
                raise RuntimeError(f"load {path}: "
                                   + self.rt.cakeRtLastError().decode())
            self.handles[name] = h
        return self.handles[name]

    def _launch(self, name, args):
        arr = (_Arg * len(args))(*args)
        stream = torch.cuda.current_stream().cuda_stream
        if self.rt.cakeRtLaunch(self._bundle(name), arr, len(args),
                                ctypes.c_void_p(stream)):
            raise RuntimeError(f"{name}: "
                               + self.rt.cakeRtLastError().decode())

    @staticmethod
    def _batched(x, c, what):
        for t, n in ((x, "x"), (c, "c")):
            if not isinstance(t, torch.Tensor) or not t.is_cuda:
                raise ValueError(f"{what}: {n} must be a CUDA tensor")
            if t.dtype not in _DTYPES:
                raise ValueError(f"{what}: {n} is {t.dtype}; the kernels take "
                                 f"bf16 or f16")
        if x.dtype != c.dtype:
            raise ValueError(f"{what}: x is {x.dtype} but c is {c.dtype}")
        if x.dim() != c.dim() or x.dim() not in (2, 3):
            raise ValueError(f"{what}: x and c must both be (N, D) or "
                             f"(B, N, D), got {tuple(x.shape)} and "
                             f"{tuple(c.shape)}")
        squeeze = x.dim() == 2
        if squeeze:
            x, c = x.unsqueeze(0), c.unsqueeze(0)
        if x.shape[0] != c.shape[0] or x.shape[2] != c.shape[2]:
            raise ValueError(f"{what}: batch or width differ: "
                             f"{tuple(x.shape)} and {tuple(c.shape)}")
        return x.contiguous(), c.contiguous(), squeeze

    def _norms(self, t, dtype):
        out = torch.empty(t.shape[0], device=t.device, dtype=torch.float32)
        self._launch(f"row_norms_{dtype}_d{t.shape[1]}",
                     [_tensor(t), _tensor(out)])
        return out

    def _search_one(self, x, c, k, dist, idx):
        q, d = x.shape
        m = c.shape[0]
        dtype = _DTYPES[x.dtype]
        name, splits, chunk = dispatch.choose(q, m, d, k, self.sms,
                                              dtype=dtype)
        pdist = torch.empty(q, splits, k, device=x.device,
                            dtype=torch.float32)
        pidx = torch.empty(q, splits, k, device=x.device, dtype=torch.int32)
        args = [_tensor(x), _tensor(c)]
        if not name.endswith("_fused"):
            args += [_tensor(self._norms(x, dtype)),
                     _tensor(self._norms(c, dtype))]
        args += [_tensor(pdist), _tensor(pidx), _scalar(splits),
                 _scalar(chunk)]
        self._launch(name, args)
        if splits == 1:
            dist.copy_(pdist.view(q, k))
            idx.copy_(pidx.view(q, k))
            return
        merge = dispatch.merge_name(k)
        g = dispatch.merge_groups(q, splits, k)
        if g > 1:
            gd = torch.empty(q * g, k, device=x.device, dtype=torch.float32)
            gi = torch.empty(q * g, k, device=x.device, dtype=torch.int32)
            self._launch(merge, [_tensor(pdist.view(q * g, splits // g * k)),
                                 _tensor(pidx.view(q * g, splits // g * k)),
                                 _tensor(gd), _tensor(gi)])
            pdist, pidx, splits = gd, gi, g
        self._launch(merge, [_tensor(pdist.view(q, splits * k)),
                             _tensor(pidx.view(q, splits * k)),
                             _tensor(dist), _tensor(idx)])

    def flash_knn(self, x, c, k, *, return_distances=True):
        """The k nearest rows of c for every row of x (flashlib's
        flash_knn(x, c, k)): (vals, idxs), or idxs alone."""
        x, c, squeeze = self._batched(x, c, "flash_knn")
        b, n, _ = x.shape
        if not 1 <= k <= c.shape[1]:
            raise ValueError(f"flash_knn: k = {k} must be in 1..{c.shape[1]}"
                             f" (the corpus rows)")
        if self.sms is None:
            self.sms = torch.cuda.get_device_properties(
                x.device).multi_processor_count
        dist = torch.empty(b, n, k, device=x.device, dtype=torch.float32)
        idx = torch.empty(b, n, k, device=x.device, dtype=torch.int32)
        for i in range(b):
            if n:
                self._search_one(x[i], c[i], k, dist[i], idx[i])
        if squeeze:
            dist, idx = dist[0], idx[0]
        return (dist, idx) if return_distances else idx

    def knn_graph(self, x, k, *, return_distances=True):
        """The k nearest other rows of every row of x (self excluded)."""
        x, _, squeeze = self._batched(x, x, "knn_graph")
        b, n, d = x.shape
        if not 1 <= k < n:
            raise ValueError(f"knn_graph: k = {k} must be in 1..{n - 1}")
        dtype = _DTYPES[x.dtype]
        name = dispatch.choose_build(n, d, k, dtype=dtype)
        dist = torch.empty(b, n, k, device=x.device, dtype=torch.float32)
        idx = torch.empty(b, n, k, device=x.device, dtype=torch.int32)
        for i in range(b):
            xn = self._norms(x[i], dtype)
            self._launch(name, [_tensor(x[i]), _tensor(xn), _tensor(dist[i]),
                                _tensor(idx[i])])
        if squeeze:
            dist, idx = dist[0], idx[0]
        return (dist, idx) if return_distances else idx
