#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Builds the KNN kernels into a folder of bundles (the cake-knn-kernels
target; what cake.knn loads): every kernel cake.knn_dispatch may pick,
written by examples/knn/gen-knn.py --table, each verified and lowered by
cake-opt (--cake-verify --cake-lower, through ptxas) and translated by
cake-translate --cake-to-bundle, then knn-kernels.json listing them.

usage: build-knn-kernels.py OUT --cake-opt PATH --cake-translate PATH [-j N]
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def lower(src, out, opt, translate):
    """One kernel to OUT/<name>.json; the error text, or None."""
    name = os.path.basename(src)[:-len(".cake.mlir")]
    lowered = subprocess.run([opt, "--cake-verify", "--cake-lower", src],
                             capture_output=True)
    if lowered.returncode:
        return f"{name}: cake-opt failed:\n{lowered.stderr.decode()}"
    bundle = subprocess.run(
        [translate, "--cake-to-bundle", "-o",
         os.path.join(out, name + ".json")],
        input=lowered.stdout, capture_output=True)
    if bundle.returncode:
        return f"{name}: cake-translate failed:\n{bundle.stderr.decode()}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--cake-opt", required=True)
    ap.add_argument("--cake-translate", required=True)
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    with tempfile.TemporaryDirectory() as gen:
        subprocess.run([sys.executable,
                        os.path.join(ROOT, "examples", "knn", "gen-knn.py"),
                        gen, "--table"], check=True, stdout=subprocess.DEVNULL)
        sources = sorted(os.path.join(gen, f) for f in os.listdir(gen)
                         if f.endswith(".cake.mlir"))
        with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
            errors = [e for e in pool.map(
                lambda s: lower(s, a.out, a.cake_opt, a.cake_translate),
                sources) if e]
    if errors:
        sys.exit("build-knn-kernels: " + "\n".join(errors))
    names = sorted(f[:-len(".json")] for f in os.listdir(a.out))
    with open(os.path.join(a.out, "knn-kernels.json"), "w") as f:
        json.dump({"generator": "examples/knn/gen-knn.py --table",
                   "chooser": "python/cake/knn_dispatch.py",
                   "kernels": names}, f, indent=1)
    print(f"{len(names)} KNN bundles in {a.out}")


if __name__ == "__main__":
    main()
