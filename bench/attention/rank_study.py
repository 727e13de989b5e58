#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The cost model's rank study on attention candidates.

  rank_study.py prepare OUT_DIR       (here: candidates of the seed, each a
                                       tactic sequence over
                                       examples/attention/attention_fwd_d128,
                                       verified, lowered to
                                       OUT_DIR/<id>/attention_fwd_d128.json,
                                       sources kept in OUT_DIR/<id>/)
  bench/attention/bench.py --bundles $(cat OUT_DIR/variants) --causal 0 ...
                                      (on the GPU machine: every candidate
                                       checked and timed, interleaved)
  rank_study.py report OUT_DIR RESULTS.json [--calibration F] [--markdown]
                                      (here: cake-cost's prediction for
                                       every candidate and shape against
                                       the measured time: Kendall tau,
                                       Spearman rho, top-1 regret, best of
                                       the predicted top 8)

The candidates: K and V pipe stages (1-3 each) times flush-denormals and
wg-order on or off, uniform-warp and retire-late on (the example's), plus
four with one of those two off: 40.
"""
import itertools
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench", "cost"))
from study import kendall, quality, spearman  # noqa: E402,F401

SEED = os.path.join(ROOT, "examples", "attention", "attention_fwd_d128.cake.mlir")
BUILD = os.environ.get("CAKE_BUILD_DIR", os.path.join(ROOT, "build"))
OPT = os.path.join(BUILD, "bin", "cake-opt")
TRANSLATE = os.path.join(BUILD, "bin", "cake-translate")


def candidates():
    flags = lambda ftz, wgo, uw=True, rl=True: [  # noqa: E731
        f"--cake-set-flush-denormals=enable={str(ftz).lower()}",
        f"--cake-set-wg-order=enable={str(wgo).lower()}",
        f"--cake-set-uniform-warp=enable={str(uw).lower()}",
        f"--cake-set-retire-late=enable={str(rl).lower()}"]
    out = []
    for k, v, ftz, wgo in itertools.product((1, 2, 3), (1, 2, 3),
                                            (True, False), (True, False)):
        out.append((f"k{k}v{v}{'_ftz' if ftz else ''}{'_wgo' if wgo else ''}",
                    [f"--cake-set-stages=pipe=1 stages={k}",
                     f"--cake-set-stages=pipe=2 stages={v}"]
                    + flags(ftz, wgo)))
    for name, uw, rl in (("nouw", False, True), ("norl", True, False)):
        for wgo in (True, False):
            out.append((f"k2v2_ftz{'_wgo' if wgo else ''}_{name}",
                        ["--cake-set-stages=pipe=1 stages=2",
                         "--cake-set-stages=pipe=2 stages=2"]
                        + flags(True, wgo, uw, rl)))
    return out


def prepare(out):
    variants = []
    for cid, passes in candidates():
        d = os.path.join(out, cid)
        os.makedirs(d, exist_ok=True)
        src = os.path.join(d, "attention_fwd_d128.cake.mlir")
        r = subprocess.run([OPT] + passes + ["--cake-verify", SEED, "-o", src],
                           capture_output=True, text=True)
        if r.returncode != 0:
            rule = (r.stderr.split("[", 1) + ["?]"])[1].split("]")[0]
            print(f"rejected {cid}: [{rule}]")
            continue
        low = subprocess.run([OPT, "--cake-lower", src], capture_output=True)
        subprocess.run([TRANSLATE, "--cake-to-bundle", "-o",
                        os.path.join(d, "attention_fwd_d128.json")],
                       input=low.stdout, check=True)
        variants.append(f"{cid}={d}")
    with open(os.path.join(out, "variants"), "w") as f:
        f.write(",".join(variants) + "\n")
    print(f"{len(variants)} candidates in {out}")


def predict(src, shape, calibration):
    B, S, D = shape
    t = f"{B}x{S}x{D}"
    opts = f"shapes={t},{t},{t},{t},1"
    if calibration:
        opts += f" calibration={calibration}"
    r = subprocess.run([OPT, f"--cake-cost={opts}", "--cake-cost-json=-",
                        src, "-o", "/dev/null"], capture_output=True,
                       text=True, check=True)
    return json.loads(r.stdout)[0]["predicted_ns"] / 1e6


def report(out, results, calibration="", markdown=False):
    rows = json.load(open(results))["rows"]
    table = {}
    for r in rows:
        shape = (r["B"] * r["H"], r["S"], r["D"])
        for name, ms in r["ms"].items():
            if name.startswith("cake:"):
                table.setdefault(shape, {})[name[5:]] = ms
    qs = {}
    for shape, meas in table.items():
        ids = sorted(meas)
        pred = [predict(os.path.join(out, i, "attention_fwd_d128.cake.mlir"),
                        shape, calibration) for i in ids]
        q = quality(pred, [meas[i] for i in ids])
        order = sorted(range(len(ids)), key=lambda i: pred[i])
        q["predicted_best"] = ids[order[0]]
        q["measured_best"] = min(ids, key=lambda i: meas[i])
        qs["x".join(map(str, shape))] = q
    if markdown:
        print("| problem (B·H×S×D) | candidates | Kendall τ | Spearman ρ | "
              "top-1 regret | best / best of top 8 | predicted best | "
              "measured best |")
        print("|---|---|---|---|---|---|---|---|")
        for name, q in qs.items():
            print(f"| {name} | {q['n']} | {q['kendall']:.3f} | "
                  f"{q['spearman']:.3f} | {100 * q['top1_regret']:.1f}% | "
                  f"{q['best_of_top8']:.3f} | {q['predicted_best']} | "
                  f"{q['measured_best']} |")
    else:
        print(json.dumps(qs, indent=1))


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "prepare":
        prepare(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == "report":
        cal = ""
        if "--calibration" in sys.argv:
            cal = sys.argv[sys.argv.index("--calibration") + 1]
        report(sys.argv[2], sys.argv[3], cal, "--markdown" in sys.argv)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
