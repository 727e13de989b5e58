# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Stands in for bench/cost/measure.py where there is no GPU (tests): reads
the manifest cake-evolve exported and writes results in measure.py's
format, marked synthetic. The seed takes 3 ms, candidate i its prediction
times 1 + i/10, the last candidate hangs, the peer takes 1.5 ms.

usage: fake-measure.py MANIFEST RESULTS
"""
import json
import sys

manifest, out = sys.argv[1], sys.argv[2]
candidates = json.load(open(manifest))["candidates"]
rows, findings = [], []
for i, c in enumerate(candidates):
    if c.get("seed"):
        rows.append({"candidate": "seed", "ms": 3.0, "ok": True})
    elif i == len(candidates) - 1:
        findings.append({"candidate": c["id"], "result": "hang (timeout)",
                         "stderr": ""})
    else:
        rows.append({"candidate": c["id"], "ok": True,
                     "ms": c["predicted_ns"] / 1e6 * (1 + i / 10)})
json.dump({"gpu": "synthetic: test/Tools/Inputs/fake-measure.py, not a "
                  "measurement", "rows": rows, "findings": findings,
           "peers": {"cuBLAS (torch.matmul)": 1.5}}, open(out, "w"))
print(f"fake-measure: {len(rows)} rows, {len(findings)} findings")
