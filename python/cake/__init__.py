# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake IR from Python: verify and compile kernels through Cake's C API.

    import cake
    result = cake.verify(text)          # Result: ok, diagnostics, output
    bundle = cake.compile_bundle(text)  # the bundle JSON libcake_runtime loads

Everything goes through libCakeC.so (ctypes); cake._libs says where it is
looked for. On torch tensors (imported on first use): cake.runtime (load
and launch bundles), cake.kmeans and cake.knn (the libraries, in
flashlib's conventions), cake.ops (torch.ops.cake.*, for torch.compile).
"""
from ._libs import find_library, LibraryNotFound  # noqa: F401
from .compiler import (CakeError, Diagnostic, Result,  # noqa: F401
                       compile_bundle, library_version, run_pipeline, verify)

__version__ = "0.1.0"
