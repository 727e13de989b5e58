#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Summarize portfolio runs of bench/knn/bench.py, build.py and
bench/kmeans/lloyd.py (--portfolio).

Reads their JSON results (any number: shards, dtypes, both portfolios),
and prints per portfolio the coverage (shapes in the portfolio, with a
kernel, measured, correct), the geometric mean of Cake's speedup over
flashlib on the measured shapes, its range, the shapes where Cake is
slower, and the geomean by group (search: D and k; build: dtype, D, k).
With --svg, also draws every measured shape's speedup, sorted, one panel a
portfolio (plain SVG, no plotting library).

Portfolio sizes come from bench/portfolio/shapes.py; a shape no result
holds counts as "without a kernel" where examples/knn/dispatch.py has
none (with its reason), else as "not run". A k-means row's speedup is the
10-round Lloyd loop's over flashlib's better configuration.

usage: report.py RESULT.json ... [--svg FILE] [--markdown]
"""
import argparse
import collections
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shapes  # noqa: E402


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def speedup(row):
    s = row["speedup"]
    # bench.py: per variant (the first is the dispatcher's); build.py: one.
    return next(iter(s.values())) if isinstance(s, dict) else s


def ok(row):
    return all(check_ok(name, r) for name, r in row["check"].items())


def check_ok(name, r):
    """A check's verdict; the peer's row order is not part of it (its
    distances are recomputed after its selection and may be out of order
    within rounding: KNN run 23's JSON judged them strictly)."""
    if r.get("ok") or name != "flashlib" or not r.get("unsorted_rows"):
        return bool(r.get("ok"))
    return (r.get("outside") == 0 and r.get("dup_rows") == 0
            and r.get("dist_err", math.inf) <= r.get("tol", 0))


def key(kind, row):
    if kind == "kmeans":
        return (row["B"], row["N"], row["D"], row["K"], row["dtype"])
    if kind == "knn-search":
        return (row["Q"], row["M"], row["D"], row["k"], row["dtype"])
    return (row["N"], row["D"], row["k"], row["dtype"])


def group(kind, row):
    if kind == "kmeans":
        return f"D={row['D']} B={row['B']}"
    if kind == "knn-search":
        return f"D={row['D']} k={row['k']}"
    return f"{row['dtype']} D={row['D']} k={row['k']}"


def load(paths):
    """portfolio -> {shape key: row}, {shape string: why unsupported}."""
    rows = collections.defaultdict(dict)
    unsupported = collections.defaultdict(dict)
    meta = {}
    for path in paths:
        with open(path) as f:
            d = json.load(f)
        kind = d.get("portfolio")
        if kind not in shapes.PORTFOLIOS:
            sys.exit(f"{path}: not a portfolio run (no 'portfolio' field)")
        meta.setdefault(kind, set()).add(d.get("gpu", "?"))
        for r in d["rows"]:
            rows[kind][key(kind, r)] = r
        for u in d.get("unsupported", []):
            unsupported[kind][u["shape"] + ":" + d["dtype"]] = u["why"]
    # A shape an older run had no kernel for and a later one measured
    # counts as measured.
    for kind in unsupported:
        measured = {":".join(map(str, k)) for k in rows[kind]}
        for shape in list(unsupported[kind]):
            if shape in measured:
                del unsupported[kind][shape]
    return rows, unsupported, meta


def report(rows, unsupported, markdown):
    out = []
    for kind in sorted(rows):
        portfolio = shapes.PORTFOLIOS[kind]()
        total = len(portfolio)
        # Shapes no run measured: without a kernel (dispatch.py says why,
        # e.g. an input type no run could ask for) or not run.
        for shape in portfolio:
            if shape not in rows[kind]:
                why = shapes.support(kind, shape)
                if why.startswith("unsupported: "):
                    unsupported[kind][":".join(map(str, shape))] = \
                        why[len("unsupported: "):]
        rs = list(rows[kind].values())
        # A row whose peer failed (lloyd.py records the error) is correct
        # but has no speedup.
        peer_failed = [r for r in rs if ok(r) and speedup(r) is None]
        good = [r for r in rs if ok(r) and speedup(r) is not None]
        sp = [speedup(r) for r in good]
        slower = sorted((r for r in good if speedup(r) < 1.0), key=speedup)
        lacking = len(unsupported[kind])
        out.append(f"{kind}: {total} shapes; {len(rs)} measured "
                   f"({len(good)} correct), {lacking} without a kernel, "
                   f"{total - len(rs) - lacking} not run")
        if sp:
            out.append(f"  geomean {geomean(sp):.3f}x flashlib over the "
                       f"{len(sp)} measured shapes (min {min(sp):.3f}x, "
                       f"max {max(sp):.3f}x); {len(slower)} slower")
        for r in slower:
            out.append(f"  slower: {':'.join(map(str, key(kind, r)))} "
                       f"x{speedup(r):.3f} ({r['kernel']})")
        for r in peer_failed:
            out.append(f"  peer failed: {':'.join(map(str, key(kind, r)))}: "
                       f"{r.get('peer_error')}")
        by = collections.defaultdict(list)
        for r in good:
            by[group(kind, r)].append(speedup(r))
        if markdown:
            out.append("")
            out.append("| group | shapes | geomean | min | max |")
            out.append("|---|---|---|---|---|")
            for g in sorted(by):
                v = by[g]
                out.append(f"| {g} | {len(v)} | {geomean(v):.3f}x | "
                           f"{min(v):.3f}x | {max(v):.3f}x |")
            out.append("")
        else:
            for g in sorted(by):
                v = by[g]
                out.append(f"  {g:<22} {len(v):>3} shapes  geomean "
                           f"{geomean(v):.3f}x  ({min(v):.3f}..{max(v):.3f})")
        whys = collections.Counter(unsupported[kind].values())
        for why, n in whys.most_common():
            out.append(f"  no kernel ({n}): {why}")
    return "\n".join(out)


def svg(rows, path):
    """One panel a portfolio: each measured shape's speedup, sorted, on a
    log axis from 0.5x to 8x, with 1x marked."""
    kinds = sorted(rows)
    w, ph, pad = 720, 220, 40
    h = pad + len(kinds) * (ph + pad)
    lo, hi = math.log(0.5), math.log(8.0)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" '
             f'height="{h}" font-family="sans-serif" font-size="12">',
             f'<rect width="{w}" height="{h}" fill="white"/>']
    for n, kind in enumerate(kinds):
        sp = sorted(speedup(r) for r in rows[kind].values() if ok(r))
        top = pad + n * (ph + pad)
        left, width = 60, w - 80

        def y(v):
            t = (math.log(min(max(v, 0.5), 8.0)) - lo) / (hi - lo)
            return top + ph - t * ph
        parts.append(f'<text x="{left}" y="{top - 8}" font-weight="bold">'
                     f'{kind}: Cake / flashlib, {len(sp)} shapes, geomean '
                     f'{geomean(sp):.2f}x</text>')
        for tick in (0.5, 1, 2, 4, 8):
            parts.append(f'<line x1="{left}" x2="{left + width}" '
                         f'y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
                         f'stroke="{"black" if tick == 1 else "#ddd"}"/>')
            parts.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" '
                         f'text-anchor="end">{tick}x</text>')
        bw = width / max(len(sp), 1)
        for i, v in enumerate(sp):
            y0, y1 = sorted((y(1.0), y(v)))
            color = "#2a7" if v >= 1 else "#c33"
            parts.append(f'<rect x="{left + i * bw:.1f}" y="{y0:.1f}" '
                         f'width="{max(bw - 1, 1):.1f}" '
                         f'height="{max(y1 - y0, 0.5):.1f}" fill="{color}"/>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--svg", default="")
    ap.add_argument("--markdown", action="store_true",
                    help="the groups as Markdown tables")
    a = ap.parse_args()
    rows, unsupported, _ = load(a.results)
    print(report(rows, unsupported, a.markdown))
    if a.svg:
        svg(rows, a.svg)


if __name__ == "__main__":
    main()
