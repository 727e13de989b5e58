#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the k-means assignment's dispatch table and its kernels.

For every dtype (f16, bf16), slice count h (D in (64(h-1), 64h], h = 1..8)
and batching, one kernel (libs/kmeans/kernels/gen-kmeans-variants.py --any-d) serves
every D of the range. Which family (centroid tile 128 or 256, ring depth,
point tile double-buffered or not, two or three consumer warpgroups): the
H200 measurement where one exists (docs/benchmarks.md, k-means runs 4, 10
and 13, made with the fixed-D kernels of the same families; at D = 64 h
they lower to the same PTX as the any-D kernel), else the cost model's
best prediction among the families cake-verify accepts, at a reference
problem. Whether the kernel keeps its straight-line wgmma chain in flight
is decided too and written into its IR by cake-set-mma-chain (`mma_chain`
in the table): run 10 measured the chain faster at D = 128 and slower at
D = 256, and the cost model does not see it. Where a measurement found
another kernel faster for small K, entries bounded by `max_k` come first
(SMALL_TILES: smaller centroid tiles; SMALL_K);
libs/kmeans/src/kmeans_table.c takes the first entry that admits the
problem. Writes OUT/kmeans-table.json and
OUT/src/<kernel>.cake.mlir; with --cake-translate it also lowers them
to OUT/<kernel>.json, the bundles the table names (libs/kmeans/src/kmeans.c
reads both; CMake's cake-kmeans-kernels target runs it that way).

The table also names the centroid update's sums kernels ("sums", per dtype
and tile rows, from gen_sums_gather.py: the points read through the sort's
order; 1.0-1.7x the older kernels on the H200, k-means run 20); with --sums
cake the older kernels of examples/kmeans_sums.cake.mlir (the points
gathered transposed first), with --sums cuda none, and the update keeps
the runtime's CUDA C sums.

usage: gen-kmeans-table.py OUT [--cake-opt build/bin/cake-opt]
                               [--cake-translate build/bin/cake-translate]
                               [--sums gather|cake|cuda]
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
# (centroid tile, ring stages, point buffers, consumer warpgroups, packed
# argmin)
FAMILIES = [(128, 4, 1, 2, False), (256, 2, 1, 2, False),
            (128, 4, 2, 2, False), (256, 2, 2, 2, False),
            (128, 4, 2, 3, False), (256, 2, 2, 2, True)]
# (dtype, h, batched) -> (family, wgmma chain kept in flight): the best on
# every measured row of that D and batching in k-means run 10 on the H200
# (bn256_s2_x2 and bn128_s6_x2 with and without the chain, bn128_s4_x2
# with it), as in run 4 at D <= 128. At D = 256 run 4 had preferred the
# committed bn128_s4, which run 10 did not time: run 11 (0.96-0.99 ms
# through this table against 1.00-1.05 ms for bn128_s4 in run 6, before
# FMA contraction) agrees, across runs. Run 13 (2026-11-30) timed three
# consumer warpgroups (192-point tiles, bn128_s4_x2_w3) beside
# bn256_s2_x2 in the same run, twice: faster on every D <= 128 row (2-8 %).
# Run 15 (2026-11-30) timed the packed argmin: bn256_s2_x2 with it and
# without the chain is the fastest at D = 64 (0.404 against 0.429 ms for
# bn128_s4_x2_w3, which the packed argmin slows) and at D = 256 (0.91-0.95
# against 0.94-0.95 ms unpacked).
#
# Run 17c (2026-11-30) timed the three-warpgroup kernels with their wgmma
# chains taking turns until they retire (cake-set-wg-order retire=true):
# 4-10 % faster than without at D = 64 and 128 (32 x 75600 f16 1 % slower,
# bf16 4.5 % faster), so the D <= 128 entries order their chains. The
# third element of each value says so.
MEASURED = {
    ("f16", 1, False): ((256, 2, 2, 2, True), False, False),
    ("bf16", 1, False): ((256, 2, 2, 2, True), False, False),
    ("f16", 2, False): ((128, 4, 2, 3, False), True, True),
    ("bf16", 2, False): ((128, 4, 2, 3, False), True, True),
    ("f16", 2, True): ((128, 4, 2, 3, False), True, True),
    ("bf16", 2, True): ((128, 4, 2, 3, False), True, True),
    ("f16", 4, True): ((256, 2, 2, 2, True), False, False),
    ("bf16", 4, True): ((256, 2, 2, 2, True), False, False),
}
# (dtype, h, batched) -> K bound: entries listed before the general one of
# their key, for K up to the bound. Run 16 (2026-11-30) measured at
# 8 x 65536 x 128 x 256 bn128_s4_x2_w3 with a 32-register copy warpgroup
# and the late retire 3-3.5 % faster than the general entry of then (run
# 16c; slower at K = 1000). Run 17c measured the packed argmin with the
# ordered chains faster still at K = 256: 0.0804 / 0.0797 ms (f16 / bf16)
# against 0.0813 / 0.0806 for the general entry (ordered, exact) and
# 0.0822 / 0.0814 in run 17a for the run-16 entry. Measured at K = 256
# only.
SMALL_K = {
    ("f16", 2, True): 256,
    ("bf16", 2, True): 256,
}
SMALL_K_FAMILY = ((128, 4, 2, 3, True), "bn128_s4_x2_w3_pk_ordr")

