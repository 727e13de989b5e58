# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake's k-means (libcake_kmeans.so) on torch tensors, in flashlib's
conventions: switching from flashlib is a change of import.

    from cake.kmeans import batch_kmeans_Euclid, flash_kmeans, euclid_assign
    ids, centroids, n_iter = batch_kmeans_Euclid(x, 1024, max_iters=10,
                                                 init_centroids=c0)
    ids, centroids, n_iter = flash_kmeans(x2d, 1024)     # (N, D) too
    ids = euclid_assign(x, centroids)                     # (B, N) int32

As flashlib's: x is (B, N, D) (flash_kmeans also takes (N, D)), fp16 or
bf16 CUDA tensors; init_centroids (B, K, D) of x's type, else K rows of x
drawn at random; tol > 0 stops after the first round whose largest
centroid shift (Euclidean) is below tol, tol = 0 runs max_iters rounds
without a host sync; cluster ids come back as int32 (flashlib's Triton
path returns int32 too), centroids in x's type. Only the Euclidean
metric is here. Every call checks its tensors and raises TypeError or
ValueError naming the argument; a kernel failure raises RuntimeError
with the runtime's message.

The dispatch table (kmeans-table.json and its bundles) is found in
$CAKE_KMEANS_TABLE, else beside the library: ../share/cake/kmeans of an
install, libs/kmeans/kernels of a build tree. `Kmeans(table_dir)` opens
another.
"""
import ctypes
import os

from . import runtime as _rt
from ._libs import LibraryNotFound, find_library

def _torch():
    import torch
    return torch


def default_table_dir(library_path):
    """Where the table is when no folder is given (see the module doc)."""
    env = os.environ.get("CAKE_KMEANS_TABLE")
    if env:
        return env
    libdir = os.path.dirname(library_path) if os.sep in library_path \
        else None
    tried = []
    for rel in (("..", "share", "cake", "kmeans"),
                ("..", "libs", "kmeans", "kernels")):
        if libdir:
            d = os.path.normpath(os.path.join(libdir, *rel))
            if os.path.exists(os.path.join(d, "kmeans-table.json")):
                return d
            tried.append(d)
    raise LibraryNotFound(
        "cake.kmeans: no dispatch table (kmeans-table.json) in "
        + (", ".join(tried) or "any folder beside the library")
        + "; set CAKE_KMEANS_TABLE to a folder that has one (a build's "
        "libs/kmeans/kernels, an install's share/cake/kmeans)")


class Kmeans:
    """One opened dispatch table over libcake_kmeans.so."""

    def __init__(self, table_dir=None, library=None):
        lib = ctypes.CDLL(library) if library else \
            find_library("libcake_kmeans.so")
        self.rt = _rt.declare(lib)
        c = ctypes
        i64, u64 = [c.c_int64] * 4, c.c_uint64
        lib.cakeKmeansOpen.argtypes = [c.c_char_p, c.POINTER(c.c_void_p)]
        lib.cakeKmeansChoose.argtypes = [c.c_void_p, c.c_char_p] + i64 + [
            c.POINTER(c.c_char_p), c.POINTER(c.c_char_p)]
        lib.cakeKmeansAssign.argtypes = [c.c_void_p, c.c_char_p] + i64 + [
            u64] * 4 + [c.c_void_p]
        lib.cakeKmeansUpdate.argtypes = [c.c_void_p, c.c_char_p] + i64 + [
            u64] * 6 + [c.c_void_p]
        lib.cakeKmeansLloyd.argtypes = [c.c_void_p, c.c_char_p] + i64 + [
            u64] * 3 + [c.c_int, c.c_float, c.POINTER(c.c_int),
                        c.POINTER(c.c_float), c.c_void_p]
        lib.cakeKmeansClose.argtypes = [c.c_void_p]
        self.table_dir = table_dir or default_table_dir(lib._name)
        self.handle = c.c_void_p()
        if lib.cakeKmeansOpen(self.table_dir.encode(),
                              c.byref(self.handle)) != 0:
            self.handle = None
            raise RuntimeError(f"cake.kmeans: {self.table_dir}: "
                               f"{_rt.last_error(self.rt)}")

    def _error(self, what):
        return RuntimeError(f"cake.kmeans.{what}: {_rt.last_error(self.rt)}")

    @staticmethod
    def _check(x, c, what, xname="x", cname="centroids"):
        """(x, c) as contiguous (B, N, D) and (B, K, D) and the library's
        name of their type; raises on anything else."""
        xb, cb, _ = _rt.check_points(x, c, what, xname, cname)
        if cb.shape[1] < 1:
            raise ValueError(f"{what}: no centroids")
        return xb, cb, _rt.library_dtype(x)

    def choose(self, dtype, B, N, D, K):
        """(bundle, evidence) the table picks for a problem."""
        bundle, evidence = ctypes.c_char_p(), ctypes.c_char_p()
        if self.rt.cakeKmeansChoose(self.handle, dtype.encode(), B, N, D, K,
                                    ctypes.byref(bundle),
                                    ctypes.byref(evidence)) != 0:
            raise self._error("choose")
        return bundle.value.decode(), evidence.value.decode()

    def assign(self, x, c, c_norms=None, out=None):
        """Nearest centroid of each point: (B, N) or (N,) int32."""
        torch = _torch()
        xb, cb, dtype = self._check(x, c, "assign")
        B, N, D = xb.shape
        K = cb.shape[1]
        if c_norms is None:
            c_norms = (cb.float() ** 2).sum(-1)
        else:
            _rt.check_tensor(c_norms, "assign: c_sq", (torch.float32,))
            if c_norms.numel() != B * K:
                raise ValueError(f"assign: c_sq has {c_norms.numel()} "
                                 f"elements, expected B * K = {B * K}")
        c_norms = c_norms.reshape(B, K)
        if out is None:
            out = torch.empty(B, N, device=x.device, dtype=torch.int32)
        else:
            _rt.check_tensor(out, "assign: out", (torch.int32,))
            if out.numel() != B * N:
                raise ValueError(f"assign: out has {out.numel()} elements, "
                                 f"expected B * N = {B * N}")
        if self.rt.cakeKmeansAssign(
                self.handle, dtype.encode(), B, N, D, K, xb.data_ptr(),
                cb.data_ptr(), c_norms.data_ptr(), out.data_ptr(),
                _rt.current_stream()) != 0:
            raise self._error("assign")
        return out.view(B, N) if x.dim() == 3 else out.view(N)

    def update(self, x, ids, c, c_norms=None, max_shift=None):
        """Means of the clusters `ids` gives (an empty one keeps its
        centroid); also ||new||^2 into c_norms ([B, K] fp32) and the
        largest shift into max_shift ([1] fp32) when given."""
        torch = _torch()
        xb, cb, dtype = self._check(x, c, "update")
        B, N, D = xb.shape
        K = cb.shape[1]
        _rt.check_tensor(ids, "update: ids", (torch.int32, torch.int64))
        if ids.numel() != B * N:
            raise ValueError(f"update: ids has {ids.numel()} elements, "
                             f"expected B * N = {B * N}")
        ids = ids.reshape(B, N).to(torch.int32).contiguous()
        for t, n, size in ((c_norms, "c_norms", B * K),
                           (max_shift, "max_shift", 1)):
            if t is not None:
                _rt.check_tensor(t, f"update: {n}", (torch.float32,))
                if t.numel() != size:
                    raise ValueError(f"update: {n} has {t.numel()} "
                                     f"elements, expected {size}")
        out = torch.empty_like(cb)
        if self.rt.cakeKmeansUpdate(
                self.handle, dtype.encode(), B, N, D, K, xb.data_ptr(),
                ids.data_ptr(), cb.data_ptr(), out.data_ptr(),
                0 if c_norms is None else c_norms.data_ptr(),
                0 if max_shift is None else max_shift.data_ptr(),
                _rt.current_stream()) != 0:
            raise self._error("update")
        return out if c.dim() == 3 else out[0]

    def lloyd(self, x, c0, max_iters=10, tol=0.0):
        """Lloyd's loop from c0 (not modified): (ids, centroids, rounds)."""
        torch = _torch()
        xb, cb, dtype = self._check(x, c0, "lloyd", cname="init_centroids")
        if max_iters < 1:
            raise ValueError(f"lloyd: max_iters = {max_iters}; at least 1")
        B, N, D = xb.shape
        K = cb.shape[1]
        c = cb.clone()
        ids = torch.empty(B, N, device=x.device, dtype=torch.int32)
        iters, shift = ctypes.c_int(), ctypes.c_float()
        if self.rt.cakeKmeansLloyd(
                self.handle, dtype.encode(), B, N, D, K, xb.data_ptr(),
                c.data_ptr(), ids.data_ptr(), max_iters, tol,
                ctypes.byref(iters), None, _rt.current_stream()) != 0:
            raise self._error("lloyd")
        if x.dim() == 2:
            ids, c = ids[0], c[0]
        return ids, c, iters.value

    def __del__(self):
        if getattr(self, "handle", None):
            self.rt.cakeKmeansClose(self.handle)
            self.handle = None


