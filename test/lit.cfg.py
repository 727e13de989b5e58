# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lit configuration for Cake's test suite.
import os
import lit.formats

# A library's suite (libs/<name>/test) loads this file too, naming itself
# and its folders in its lit.site.cfg.py.
config.name = getattr(config, "cake_suite_name", "Cake")
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test", ".c"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "lit.site.cfg.py.in", "Inputs"]
config.excludes += getattr(config, "cake_extra_excludes", [])
config.test_source_root = getattr(config, "cake_test_source_root",
                                  os.path.dirname(__file__))
config.test_exec_root = getattr(config, "cake_test_exec_root",
                                os.path.join(config.cake_obj_root, "test"))

bin_dir = os.path.join(config.cake_obj_root, "bin")
lib_dir = os.path.join(config.cake_obj_root, "lib")
config.environment["PATH"] = os.pathsep.join(
    [bin_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"

config.substitutions.append(("%cake_src", config.cake_src_root))
config.substitutions.append(("%cake_bin", bin_dir))
config.substitutions.append(("%cake_version", config.cake_version))
config.substitutions.append(("%cake_lib", lib_dir))
config.substitutions.append(("%cake_obj", config.cake_obj_root))
config.substitutions.append(("%cake_plugin", os.path.join(lib_dir, "CakePlugin.so")))
config.substitutions.append(("%cake_docs", os.path.join(config.cake_obj_root, "docs")))
config.substitutions.append(("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))

# The sanitizer build (scripts/test-sanitized): every Cake binary carries
# the shared ASan+UBSan runtime; a test that loads Cake's libraries into a
# process that does not (python3 through ctypes, Debian's mlir-opt with the
# plugin) preloads it through %asan_preload. The ASan and UBSan options
# (leaks checked, allow_user_poisoning=0, abort_on_error=1) are
# CMakeLists.txt's, with their reasons; the build's tool steps run with
# the same.
asan_runtime = getattr(config, "cake_asan_runtime", "")
if asan_runtime:
    config.available_features.add("asan")
    config.environment["ASAN_OPTIONS"] = config.cake_asan_options
    config.environment["UBSAN_OPTIONS"] = config.cake_ubsan_options
    config.substitutions.append(
        ("%asan_preload", "env LD_PRELOAD=" + asan_runtime))
else:
    config.substitutions.append(("%asan_preload", "env"))

# Tests that need ptxas declare `REQUIRES: ptxas`; without it they are
# reported as unsupported.
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
    config.substitutions.append(
        ("%cuda_include", os.path.join(os.path.dirname(os.path.dirname(config.ptxas)), "include")))
    config.substitutions.append(
        ("%cuda_home", os.path.dirname(os.path.dirname(config.ptxas))))
    # scripts/mutate.py --lower also assembles what it lowers when it can.
    config.substitutions.append(("%mutate_ptxas", "--ptxas " + config.ptxas))
else:
    lit_config.note("ptxas not found: tests that need it are unsupported")
    config.substitutions.append(("%mutate_ptxas", ""))

# cake-run without a GPU: the CUDA toolkit's driver stub as libcuda.so.1
# (runtime/CMakeLists.txt links it into the build); every driver call then
# fails, but bundles are parsed and options read before any.
stub = os.path.join(config.cake_obj_root, "cuda-stub")
if os.path.exists(os.path.join(stub, "libcuda.so.1")) and \
        os.path.exists(os.path.join(bin_dir, "cake-run")):
    config.available_features.add("cuda-stub")
    config.substitutions.append(("%cuda_stub", "env LD_LIBRARY_PATH=" + stub))

# A machine whose dynamic loader finds no libcuda.so.1 at all (CI): the
# tools must still start, and say why a driver call fails.
import ctypes
try:
    ctypes.CDLL("libcuda.so.1")
except OSError:
    if os.path.exists(os.path.join(bin_dir, "cake-run")):
        config.available_features.add("no-cuda-driver")

# valgrind, for the leak checks of the C tools' error exits.
import shutil
if shutil.which("valgrind"):
    config.available_features.add("valgrind")

# torch in Debian's interpreter (python3-torch, CPU only), for the Python
# package's torch-facing layer without a GPU.
import subprocess
if os.path.exists("/usr/bin/python3") and subprocess.run(
        ["/usr/bin/python3", "-c", "import importlib.util, sys; "
         "sys.exit(importlib.util.find_spec('torch') is None)"]).returncode == 0:
    config.available_features.add("torch")

# doxygen (Debian's package), for the C API reference's test.
if shutil.which("doxygen"):
    config.available_features.add("doxygen")

# The k-means library's update kernels, when nvcc built them.
if os.path.exists(os.path.join(config.cake_obj_root, "libs", "kmeans",
                               "kmeans_update.fatbin")):
    config.available_features.add("kmeans-update")

# Debian's Slurm and munge (scripts/setup installs them), for stage 3's
# round trip through a private single-node Slurm (scripts/local-slurm).
if all(shutil.which(t) or os.path.exists("/usr/sbin/" + t)
       for t in ("sbatch", "scontrol", "slurmctld", "slurmd", "munged",
                 "mungekey")):
    config.available_features.add("slurm")
