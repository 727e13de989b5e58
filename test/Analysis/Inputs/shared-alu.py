# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Reads two cake-cost JSON reports (the KDA intra pipeline, the
one-warpgroup kernel) and prints what cake-cost-shared-alu.test checks."""
import json
import sys

for label, path in (("pipeline", sys.argv[1]), ("one warpgroup", sys.argv[2])):
    r = json.load(open(path))[0]
    alus = [role["per_tile_ns"]["alu"] * min(1.0, role["warps"] / 4.0)
            for role in r["roles"] if role["per_tile_ns"]["alu"] > 0]
    tile = r["schedule"]["tile_ns"]
    print(f"{label}: roles with ALU work: {len(alus)}")
    print(f"{label}: bottleneck {r['bottleneck']['resource']}")
    if len(alus) > 1:
        print(f"{label}: tile = the roles' ALU summed: "
              f"{'yes' if abs(tile - sum(alus)) < 1e-3 * tile else 'no'}")
        print(f"{label}: tile > the longest role's ALU: "
              f"{'yes' if tile > 1.2 * max(alus) else 'no'}")
