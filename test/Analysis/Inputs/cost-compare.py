# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Prints facts about pairs of cake-cost JSON reports for
cake-cost-directions.test: argv = base (4 stages), 2 stages, extra
epilogue map, tiny N."""
import json
import sys

base, s2, alpha, tiny = (json.load(open(p))[0] for p in sys.argv[1:5])


def term(r, name):
    return next(x["ns"] for x in r["resources"] if x["name"] == name)


print("4 stages bound by latency:",
      "yes" if base["bottleneck"]["resource"] == "pipeline-latency" else "no")
print("2 stages bottleneck:", s2["bottleneck"]["resource"])
print("2 stages slower:", "yes" if s2["predicted_ns"] > base["predicted_ns"] else "no")
print("2 stages latency term larger:", "yes" if term(s2, "pipeline-latency")
      > term(base, "pipeline-latency") else "no")
print("extra map: epilogue term larger:", "yes" if term(alpha, "epilogue-alu")
      > term(base, "epilogue-alu") else "no")
print("extra map: added ALU ops:", int(alpha["work"]["alu_ops"] - base["work"]["alu_ops"]))
print("extra map: tensor-core term unchanged:", "yes" if term(alpha, "tensor-core")
      == term(base, "tensor-core") else "no")
print("tiny N bottleneck:", tiny["bottleneck"]["resource"])
print("tiny N flops:", int(tiny["work"]["flops"]))
