#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the cost model's calibration microbenchmarks as Cake IR.

Each kernel isolates one term of the cost model (docs/cost-model.md):

  tma_<R>x<C>_sw<S>    TMA copy rate for one box shape and swizzle: a
                       producer warp streams boxes through a 6-stage ring,
                       a consumer warp only waits and releases. Run over a
                       large tensor (every box read once: HBM rate) and with
                       every tile reading the same rows (L2 -> shared memory
                       rate per SM), chosen by the `reuse` variant.
  latency              one CTA, a 1-stage ring, one small box per step: the
                       round trip TMA issue -> full barrier -> release ->
                       empty barrier, per pipeline step.
  wgmma_<dt>_n<N>      tensor-core rate for one instruction N and dtype: the
                       operand stages stay resident and two consumer
                       warpgroups chain R wgmma on them per tile.
  wgmma_<dt>_n<N>_w4   the same on four consumer warpgroups (256-row
                       tiles), N = 64 and 128.
  wgmma_rs_bf16_n<N>[_t]  the same rate with A from registers (wgmma's RS
                       form, attention's O += P V): A read once from its
                       stage into an accumulator-layout fragment, then R
                       chained wgmma; B K-major, N = 64 and 128, or with
                       `_t` MN-major (V as attention reads it, one 64-wide
                       swizzle atom: N = 64). Whether the RS form at
                       N = 64 runs slower per flop than at N = 128 is
                       what an N = 128 P V (cuDNN's) would gain.
  pipe_mma_<dt>_n<N>   the same wgmma fed through a 4-stage pipe, one
                       hand-off (wait, mma, release) per step, operands
                       from L2: the consumer's per-step hand-off cost is
                       its step time minus the pure wgmma time.
  epilogue_argmin      the k-means epilogue's row argmin (+ merge) per
                       element, in equivalent ALU ops
  epilogue_load        the cost of a cake.load of a 1x128 row per call
                       (its latency, exposed in a loop that uses it)
  alu                  CUDA-core epilogue rate: one wgmma per tile, then
                       frag.map chains of 8 arithmetic ops over the 128x128
                       f32 accumulator, R times.
  store                register -> global store rate (the same kernel with
                       R = 1 over a large output).
  mufu_ftz, mufu_ieee  the special-function (MUFU) rate: the alu kernel's
                       form with chains of 4 (v - 1, exp2) per element,
                       values kept in (0.5, 1]; the kernel flushing f32
                       denormals (math.exp2 is one MUFU.EX2) or not (the
                       IEEE ex2.approx, which ptxas wraps in a compare and
                       two multiplies: their cost is the difference).

usage: gen_kernels.py OUTDIR
"""
import os
import sys

HEAD = ('    attributes {{target = #cake.target<"sm_90a">,\n'
        '                schedule = #cake.persistent<tile = {tile}, '
        'group_m = 1>}} {{')


def tma(rows, cols, swizzle, reuse, stages=6, name=None):
    """reuse: False (every box once), "same" (every tile the same rows) or
    "spread" (tile rows wrap around %A, so each CTA of a persistent grid of
    dim0(%A) / rows CTAs rereads its own rows: distinct lines per SM, all
    L2 hits once %A fits in L2)."""
    ring = f"!cake.ring<{stages} x {rows}x{cols}xbf16, swizzle = {swizzle}>"
    g = "!cake.global<?x?xbf16>"
    t = "!cake.global<?xi32>"
    suffix = {False: "_hbm", True: "_l2", "same": "_l2",
              "spread": "_l2spread"}[reuse]
    name = name or f"tma_{rows}x{cols}_sw{swizzle}{suffix}"
    row = {False: "%m", True: "%c0", "same": "%c0", "spread": "%r"}[reuse]
    body = []
    for role, verb, ret in (("load", "acquire", "commit"),
                            ("drain", "wait", "release")):
        body += [
            f'  cake.role "{role}" warps(1) {{',
            f"    %T = cake.dim %Tiles, 0 : {t}",
            f"    %K = cake.dim %A, 1 : {g}",
            "    %c0 = arith.constant 0 : index",
            f"    %ck = arith.constant {cols} : index",
            f"    cake.tiles (%m) in (%T) {{",
            "      scf.for %k = %c0 to %K step %ck {",
            f"        %s = cake.pipe.{verb} %p : !cake.pipe<{stages}>",
        ]
        if role == "load" and reuse == "spread":
            body.insert(-2, f"      %R = cake.dim %A, 0 : {g}")
            body.insert(-2, "      %r = arith.remui %m, %R : index")
        if role == "load":
            body.append(f"        cake.tma.load %A[{row}, %k] -> %a[%s] "
                        f": {g} -> {ring}")
        body += [f"        cake.pipe.{ret} %p, %s : !cake.pipe<{stages}>",
                 "      }", "    }", "  }"]
    return name, "\n".join([
        f"// Generated by bench/calibrate/gen_kernels.py: TMA rate, box "
        f"{rows}x{cols} bf16, swizzle {swizzle}, "
        + {False: "every box read once.", True: "every tile reads rows 0..",
           "same": "every tile reads rows 0..",
           "spread": "tile rows wrap around %A."}[reuse],
        f"// Tiles (extent = dim 0 of %Tiles) of {rows} rows; K = dim 1 of %A.",
        f"cake.kernel @{name}(%A: {g}, %Tiles: {t})",
        HEAD.format(tile=f"[{rows}]"),
        f"  %a = cake.ring : {ring}",
        f"  %p = cake.pipe %a : {ring}",
    ] + body + ["}", ""])


def wgmma(dtype, n, wgs=2, a_regs=False, mn_major=False):
    """`wgs` consumer warpgroups (2, or 4 for the 256-row tiles: 64 rows
    each) chain R wgmma on one accumulator each. With a_regs, A is read
    once from its stage into an accumulator-layout fragment and every
    wgmma takes it from registers (the RS form); with mn_major, B is a
    64 x N tile read MN-major (one swizzle atom: N = 64)."""
    rows = 64 * wgs
    ra = f"!cake.ring<2 x {rows}x64x{dtype}, swizzle = 128>"
    b_shape = f"64x{n}" if mn_major else f"{n}x64"
    rb = f"!cake.ring<2 x {b_shape}x{dtype}, swizzle = 128>"
    g = f"!cake.global<?x64x{dtype}>"
    gc = f"!cake.global<?x?x{dtype}>"
    t = "!cake.global<?xi32>"
    acc = f"!cake.frag<{rows}x{n}xf32>"
    af = f"!cake.frag<{rows}x64x{dtype}>"
    name = (f"wgmma_{'rs_' if a_regs else ''}{dtype}_n{n}"
            + ("" if wgs == 2 else f"_w{wgs}") + ("_t" if mn_major else ""))
    # The consumers' share of the registers beside the 40 of "load".
    regs = 232 if wgs == 2 else 104
    if a_regs:
        head = ["// Generated by bench/calibrate/gen_kernels.py: tensor-core rate of",
                f"// wgmma's RS form (A from registers), {dtype}, N = {n}, B "
                + ("MN-major" if mn_major else "K-major") + ", on",
                f"// {wgs} warpgroups: R (= dim 0 of %Iters) chained mma per {rows}xN tile."]
        a_read = [f"      %af = cake.smem.read %a[%s] : {ra} -> {af}"]
        mma = (f"        %y = cake.mma wgmma %af, %b[%s]"
               + (" mn_major" if mn_major else "") + f", %x : {af}, {rb}, {acc}")
    else:
        head = ["// Generated by bench/calibrate/gen_kernels.py: tensor-core rate,",
                f"// wgmma {dtype} with N = {n} on {wgs} warpgroups: R (= dim 0 of",
                f"// %Iters) chained mma on resident stages per {rows}xN output tile."]
        a_read = []
        mma = f"        %y = cake.mma wgmma %a[%s], %b[%s], %x : {ra}, {rb}, {acc}"
    return name, "\n".join(head + [
        f"cake.kernel @{name}(%A: {g}, %B: {g}, %Iters: {t}, %C: {gc})",
        HEAD.format(tile=f"[{rows}, {n}]"),
        f"  %a = cake.ring : {ra}",
        f"  %b = cake.ring : {rb}",
        f"  %p = cake.pipe %a, %b : {ra}, {rb}",
        '  cake.role "load" warpgroups(1) regs(40) {',
        f"    %M = cake.dim %C, 0 : {gc}",
        f"    %N = cake.dim %C, 1 : {gc}",
        "    %c0 = arith.constant 0 : index",
        "    cake.tiles (%m, %n) in (%M, %N) {",
        "      %s = cake.pipe.acquire %p : !cake.pipe<2>",
        f"      cake.tma.load %A[%c0, %c0] -> %a[%s] : {g} -> {ra}",
        f"      cake.tma.load %B[%c0, %c0] -> %b[%s] : {g} -> {rb}",
        "      cake.pipe.commit %p, %s : !cake.pipe<2>",
        "    }",
        "  }",
        f'  cake.role "mma" warpgroups({wgs}) regs({regs}) {{',
        f"    %M = cake.dim %C, 0 : {gc}",
        f"    %N = cake.dim %C, 1 : {gc}",
        f"    %R = cake.dim %Iters, 0 : {t}",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    cake.tiles (%m, %n) in (%M, %N) {",
        "      %s = cake.pipe.wait %p : !cake.pipe<2>"] + a_read + [
        f"      %zero = cake.frag.zero : {acc}",
        f"      %r = scf.for %i = %c0 to %R step %c1 iter_args(%x = %zero) -> ({acc}) {{",
        mma,
        f"        scf.yield %y : {acc}",
        "      }",
        "      cake.pipe.release %p, %s : !cake.pipe<2>",
        f"      %o = cake.frag.convert %r : {acc} -> !cake.frag<{rows}x{n}x{dtype}>",
        f"      cake.store %o -> %C[%m, %n] : !cake.frag<{rows}x{n}x{dtype}> -> {gc}",
        "    }",
        "  }",
        "}", ""])


def pipe_mma(dtype, n):
    ra = f"!cake.ring<4 x 128x64x{dtype}, swizzle = 128>"
    rb = f"!cake.ring<4 x {n}x64x{dtype}, swizzle = 128>"
    g = f"!cake.global<?x64x{dtype}>"
    gc = f"!cake.global<?x?x{dtype}>"
    t = "!cake.global<?xi32>"
    acc = f"!cake.frag<128x{n}xf32>"
    name = f"pipe_mma_{dtype}_n{n}"
    dims = [f"    %M = cake.dim %C, 0 : {gc}", f"    %N = cake.dim %C, 1 : {gc}",
            f"    %R = cake.dim %Iters, 0 : {t}",
            "    %c0 = arith.constant 0 : index",
            "    %c1 = arith.constant 1 : index"]
    return name, "\n".join([
        "// Generated by bench/calibrate/gen_kernels.py: wgmma fed through a",
        f"// 4-stage pipe, {dtype}, N = {n}: R (= dim 0 of %Iters) steps of",
        "// wait, mma, release per 128xN tile; every step copies the same",
        "// boxes (L2 hits), so the step time is the consumer's.",
        f"cake.kernel @{name}(%A: {g}, %B: {g}, %Iters: {t}, %C: {gc})",
        HEAD.format(tile=f"[128, {n}]"),
        f"  %a = cake.ring : {ra}",
        f"  %b = cake.ring : {rb}",
        f"  %p = cake.pipe %a, %b : {ra}, {rb}",
        '  cake.role "load" warpgroups(1) regs(40) {',
    ] + dims + [
        "    cake.tiles (%m, %n) in (%M, %N) {",
        "      scf.for %i = %c0 to %R step %c1 {",
        "        %s = cake.pipe.acquire %p : !cake.pipe<4>",
        f"        cake.tma.load %A[%c0, %c0] -> %a[%s] : {g} -> {ra}",
        f"        cake.tma.load %B[%c0, %c0] -> %b[%s] : {g} -> {rb}",
        "        cake.pipe.commit %p, %s : !cake.pipe<4>",
        "      }",
        "    }",
        "  }",
        '  cake.role "mma" warpgroups(2) regs(232) {',
    ] + dims + [
        "    cake.tiles (%m, %n) in (%M, %N) {",
        f"      %zero = cake.frag.zero : {acc}",
        f"      %r = scf.for %i = %c0 to %R step %c1 iter_args(%x = %zero) -> ({acc}) {{",
        "        %s = cake.pipe.wait %p : !cake.pipe<4>",
        f"        %y = cake.mma wgmma %a[%s], %b[%s], %x : {ra}, {rb}, {acc}",
        "        cake.pipe.release %p, %s : !cake.pipe<4>",
        f"        scf.yield %y : {acc}",
        "      }",
        f"      %o = cake.frag.convert %r : {acc} -> !cake.frag<128x{n}x{dtype}>",
        f"      cake.store %o -> %C[%m, %n] : !cake.frag<128x{n}x{dtype}> -> {gc}",
        "    }",
        "  }",
        "}", ""])


def resident_operands(g, gc, ra, rb, stages=2):
    """Ring and pipe declarations and the copy role of a kernel whose
    operand boxes are the same every tile (A[0, 0], B[0, 0]: L2 hits), one
    hand-off per 128xN tile of %C."""
    p = f"!cake.pipe<{stages}>"
    return [
        f"  %a = cake.ring : {ra}",
        f"  %b = cake.ring : {rb}",
        f"  %p = cake.pipe %a, %b : {ra}, {rb}",
        '  cake.role "load" warpgroups(1) regs(40) {',
        f"    %M = cake.dim %C, 0 : {gc}",
        f"    %N = cake.dim %C, 1 : {gc}",
        "    %c0 = arith.constant 0 : index",
        "    cake.tiles (%m, %n) in (%M, %N) {",
        f"      %st = cake.pipe.acquire %p : {p}",
        f"      cake.tma.load %A[%c0, %c0] -> %a[%st] : {g} -> {ra}",
        f"      cake.tma.load %B[%c0, %c0] -> %b[%st] : {g} -> {rb}",
        f"      cake.pipe.commit %p, %st : {p}",
        "    }",
        "  }",
    ]


def alu(mufu=None):
    # One wgmma per tile gives every element its own value (a splat would
    # let the compiler compute one chain per thread and fold the rest).
    ra = "!cake.ring<2 x 128x64xbf16, swizzle = 128>"
    g = "!cake.global<?x64xbf16>"
    gc = "!cake.global<?x?xbf16>"
    t = "!cake.global<?xi32>"
    f = "!cake.frag<128x128xf32>"
    chain = []
    v = "%v"
    for i in range(4):
        if mufu:
            # v in (0, 1]: v - 1 in (-1, 0], exp2 of it in (0.5, 1].
            chain += [f"          %m{i} = arith.subf {v}, %one : f32",
                      f"          %a{i} = math.exp2 %m{i} : f32"]
        else:
            chain += [f"          %m{i} = arith.mulf {v}, %s : f32",
                      f"          %a{i} = arith.addf %m{i}, %o : f32"]
        v = f"%a{i}"
    name = f"mufu_{mufu}" if mufu else "alu"
    head = HEAD.format(tile="[128, 128]")
    if mufu == "ftz":
        head = head.replace("group_m = 1>}", "group_m = 1>,\n"
                            "                cake.flush_denormals = true}")
    comment = ([
        "// Generated by bench/calibrate/gen_kernels.py: the MUFU rate (one",
        "// wgmma, then R = dim 0 of %Iters maps of 4 (v - 1, exp2) over the",
        "// 128x128 accumulator per tile), denormals "
        + ("flushed." if mufu == "ftz" else "kept (IEEE ex2.approx).")]
        if mufu else [
        "// Generated by bench/calibrate/gen_kernels.py: CUDA-core epilogue",
        "// rate (one wgmma, then R = dim 0 of %Iters maps of 8 f32 ops over",
        "// the 128x128 accumulator per tile) and, with R = 1 over a large",
        "// %C, the register -> global store rate."])
    return name, "\n".join(comment + [
        f"cake.kernel @{name}(%A: {g}, %B: {g}, %Iters: {t}, %C: {gc})",
        head,
    ] + resident_operands(g, gc, ra, ra) + [
        '  cake.role "alu" warpgroups(2) regs(232) {',
        f"    %M = cake.dim %C, 0 : {gc}",
        f"    %N = cake.dim %C, 1 : {gc}",
        f"    %R = cake.dim %Iters, 0 : {t}",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    %s = arith.constant 0.999 : f32",
        "    %o = arith.constant 0.001 : f32",
    ] + (["    %one = arith.constant 1.0 : f32"] if mufu else []) + [
        "    cake.tiles (%m, %n) in (%M, %N) {",
        "      %st = cake.pipe.wait %p : !cake.pipe<2>",
        f"      %zero = cake.frag.zero : {f}",
        f"      %x0 = cake.mma wgmma %a[%st], %b[%st], %zero : {ra}, {ra}, {f}",
        "      cake.pipe.release %p, %st : !cake.pipe<2>",
        f"      %r = scf.for %i = %c0 to %R step %c1 iter_args(%x = %x0) -> ({f}) {{",
        f"        %y = cake.frag.map %x : ({f}) -> {f} {{",
        "        ^bb0(%v: f32):",
    ] + chain + [
        f"          cake.frag.yield {v} : f32",
        "        }",
        f"        scf.yield %y : {f}",
        "      }",
        f"      %c = cake.frag.convert %r : {f} -> !cake.frag<128x128xbf16>",
        f"      cake.store %c -> %C[%m, %n] : !cake.frag<128x128xbf16> -> {gc}",
        "    }",
        "  }",
        "}", ""])


def epilogue(kind):
    """kind "argmin": per iteration the accumulator moves (2 ops per
    element), then a row argmin and the best-so-far merge, as in k-means;
    kind "load": per iteration a 1x128 row of %Cn is loaded and added.
    The time beyond the maps' ALU ops is the argmin's (per element) or the
    load's (per call)."""
    ra = "!cake.ring<2 x 128x64xbf16, swizzle = 128>"
    g = "!cake.global<?x64xbf16>"
    gc = "!cake.global<?x?xbf16>"
    t = "!cake.global<?xi32>"
    gcn = "!cake.global<?xf32>"
    f = "!cake.frag<128x128xf32>"
    r1, i1 = "!cake.frag<128x1xf32>", "!cake.frag<128x1xi32>"
    name = f"epilogue_{kind}"
    if kind == "argmin":
        loop = [
            f"      %r:3 = scf.for %i = %c0 to %R step %c1 iter_args(%x = %x0, %bb = %b0, %j = %j0) -> ({f}, {r1}, {i1}) {{",
            f"        %y = cake.frag.map %x : ({f}) -> {f} {{",
            "        ^bb0(%v: f32):",
            "          %mm = arith.mulf %v, %s : f32",
            "          %aa = arith.addf %mm, %o : f32",
            "          cake.frag.yield %aa : f32",
            "        }",
            f"        %mv, %mi = cake.frag.argmin %y base %i : {f} -> {r1}, {i1}",
            f"        %nb:2 = cake.frag.map %bb, %j, %mv, %mi : ({r1}, {i1}, {r1}, {i1}) -> ({r1}, {i1}) {{",
            "        ^bb0(%ob: f32, %oi: i32, %nv: f32, %ni: i32):",
            "          %lt = arith.cmpf olt, %nv, %ob : f32",
            "          %rb = arith.select %lt, %nv, %ob : f32",
            "          %ri = arith.select %lt, %ni, %oi : i32",
            "          cake.frag.yield %rb, %ri : f32, i32",
            "        }",
            f"        scf.yield %y, %nb#0, %nb#1 : {f}, {r1}, {i1}",
            "      }",
            f"      cake.store %r#2 -> %Out[%m] : {i1} -> {t}",
        ]
    else:
        loop = [
            f"      %r = scf.for %i = %c0 to %R step %c1 iter_args(%x = %x0) -> ({f}) {{",
            f"        %cn = cake.load %Cn[%i] pad %inf : {gcn} -> !cake.frag<1x128xf32>",
            f"        %y = cake.frag.map %x, %cn : ({f}, !cake.frag<1x128xf32>) -> {f} {{",
            "        ^bb0(%v: f32, %w: f32):",
            "          %aa = arith.addf %v, %w : f32",
            "          cake.frag.yield %aa : f32",
            "        }",
            f"        scf.yield %y : {f}",
            "      }",
            f"      %c = cake.frag.convert %r : {f} -> !cake.frag<128x128xbf16>",
            f"      cake.store %c -> %C[%m, %n] : !cake.frag<128x128xbf16> -> {gc}",
        ]
    return name, "\n".join([
        "// Generated by bench/calibrate/gen_kernels.py: the k-means epilogue's",
        f"// {kind} cost (R = dim 0 of %Iters iterations per 128x128 tile).",
        f"cake.kernel @{name}(%A: {g}, %B: {g}, %Iters: {t}, %Cn: {gcn},",
        f"    %Out: {t}, %C: {gc})",
        HEAD.format(tile="[128, 128]"),
    ] + resident_operands(g, gc, ra, ra) + [
        '  cake.role "epilogue" warpgroups(2) regs(232) {',
        f"    %M = cake.dim %C, 0 : {gc}",
        f"    %N = cake.dim %C, 1 : {gc}",
        f"    %R = cake.dim %Iters, 0 : {t}",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    %s = arith.constant 0.999 : f32",
        "    %o = arith.constant 0.001 : f32",
        "    %inf = arith.constant 0x7F800000 : f32",
        "    %zi = arith.constant 0 : i32",
        "    cake.tiles (%m, %n) in (%M, %N) {",
        "      %st = cake.pipe.wait %p : !cake.pipe<2>",
        f"      %zero = cake.frag.zero : {f}",
        f"      %x0 = cake.mma wgmma %a[%st], %b[%st], %zero : {ra}, {ra}, {f}",
        "      cake.pipe.release %p, %st : !cake.pipe<2>",
        f"      %b0 = cake.frag.splat %inf : {r1}",
        f"      %j0 = cake.frag.splat %zi : {i1}",
    ] + loop + ["    }", "  }", "}", ""])


def all_kernels():
    ks = []
    for rows, cols, sw in ((64, 64, 128), (128, 64, 128), (256, 64, 128),
                           (128, 32, 64)):
        for reuse in (False, True):
            ks.append(tma(rows, cols, sw, reuse))
    # Aggregate L2 -> shared memory bandwidth over distinct lines (and,
    # with fewer rows than CTAs read, over lines k CTAs share: l2_sets.py
    # --sharing), for each box height the GEMMs load.
    for rows in (64, 128, 256):
        ks.append(tma(rows, 64, 128, "spread"))
    # The round trip: one stage, one tile (launch with %Tiles of 1).
    ks.append(tma(64, 64, 128, True, stages=1, name="latency"))
    for dtype in ("bf16", "f16"):
        for n in (64, 128, 256):
            ks.append(wgmma(dtype, n))
        # The 256-row tiles' form: four warpgroups at N <= 128.
        for n in (64, 128):
            ks.append(wgmma(dtype, n, wgs=4))
    # The RS form (attention's P V) at N = 64 and 128, and MN-major B.
    ks.append(wgmma("bf16", 64, a_regs=True))
    ks.append(wgmma("bf16", 128, a_regs=True))
    ks.append(wgmma("bf16", 64, a_regs=True, mn_major=True))
    for n in (64, 128, 256):
        ks.append(pipe_mma("bf16", n))
    ks.append(alu())
    ks.append(alu("ftz"))
    ks.append(alu("ieee"))
    ks.append(epilogue("argmin"))
    ks.append(epilogue("load"))
    return ks


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, text in all_kernels():
        with open(os.path.join(out, name + ".cake.mlir"), "w") as fh:
            fh.write(text)
        print(name)


if __name__ == "__main__":
    main()
