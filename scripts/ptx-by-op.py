#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Where a kernel's code comes from: PTX instructions per Cake IR line.

    scripts/ptx-by-op.py KERNEL.cake.mlir [--options "flush-denormals=1"]
        [--top 20] [--cake-opt PATH] [--cake-translate PATH]

Lowers the kernel with `cake-opt --cake-verify --cake-lower="format=ptx
lineinfo=1"` (the lowering gives every instruction the location of the
Cake op it comes from; PTX keeps them as .loc directives) and counts the
PTX instructions under each source line, by class: global and shared
memory, shuffles, wgmma, the special-function unit (ex2, rcp, sqrt),
float arithmetic, compares and selects, branches, the rest. Static counts
of the PTX, before ptxas: a proxy for code size (instruction-fetch
stalls) and for the work of straight-line code, not executed counts of
loops; for those, lower with `lineinfo=1` to a bundle and read Nsight
Compute's source view, which shows the same lines. Line 0 is code the
lowering derives without an op of its own (the prologue, barriers'
setup). Exits 1 with cake-opt's diagnostics when the kernel does not
lower.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.environ.get("CAKE_BUILD_DIR", os.path.join(HERE, "..", "build"))

CLASSES = [
    ("ld.global", r"^ld\.global"), ("st.global", r"^st\.global"),
    ("ld.shared", r"^ld\.shared"), ("st.shared", r"^st\.shared"),
    ("shfl", r"^shfl"), ("wgmma", r"^wgmma"),
    ("mufu", r"^(ex2|rcp|sqrt|rsqrt|lg2|sin|cos|tanh)"),
    ("float", r"^(fma|mul|add|sub|neg|max|min|abs)\.(rn\.)?(ftz\.)?(f32|f16|bf16)"),
    ("cvt", r"^cvt"), ("cmp/sel", r"^(setp|selp|set)\b"),
    ("branch", r"^(bra|@)"),
]


def classify(op):
    for name, pattern in CLASSES:
        if re.match(pattern, op):
            return name
    return "other"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kernel")
    ap.add_argument("--options", default="",
                    help="more cake-lower options, e.g. 'flush-denormals=1'")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--cake-opt", default=os.path.join(BUILD, "bin", "cake-opt"))
    ap.add_argument("--cake-translate",
                    default=os.path.join(BUILD, "bin", "cake-translate"))
    a = ap.parse_args()
    pipeline = f"--cake-lower=format=ptx lineinfo=1 {a.options}".strip()
    lowered = subprocess.run([a.cake_opt, "--cake-verify", pipeline, a.kernel],
                             capture_output=True, text=True)
    if lowered.returncode != 0:
        sys.stderr.write(lowered.stderr)
        return 1
    ptx = subprocess.run([a.cake_translate, "--cake-to-ptx"],
                         input=lowered.stdout, capture_output=True, text=True)
    if ptx.returncode != 0:
        sys.stderr.write(ptx.stderr)
        return 1
    source = open(a.kernel).read().split("\n")
    counts = collections.defaultdict(collections.Counter)
    line = 0
    for raw in ptx.stdout.split("\n"):
        text = raw.strip()
        m = re.match(r"\.loc\s+\d+\s+(\d+)\s+\d+", text)
        if m:
            line = int(m.group(1))
            continue
        if (not text or text.startswith(("//", ".", "$", "{", "}", ")", "("))
                or text.endswith(":") or not raw[:1].isspace()):
            continue
        op = text.split()[0]
        if op.startswith("@"):  # predicated: count what it does
            op = text.split()[1]
        counts[line][classify(op)] += 1
    total = sum(sum(c.values()) for c in counts.values())
    rows = sorted(counts.items(), key=lambda kv: -sum(kv[1].values()))
    print(f"{a.kernel}: {total} PTX instructions over {len(counts)} lines")
    print(f"{'line':>5} {'instr':>6} {'share':>6}  classes / source")
    for ln, c in rows[:a.top]:
        n = sum(c.values())
        text = (source[ln - 1].strip() if 0 < ln <= len(source)
                else "(derived: no op of its own)")
        kinds = ", ".join(f"{k} {v}" for k, v in c.most_common(4))
        print(f"{ln:>5} {n:>6} {100.0 * n / total:5.1f}%  {kinds}")
        print(f"{'':>21}{text[:100]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