# Small centroid tiles for small K (k-means run 26, 2026-12-03,
# bench/kmeans/assign_ab.py, bf16, the same fresh data for every table):
# the general entries' 128- and 256-centroid tiles compute that many
# distances per point where K is 7 and stream the whole tile from L2 for
# every point tile. (max_k, centroids per tile), first match wins. Past
# D = 128 (run 26a): 32-wide tiles 3.0-3.3x faster than the general entry
# at K = 7 (D = 192, 256, 512; 16-wide ones within 2 %), 64-wide ones
# 1.8-3.0x at K = 64 and 13 % slower at K = 256. At D = 32 and 64 (run
# 26b) 1.9-2.2x at K = 7 and 64; at D = 128 1.2-1.3x at K = 7, equal to
# 1.2x at K = 64 (72 and 100: equal). K = 128 not measured: it takes two
# 64-wide tiles where the general entries compute a half-empty wider one.
# Then Lloyd's loop at D = 256 (run 27): 1.17-1.72x flashlib where the
# general entry had been 0.60-0.94x. Ring of 4 stages, the point tile
# double-buffered where shared memory holds two (D <= 320), two consumer
# warpgroups, packed argmin, no wgmma chain.
SMALL_TILES = ((32, 32), (128, 64))


def small_tile_variants(gen, src, dtype, h, batched):
    """The table entries (and their kernels in src/) of SMALL_TILES for one
    key, smallest bound first."""
    out = []
    xbuf = 2 if h <= 5 else 1
    for max_k, bn in SMALL_TILES:
        family = family_name((bn, 4, xbuf, 2, True))
        name = (f"kmeans_assign_{dtype}_h{h}" + ("_batched" if batched else "")
                + "_" + family)
        with open(os.path.join(src, name + ".cake.mlir"), "w") as fh:
            fh.write(gen.kernel(dtype, 64 * h, batched, stages=4, bn=bn,
                                name=name, xbuf=xbuf, any_d=True, wgs=2,
                                packed=True))
        out.append(dict(dtype=dtype, slices=h, batched=batched, max_k=max_k,
                        bundle=name + ".json", family=family, mma_chain=False,
                        evidence=("measured on the H200 (docs/benchmarks.md, "
                                  f"k-means run 26): {family} for K <= "
                                  f"{max_k}, 1.0-3.3x the general entry at "
                                  "K = 7 and 64")))
    return out


def family_name(f):
    bn, s, x, w, packed = f
    return (f"bn{bn}_s{s}" + ("_x2" if x == 2 else "")
            + (f"_w{w}" if w != 2 else "") + ("_pk" if packed else ""))


def small_k_variant(gen, args, src, dtype, h, batched, max_k):
    """The table entry (and its kernel in src/) of SMALL_K for one key."""
    (bn, s, x, w, packed), family = SMALL_K_FAMILY
    name = (f"kmeans_assign_{dtype}_h{h}" + ("_batched" if batched else "")
            + "_" + family)
    path = os.path.join(src, name + ".cake.mlir")
    with open(path, "w") as fh:
        fh.write(gen.kernel(dtype, 64 * h, batched, stages=s, bn=bn,
                            name=name, xbuf=x, any_d=True, wgs=w,
                            packed=packed))
    subprocess.run([args.cake_opt, path, "--cake-verify",
                    "--cake-set-mma-chain=enable=true",
                    "--cake-set-wg-order=enable=true retire=true", "-o", path],
                   check=True)
    return dict(dtype=dtype, slices=h, batched=batched, max_k=max_k,
                bundle=name + ".json", family=family, mma_chain=True,
                wg_order_retire=True,
                evidence=("measured on the H200 (docs/benchmarks.md, k-means "
                          f"run 17c): {family} at K = 256, 1 % faster than "
                          "the general entry"))


