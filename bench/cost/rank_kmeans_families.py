#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The cost model's order of the k-means assignment families against one
H200 run's measurements (CPU only).

For every row of the given bench/kmeans/bench.py results and every family
timed on it (the committed kernel "base", libs/kmeans/kernels/gen-kmeans-variants.py's
"_bn<BN>_s<S>[_x2][_w<consumer warpgroups>]" and their "_ov" forms after
cake-overlap-epilogue), predicts the time with `cake-opt --cake-cost` at the row's shape, then
counts the pairs of families whose measured times differ by more than 2%
that the model orders the same way. Variants that only change the
lowering (_ch, _nofma, _fp...) are left out: the model does not see them.

With --ptxas, each kernel is first lowered to PTX and compiled by ptxas
(-v), and its registers and spill bytes reach the model as the kernel's
`cake.ptxas` attribute, as cake-evolve's ptxas check passes them.

usage: rank_kmeans_families.py RESULTS.json [...] [--cake-opt BIN] [--ptxas]
(docs/cost-model.md, revision 3: results-h200-2026-11-30-run10-chain.json
and results-h200-2026-11-30-overlap.json)
"""
import argparse
import itertools
import json
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
FAMILY = re.compile(r"^_bn(\d+)_s(\d+)(_x2)?(?:_w(\d))?(_ov)?$")


def source(tmp, cake_opt, dtype, d, batched, family):
    name = f"kmeans_assign_{dtype}_d{d}" + ("_batched" if batched else "")
    if family == "base":
        path = os.path.join(ROOT, "examples", "kmeans-variants",
                            name + ".cake.mlir")
        if dtype == "f16" and d == 128 and not batched:
            path = os.path.join(ROOT, "examples", "kmeans_assign.cake.mlir")
        return path if os.path.exists(path) else None
    m = FAMILY.match(family)
    if not m:
        return None
    bn, stages, x2, wgs, ov = m.groups()
    out = os.path.join(tmp, family)
    os.makedirs(out, exist_ok=True)
    subprocess.run(["python3", os.path.join(ROOT, "libs", "kmeans", "kernels",
                                            "gen-kmeans-variants.py"),
                    "--out", out, "--stages", stages, "--bn", bn,
                    "--xbuf", "2" if x2 else "1", "--wgs", wgs or "2"],
                   check=True, capture_output=True)
    suffix = (f"_bn{bn}_s{stages}" + ("_x2" if x2 else "")
              + (f"_w{wgs}" if wgs else ""))
    path = os.path.join(out, name + suffix + ".cake.mlir")
    if ov:
        ovpath = path[:-len(".cake.mlir")] + "_ov.cake.mlir"
        subprocess.run([cake_opt, "--cake-overlap-epilogue", path, "-o",
                        ovpath], check=True)
        path = ovpath
    return path if os.path.exists(path) else None


def with_ptxas_facts(tmp, cake_opt, path):
    """A copy of the kernel at `path`, in `tmp`, with `cake.ptxas` set from
    ptxas -v on its lowered PTX."""
    ptx = subprocess.run(
        f"'{cake_opt}' --cake-verify --cake-lower=format=ptx '{path}' | "
        f"'{os.path.join(os.path.dirname(cake_opt), 'cake-translate')}' "
        "--cake-to-ptx", shell=True, check=True, capture_output=True,
        text=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(ptx)
    cuda = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
    arch = re.search(r"\.target (\w+)", ptx).group(1)
    log = subprocess.run([os.path.join(cuda, "bin", "ptxas"), f"-arch={arch}",
                          "-v", f.name, "-o", "/dev/null"], check=True,
                         capture_output=True, text=True).stderr
    os.unlink(f.name)
    regs = max(int(x) for x in re.findall(r"Used (\d+) registers", log))
    st = max(int(x) for x in re.findall(r"(\d+) bytes spill stores", log))
    ld = max(int(x) for x in re.findall(r"(\d+) bytes spill loads", log))
    text = open(path).read()
    at = text.index("attributes {", text.index("cake.kernel"))
    facts = (f"cake.ptxas = {{registers = {regs}, spill_stores = {st}, "
             f"spill_loads = {ld}}}, ")
    out = os.path.join(tmp, f"ptxas{len(os.listdir(tmp))}_"
                       + os.path.basename(path))
    with open(out, "w") as f:
        f.write(text[:at + len("attributes {")] + facts +
                text[at + len("attributes {"):])
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("results", nargs="+")
    p.add_argument("--cake-opt",
                   default=os.path.join(ROOT, "build", "bin", "cake-opt"))
    p.add_argument("--ptxas", action="store_true",
                   help="give the model ptxas's registers and spills")
    a = p.parse_args()
    measured = {}
    for f in a.results:
        for r in json.load(open(f)):
            key = (r["B"], r["N"], r["D"], r["K"], r["dtype"])
            for fam, t in r["times"].items():
                if fam == "base" or FAMILY.match(fam):
                    measured.setdefault(key, {})[fam] = t
    tmp = tempfile.mkdtemp(prefix="cake-rank-")
    facts = {}
    agree = total = 0
    for (B, N, D, K, dtype), fams in sorted(measured.items()):
        shapes = (f"{B}x{N}x{D},{B}x{K}x{D},{B}x{K},{B}x{N}" if B > 1
                  else f"{N}x{D},{K}x{D},{K},{N}")
        rows = []
        for fam, t in sorted(fams.items()):
            path = source(tmp, a.cake_opt, dtype, D, B > 1, fam)
            if not path:
                continue
            if a.ptxas:
                if path not in facts:
                    facts[path] = with_ptxas_facts(tmp, a.cake_opt, path)
                path = facts[path]
            r = subprocess.run([a.cake_opt, path, "-o", "/dev/null",
                                f"--cake-cost=shapes={shapes} json=-"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                continue
            report = json.loads(r.stdout)
            rows.append((fam, t, report[0]["predicted_ns"] / 1e6))
        print(f"{B}x{N}x{D}x{K} {dtype}: " + ", ".join(
            f"{f} {t:.3f} ms (predicted {p:.3f})" for f, t, p in rows))
        for x, y in itertools.combinations(rows, 2):
            if abs(x[1] - y[1]) / min(x[1], y[1]) < 0.02:
                continue
            total += 1
            agree += (x[1] < y[1]) == (x[2] < y[2])
    print(f"pairs ordered as measured: {agree} of {total}")


if __name__ == "__main__":
    main()
