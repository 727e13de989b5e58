#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The KNN kernels' chooser, which lives in the Python package
(python/cake/knn_dispatch.py): this name keeps gen-knn.py, bench/knn/ and
`dispatch.py Q M D K` working from a checkout."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python"))
from cake.knn_dispatch import *  # noqa: E402,F401,F403
from cake.knn_dispatch import main  # noqa: E402

if __name__ == "__main__":
    main()
