#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Draws a search or a rank study as one self-contained SVG.

  report.py --ledger run.jsonl --out search.svg
      cake-evolve's ledger: best predicted time so far against candidates
      tried (ranked candidates as dots, the running best as a line), the
      measured candidates (after --import) predicted against measured
      time, and the stage each candidate reached.
  report.py --study study.json --out study.svg
      bench/cost/study.py --out's file: predicted against measured time,
      one panel per problem, log-log, with the y = x line.
"""
import argparse
import json
import math


def esc(s):
    return (str(s).replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;"))


class Panel:
    """A plot area at (x, y) of size (w, h) with log or linear axes."""

    def __init__(self, x, y, w, h, xr, yr, logx=False, logy=False):
        self.x, self.y, self.w, self.h = x, y, w, h
        self.logx, self.logy = logx, logy
        f = (lambda v: math.log10(v))
        self.xr = tuple(map(f, xr)) if logx else xr
        self.yr = tuple(map(f, yr)) if logy else yr

    def px(self, v):
        v = math.log10(v) if self.logx else v
        return self.x + (v - self.xr[0]) / (self.xr[1] - self.xr[0] or 1) * self.w

    def py(self, v):
        v = math.log10(v) if self.logy else v
        return self.y + self.h - (v - self.yr[0]) / (self.yr[1] - self.yr[0] or 1) * self.h

    def frame(self, title, xlabel, ylabel):
        out = [f'<rect x="{self.x}" y="{self.y}" width="{self.w}" height="{self.h}" '
               'fill="none" stroke="#888"/>',
               f'<text x="{self.x + self.w / 2}" y="{self.y - 8}" text-anchor="middle" '
               f'font-size="13">{esc(title)}</text>',
               f'<text x="{self.x + self.w / 2}" y="{self.y + self.h + 30}" '
               f'text-anchor="middle" font-size="11">{esc(xlabel)}</text>',
               f'<text x="{self.x - 42}" y="{self.y + self.h / 2}" font-size="11" '
               f'text-anchor="middle" transform="rotate(-90 {self.x - 42} '
               f'{self.y + self.h / 2})">{esc(ylabel)}</text>']
        for axis in ("x", "y"):
            lo, hi = self.xr if axis == "x" else self.yr
            log = self.logx if axis == "x" else self.logy
            for i in range(5):
                v = lo + (hi - lo) * i / 4
                val = 10 ** v if log else v
                label = f"{val:.3g}"
                if axis == "x":
                    px = self.x + self.w * i / 4
                    out.append(f'<text x="{px}" y="{self.y + self.h + 14}" '
                               f'font-size="10" text-anchor="middle">{label}</text>')
                else:
                    py = self.y + self.h - self.h * i / 4
                    out.append(f'<text x="{self.x - 4}" y="{py + 3}" font-size="10" '
                               f'text-anchor="end">{label}</text>')
        return out


def svg(width, height, body):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
            f'height="{height}" font-family="sans-serif">\n'
            + "\n".join(body) + "\n</svg>\n")


def ledger_report(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    ranked = [(i, r["predicted_ns"] / 1e3) for i, r in enumerate(rows)
              if r.get("stage") == "ranked"]
    stages = {}
    for r in rows:
        stages[r.get("stage", "?")] = stages.get(r.get("stage", "?"), 0) + 1
    body = []
    if ranked:
        ys = [t for _, t in ranked]
        p = Panel(70, 40, 560, 300, (0, max(len(rows) - 1, 1)),
                  (min(ys) * 0.95, max(ys) * 1.05), logy=True)
        body += p.frame("cake-evolve: predicted time of ranked candidates",
                        "candidates tried", "predicted time (us)")
        best, line = None, []
        for i, t in ranked:
            body.append(f'<circle cx="{p.px(i):.1f}" cy="{p.py(t):.1f}" r="2" '
                        'fill="#7aa6d6"/>')
            best = t if best is None else min(best, t)
            line.append(f"{p.px(i):.1f},{p.py(best):.1f}")
        body.append(f'<polyline points="{" ".join(line)}" fill="none" '
                    'stroke="#c0392b" stroke-width="2"/>')
    y = 380
    measured = [r for r in rows if r.get("stage") == "measured"
                and "predicted_ns" in r and r.get("ok")]
    if measured:
        vals = ([r["measured_ns"] / 1e3 for r in measured]
                + [r["predicted_ns"] / 1e3 for r in measured])
        lo, hi = min(vals) * 0.9, max(vals) * 1.1
        p = Panel(70, 420, 300, 300, (lo, hi), (lo, hi), logx=True, logy=True)
        best = min(measured, key=lambda r: r["measured_ns"])
        body += p.frame(f"measured on the GPU: {len(measured)} candidates "
                        f"(best {best['id']} {best['measured_ns'] / 1e3:.1f} us)",
                        "measured time (us)", "predicted time (us)")
        body.append(f'<line x1="{p.px(lo)}" y1="{p.py(lo)}" x2="{p.px(hi)}" '
                    f'y2="{p.py(hi)}" stroke="#bbb" stroke-dasharray="4 3"/>')
        for r in measured:
            m, t = r["measured_ns"] / 1e3, r["predicted_ns"] / 1e3
            color = "#c0392b" if r is best else "#2e86c1"
            body.append(f'<circle cx="{p.px(m):.1f}" cy="{p.py(t):.1f}" r="3" '
                        f'fill="{color}"><title>{esc(r["id"])}: {m:.1f} us '
                        f'measured, {t:.1f} us predicted</title></circle>')
        y = 780
    for k, v in sorted(stages.items()):
        body.append(f'<text x="70" y="{y}" font-size="12">{esc(k)}: {v}</text>')
        y += 16
    return svg(680, y + 10, body)


def study_report(path):
    d = json.load(open(path))
    problems = {}
    for r in d["rows"]:
        problems.setdefault(r["problem"], []).append(r)
    cols = 3
    body, w, h = [], 260, 220
    for k, (name, rs) in enumerate(problems.items()):
        x0 = 70 + (k % cols) * (w + 90)
        y0 = 40 + (k // cols) * (h + 80)
        vals = [r["ms"] for r in rs] + [r["predicted_ms"] for r in rs]
        lo, hi = min(vals) * 0.9, max(vals) * 1.1
        p = Panel(x0, y0, w, h, (lo, hi), (lo, hi), logx=True, logy=True)
        q = d["problems"][name]
        body += p.frame(f"{name}  (τ {q['kendall']:.2f})", "measured ms",
                        "predicted ms")
        body.append(f'<line x1="{p.px(lo)}" y1="{p.py(lo)}" x2="{p.px(hi)}" '
                    f'y2="{p.py(hi)}" stroke="#bbb" stroke-dasharray="4 3"/>')
        for r in rs:
            body.append(f'<circle cx="{p.px(r["ms"]):.1f}" '
                        f'cy="{p.py(r["predicted_ms"]):.1f}" r="2.5" '
                        f'fill="#2e86c1"><title>{esc(r["candidate"])}: '
                        f'{r["ms"]:.4f} ms measured, {r["predicted_ms"]:.4f} '
                        'predicted</title></circle>')
    rows = (len(problems) + cols - 1) // cols
    return svg(70 + cols * (w + 90), 40 + rows * (h + 80), body)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ledger")
    p.add_argument("--study")
    p.add_argument("--out", required=True)
    a = p.parse_args()
    if bool(a.ledger) == bool(a.study):
        p.error("give one of --ledger and --study")
    text = ledger_report(a.ledger) if a.ledger else study_report(a.study)
    open(a.out, "w").write(text)


if __name__ == "__main__":
    main()
