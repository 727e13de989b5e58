#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks that every source file of Cake names its license (SPDX).

Every C, C++, CUDA, TableGen, Python, shell and CMake file of the tree
(tests' inputs and generated or measured data excepted: .mlir, .test,
.json, .log) carries `SPDX-License-Identifier: Apache-2.0 WITH
LLVM-exception` in its first lines (LICENSE.TXT). Prints the files that do
not and exits 1; with --fix adds the line (after a shebang) and exits 0.

usage: check-spdx.py [ROOT] [--fix]
"""
import os
import sys

TAG = "SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception"
SLASHES = (".c", ".h", ".cpp", ".cu", ".td", ".def", ".h.in", ".map")
HASHES = (".py", ".sh", ".cmake", ".in", "CMakeLists.txt", ".cfg")
# Not ours to label, or not source: build trees, device bundles, fetched
# peers, caches.
SKIP_DIRS = {".git", ".device", "__pycache__", "results"}


def comment_for(path):
    name = os.path.basename(path)
    if name.endswith(SLASHES):
        return "// " + TAG if not name.endswith(".map") else "/* " + TAG + " */"
    if name.endswith(HASHES) or name == "CMakeLists.txt":
        return "# " + TAG
    if os.path.dirname(path).endswith("scripts") and "." not in name:
        return "# " + TAG  # shell scripts without a suffix
    return None


def sources(root):
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS
                         and not d.startswith("build"))
        for f in sorted(files):
            path = os.path.join(dirpath, f)
            if comment_for(os.path.relpath(path, root)):
                yield path


def main():
    args = [a for a in sys.argv[1:] if a != "--fix"]
    fix = "--fix" in sys.argv[1:]
    root = args[0] if args else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    missing = []
    count = 0
    for path in sources(root):
        count += 1
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        if any(TAG in line for line in lines[:8]):
            continue
        missing.append(os.path.relpath(path, root))
        if fix:
            at = 1 if lines and lines[0].startswith("#!") else 0
            lines.insert(at, comment_for(os.path.relpath(path, root)))
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
    if fix:
        print(f"check-spdx: {count} files, {len(missing)} labelled now")
        return 0
    for m in missing:
        print(f"{m}: no '{TAG}' in its first lines")
    print(f"check-spdx: {count} files, {len(missing)} without the license "
          "line")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
