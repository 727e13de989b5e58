#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Mutation harness for Cake's verifier.

Applies systematic mutations to valid kernels (drop a release, reorder an
acquire and its commit, change a stage count, a tile, a register budget, a
box dimension, a trip count, the target, a role's warp shape, remove a
fence, an attention product's operand layout or type, a stage read or
reduced outside its wait, a scanned fragment's row, a top-k list's shape,
a keyed scatter's reduction) and runs `cake-opt --cake-verify` on every mutant. Reports, per
mutation class, how many mutants the verifier rejects and with which rule
(from --cake-diagnostics-json), and writes the table as Markdown.

Classes marked "yes" break a contract in every kernel and must all be
rejected; `--check` exits non-zero if one is not (or if cake-opt crashes
or hangs on any mutant). "depends" classes break one only in some kernels
(doubled stages may or may not fit); "no" classes are legal. Mutants that
verify can be written out (--emit-passing DIR) to run on the GPU.

--lower also lowers every kernel given and every mutant that verifies
(`cake-verify,cake-lower{format=ptx}`): a kernel that passes cake-verify
must lower (issue #24), so one that does not is reported like a mutant
not caught. With --ptxas PTXAS the PTX of each is also assembled for
sm_90a, so a contract that only ptxas enforces (register limits,
instruction forms, address spaces) shows up as a failure too.

usage: mutate.py [--cake-opt build/bin/cake-opt] [--markdown FILE]
                 [--check] [--lower [--ptxas PTXAS]] [--emit-passing DIR]
                 [kernel.cake.mlir ...]
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def lines_matching(text, pattern):
    return [i for i, l in enumerate(text.split("\n")) if re.search(pattern, l)]


def drop_line(text, index):
    lines = text.split("\n")
    del lines[index]
    return "\n".join(lines)


def each_line(pattern, edit):
    """Mutants: `edit` applied to each line matching `pattern` in turn."""
    def gen(text):
        for i in lines_matching(text, pattern):
            lines = text.split("\n")
            new = edit(lines, i)
            if new is not None:
                yield "\n".join(new)
    return gen


def drop(pattern):
    return each_line(pattern, lambda lines, i: lines[:i] + lines[i + 1:])


def commit_before_loads(lines, i):
    # Move the commit right after its acquire: the copies then land in a
    # stage already handed over.
    for j in range(i - 1, -1, -1):
        if "cake.pipe.acquire" in lines[j]:
            if j + 1 == i:
                return None
            return lines[:j + 1] + [lines[i]] + lines[j + 1:i] + lines[i + 1:]
    return None


def replace_all(old, new):
    def gen(text):
        if old in text:
            yield text.replace(old, new)
    return gen


# What sm_80 lacks of what sm_90a kernels use (hw.arch-feature, hw.cluster):
# TMA copies, wgmma, setmaxnreg and clusters. A kernel with none of them
# is a legal sm_80 kernel (cake-lower has an sm_80 lowering).
SM90_ONLY = re.compile(r"cake\.tma\.|cake\.mma wgmma|regs\(\d+\)|cluster = ")


def retarget_sm80(uses_sm90_only):
    def gen(text):
        if '"sm_90a"' in text and bool(SM90_ONLY.search(text)) == uses_sm90_only:
            yield text.replace('"sm_90a"', '"sm_80"')
    return gen


def drop_b_mn_major(text):
    """Every B read K-major instead of MN-major. Only a K x N tile with
    K != N makes that a broken contract (the shapes no longer agree): a
    square tile read the other way round is a legal, different product."""
    if " mn_major," not in text:
        return
    shapes = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in re.finditer(
        r"%(\w+) = cake\.ring : !cake\.ring<\d+ x (\d+)x(\d+)x", text)}
    read = re.findall(r"%(\w+)\[%\w+\] mn_major,", text)
    if read and all(shapes.get(r, (0, 0))[0] != shapes.get(r, (0, 0))[1]
                    for r in read):
        yield text.replace(" mn_major,", ",")


def ring_types(text):
    return sorted(set(re.findall(r"!cake\.ring<[^>]*>", text)))


def per_ring(edit):
    """Mutants: one ring type rewritten consistently through the file."""
    def gen(text):
        for t in ring_types(text):
            new = edit(t)
            if new and new != t:
                yield text.replace(t, new)
    return gen


def ring_stages(delta):
    def edit(t):
        m = re.match(r"!cake\.ring<(\d+) x (.*)>", t)
        return f"!cake.ring<{int(m.group(1)) + delta} x {m.group(2)}>"
    return per_ring(edit)


def all_stages(factor):
    def gen(text):
        new = re.sub(r"(!cake\.ring<|!cake\.pipe<)(\d+)",
                     lambda m: f"{m.group(1)}{int(m.group(2)) * factor}", text)
        if new != text:
            yield new
    return gen


def ring_dim(which, value):
    def edit(t):
        m = re.match(r"!cake\.ring<(\d+) x (\d+)x(\d+)x(\w+), (.*)>", t)
        if not m:
            return None
        dims = [int(m.group(2)), int(m.group(3))]
        dims[which] = value
        return (f"!cake.ring<{m.group(1)} x {dims[0]}x{dims[1]}x{m.group(4)}, "
                f"{m.group(5)}>")
    return per_ring(edit)


def role_regs(value):
    return each_line(r"cake\.role .*regs\(\d+\)",
                     lambda l, i: l[:i] + [re.sub(r"regs\(\d+\)",
                                                  f"regs({value})", l[i])] +
                     l[i + 1:])


def one_loop_step(old, new):
    """Change a loop step constant in one role only: the last definition
    `%c = arith.constant <old> : index` whose value some scf.for takes as
    its step (a constant used only as an offset is not a step)."""
    pat = re.compile(r"(%[\w]+) = arith\.constant " + re.escape(old)
                     + r" : index")

    def gen(text):
        defs = [m for m in pat.finditer(text)]
        steps = [m for m in defs
                 if re.search(r"step " + re.escape(m.group(1)) + r"\b",
                              text[m.end():])]
        if len(defs) >= 2 and steps:
            m = steps[-1]
            yield (text[:m.start()] + f"{m.group(1)} = arith.constant {new} "
                   ": index" + text[m.end():])
    return gen


def one_step(old, new):
    """Change the loop step constant in one role only (the last one)."""
    def gen(text):
        idx = [m.start() for m in re.finditer(re.escape(old), text)]
        if len(idx) >= 2:
            k = idx[-1]
            yield text[:k] + new + text[k + len(old):]
    return gen


# A stage read into registers: cake.smem.read %ring[%s] or cake.smem.reduce
# ... %ring[%s0, %s1] (every stage named in the brackets).
SMEM_READ = r"cake\.smem\.(?:read|reduce)\b"


def stages_read(line):
    m = re.search(SMEM_READ + r"[^%]*%[\w]+\[([^\]]+)\]", line)
    return [s.strip() for s in m.group(1).split(",")] if m else []


def read_through_acquire(lines, i):
    """A smem.read (or smem.reduce) through the stage its role took with
    pipe.acquire on the same pipe (still being filled: the copy has not
    landed)."""
    stages = stages_read(lines[i])
    if not stages:
        return None
    for j in range(i - 1, -1, -1):
        # Only the reading role's own acquires: another role's stage value
        # is not in scope here.
        if "cake.role" in lines[j]:
            return None
        a = re.match(r"\s*(%[\w]+) = cake\.pipe\.acquire", lines[j])
        if a:
            # The acquire may carry the same name as this wait: then there
            # is no mutant.
            if a.group(1) in stages:
                return None
            new = re.sub(rf"{re.escape(stages[0])}(?=[\],])", a.group(1),
                         lines[i], count=1)
            return lines[:i] + [new] + lines[i + 1:]
    return None


def release_before_read(lines, i):
    """The release of a stage a smem.read (or smem.reduce) reads moved above
    the read: the producer may refill it under the read."""
    stages = stages_read(lines[i])
    if not stages:
        return None
    for j in range(i + 1, len(lines)):
        if re.search(rf"cake\.pipe\.release %[\w]+, {re.escape(stages[0])}\b",
                     lines[j]):
            return lines[:i] + [lines[j]] + lines[i:j] + lines[j + 1:]
    return None


def row_past_end(lines, i):
    """cake.frag.row %f[r] -> %f[R], R the fragment's row count."""
    m = re.search(r"cake\.frag\.row (%[\w]+)\[(\d+)\] : !cake\.frag<(\d+)x",
                  lines[i])
    if not m:
        return None
    new = lines[i].replace(f"{m.group(1)}[{m.group(2)}]",
                           f"{m.group(1)}[{m.group(3)}]", 1)
    return lines[:i] + [new] + lines[i + 1:]


def topk_types(text):
    return sorted(set(re.findall(r"!cake\.topk<\d+x\d+xf32>", text)))


def per_topk(edit):
    """Mutants: one top-k list type rewritten through the file."""
    def gen(text):
        for t in topk_types(text):
            r, k = map(int, re.match(r"!cake\.topk<(\d+)x(\d+)", t).groups())
            new = edit(r, k)
            if new:
                yield text.replace(t, f"!cake.topk<{new[0]}x{new[1]}xf32>")
    return gen


def scatter_reduce(kind, f32_only):
    """A cake.scatter's `reduce sum` made `kind` (dropped where None), on
    scatters of f32 values when `f32_only` (the type is on the op's line
    or the next)."""
    def edit(lines, i):
        if "reduce sum" not in lines[i]:
            return None
        if f32_only and "xf32>," not in " ".join(lines[i:i + 2]):
            return None
        new = lines[i].replace("reduce sum", f"reduce {kind}" if kind else "")
        return lines[:i] + [new.rstrip()] + lines[i + 1:]
    return each_line(r"^\s*cake\.scatter ", edit)


# name -> (generator, breaks a contract?): True for every mutant, False
# for none, None when it depends on the kernel (e.g. whether doubled stages
# still fit shared memory): those are reported but not in the catch rate.
CLASSES = collections.OrderedDict([
    ("drop a release", (drop(r"cake\.pipe\.release"), True)),
    ("drop a commit", (drop(r"cake\.pipe\.commit"), True)),
    ("commit before the copies", (each_line(r"cake\.pipe\.commit",
                                            commit_before_loads), True)),
    ("drop a fence", (drop(r"cake\.fence\.proxy_async"), True)),
    ("one ring's stages +1", (ring_stages(+1), True)),
    ("every stage count x2 (fits or not)", (all_stages(2), None)),
    ("ring rows 128 -> 96", (ring_dim(0, 96), True)),
    ("ring inner dim -> 128 (past the swizzle)", (ring_dim(1, 128), True)),
    ("ring rows -> 512 (past the TMA box)", (ring_dim(0, 512), True)),
    ("register budget -> 236", (role_regs(236), True)),
    ("register budget -> 256 (fits or not)", (role_regs(256), None)),
    ("register budget -> 16", (role_regs(16), True)),
    ("one role's K step 64 -> 32", (one_loop_step("64", "32"), True)),
    ("one role's K step 128 -> 64", (one_loop_step("128", "64"), True)),
    ("one role's work-list column 1 -> 2",
     (one_step("%Work[%u, %c1]", "%Work[%u, %c2]"), True)),
    ("target sm_90a -> sm_80", (retarget_sm80(True), True)),
    ("target sm_90a -> sm_80 (nothing sm_80 lacks: legal)",
     (retarget_sm80(False), False)),
    ("warpgroups(2) -> warps(6)", (replace_all("warpgroups(2)", "warps(6)"),
                                   True)),
    ("every stage count -1 (deadlocks or not)", (all_stages(1), None)),
    # Attention's register-operand products (examples/attention/): V read
    # K-major where it is stored [kv, d], and P packed to f16 against a
    # bf16 V.
    ("P V's B read K-major (mn_major dropped)",
     (drop_b_mn_major, True)),
    ("a 128x128 bf16 fragment retyped f16 (attention's P)",
     (replace_all("!cake.frag<128x128xbf16>", "!cake.frag<128x128xf16>"),
      True)),
    ("group_m -> 4 (legal)", (replace_all("group_m = 8", "group_m = 4"),
                              False)),
    # A stage read into registers (cake.smem.read) before its copy lands or
    # after it is handed back.
    ("a smem.read through the acquired stage",
     (each_line(r"cake\.smem\.read", read_through_acquire), True)),
    ("the stage released before its smem.read",
     (each_line(r"cake\.smem\.read", release_before_read), True)),
    # The release moved above a row reduction of the stage (KNN's fused
    # norms; their roles only wait, so there is no acquired stage to read).
    ("the stage released before its smem.reduce",
     (each_line(r"cake\.smem\.reduce", release_before_read), True)),
    # KDA's row of a scanned fragment taken past its last row.
    ("a frag.row past the fragment's rows",
     (each_line(r"cake\.frag\.row", row_past_end), True)),
    # KNN's top-k lists: rows no longer the candidates' (or the role's),
    # k no longer the stored tensor's.
    ("a top-k list's rows halved",
     (per_topk(lambda r, k: (r // 2, k)), True)),
    ("a top-k list's k + 2 (the stored tensor's k unchanged)",
     (per_topk(lambda r, k: (r, k + 2)), True)),
    # The k-means update's keyed sums (cake.scatter): a max of f32, which
    # red.global does not order; a plain store instead of the sum is legal
    # (equal keys then race, by the op's definition).
    ("a scatter's f32 sum made a max",
     (scatter_reduce("max", True), True)),
    ("a scatter's sum made a plain store (legal)",
     (scatter_reduce(None, False), False)),
])


def stage_minus_one(text):
    new = re.sub(r"(!cake\.ring<|!cake\.pipe<)(\d+)",
                 lambda m: f"{m.group(1)}{max(1, int(m.group(2)) - 1)}", text)
    if new != text:
        yield new


CLASSES["every stage count -1 (deadlocks or not)"] = (stage_minus_one, None)


def verify(cake_opt, text, workdir):
    src = os.path.join(workdir, "mutant.mlir")
    js = os.path.join(workdir, "diags.json")
    with open(src, "w") as f:
        f.write(text)
    if os.path.exists(js):
        os.remove(js)
    try:
        p = subprocess.run([cake_opt, "--cake-verify", src, "-o", os.devnull,
                            f"--cake-diagnostics-json={js}"],
                           capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "timeout", []
    if p.returncode < 0:
        return "crash", []
    rules = []
    if os.path.exists(js):
        with open(js) as f:
            rules = sorted({d["rule"] or "parser/other" for d in json.load(f)
                            if d["severity"] == "error"})
    if p.returncode == 0:
        return "passed", rules
    return "rejected", rules or ["parser/other"]


def target_of(text):
    """The kernel's #cake.target architecture (ptxas -arch)."""
    m = re.search(r'#cake\.target<"([^"]+)">', text)
    return m.group(1) if m else "sm_90a"


def lowers(cake_opt, text, workdir, ptxas=None):
    """None if the verified kernel lowers to PTX (and, given ptxas, that
    PTX assembles for the kernel's target, sm_90a or sm_100a), else the
    first error."""
    src = os.path.join(workdir, "lower.mlir")
    lowered = os.path.join(workdir, "lowered.mlir")
    ptx = os.path.join(workdir, "lowered.ptx")
    with open(src, "w") as f:
        f.write(text)
    translate = os.path.join(os.path.dirname(cake_opt), "cake-translate")
    steps = [("cake-lower", [cake_opt, "--cake-verify",
                             "--cake-lower=format=ptx", src, "-o",
                             lowered if ptxas else os.devnull])]
    if ptxas:
        steps += [("cake-translate", [translate, "--cake-to-ptx", lowered,
                                      "-o", ptx]),
                  ("ptxas", [ptxas, f"-arch={target_of(text)}", ptx, "-o",
                             os.devnull])]
    for what, cmd in steps:
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=120)
        except subprocess.TimeoutExpired:
            return f"{what}: timeout"
        if p.returncode != 0:
            lines = [l for l in p.stderr.splitlines() if "error" in l]
            return f"{what}: " + (lines[0] if lines
                                  else f"exit {p.returncode}")[:300]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cake-opt", default=os.path.join(ROOT, "build/bin/cake-opt"))
    ap.add_argument("--markdown")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--lower", action="store_true",
                    help="lower the kernels and every mutant that verifies")
    ap.add_argument("--ptxas",
                    help="with --lower, also assemble each PTX for its "
                         "target")
    ap.add_argument("--emit-passing")
    ap.add_argument("kernels", nargs="*")
    args = ap.parse_args()
    kernels = args.kernels or sorted(
        glob.glob(os.path.join(ROOT, "examples/*.cake.mlir")) +
        glob.glob(os.path.join(ROOT, "examples/*/*.cake.mlir")))

    stats = collections.OrderedDict()
    bad = []
    passing = 0
    lowered = 0
    with tempfile.TemporaryDirectory() as work:
        if args.lower:
            for k in kernels:
                err = lowers(args.cake_opt, open(k).read(), work, args.ptxas)
                lowered += 1
                if err:
                    bad.append(f"verifies but does not lower: "
                               f"{os.path.relpath(k, ROOT)}: {err}")
        for name, (gen, illegal) in CLASSES.items():
            st = dict(mutants=0, rejected=0, passed=0, crashed=0,
                      rules=collections.Counter(), illegal=illegal)
            for k in kernels:
                text = open(k).read()
                for n, m in enumerate(gen(text)):
                    st["mutants"] += 1
                    outcome, rules = verify(args.cake_opt, m, work)
                    if outcome in ("crash", "timeout"):
                        st["crashed"] += 1
                        bad.append(f"{outcome}: {name} on {k}")
                        continue
                    if outcome == "rejected":
                        st["rejected"] += 1
                        st["rules"].update(rules)
                    else:
                        st["passed"] += 1
                        if args.lower:
                            err = lowers(args.cake_opt, m, work, args.ptxas)
                            lowered += 1
                            if err:
                                bad.append(f"verifies but does not lower: "
                                           f"{name} on "
                                           f"{os.path.relpath(k, ROOT)} "
                                           f"#{n}: {err}")
                        if illegal is True:
                            bad.append(f"not caught: {name} on "
                                       f"{os.path.relpath(k, ROOT)} #{n}")
                        if args.emit_passing:
                            os.makedirs(args.emit_passing, exist_ok=True)
                            base = os.path.basename(k).replace(".cake.mlir", "")
                            slug = re.sub(r"[^a-z0-9]+", "-", name.lower())
                            out = os.path.join(args.emit_passing,
                                               f"{base}--{slug}-{n}.cake.mlir")
                            with open(out, "w") as f:
                                f.write(m)
                            passing += 1
            stats[name] = st

    rows = ["| mutation | breaks a contract | mutants | rejected | passed "
            "| rejected by |", "|---|---|---|---|---|---|"]
    tot_illegal = caught = 0
    for name, st in stats.items():
        by = ", ".join(f"`{r}` ({c})" for r, c in st["rules"].most_common())
        verdict = {True: "yes", False: "no (legal)", None: "depends"}[st["illegal"]]
        rows.append(f"| {name} | {verdict} | "
                    f"{st['mutants']} | {st['rejected']} | {st['passed']} | "
                    f"{by or '-'} |")
        if st["illegal"] is True:
            tot_illegal += st["mutants"]
            caught += st["rejected"]
    table = "\n".join(rows)
    summary = (f"{caught} of {tot_illegal} contract-breaking mutants rejected "
               f"({100.0 * caught / max(tot_illegal, 1):.1f}%) over "
               f"{len(kernels)} kernels")
    if args.lower:
        summary += (f"; {lowered} verified kernels and mutants lowered"
                    f"{' and assembled by ptxas' if args.ptxas else ''}, "
                    f"{sum('does not lower' in b for b in bad)} failed")
    print(table)
    print(summary)
    for b in bad:
        print(b)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table + "\n\n" + summary + ".\n")
    if args.check and bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
