# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks the k-means kernel folder: every bundle the table names exists,
with its entry and a cubin (kmeans-kernels.test)."""
import json
import os
import sys

folder = sys.argv[1]
table = json.load(open(os.path.join(folder, "kmeans-table.json")))
variants = [v["bundle"] for v in table["variants"]]
sums = [b for per_dtype in table.get("sums", {}).values()
        for b in per_dtype.values()]
print(f"table: {len(variants)} variants, {len(sums)} sums kernels")
names = sorted(set(variants + sums))
present = [n for n in names if os.path.exists(os.path.join(folder, n))]
print(f"bundles: {len(names)} named, {len(present)} present, "
      f"{len(names) - len(present)} missing")
for name in present:
    if name != "kmeans_assign_f16_h2_bn128_s4_x2_w3_ordr.json":
        continue
    bundle = json.load(open(os.path.join(folder, name)))
    kernel = bundle["kernels"][0] if "kernels" in bundle else bundle
    print(f"{name}: entry {kernel['entry']}, "
          f"{'cubin' if kernel.get('cubin') else 'no cubin'}")
