#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Hand-edited PTX of the attention forward, to find what makes ptxas wait
for P V before the step's softmax (docs/benchmarks/attention.md: the SASS
of runs 4, 7 and 12-13 had `WARPGROUP.DEPBAR.LE gsb0, 0x0` at the top of
the softmax, where the PTX waits with `wgmma.wait_group 2`). Diagnosis
only: the edits are for this kernel's PTX (`cake-lower{format=ptx}` of
examples/attention/attention_fwd_d128.cake.mlir), not a general tool.

    ptx_variants.py edit IN.ptx OUT.ptx [zero] [keep] [merge]
        zero   the S accumulator's zero-fill (64 mov.b32) dropped and its
               first wgmma given scale-d = 0 (keep: the movs kept);
        merge  the two 64-column halves of S, and of P V, in one commit
               group each; waits recounted (2 -> 1, 1 -> 0).
    ptx_variants.py text A.cubin B.cubin
        how many 16-byte SASS instructions of the kernel's .text differ
        (no disassembler needed: this machine has ptxas, not cuobjdump).
    ptx_variants.py waits X.cubin ...
        without a disassembler: for every wgmma wait that leaves groups in
        flight, how many MUFU (ex2) instructions run before the next wait
        for all of them; the opcodes are the sm_90a encodings read off
        small PTX kernels assembled by ptxas 13.0 (OPCODES below).
    ptx_variants.py sass X.cubin ...
        on the GPU machine (cuobjdump): the kernel's wgmma issues, waits,
        barriers, MUFU.EX2 runs and branches in order, to see where the
        P V wait sits relative to the softmax.

Found on 2026-12-05 without a GPU (ptxas 13.0): `zero keep` gives SASS
identical to the original (ptxas already folds the zero-fill into the
wgmma), `zero` without keep spills (the undefined accumulator is live
across the loop), `merge` keeps 3152 instructions but changes 226; where
its waits land needs `sass` on the device.

Found on 2026-12-06 (`waits`, confirmed by `sass` on an H100): ptxas
hoists WARPGROUP.DEPBAR above the instructions that do not need the
groups it waits for; in every variant above the wait for P V sits before
all 66 MUFU.EX2. A `fence.acq_rel.cta` before the wait keeps it after
them (the lowering's `fence-waits`; docs/benchmarks/attention.md, run
26, where it measured slower).
"""
import re
import struct
import subprocess
import sys


def scale_zero(ptx, keep):
    """A run of `mov.b32 %rZ, 0;` and copies of %rZ (an accumulator's
    zero-fill), then the wgmma whose first accumulator is %rZ: scale-d = 0
    for that wgmma, the movs dropped unless `keep`."""
    lines = ptx.split("\n")
    res, i, pending, n = [], 0, None, 0
    while i < len(lines):
        m = re.match(r"\s*mov\.b32\s+%r(\d+), 0;$", lines[i])
        if m:
            z, j, regs = m.group(1), i + 1, 1
            while j < len(lines) and re.match(
                    r"\s*mov\.b32\s+%r\d+, %r" + z + ";$", lines[j]):
                regs, j = regs + 1, j + 1
            if regs >= 32:
                pending, n = z, n + 1
                if not keep:
                    i = j
                    continue
        if pending and "wgmma.mma_async" in lines[i] and \
                ("{%r" + pending + ",") in lines[i]:
            for k in range(len(res) - 1, max(len(res) - 4, 0), -1):
                if "setp.ne.b32 p, 1, 0;" in res[k]:
                    res[k] = res[k].replace("p, 1, 0;", "p, 0, 0;")
                    break
            else:
                sys.exit("ptx_variants: no scale-d predicate before the wgmma")
            pending = None
        res.append(lines[i])
        i += 1
    print(f"zero: {n} zero-fills", file=sys.stderr)
    return "\n".join(res)


def merge_groups(ptx):
    """Drop a commit whose next wgmma instruction is a fence with nothing
    but plain code between (no label, branch or wait): consecutive chains
    become one group. Waits recounted for this kernel's two-group steps."""
    lines = ptx.split("\n")
    idx = [i for i, l in enumerate(lines) if "wgmma." in l]
    drop = {a for a, b in zip(idx, idx[1:])
            if "commit_group" in lines[a] and "fence" in lines[b]
            and not any(l.startswith("$L") or "bra" in l or "wait_group" in l
                        for l in lines[a + 1:b])}
    txt = "\n".join(l for i, l in enumerate(lines) if i not in drop)
    wait = "wgmma.wait_group.sync.aligned \t{};"
    txt = txt.replace(wait.format(1), wait.format(0))
    txt = txt.replace(wait.format(2), wait.format(1))
    print(f"merge: {len(drop)} commits dropped", file=sys.stderr)
    return txt


