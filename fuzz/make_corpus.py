#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Seed corpora for Cake's fuzz targets, from examples/ and test/.

  make_corpus.py BUILD_DIR OUT_DIR

verify, lower: every .mlir under examples/ and test/ (up to 64 KB, the
targets' limit). cost: the examples, each behind a first line of problem
shapes made from its kernel's signature (512 for a dynamic size, 1 for an
index argument). translate: the examples lowered by BUILD_DIR's cake-opt
(PTX form, and cubin where ptxas lowers it). bundle: those translated to
bundles by cake-translate. A file that does not lower is left out of the
last two (the mutation seeds of test/ are meant not to).
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMIT = 64 * 1024


def sources(*folders):
    for folder in folders:
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            for f in sorted(files):
                if f.endswith(".mlir"):
                    path = os.path.join(dirpath, f)
                    if os.path.getsize(path) <= LIMIT:
                        yield path


def shapes_of(text):
    """One shape per argument of the first cake.kernel, as --cake-cost's
    shapes option takes them."""
    m = re.search(r"cake\.kernel\s+@\w+\((.*?)\)\s*(?:attributes|\{)", text,
                  re.S)
    if not m:
        return None
    shapes = []
    for arg in re.finditer(r"%\w+\s*:\s*(!cake\.global<([^>]*)>|index)",
                           m.group(1)):
        if arg.group(1) == "index":
            shapes.append("1")
        else:
            dims = arg.group(2).split("x")[:-1]  # the last is the dtype
            shapes.append("x".join("512" if d == "?" else d for d in dims))
    return ",".join(shapes)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    build, out = sys.argv[1], sys.argv[2]
    opt = os.path.join(build, "bin", "cake-opt")
    translate = os.path.join(build, "bin", "cake-translate")
    for t in ("verify", "lower", "cost", "translate", "bundle"):
        os.makedirs(os.path.join(out, t), exist_ok=True)
    counts = dict.fromkeys(("verify", "lower", "cost", "translate", "bundle"),
                           0)

    def put(target, name, data):
        with open(os.path.join(out, target, name), "wb") as fh:
            fh.write(data)
        counts[target] += 1

    for path in sources("examples", "test"):
        name = os.path.relpath(path, ROOT).replace("/", "_")
        data = open(path, "rb").read()
        put("verify", name, data)
        put("lower", name, data)
    for path in sources("examples"):
        name = os.path.relpath(path, ROOT).replace("/", "_")
        text = open(path).read()
        shapes = shapes_of(text)
        if shapes:
            put("cost", name, (shapes + "\n" + text).encode())
        for form, options in (("ptx", "--cake-lower=format=ptx"),
                              ("cubin", "--cake-lower")):
            low = subprocess.run([opt, "--cake-verify", options, path],
                                 capture_output=True)
            if low.returncode != 0:
                continue
            if len(low.stdout) <= 1 << 20:
                put("translate", f"{name}.{form}", low.stdout)
            if form == "cubin":
                b = subprocess.run([translate, "--cake-to-bundle"],
                                   input=low.stdout, capture_output=True)
                if b.returncode == 0:
                    put("bundle", name + ".json", b.stdout)
    print(" ".join(f"{t} {n}" for t, n in counts.items()), "seeds in", out)


if __name__ == "__main__":
    main()
