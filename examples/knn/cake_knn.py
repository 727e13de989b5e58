# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake's KNN search and KNN graph from Python, in flashlib's conventions:
the Python package's cake.knn (python/cake/knn.py), under the name the
bench scripts use from a checkout.

    from cake_knn import CakeKnn
    knn = CakeKnn(bundles_dir, runtime="libcake_runtime.so")
    vals, idxs = knn.flash_knn(x, c, k)      # like flashlib's flash_knn
    vals, idxs = knn.knn_graph(x, k)         # self excluded
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
from cake import runtime as _runtime  # noqa: E402
from cake.knn import Knn  # noqa: E402


class CakeKnn(Knn):
    def __init__(self, bundles, runtime="libcake_runtime.so"):
        if not os.path.isdir(bundles):
            raise ValueError(f"no bundle directory {bundles!r}")
        _runtime.use_runtime(runtime)
        super().__init__(bundles)