_default = None


def default():
    """The Kmeans over the default table, opened on first use."""
    global _default
    if _default is None:
        _default = Kmeans()
    return _default


def euclid_assign(x, centroids, out=None, c_sq=None):
    """flashlib's euclid_assign_triton: the nearest centroid of each point,
    (B, N) int32 for x (B, N, D) and centroids (B, K, D) (2-D inputs give
    (N,)); `out` and `c_sq` ((B, K) fp32 squared norms) optional."""
    Kmeans._check(x, centroids, "euclid_assign")  # before the library loads
    return default().assign(x, centroids, c_norms=c_sq, out=out)


def _initial(x, n_clusters, init_centroids, what):
    torch = _torch()
    if not isinstance(n_clusters, int) or isinstance(n_clusters, bool) \
            or n_clusters < 1:
        raise ValueError(f"{what}: n_clusters = {n_clusters!r}; a positive "
                         f"int")
    if x.dim() not in (2, 3):
        raise ValueError(f"{what}: x is {tuple(x.shape)}; (N, D) or "
                         f"(B, N, D)")
    if init_centroids is not None:
        if not isinstance(init_centroids, torch.Tensor):
            raise TypeError(f"{what}: init_centroids must be a torch tensor, "
                            f"got {type(init_centroids).__name__}")
        want = (*x.shape[:-2], n_clusters, x.shape[-1])
        if tuple(init_centroids.shape) != want:
            raise ValueError(f"{what}: init_centroids is "
                             f"{tuple(init_centroids.shape)}, expected "
                             f"{want}")
        return init_centroids
    # As flashlib: K rows of x drawn at random (with replacement).
    xb = x if x.dim() == 3 else x.unsqueeze(0)
    B, N, D = xb.shape
    idx = torch.randint(0, N, (B, n_clusters), device=x.device)
    c = torch.gather(xb, 1, idx[..., None].expand(-1, -1, D))
    return c if x.dim() == 3 else c[0]


