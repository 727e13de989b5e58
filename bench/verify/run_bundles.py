#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs every bundle in a folder through cake-run with a timeout (issue #4:
example kernels and the mutants that pass cake-verify must run on the GPU
without a hang or fault).

GEMM-shaped bundles (three 2-D arguments) run with `--check gemm` at two
problems, ragged edges included; copies (two 2-D arguments) with `--check
copy` at two, one ragged; k-means assignment bundles (points,
centroids, norms, output) run at N = 70001, K = 1000 (B = 2 when batched)
with the free dimensions taken from the bundle and `--check kmeans`; TMA
reduce-add stores (two 2-D f32 arguments, "reduce_add" in the entry) with
`--check add`; a kernel whose one argument is a 2-D tensor runs for
faults and hangs only; anything else is listed as skipped (the k-means
sums kernels run through cake-kmeans; the KNN and KDA kernels and their
mutants through bench/verify/run_mutants.py). Kernels named by their
entry are recognized before the argument shapes are guessed from. Each run is a child process with `--timeout-ms` and a
wall-clock limit; the table counts passes, wrong results, faults, hangs
and arguments the runtime rejected (with the rule it names).

C = Aᵀ·B bundles ("gemm_tn" in the entry, examples/gemm_tn) run with
`--check gemm-tn` at two problems, ragged M, N and K included;
examples/mma_chain_smem, frag_row, chunk_gates, chunk_solve (and
chunk_solve_merge) and kda_chunk_intra run at 1000 rows for faults and hangs
(bench/verify/check_chain.py, check_row.py, check_gates.py,
check_solve.py and check_kda_intra.py check their results).

Attention-shaped bundles (Q, K, V, O of [B·H, S, D] and the scalar G,
examples/attention/) run at 2×300×D, one ragged query and key tile, for
faults and hangs (bench/attention/bench.py checks their results).

--wrap "compute-sanitizer --tool memcheck ..." runs each cake-run under a
tool; a run whose tool reports errors (compute-sanitizer's "ERROR SUMMARY:
N errors" with N > 0, or the --error-exitcode given to it, 86 by
convention here) counts as "sanitizer". --small keeps each kind's first,
smaller problem (the tools slow kernels down 10-100x).

usage: run_bundles.py --cake-run BIN DIR [DIR ...] [--out F.json]
                      [--wrap CMD] [--small]
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys


def problems(bundle):
    args = bundle["args"]
    shapes = [a.get("shape") for a in args]
    entry = bundle.get("entry", "")
    if "gemm_tn" in entry:
        # C = A^T B (examples/gemm_tn): A KxM, B KxN; ragged M, N and K.
        return "gemm-tn", [["0=1000x712", "1=1000x320", "2=712x320"],
                           ["0=4096x2048", "1=4096x2048", "2=2048x2048"]]
    if entry.startswith(("knn_", "row_norms_")):
        # KNN kernels run through examples/knn/cake_knn.py
        # (bench/verify/run_mutants.py, bench/knn/sanitize_small.py).
        return None, []
    if entry in ("frag_row", "chunk_gates"):
        # examples/frag_row, chunk_gates: for faults and hangs here, their
        # results by bench/verify/check_row.py and check_gates.py.
        return "row", [["0=1000x64", "1=128x64", "2=1000x128"]]
    if entry == "kda_chunk_intra":
        # examples/kda_chunk_intra: for faults and hangs here, its results
        # by bench/verify/check_kda_intra.py.
        return "kda-intra", [["0=1000x128", "1=1000x128", "2=1000",
                              "3=1000x64", "4=1000x128", "5=1000x64"]]
    if entry in ("chunk_solve", "chunk_solve_merge"):
        # examples/chunk_solve, chunk_solve_merge: for faults and hangs
        # here, their results by bench/verify/check_solve.py (--merge).
        return "solve", [["0=1000x64", "1=1000x64", "2=1000x64",
                          "3=1000x64", "4=1000x64"]]
    if "mma_chain" in entry:
        # examples/mma_chain_smem: for faults and hangs here, its result
        # by bench/verify/check_chain.py.
        return "chain", [["0=1000x64", "1=64x64", "2=1000x64", "3=1000x64"]]
    if len(args) == 3 and all(s and len(s) == 2 for s in shapes):
        # Ragged against every tile, with rows a multiple of 16 bytes (TMA
        # needs that of every tensor it reads or writes, outputs included).
        return "gemm", [["0=1000x320", "1=712x320", "2=1000x712"],
                        ["0=2048x1024", "1=2048x1024", "2=2048x2048"]]
    if len(args) == 2 and all(s and len(s) == 2 for s in shapes):
        # A TMA reduce-add store (examples/tma_reduce_add) has a copy's
        # arguments; only its entry name tells them apart.
        if "reduce_add" in entry:
            return "add", [["0=1000x712", "1=1000x712"],
                           ["0=4096x4096", "1=4096x4096"]]
        return "copy", [["0=1000x712", "1=1000x712"],
                        ["0=8192x8192", "1=8192x8192"]]
    elements = [a.get("element") for a in args]
    if (len(args) == 4 and shapes[0] and len(shapes[0]) in (2, 3)
            and elements[2:] == ["f32", "i32"]):
        d = shapes[0][-1] or 128
        n, k = 70001, 1000
        if len(shapes[0]) == 3:
            return "kmeans", [[f"0=2x{n}x{d}", f"1=2x{k}x{d}", f"2=2x{k}",
                               f"3=2x{n}"]]
        return "kmeans", [[f"0={n}x{d}", f"1={k}x{d}", f"2={k}",
                           f"3={n}"]]
    if (len(args) == 5 and all(s and len(s) == 3 for s in shapes[:4])
            and args[4].get("kind") == "scalar"):
        d = shapes[0][-1] or 128
        return "attention", [[f"{i}=2x300x{d}" for i in range(4)]
                             + ["scalar:4=1"]]
    if len(args) == 1 and shapes[0] and len(shapes[0]) == 2:
        # A kernel that only writes its one tensor (examples/epilogue_smem):
        # run for faults and hangs.
        return "store", [["0=1000x712"], ["0=4096x4096"]]
    return None, []


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cake-run", required=True)
    p.add_argument("--out", default="")
    p.add_argument("--wrap", default="")
    p.add_argument("--small", action="store_true")
    p.add_argument("dirs", nargs="+")
    a = p.parse_args()
    rows = []
    for d in a.dirs:
        for f in sorted(os.listdir(d)):
            if not f.endswith(".json") or f == "manifest.json":
                continue
            path = os.path.join(d, f)
            bundle = json.load(open(path))
            if "cubin" not in bundle and "ptx" not in bundle:
                continue
            kind, probs = problems(bundle)
            if not kind:
                rows.append(dict(bundle=f, result="skipped"))
                print(f"{f}: skipped (no problem of its shape here)")
                continue
            for prob in probs[:1] if a.small else probs:
                cmd = shlex.split(a.wrap) + [a.cake_run, path]
                for x in prob:
                    if x.startswith("scalar:"):
                        cmd += ["--scalar", x[len("scalar:"):]]
                    else:
                        cmd += ["--arg", x]
                cmd += ["--check",
                        kind if kind in ("gemm", "gemm-tn", "copy", "add", "kmeans")
                        else "none",
                        "--iters", "0", "--timeout-ms",
                        "60000" if a.wrap else "5000"]
                try:
                    r = subprocess.run(cmd, capture_output=True, text=True,
                                       timeout=600 if a.wrap else 60)
                    code, out = r.returncode, r.stdout + r.stderr
                except subprocess.TimeoutExpired:
                    code, out = 124, "no exit within the time limit"
                errors = re.search(r"ERROR SUMMARY: (\d+) error", out)
                if a.wrap and (code == 86 or (errors and int(errors.group(1)))):
                    result = "sanitizer"
                elif code == 0:
                    result = "pass"
                elif code == 124:
                    result = "hang"
                elif "FAIL" in out:
                    result = "wrong"
                elif "cake-run: [" in out:
                    result = "rejected"  # the runtime refused the arguments
                else:
                    result = "fault"
                lines = out.strip().splitlines() or [""]
                last = lines[-1]
                if result == "sanitizer":  # the first report, not the summary
                    last = next((l for l in lines if "=========" in l
                                 and ("Invalid" in l or "Race" in l
                                      or "Error" in l or "Uninitialized" in l
                                      or "Barrier" in l)), last)
                rows.append(dict(bundle=f, kind=kind, problem=" ".join(prob),
                                 result=result, detail=last))
                print(f"{f} [{' '.join(prob)}]: {result}: {last}", flush=True)
                if result == "sanitizer":
                    print("\n".join(lines[:40]), flush=True)
    count = {}
    for r in rows:
        count[r["result"]] = count.get(r["result"], 0) + 1
    print("runs:", ", ".join(f"{v} {k}" for k, v in sorted(count.items())))
    if a.out:
        with open(a.out, "w") as f:
            json.dump(rows, f, indent=1)
    sys.exit(0 if set(count) <= {"pass", "skipped"} else 1)


if __name__ == "__main__":
    main()