# The sums kernel's feature rows per tile (64 per warpgroup of its "sum"
# role): the runtime takes the smallest that covers D (256-row tiles past
# 256). The A ring's stages shrink at 256 rows to fit shared memory.
SUMS_ROWS = (64, 128, 192, 256)
# setmaxnreg budgets (one-hot builder, summing warpgroups) per tile rows:
# the most the launch's register file allows, checked with ptxas -v for no
# spills (256 rows: 40 bytes spilled, the least of the budgets that fit).
SUMS_REGS = {64: (128, 96), 128: (128, 80), 192: (128, 64), 256: (104, 64)}


def write_sums_kernels(src):
    """The update's sums kernels per dtype and tile rows, from
    examples/kmeans_sums.cake.mlir (written for f16 and 128 rows: two
    warpgroups sum; the others differ in those numbers only)."""
    with open(os.path.join(ROOT, "examples", "kmeans_sums.cake.mlir")) as fh:
        text = fh.read()
    bundles = {}
    for dtype in ("f16", "bf16"):
        bundles[dtype] = {}
        for rows in SUMS_ROWS:
            stages = 2 if rows == 256 else 4
            body = text
            for old, new in (
                    ("tile = [128, 1]", f"tile = [{rows}, 1]"),
                    ("4 x 128x64xf16", f"{stages} x {rows}x64xf16"),
                    ("!cake.pipe<4>", f"!cake.pipe<{stages}>"),
                    ("128x64xf32", f"{rows}x64xf32"),
                    ('cake.role "onehot" warpgroups(1) regs(128)',
                     'cake.role "onehot" warpgroups(1) '
                     f'regs({SUMS_REGS[rows][0]})'),
                    ('cake.role "sum" warpgroups(2) regs(80)',
                     f'cake.role "sum" warpgroups({rows // 64}) '
                     f'regs({SUMS_REGS[rows][1]})')):
                # An edit of the example that drops a pattern would
                # otherwise leave every variant the 128-row kernel.
                if old not in body:
                    sys.exit(f"gen-kmeans-table: examples/kmeans_sums.cake.mlir"
                             f" no longer contains '{old}'")
                body = body.replace(old, new)
            if dtype == "bf16":
                body = re.sub(r"\bf16\b", "bf16",
                              re.sub(r"xf16\b", "xbf16", body))
            name = f"kmeans_sums_{dtype}_r{rows}"
            with open(os.path.join(src, name + ".cake.mlir"), "w") as fh:
                fh.write(body)
            bundles[dtype][str(rows)] = name + ".json"
    return bundles