def batch_kmeans_Euclid(x, n_clusters, max_iters=100, tol=0.0,
                        init_centroids=None, verbose=False):
    """flashlib's batch_kmeans_Euclid: Lloyd's k-means of x (B, N, D);
    returns (cluster_ids (B, N) int32, centroids (B, K, D), rounds run).
    verbose prints each round's largest centroid shift (a host sync per
    round)."""
    torch = _torch()
    if isinstance(x, torch.Tensor) and x.dim() != 3:
        raise ValueError(f"batch_kmeans_Euclid: x is {tuple(x.shape)}; it "
                         f"takes (B, N, D) (flash_kmeans takes (N, D) too)")
    return _lloyd(x, n_clusters, max_iters, tol, init_centroids, verbose,
                  "batch_kmeans_Euclid")


def flash_kmeans(x, n_clusters, *, max_iters=100, tol=0.0,
                 init_centroids=None, verbose=False, metric="euclidean"):
    """flashlib's flash_kmeans: x (B, N, D) or (N, D); the results drop
    the batch axis for (N, D). Euclidean only."""
    if metric != "euclidean":
        raise NotImplementedError(f"flash_kmeans: metric {metric!r}; Cake's "
                                  f"k-means is Euclidean only")
    return _lloyd(x, n_clusters, max_iters, tol, init_centroids, verbose,
                  "flash_kmeans")


def _lloyd(x, n_clusters, max_iters, tol, init_centroids, verbose, what):
    torch = _torch()
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{what}: x must be a torch tensor, got "
                        f"{type(x).__name__}")
    if not isinstance(max_iters, int) or isinstance(max_iters, bool) or \
            max_iters < 1:
        raise ValueError(f"{what}: max_iters = {max_iters!r}; a positive "
                         f"int")
    c0 = _initial(x, n_clusters, init_centroids, what)
    Kmeans._check(x, c0, what, cname="init_centroids")  # before the library
    km = default()
    if not verbose:
        return km.lloyd(x, c0, max_iters=max_iters, tol=tol)
    # Round by round from Python, to print the shifts as flashlib does.
    xb, cb, _ = km._check(x, c0, what, cname="init_centroids")
    c, norms = cb.clone(), (cb.float() ** 2).sum(-1)
    shift = torch.zeros(1, device=x.device, dtype=torch.float32)
    rounds = 0
    for it in range(max_iters):
        ids = km.assign(xb, c, c_norms=norms)
        shift.zero_()
        c = km.update(xb, ids, c, c_norms=norms, max_shift=shift)
        rounds = it + 1
        print(f"Iter {it}, center shift: {shift.item():.6f}")
        if tol > 0.0 and shift.item() < tol:
            break
    if x.dim() == 2:
        ids, c = ids[0], c[0]
    return ids, c, rounds
