# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake's exact KNN search and KNN graph on torch tensors, in flashlib's
conventions: switching from flashlib is a change of import.

    from cake.knn import flash_knn, knn_graph
    vals, idxs = flash_knn(x, c, k)          # as flashlib's flash_knn
    idxs = flash_knn(x, c, k, return_distances=False)
    vals, idxs = knn_graph(x, k)             # the k nearest other rows

x is (B, N, D) or (N, D), c (B, M, D) or (M, D): CUDA tensors of bf16 or
fp16 (the same type); knn_graph also takes fp32 points, whose products
are 3xbf16 (each row split into bf16 pieces, x = xh + xl, and
xh.ch + xl.ch + xh.cl summed in fp32: about fp32 accuracy). Results are (B, N, k) or (N, k): fp32 squared
distances ||x - c||^2 (as ||x||^2 + ||c||^2 - 2 x.c from the tensor cores'
fp32 accumulation) and int32 indices into c, each row sorted by
distance, ties to the lower index. The kernels are the bundles of
examples/knn/gen-knn.py --table; cake.knn_dispatch picks the kernel,
corpus splits and merge for each shape. Bad arguments and shapes the table has
no kernel for raise ValueError / TypeError with the reason; a failed
launch raises RuntimeError.

The bundles (built by the cake-knn-kernels target) are found in
$CAKE_KNN_BUNDLES, else beside libcake_runtime.so: ../share/cake/knn of an
install, libs/knn/kernels of a build tree; `Knn(folder)` takes another.
"""
import os

from . import knn_dispatch as dispatch
from . import runtime as _rt
from ._libs import LibraryNotFound

def _torch():
    import torch
    return torch


def default_bundle_dir():
    """$CAKE_KNN_BUNDLES, else the folder beside libcake_runtime.so: an
    install's ../share/cake/knn, a build tree's ../libs/knn/kernels."""
    env = os.environ.get("CAKE_KNN_BUNDLES")
    if env:
        return env
    name = _rt.runtime()._name
    tried = []
    if os.sep in name:
        for rel in (("share", "cake", "knn"), ("libs", "knn", "kernels")):
            d = os.path.normpath(os.path.join(os.path.dirname(name), "..",
                                              *rel))
            if os.path.exists(os.path.join(d, "knn-kernels.json")):
                return d
            tried.append(d)
    raise LibraryNotFound(
        "cake.knn: no KNN bundles (knn-kernels.json) in "
        + (", ".join(tried) or "any folder beside libcake_runtime.so")
        + "; set CAKE_KNN_BUNDLES to a folder of them (a build's "
        "libs/knn/kernels, the cake-knn-kernels target; an install's "
        "share/cake/knn)")


def _args(*items):
    """A ctypes CakeRtArg array from tensors and ints."""
    arr = (_rt.CakeRtArg * len(items))()
    for i, a in enumerate(items):
        arr[i] = _rt.scalar_arg(a) if isinstance(a, int) else \
            _rt.tensor_arg(a)
    return arr


class Knn:
    """KNN over one folder of bundles; loads each bundle on first use."""

    def __init__(self, bundles=None):
        self.bundles = bundles or default_bundle_dir()
        if not os.path.isdir(self.bundles):
            raise ValueError(f"cake.knn: no bundle folder {self.bundles!r}")
        self._loaded = {}
        self.sms = None

    def _bundle(self, name):
        b = self._loaded.get(name)
        if b is None:
            path = os.path.join(self.bundles, name + ".json")
            if not os.path.exists(path):
                raise ValueError(f"cake.knn: no bundle {path} (the "
                                 f"cake-knn-kernels target builds them)")
            b = self._loaded[name] = _rt.Bundle(path)
        return b

    def _launch(self, name, *items):
        self._bundle(name).launch_unchecked(_args(*items),
                                            _rt.current_stream())

    @staticmethod
    def _check(x, c, what, fp32=False):
        return _rt.check_points(x, c, what, fp32=fp32)

    @staticmethod
    def _k(k, limit, what, name="k"):
        if not isinstance(k, int) or isinstance(k, bool) or \
                not 1 <= k <= limit:
            raise ValueError(f"{what}: {name} = {k!r} must be an int in "
                             f"1..{limit}")

    def _norms(self, t, dtype):
        out = _torch().empty(t.shape[0], device=t.device,
                             dtype=_torch().float32)
        self._launch(f"row_norms_{dtype}_d{t.shape[1]}", t, out)
        return out

    def _split(self, t):
        """fp32 rows as the bf16 pieces of a 3xbf16 graph (queries, corpus)
        and their fp32 norms (dispatch.split_name's kernel)."""
        torch = _torch()
        n, d = t.shape
        cols = 3 * dispatch.split_width(d)
        xq = torch.empty(n, cols, device=t.device, dtype=torch.bfloat16)
        xc = torch.empty(n, cols, device=t.device, dtype=torch.bfloat16)
        xn = torch.empty(n, device=t.device, dtype=torch.float32)
        self._launch(dispatch.split_name(d), t, xq, xc, xn)
        return xq, xc, xn

    def _search_one(self, x, c, k, dist, idx):
        torch = _torch()
        rows = dispatch.query_rows(x.shape[0], k)
        if rows is None:
            return self._search_rows(x, c, k, dist, idx)
        # Few queries with shared lists: spread over the tile's warps, the
        # other rows NaN (no list work; dispatch.query_rows says why).
        at = torch.tensor(rows, device=x.device)
        xs = torch.full((dispatch.SPREAD_ROWS, x.shape[1]), float("nan"),
                        device=x.device, dtype=x.dtype)
        xs[at] = x
        sd = torch.empty(dispatch.SPREAD_ROWS, k, device=x.device,
                         dtype=torch.float32)
        si = torch.empty(dispatch.SPREAD_ROWS, k, device=x.device,
                         dtype=torch.int32)
        self._search_rows(xs, c, k, sd, si, queries=x.shape[0])
        dist.copy_(sd[at])
        idx.copy_(si[at])

    def _search_rows(self, x, c, k, dist, idx, queries=None):
        """The search of x's rows (`queries` of them real: the others of a
        spread tile are NaN; the plan is the real count's)."""
        torch = _torch()
        q, d = x.shape
        m = c.shape[0]
        dtype = _rt.library_dtype(x)
        name, splits, chunk = dispatch.choose(queries or q, m, d, k,
                                              self.sms, dtype=dtype)
        shape = dispatch.partial_shape(q, splits, k)
        pdist = torch.empty(shape, device=x.device, dtype=torch.float32)
        pidx = torch.empty(shape, device=x.device, dtype=torch.int32)
        args = [x, c]
        if name.endswith("_bound"):
            args.append(self._bound(x, c, k, name[:-len("_bound")],
                                    queries or q))
        elif not name.endswith("_fused"):
            args += [self._norms(x, dtype), self._norms(c, dtype)]
        self._launch(name, *args, pdist, pidx, splits, chunk)
        if splits == 1:
            dist.copy_(pdist.view(q, k))
            idx.copy_(pidx.view(q, k))
            return
        self._merge(pdist, pidx, q, splits, k, dist, idx)

    def _bound(self, x, c, k, first, queries):
        """Each query row's bound for a `_bound` search: the k-th distance
        over the corpus' first rows (dispatch.bound_sample), by the kernel
        `first` over them and the merge."""
        torch = _torch()
        q = x.shape[0]
        sample = dispatch.bound_sample(queries, c.shape[0], k)
        splits, chunk = dispatch.bound_plan(sample)
        shape = dispatch.partial_shape(q, splits, k)
        pdist = torch.empty(shape, device=x.device, dtype=torch.float32)
        pidx = torch.empty(shape, device=x.device, dtype=torch.int32)
        self._launch(first, x, c[:sample], pdist, pidx, splits, chunk)
        dist = torch.empty(q, k, device=x.device, dtype=torch.float32)
        idx = torch.empty(q, k, device=x.device, dtype=torch.int32)
        self._merge(pdist, pidx, q, splits, k, dist, idx)
        return dist[:, k - 1].contiguous()

    def _merge(self, pdist, pidx, q, splits, k, dist, idx):
        """The splits' partial lists merged into dist, idx ([q, k])."""
        torch = _torch()
        merge = dispatch.merge_name(k)
        g = dispatch.merge_groups(q, splits, k)
        if g > 1:
            gd = torch.empty(q * g, k, device=pdist.device,
                             dtype=torch.float32)
            gi = torch.empty(q * g, k, device=pdist.device, dtype=torch.int32)
            self._launch(merge, pdist.view(q * g, splits // g * k),
                         pidx.view(q * g, splits // g * k), gd, gi)
            pdist, pidx, splits = gd, gi, g
        self._launch(merge, pdist.view(q, splits * k),
                     pidx.view(q, splits * k), dist, idx)

    def flash_knn(self, x, c, k, *, return_distances=True):
        """The k nearest rows of c for every row of x: (vals, idxs), or
        idxs alone."""
        torch = _torch()
        x, c, squeeze = self._check(x, c, "flash_knn")
        b, n, _ = x.shape
        self._k(k, c.shape[1], "flash_knn")
        if self.sms is None:
            self.sms = torch.cuda.get_device_properties(
                x.device).multi_processor_count
        dist = torch.empty(b, n, k, device=x.device, dtype=torch.float32)
        idx = torch.empty(b, n, k, device=x.device, dtype=torch.int32)
        with torch.cuda.device(x.device):
            for i in range(b):
                if n:
                    self._search_one(x[i], c[i], k, dist[i], idx[i])
        if squeeze:
            dist, idx = dist[0], idx[0]
        return (dist, idx) if return_distances else idx

    def knn_graph(self, x, k, *, return_distances=True):
        """The k nearest other rows of every row of x (self excluded)."""
        torch = _torch()
        x, _, squeeze = self._check(x, x, "knn_graph", fp32=True)
        b, n, d = x.shape
        self._k(k, n - 1, "knn_graph")
        dtype = _rt.library_dtype(x, fp32=True)
        name = dispatch.choose_build(n, d, k, dtype=dtype)
        dist = torch.empty(b, n, k, device=x.device, dtype=torch.float32)
        idx = torch.empty(b, n, k, device=x.device, dtype=torch.int32)
        with torch.cuda.device(x.device):
            for i in range(b):
                if dtype == dispatch.SPLIT_DTYPE:
                    xq, xc, xn = self._split(x[i])
                    self._launch(name, xq, xc, xn, dist[i], idx[i])
                    continue
                xn = self._norms(x[i], dtype)
                self._launch(name, x[i], xn, dist[i], idx[i])
        if squeeze:
            dist, idx = dist[0], idx[0]
        return (dist, idx) if return_distances else idx


_default = None


def default():
    """The Knn over the default bundle folder, opened on first use."""
    global _default
    if _default is None:
        _default = Knn()
    return _default


def flash_knn(x, c, k, *, return_distances=True):
    """flashlib's flash_knn: the k nearest rows of c for each row of x."""
    Knn._check(x, c, "flash_knn")  # before looking for the bundles
    return default().flash_knn(x, c, k, return_distances=return_distances)


def knn_graph(x, k, *, return_distances=True):
    """The k-nearest-neighbour graph of x's rows, self excluded."""
    Knn._check(x, x, "knn_graph", fp32=True)
    return default().knn_graph(x, k, return_distances=return_distances)
