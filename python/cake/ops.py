# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake's libraries as torch operators (torch.library), so that they
compose with torch.compile and other torch transforms:

    import cake.ops  # registers the namespace torch.ops.cake
    ids = torch.ops.cake.kmeans_assign(x, c)                # (..., N) int32
    ids, c = torch.ops.cake.kmeans_lloyd(x, c0, 10, 0.0)    # max_iters, tol
    vals, idxs = torch.ops.cake.knn(x, c, k)                # fp32, int32
    vals, idxs = torch.ops.cake.knn_graph(x, k)

Each operator has a CUDA kernel (cake.kmeans / cake.knn over the default
table and bundles) and a Meta kernel giving the output shapes and types,
which is what torch.compile's fake tensors run; neither has a gradient.
"""
import torch

from . import kmeans as _kmeans
from . import knn as _knn

_lib = torch.library.Library("cake", "DEF")
_lib.define("kmeans_assign(Tensor x, Tensor c) -> Tensor")
_lib.define("kmeans_lloyd(Tensor x, Tensor c0, int max_iters, float tol) "
            "-> (Tensor, Tensor)")
_lib.define("knn(Tensor x, Tensor c, int k) -> (Tensor, Tensor)")
_lib.define("knn_graph(Tensor x, int k) -> (Tensor, Tensor)")


def _assign_cuda(x, c):
    return _kmeans.euclid_assign(x, c)


def _lloyd_cuda(x, c0, max_iters, tol):
    ids, c, _ = _kmeans.default().lloyd(x, c0, max_iters=max_iters, tol=tol)
    return ids, c


def _knn_cuda(x, c, k):
    return _knn.flash_knn(x, c, k)


def _graph_cuda(x, k):
    return _knn.knn_graph(x, k)


def _assign_meta(x, c):
    return x.new_empty(x.shape[:-1], dtype=torch.int32)


def _lloyd_meta(x, c0, max_iters, tol):
    return x.new_empty(x.shape[:-1], dtype=torch.int32), torch.empty_like(c0)


def _lists_meta(x, k):
    shape = (*x.shape[:-1], k)
    return (x.new_empty(shape, dtype=torch.float32),
            x.new_empty(shape, dtype=torch.int32))


for _name, _cuda, _meta in (
        ("kmeans_assign", _assign_cuda, _assign_meta),
        ("kmeans_lloyd", _lloyd_cuda, _lloyd_meta),
        ("knn", _knn_cuda, lambda x, c, k: _lists_meta(x, k)),
        ("knn_graph", _graph_cuda, _lists_meta)):
    _lib.impl(_name, _cuda, "CUDA")
    _lib.impl(_name, _meta, "Meta")
