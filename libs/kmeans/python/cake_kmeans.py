# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake's k-means from Python (ctypes over libcake_kmeans.so).

    km = CakeKmeans("/path/libcake_kmeans.so", "/path/to/table-dir")
    ids = km.assign(x, c)            # x [B, N, D] or [N, D], c likewise
    new_c = km.update(x, ids, c)     # means of the clusters (empty: c)
    ids, c, iters = km.lloyd(x, c0, max_iters=10, tol=0.0)
    km.choose("f16", B, N, D, K)     # (bundle, evidence) the table picks

The table folder holds kmeans-table.json and the bundles it names (the
build's cake-kmeans-kernels target writes build/libs/kmeans/kernels/;
scripts/device-pack-kmeans copies it to .device/kmeans). The library may
also be given as its folder or as a file beside it (libcake_runtime.so).
Tensors are torch CUDA tensors, contiguous; ||c||^2 is computed here
unless given.
"""
import ctypes
import os

import torch


class CakeKmeans:
    def __init__(self, library, table_dir):
        if os.path.basename(library) != "libcake_kmeans.so":
            folder = library if os.path.isdir(library) else \
                os.path.dirname(library)
            library = os.path.join(folder, "libcake_kmeans.so")
        self.rt = ctypes.CDLL(library)
        self.rt.cakeRtLastError.restype = ctypes.c_char_p
        self.rt.cakeKmeansOpen.argtypes = [ctypes.c_char_p,
                                           ctypes.POINTER(ctypes.c_void_p)]
        self.rt.cakeKmeansChoose.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p] + [ctypes.c_int64] * 4 + [
            ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_char_p)]
        self.rt.cakeKmeansAssign.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p] + [ctypes.c_int64] * 4 + [
            ctypes.c_uint64] * 4 + [ctypes.c_void_p]
        self.rt.cakeKmeansUpdate.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p] + [ctypes.c_int64] * 4 + [
            ctypes.c_uint64] * 6 + [ctypes.c_void_p]
        self.rt.cakeKmeansLloyd.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p] + [ctypes.c_int64] * 4 + [
            ctypes.c_uint64] * 3 + [ctypes.c_int, ctypes.c_float,
                                    ctypes.POINTER(ctypes.c_int),
                                    ctypes.POINTER(ctypes.c_float),
                                    ctypes.c_void_p]
        self.rt.cakeKmeansClose.argtypes = [ctypes.c_void_p]
        self.handle = ctypes.c_void_p()
        if self.rt.cakeKmeansOpen(table_dir.encode(),
                                  ctypes.byref(self.handle)) != 0:
            raise RuntimeError(self.rt.cakeRtLastError().decode())

    def _error(self):
        return RuntimeError(self.rt.cakeRtLastError().decode())

    def choose(self, dtype, B, N, D, K):
        bundle, evidence = ctypes.c_char_p(), ctypes.c_char_p()
        if self.rt.cakeKmeansChoose(self.handle, dtype.encode(), B, N, D, K,
                                    ctypes.byref(bundle),
                                    ctypes.byref(evidence)) != 0:
            raise self._error()
        return bundle.value.decode(), evidence.value.decode()

    def assign(self, x, c, c_norms=None, out=None):
        batched = x.dim() == 3
        xb = x if batched else x.unsqueeze(0)
        cb = c if batched else c.unsqueeze(0)
        B, N, D = xb.shape
        K = cb.shape[1]
        dtype = {torch.float16: "f16", torch.bfloat16: "bf16"}.get(x.dtype)
        if dtype is None or c.dtype != x.dtype:
            raise TypeError("x and c must both be float16 or bfloat16")
        if c_norms is None:
            c_norms = (cb.float() ** 2).sum(-1)
        c_norms = c_norms.reshape(B, K).contiguous()
        if out is None:
            out = torch.empty(B, N, device=x.device, dtype=torch.int32)
        stream = torch.cuda.current_stream().cuda_stream
        if self.rt.cakeKmeansAssign(
                self.handle, dtype.encode(), B, N, D, K,
                xb.contiguous().data_ptr(), cb.contiguous().data_ptr(),
                c_norms.data_ptr(), out.data_ptr(),
                ctypes.c_void_p(stream)) != 0:
            raise self._error()
        return out if batched else out[0]

    @staticmethod
    def _batched(x, c):
        xb = x if x.dim() == 3 else x.unsqueeze(0)
        cb = c if c.dim() == 3 else c.unsqueeze(0)
        dtype = {torch.float16: "f16", torch.bfloat16: "bf16"}.get(x.dtype)
        if dtype is None or c.dtype != x.dtype:
            raise TypeError("x and c must both be float16 or bfloat16")
        return xb.contiguous(), cb.contiguous(), dtype

    def update(self, x, ids, c, c_norms=None, max_shift=None):
        """Means of the clusters `ids` gives (empty ones keep c); also
        ||new||^2 into c_norms and the largest shift into max_shift (f32
        tensors of [B, K] and [1]) when given."""
        xb, cb, dtype = self._batched(x, c)
        B, N, D = xb.shape
        K = cb.shape[1]
        ids = ids.reshape(B, N).to(torch.int32).contiguous()
        out = torch.empty_like(cb)
        stream = torch.cuda.current_stream().cuda_stream
        if self.rt.cakeKmeansUpdate(
                self.handle, dtype.encode(), B, N, D, K, xb.data_ptr(),
                ids.data_ptr(), cb.data_ptr(), out.data_ptr(),
                0 if c_norms is None else c_norms.data_ptr(),
                0 if max_shift is None else max_shift.data_ptr(),
                ctypes.c_void_p(stream)) != 0:
            raise self._error()
        return out if c.dim() == 3 else out[0]

    def lloyd(self, x, c0, max_iters=10, tol=0.0):
        """Lloyd's loop from c0 (not modified): (ids, centroids, rounds)."""
        xb, cb, dtype = self._batched(x, c0)
        B, N, D = xb.shape
        K = cb.shape[1]
        c = cb.clone()
        ids = torch.empty(B, N, device=x.device, dtype=torch.int32)
        iters, shift = ctypes.c_int(), ctypes.c_float()
        stream = torch.cuda.current_stream().cuda_stream
        if self.rt.cakeKmeansLloyd(
                self.handle, dtype.encode(), B, N, D, K, xb.data_ptr(),
                c.data_ptr(), ids.data_ptr(), max_iters, tol,
                ctypes.byref(iters), None, ctypes.c_void_p(stream)) != 0:
            raise self._error()
        if x.dim() == 2:
            ids, c = ids[0], c[0]
        return ids, c, iters.value

    def __del__(self):
        if getattr(self, "handle", None):
            self.rt.cakeKmeansClose(self.handle)
            self.handle = None
