# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Prints facts about two cake-cost JSON reports for
cake-cost-multicast.test: argv = the GEMM without a cluster, the same GEMM
in clusters of two with B multicast."""
import json
import sys

plain, multicast = (json.load(open(p))[0] for p in sys.argv[1:3])


def term(r, name):
    return next(x["ns"] for x in r["resources"] if x["name"] == name)


for name in ("l2", "tma"):
    print(f"multicast: {name} term smaller:",
          "yes" if term(multicast, name) < term(plain, name) else "no")
print("multicast: TMA bytes ratio: %.3f"
      % (multicast["work"]["tma_bytes"] / plain["work"]["tma_bytes"]))
print("multicast: tensor-core term unchanged:",
      "yes" if term(multicast, "tensor-core") == term(plain, "tensor-core") else "no")
print("multicast: faster:",
      "yes" if multicast["predicted_ns"] < plain["predicted_ns"] else "no")
