# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The k-means library's Python class, which lives in the Python package
(python/cake/kmeans.py, `cake.kmeans.Kmeans`); this module keeps the
bench scripts' `CakeKmeans(library, table_dir)` working from a checkout.

    km = CakeKmeans("/path/libcake_kmeans.so", "/path/to/table-dir")

The library may also be given as its folder or as a file beside it
(libcake_runtime.so).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "python"))
from cake.kmeans import Kmeans  # noqa: E402


class CakeKmeans(Kmeans):
    def __init__(self, library, table_dir):
        if os.path.basename(library) != "libcake_kmeans.so":
            folder = library if os.path.isdir(library) else \
                os.path.dirname(library)
            library = os.path.join(folder, "libcake_kmeans.so")
        super().__init__(table_dir, library)