def write_sums_gather_kernels(src):
    """The update's sums kernels that read the points through the sort's
    order (gen_sums_gather.py; examples/kmeans_sums_gather.cake.mlir is its
    f16, 128-row kernel), per dtype and tile rows."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gen_sums_gather
    bundles = {}
    for dtype in ("f16", "bf16"):
        bundles[dtype] = {}
        # 32 rows for D <= 32: 7% faster than the 64-row kernel at
        # 2M x 32 x 512 (run 21), where the older kernels had none.
        for rows in (32,) + SUMS_ROWS:
            name = f"kmeans_sums_gather_{dtype}_r{rows}"
            with open(os.path.join(src, name + ".cake.mlir"), "w") as fh:
                fh.write(gen_sums_gather.kernel(dtype, rows))
            bundles[dtype][str(rows)] = name + ".json"
    return bundles


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--cake-opt", default=os.path.join(ROOT, "build", "bin",
                                                      "cake-opt"))
    p.add_argument("--cake-translate",
                   help="also lower every kernel (cake-verify, cake-lower) "
                        "and write its bundle OUT/<kernel>.json with this "
                        "cake-translate (needs ptxas)")
    p.add_argument("--sums", choices=("gather", "cake", "cuda"),
                   default="gather",
                   help="the centroid update's per-cluster sums: the Cake "
                        "IR kernel that reads the points through the sort's "
                        "order (examples/kmeans_sums_gather.cake.mlir), the "
                        "one that reads their sorted transposed copy "
                        "(examples/kmeans_sums.cake.mlir), or the runtime's "
                        "CUDA C segsum (for comparison)")
    args = p.parse_args()
    spec = importlib.util.spec_from_file_location(
        "gen", os.path.join(HERE, "gen-kmeans-variants.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    src = os.path.join(args.out, "src")
    os.makedirs(src, exist_ok=True)
    variants = []
    tmp = tempfile.mkdtemp(prefix="cake-kmeans-table-")
    for dtype in ("f16", "bf16"):
        for h in range(1, 9):
            for batched in (False, True):
                d = 64 * h
                # The reference problem for predictions.
                if batched:
                    shapes = (f"8x65536x{d},8x1024x{d},8x1024,8x65536")
                else:
                    shapes = f"262144x{d},1024x{d},1024,262144"
                predicted = {}
                for f in FAMILIES:
                    name = (f"kmeans_assign_{dtype}_h{h}"
                            + ("_batched" if batched else "") + "_"
                            + family_name(f))
                    path = os.path.join(tmp, name + ".cake.mlir")
                    with open(path, "w") as fh:
                        fh.write(gen.kernel(dtype, d, batched, stages=f[1],
                                            bn=f[0], name=name, xbuf=f[2],
                                            any_d=True, wgs=f[3],
                                            packed=f[4]))
                    r = subprocess.run(
                        [args.cake_opt, path, "-o", "/dev/null",
                         "--cake-verify", f"--cake-cost=shapes={shapes} json=-"],
                        capture_output=True, text=True)
                    if r.returncode != 0:
                        continue  # rejected (shared memory, registers)
                    report = json.loads(r.stdout)
                    predicted[f] = (report[0]["predicted_ns"], name, path)
                if not predicted:
                    continue
                key = (dtype, h, batched)
                chain, ordered = True, False
                if key in MEASURED and MEASURED[key][0] in predicted:
                    f, chain, ordered = MEASURED[key]
                    evidence = ("measured on the H200 (docs/benchmarks.md, "
                                f"k-means runs 10, 13, 15 and 17): "
                                f"{family_name(f)}"
                                + ("" if chain else " without the wgmma chain")
                                + (", chains in turn until retired"
                                   if ordered else ""))
                else:
                    f = min(predicted, key=lambda k: predicted[k][0])
                    evidence = (
                        f"cost model at {shapes}: {family_name(f)} "
                        f"{predicted[f][0] / 1e3:.1f} us; " + ", ".join(
                            f"{family_name(g)} {predicted[g][0] / 1e3:.1f}"
                            for g in predicted if g != f))
                    # The cost model does not see the chain; run 10 found
                    # it slower at D = 256, faster at D = 128.
                    if h >= 3:
                        chain = False
                        evidence += ("; without the wgmma chain, as "
                                     "measured at D = 256")
                _, name, path = predicted[f]
                if ordered:
                    name += "_ordr"
                # The kernel as the table's entry runs it: the chain and
                # ordering decisions recorded in its IR (cake.mma_chain,
                # cake.wg_order, cake.wg_order_retire).
                subprocess.run(
                    [args.cake_opt, path,
                     f"--cake-set-mma-chain=enable={str(chain).lower()}"]
                    + (["--cake-set-wg-order=enable=true retire=true"]
                       if ordered else [])
                    + ["-o", os.path.join(src, name + ".cake.mlir")],
                    check=True)
                variants += small_tile_variants(gen, src, dtype, h, batched)
                if key in SMALL_K:
                    variants.append(small_k_variant(gen, args, src, dtype, h,
                                                    batched, SMALL_K[key]))
                variants.append(dict(dtype=dtype, slices=h, batched=batched,
                                     bundle=name + ".json",
                                     family=family_name(f), mma_chain=chain,
                                     **({"wg_order_retire": True}
                                        if ordered else {}),
                                     evidence=evidence))
    table = dict(gpu="NVIDIA H200", calibration="calibration/h200.json")
    if args.sums == "gather":
        table["sums"] = write_sums_gather_kernels(src)
    elif args.sums == "cake":
        table["sums"] = write_sums_kernels(src)
    table["variants"] = variants
    with open(os.path.join(args.out, "kmeans-table.json"), "w") as fh:
        json.dump(table, fh, indent=1)
        fh.write("\n")
    print(f"{len(variants)} variants in {args.out}/kmeans-table.json")
    if args.cake_translate:
        lower(args, src)


def lower(args, src):
    """Every kernel of `src` to its bundle beside the table."""
    names = sorted(f[:-len(".cake.mlir")] for f in os.listdir(src)
                   if f.endswith(".cake.mlir"))
    for name in names:
        lowered = subprocess.run(
            [args.cake_opt, "--cake-verify", "--cake-lower",
             os.path.join(src, name + ".cake.mlir")],
            capture_output=True, text=True)
        if lowered.returncode != 0:
            sys.exit(f"gen-kmeans-table: {name} did not lower:\n"
                     + lowered.stderr)
        subprocess.run(
            [args.cake_translate, "--cake-to-bundle",
             "-o", os.path.join(args.out, name + ".json")],
            input=lowered.stdout, text=True, check=True)
    print(f"{len(names)} bundles in {args.out}")


if __name__ == "__main__":
    main()