def kernel_text(path):
    """The bytes of the cubin's first .text.<kernel> section."""
    b = open(path, "rb").read()
    shoff, = struct.unpack_from("<Q", b, 0x28)
    size, num, strndx = struct.unpack_from("<HHH", b, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * size)
            for i in range(num)]
    names = secs[strndx][4]
    for s in secs:
        name = b[names + s[0]:b.index(b"\0", names + s[0])].decode()
        if name.startswith(".text."):
            return b[s[4]:s[4] + s[5]]
    sys.exit(f"ptx_variants: no .text section in {path}")


# sm_90a opcodes (the low 12 bits of an instruction's first word), read
# off small PTX kernels assembled by ptxas 13.0: one instruction each.
OPCODES = {0x9c5: "WARPGROUP", 0x9f0: "HGMMA", 0xdf0: "HGMMA.RS",
           0x308: "MUFU", 0xb1d: "BAR", 0x51d: "BAR.ARV", 0xf89: "SHFL",
           0x387: "STL", 0x983: "LDL", 0x947: "BRA", 0x23e: "F2FP"}


def decoded(path):
    """(index, name) of the kernel's instructions OPCODES names, with
    WARPGROUP split into ARRIVE and DEPBAR<n> (wait until n groups
    remain: bit 47 of the first word, byte 1 of the second)."""
    text = kernel_text(path)
    out = []
    for i in range(0, len(text), 16):
        lo, hi = struct.unpack_from("<QQ", text, i)
        name = OPCODES.get(lo & 0xFFF)
        if name == "WARPGROUP":
            name = f"DEPBAR{(hi >> 8) & 0xFF}" if (lo >> 47) & 1 else "ARRIVE"
        if name:
            out.append((i // 16, name))
    return out


def waits_summary(path):
    ops = decoded(path)
    print(f"== {path}")
    for k, (i, name) in enumerate(ops):
        if not name.startswith("DEPBAR") or name == "DEPBAR0":
            continue
        before = after = 0
        waited = False
        for _, later in ops[k + 1:]:
            if later == "ARRIVE":
                break
            waited = waited or later == "DEPBAR0"
            if later == "MUFU":
                after += waited
                before += not waited
        print(f"  {name} at {i}: {before} MUFU before the wait for all, "
              f"{after} after")


def sass_summary(path):
    out = subprocess.run(["cuobjdump", "-sass", path], capture_output=True,
                         text=True, check=True).stdout
    keys = ("HGMMA", "WARPGROUP", "MUFU.EX2", "BAR", "SHFL", "SYNCS", "BRA",
            "STL", "LDL")
    last, count, first = None, 0, 0
    print(f"== {path}")
    for line in out.split("\n"):
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if not m:
            continue
        text = m.group(2).strip()
        op = text.split()[1] if text.startswith("@") else text.split()[0]
        if not op.startswith(keys):
            continue
        label = text if op.startswith(("WARPGROUP", "BAR", "SYNCS")) else \
            op.split(".")[0] + (".EX2" if "EX2" in op else "")
        if label == last:
            count += 1
            continue
        if last:
            print(f"  {last}{f' x{count}' if count > 1 else ''} @{first:x}")
        last, count, first = label, 1, int(m.group(1), 16)
    if last:
        print(f"  {last}{f' x{count}' if count > 1 else ''} @{first:x}")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmd = sys.argv[1]
    if cmd == "edit":
        ptx, out, edits = sys.argv[2], sys.argv[3], sys.argv[4:]
        text = open(ptx).read()
        if "zero" in edits:
            text = scale_zero(text, "keep" in edits)
        if "merge" in edits:
            text = merge_groups(text)
        open(out, "w").write(text)
    elif cmd == "text":
        a, b = kernel_text(sys.argv[2]), kernel_text(sys.argv[3])
        diff = sum(a[i:i + 16] != b[i:i + 16]
                   for i in range(0, min(len(a), len(b)), 16))
        print(f"{len(a) // 16} and {len(b) // 16} instructions, "
              f"{diff} differ")
    elif cmd == "waits":
        for path in sys.argv[2:]:
            waits_summary(path)
    elif cmd == "sass":
        for path in sys.argv[2:]:
            sass_summary(path)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
