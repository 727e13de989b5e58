# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Where Cake's shared libraries are: $CAKE_LIBRARY_DIR, then lib/ beside
the cake-opt on PATH (a build tree or an install prefix), then the dynamic
loader's own search (ldconfig, LD_LIBRARY_PATH)."""
import ctypes
import os
import shutil


class LibraryNotFound(OSError):
    """libCakeC.so (or another of Cake's libraries) is nowhere it looks."""


LibraryNotFound.__module__ = "cake"  # its public name


def _candidates(name):
    env = os.environ.get("CAKE_LIBRARY_DIR")
    if env:
        yield os.path.join(env, name)
    opt = shutil.which("cake-opt")
    if opt:
        yield os.path.join(os.path.dirname(os.path.realpath(opt)), "..",
                           "lib", name)
    yield name  # the loader's search


def find_library(name="libCakeC.so"):
    """Loads `name` (libCakeC.so, libcake_runtime.so, ...) from the first
    place that has it; raises LibraryNotFound saying where it looked."""
    tried = []
    for path in _candidates(name):
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
    raise LibraryNotFound(
        f"cake: cannot load {name}; looked in: " + ", ".join(tried) +
        ". Set CAKE_LIBRARY_DIR to the lib/ folder of a Cake build or "
        "install, or put its cake-opt on PATH.")
