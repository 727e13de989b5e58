#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The cost model on the ping-pong GEMMs: predicted against measured time,
with and without role turns (issue #27, item 1: the overlap and turns
between consumer warpgroups).

Regenerates each kernel of a bench/gemm/bench.py results file from its
recipe below (examples/gemm-variants/gen-pp.py with and without turns,
cake-ping-pong's sets of 64 x 128 tiles by tactics, the cooperative
examples), predicts every (kernel, shape) row with `cake-opt --cake-cost`,
and prints predicted and measured time, their ratio, and for each pair of
a kernel with turns and its twin without, whether the model orders them
as the GPU did. Rows of kernels it has no recipe for are skipped.

usage: turns_study.py --measured bench/gemm/results-h200-2026-12-07-run16-pingpong.json
                      [--cake-opt build/bin/cake-opt] [--markdown] [--out F]
       turns_study.py --shapes 8192x8192x8192,... [--kernels a,b,...]
                      (predictions only, to register before a run)
       turns_study.py --emit DIR [--kernels a,b,...]
                      (each kernel's source, its tactics applied, as
                      DIR/<name>.cake.mlir: what scripts/device-pack packs)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GEN_PP = os.path.join(ROOT, "examples", "gemm-variants", "gen-pp.py")
PP64 = ["--cake-set-tile=m=64 n=128", "--cake-set-stages=pipe=0 stages=4",
        "--cake-set-stages=pipe=1 stages=4",
        "--cake-set-regs=role=mma regs=216",
        "--cake-set-regs=role=mma_1 regs=216"]
# GEMM run 7's pp_64x192: 64 x 192 tiles, three stages a set.
PP64x192 = ["--cake-set-tile=m=64 n=192", "--cake-set-stages=pipe=0 stages=3",
            "--cake-set-stages=pipe=1 stages=3",
            "--cake-set-regs=role=mma regs=216",
            "--cake-set-regs=role=mma_1 regs=216"]

# name -> (how to make its source, tactics, the kernel it is the turns or
# no-turns twin of)
RECIPES = {
    "gemm_pp_128x128x64_s3": (("gen", []), [], "gemm_pp_128x128x64_s3_noturns"),
    "gemm_pp_128x128x64_s3_noturns": (("gen", ["turns=0"]), [], None),
    "gemm_pp_e4m3_128x128x128_s3": (("gen", ["dtype=e4m3"]), [],
                                    "gemm_pp_e4m3_128x128x128_s3_noturns"),
    "gemm_pp_e4m3_128x128x128_s3_noturns": (
        ("gen", ["dtype=e4m3", "turns=0"]), [], None),
    "pp64_turns": (("file", "gemm_ws_persistent.cake.mlir"),
                   PP64[:1] + ["--cake-ping-pong=turns=true"] + PP64[1:],
                   "pp64"),
    "pp64": (("file", "gemm_ws_persistent.cake.mlir"),
             PP64[:1] + ["--cake-ping-pong"] + PP64[1:], None),
    "gemm_pp_128x128x64_s2": (("gen", ["stages=2"]), [],
                              "gemm_pp_128x128x64_s2_noturns"),
    "gemm_pp_128x128x64_s2_noturns": (("gen", ["stages=2", "turns=0"]), [],
                                      None),
    "gemm_pp_e4m3_128x128x128_s2": (("gen", ["dtype=e4m3", "stages=2"]), [],
                                    "gemm_pp_e4m3_128x128x128_s2_noturns"),
    "gemm_pp_e4m3_128x128x128_s2_noturns": (
        ("gen", ["dtype=e4m3", "stages=2", "turns=0"]), [], None),
    "pp64x192_turns": (("file", "gemm_ws_persistent.cake.mlir"),
                       PP64x192[:1] + ["--cake-ping-pong=turns=true"] +
                       PP64x192[1:], "pp64x192"),
    "pp64x192": (("file", "gemm_ws_persistent.cake.mlir"),
                 PP64x192[:1] + ["--cake-ping-pong"] + PP64x192[1:], None),
    **{f"gemm_bf16_pp_dealt_128x128x64_s{n}": (
        ("gen", ["dealt=1", f"stages={n}"]), [], None) for n in (5, 6, 7)},
    **{f"gemm_e4m3_pp_dealt_128x128x128_s{n}": (
        ("gen", ["dtype=e4m3", "dealt=1", f"stages={n}"]), [], None)
       for n in (5, 6, 7)},
    **{f"gemm_bf16_pp_dealt_64x256x64_s{n}": (
        ("gen", ["dealt=1", "tile=64x256", f"stages={n}"]), [], None)
       for n in (3, 4, 5)},
    **{f"gemm_e4m3_pp_dealt_64x256x128_s{n}": (
        ("gen", ["dtype=e4m3", "dealt=1", "tile=64x256", f"stages={n}"]), [],
        None) for n in (3, 4, 5)},
    "gemm_bf16_pp_64x256x64_s2": (("gen", ["tile=64x256", "stages=2"]), [],
                                  None),
    "gemm_e4m3_pp_64x256x128_s2": (
        ("gen", ["dtype=e4m3", "tile=64x256", "stages=2"]), [], None),
    "gemm_128x128x64_s6": (
        ("file", "gemm-variants/gemm_128x128x64_s6.cake.mlir"), [], None),
    "gemm_ws_persistent": (("file", "gemm_ws_persistent.cake.mlir"), [], None),
    "gemm_e4m3_128x128x128_s6": (
        ("file", "gemm-variants/gemm_e4m3_128x128x128_s6.cake.mlir"), [], None),
    "gemm_e4m3_128x256x128_s4": (
        ("file", "gemm-variants/gemm_e4m3_128x256x128_s4.cake.mlir"), [], None),
}


