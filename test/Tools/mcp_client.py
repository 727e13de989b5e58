# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A scripted MCP client for cake-mcp (test/Tools/cake-mcp.test): sends
one session's requests, good and bad, on stdin, then checks that every
line the server wrote is one JSON document, answering the requests in
order, and prints a line per answer for FileCheck.

With --slow, the session is one tool call that runs long (cake_lower of
300 renamed copies of GOOD, about a minute of lowering), then a ping: run
with a short --time-limit, the call is stopped and the server goes on.

usage: mcp_client.py CAKE_MCP GOOD.cake.mlir BAD.cake.mlir [--slow]
                     [server options]
"""
import json
import os
import subprocess
import sys

server, good, bad = sys.argv[1:4]
good_ir, bad_ir = open(good).read(), open(bad).read()
slow = "--slow" in sys.argv
options = [a for a in sys.argv[4:] if a != "--slow"]


def stages_space(values):
    return {"tactics": [{"pass": "cake-set-stages", "fixed": "pipe=0",
                         "option": "stages", "values": values}]}


def call(i, tool, **args):
    return {"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {"name": tool, "arguments": args}}


requests = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "mcp_client.py", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    call(3, "cake_verify", ir=good_ir, name="good.cake.mlir"),
    call(4, "cake_verify", ir=bad_ir, name="bad.cake.mlir"),
    call(5, "cake_summarize", ir=good_ir),
    call(6, "cake_cost", ir=good_ir, shapes="4096x4096,4096x4096"),
    call(7, "cake_lower", ir=good_ir, format="ptx"),
    call(8, "cake_verify", ir="cake.kernel @k(", name="broken.mlir"),
    call(9, "no_such_tool", ir=good_ir),
    call(10, "cake_verify", source=good_ir),
    call(11, "cake_lower", ir=good_ir, format="sass"),
    call(12, "cake_cost", ir=good_ir),
    {"jsonrpc": "2.0", "id": 13, "method": "resources/list"},
    {"jsonrpc": "2.0", "id": 14, "method": "ping"},
    "this is not JSON",
    [{"jsonrpc": "2.0", "id": 15, "method": "ping"}],
    {"jsonrpc": "1.0", "id": 16, "method": "ping"},
    call(17, "cake_verify", ir="x" * 100000),
    {"jsonrpc": "2.0", "id": 18, "method": "ping"},
    call(22, "cake_apply_tactic", ir=good_ir, tactic="cake-set-stages",
         options="pipe=0 stages=3"),
    call(23, "cake_apply_tactic", ir=good_ir, tactic="cake-cost",
         options="json=/tmp/x"),
    call(24, "cake_apply_tactic", ir=good_ir, tactic="cake-set-stages",
         options="pipe=0},cake-lower{"),
    call(25, "cake_apply_tactic", ir=good_ir, tactic="cake-set-stages",
         options="pipe=7 stages=3"),
    # cake_evolve: a grid of four stage counts, one too many for shared
    # memory; then spaces that name a pass that is not a tactic, options
    # that would start another pass, too large a grid, bad arguments.
    call(26, "cake_evolve", ir=good_ir, shapes="4096x4096,4096x4096",
         space=stages_space([2, 3, 4, 16]), top=2),
    call(27, "cake_evolve", ir=good_ir, shapes="4096x4096,4096x4096",
         space={"tactics": [{"pass": "cake-cost", "option": "json",
                             "values": ["/tmp/x"]}]}),
    call(28, "cake_evolve", ir=good_ir, shapes="4096x4096,4096x4096",
         space=stages_space(["3},cake-lower{"])),
    call(29, "cake_evolve", ir=good_ir, shapes="4096x4096,4096x4096",
         space={"tactics": [dict(stages_space(list(range(1, 33)))
                                 ["tactics"][0]),
                            {"pass": "cake-set-swizzle", "fixed": "ring=0",
                             "option": "swizzle",
                             "values": [0, 32, 64, 128] * 8}]}),
    call(30, "cake_evolve", ir=good_ir, shapes="4096x4096,4096x4096",
         space=stages_space([2]), sample=1000),
    call(31, "cake_evolve", ir=good_ir, shapes="4096x4096,4096x4096"),
    # cake_cost_diff: the kernel against itself with one stage, which the
    # model predicts slower; a second kernel that does not verify.
    call(32, "cake_cost_diff", ir=good_ir,
         ir_b=good_ir.replace("<4 x", "<1 x").replace("pipe<4>", "pipe<1>"),
         shapes="8192x8192,8192x8192"),
    call(33, "cake_cost_diff", ir=good_ir, ir_b=bad_ir,
         shapes="8192x8192,8192x8192"),
    call(34, "cake_cost_diff", ir=good_ir, shapes="8192x8192,8192x8192"),
    # gpu: another GPU's calibration by name; never a path.
    call(35, "cake_cost", ir=good_ir, shapes="4096x4096,4096x4096",
         gpu="h100"),
    call(36, "cake_cost", ir=good_ir, shapes="4096x4096,4096x4096",
         gpu="../../etc/passwd"),
    call(37, "cake_cost_diff", ir=good_ir, ir_b=good_ir,
         shapes="4096x4096,4096x4096", gpu="nosuch"),
]
if slow:
    name = good_ir.split("cake.kernel @", 1)[1].split("(", 1)[0]
    many = "\n".join(good_ir.replace("@" + name, f"@k{i}")
                     for i in range(300))
    requests = [requests[0], call(20, "cake_lower", ir=many, format="ptx"),
                {"jsonrpc": "2.0", "id": 21, "method": "ping"}]
lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
out = subprocess.run([server] + options, input="\n".join(lines) + "\n",
                     capture_output=True, text=True, timeout=300)
print("exit", out.returncode)
answers = [json.loads(line) for line in out.stdout.splitlines()]
for a in answers:
    assert a["jsonrpc"] == "2.0", a
    if "error" in a:
        print(a["id"], "error", a["error"]["code"], a["error"]["message"])
        continue
    r = a["result"]
    if a["id"] == 1:
        print(1, r["protocolVersion"], r["serverInfo"]["name"],
              sorted(r["capabilities"]))
    elif a["id"] == 2:
        print(2, [t["name"] for t in r["tools"]],
              all("inputSchema" in t for t in r["tools"]))
        # cake_apply_tactic's description lists the tactics it takes (from
        # the server's own list): each is a pass of cake-opt, beside it.
        desc = next(t["description"] for t in r["tools"]
                    if t["name"] == "cake_apply_tactic")
        tactics = desc.split("Tactics: ", 1)[1].rstrip(".").split(", ")
        opt = os.path.join(os.path.dirname(server), "cake-opt")
        passes = subprocess.run([opt, "--help"], capture_output=True,
                                text=True).stdout
        print("  tactics", len(tactics), all(
            f"--{t} " in passes or f"--{t}\n" in passes for t in tactics))
    elif "content" in r and "structuredContent" not in r:
        print(a["id"], "isError", r["isError"], r["content"][0]["text"])
    elif "content" in r:
        s = r.get("structuredContent") or {}
        # the text content is the structured result, as JSON
        if s:
            assert json.loads(r["content"][0]["text"]) == s
        rules = [d.get("rule", "") for d in s.get("diagnostics", [])
                 if d["severity"] == "error"]
        keys = sorted(k for k in s if k not in ("ok", "diagnostics"))
        print(a["id"], "isError", r["isError"], "keys", keys, "rules", rules,
              "locations", [d.get("location", "")
                            for d in s.get("diagnostics", [])][:1])
        if "summary" in s and "ledger" not in s:
            print("  summary kernels", [k["name"] for k in s["summary"]
                                        ["kernels"]][:2])
        if "report" in s:
            print("  report", sorted(s["report"][0])[:3])
            if a["id"] == 35:
                print("  calibration", s["report"][0]["calibration"]["gpu"])
        if "ptx" in s:
            print("  ptx", ".entry" in s["ptx"])
        if "ir" in s:
            print("  ir", [line.strip() for line in s["ir"].splitlines()
                           if "cake.ring :" in line][:1])
        if "ledger" in s:
            sm = s["summary"]
            print("  evolve grid", sm["grid"], "candidates",
                  sm["candidates"], "ranked", sm["ranked"], "rejected",
                  sm["rejected_by_rule"], "ledger", len(s["ledger"]))
            top = s["top"]
            print("  top", [t["tactics"] for t in top],
                  all(a["predicted_ns"] <= b["predicted_ns"]
                      for a, b in zip(top, top[1:])))
        if "diff" in s:
            d = s["diff"]
            print("  diff faster", d["faster"], "ratio",
                  round(d["ratio_b_over_a"], 2), "decided_by",
                  d["decided_by"], "decisions",
                  [t["term"] for t in d["decisions"]][:2], "first time term",
                  d["time_terms"][0]["term"])
        if (not s.get("ok") and s.get("diagnostics")
                and "location" not in s["diagnostics"][0]):
            print("  message", s["diagnostics"][0]["message"].strip()[:90])
    else:
        print(a["id"], "result", r)
print("answers", len(answers))