def source(name, tmp):
    (how, what), tactics, _ = RECIPES[name]
    if how == "file":
        path = os.path.join(ROOT, "examples", what)
    else:
        path = os.path.join(tmp, name + ".cake.mlir")
        with open(path, "w") as f:
            subprocess.run([sys.executable, GEN_PP, *what], stdout=f,
                           check=True)
    return path, tactics


def predict(cake_opt, path, tactics, shape, fp8, gpu):
    M, N, K = (int(x) for x in shape.split("x"))
    shapes = [f"{M}x{K}", f"{N}x{K}"] + (["1", "1"] if fp8 else []) + [
        f"{M}x{N}"]
    cmd = [cake_opt, *tactics,
           f"--cake-cost=shapes={','.join(shapes)} gpu={gpu} json=-", path,
           "-o", os.devnull]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)[0]["predicted_ns"] / 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--measured", default="")
    ap.add_argument("--shapes", default="")
    ap.add_argument("--kernels", default=",".join(RECIPES))
    ap.add_argument("--cake-opt", default=os.path.join(ROOT, "build", "bin",
                                                       "cake-opt"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--emit", default="")
    ap.add_argument("--gpu", default="h200",
                    help="the calibration to predict with (h200, h100)")
    ap.add_argument("--out", default="",
                    help="write the rows (kernel, shape, predicted and "
                    "measured us) as JSON")
    args = ap.parse_args()
    if args.emit:
        os.makedirs(args.emit, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            for name in args.kernels.split(","):
                path, tactics = source(name, tmp)
                out = os.path.join(args.emit, name + ".cake.mlir")
                subprocess.run([args.cake_opt, *tactics, path, "-o", out],
                               check=True)
                print(out)
        return
    if args.measured:
        rows = [r for r in json.load(open(args.measured))["rows"]
                if r.get("kernel") in RECIPES and r.get("ok", True)]
    elif args.shapes:
        rows = [{"kernel": k, "shape": s,
                 "dtype": "e4m3" if "e4m3" in k else "bf16"}
                for s in args.shapes.split(",")
                for k in args.kernels.split(",")]
    else:
        ap.error("give --measured or --shapes")
    pred, meas = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        sources = {n: source(n, tmp) for n in {r["kernel"] for r in rows}}
        for r in rows:
            key = (r["kernel"], r["shape"])
            path, tactics = sources[r["kernel"]]
            pred[key] = predict(args.cake_opt, path, tactics, r["shape"],
                                r["dtype"] != "bf16", args.gpu)
            meas[key] = r["ms"] * 1e3 if "ms" in r else float("nan")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"rows": [
                {"kernel": k, "shape": s, "predicted_us": pred[(k, s)],
                 "measured_us": meas[(k, s)]}
                for (k, s) in sorted(pred)]}, f, indent=1)
    sep = " | " if args.markdown else "  "
    head = ["shape", "kernel", "predicted us", "measured us", "pred/meas"]
    if args.markdown:
        print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    else:
        print(f"{head[0]:>16}{sep}{head[1]:>36}{sep}{head[2]:>12}{sep}"
              f"{head[3]:>12}{sep}{head[4]:>9}")
    errs = []
    for (k, s) in sorted(pred, key=lambda x: (x[1], x[0])):
        p, m = pred[(k, s)], meas[(k, s)]
        if m == m:  # measured (not NaN)
            errs.append(abs(p / m - 1))
        cells = [s, k, f"{p:.1f}", f"{m:.1f}", f"{p / m:.3f}"]
        if args.markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print(f"{cells[0]:>16}{sep}{cells[1]:>36}{sep}{cells[2]:>12}"
                  f"{sep}{cells[3]:>12}{sep}{cells[4]:>9}")
    agree = total = ties = 0
    print("\nturns against no turns (measured ratio, predicted ratio):")
    for (k, s) in sorted(pred, key=lambda x: (x[1], x[0])):
        twin = RECIPES[k][2]
        if not twin or (twin, s) not in pred:
            continue
        mr = meas[(k, s)] / meas[(twin, s)]
        pr = pred[(k, s)] / pred[(twin, s)]
        total += 1
        ties += abs(pr - 1) < 1e-9
        agree += (mr < 1) == (pr < 1) and abs(pr - 1) >= 1e-9
        print(f"  {s:>16} {k:>30}: measured {mr:.3f}, predicted {pr:.3f}")
    if not errs:
        print(f"\n{len(pred)} rows predicted, none measured; "
              f"{ties} of {total} turns pairs predicted equal")
        return
    print(f"\n{len(errs)} rows, median |pred/meas - 1| = "
          f"{statistics.median(errs):.3f}; turns pairs ordered as measured: "
          f"{agree} of {total} ({ties} predicted equal)")


if __name__ == "__main__":
    main()
