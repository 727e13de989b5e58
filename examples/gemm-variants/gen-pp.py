#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the ping-pong GEMMs (CUTLASS's KernelTmaWarpSpecializedPingpong
form; docs/writing-a-kernel.md 7f) in Cake IR:

    python3 examples/gemm-variants/gen-pp.py > examples/gemm-variants/gemm_pp_128x128x64_s3.cake.mlir
    python3 examples/gemm-variants/gen-pp.py dtype=e4m3 > examples/gemm-variants/gemm_pp_e4m3_128x128x128_s3.cake.mlir

Two consumer warpgroups take alternate tiles of the CTA, each a whole
128 x 128 tile held as two 64-row accumulators over two 64-row boxes of
A, and take turns over their main loops (cake.role_turns); each has its
own filling warp and pipe. Options: `dtype=bf16|e4m3` (e4m3: A and B
float8 K-major, per-tensor scales Sa and Sb applied in the epilogue, C
bf16: torch._scaled_mm's contract, as gemm_e4m3_*), `stages=N` (each
pipe's, default 3), `turns=0` (the same kernel without the turns, to time
against), `dealt=1` (one filling warp and one ring of `stages` stages dealt
to the consumers tile by tile, CUTLASS's shared producer: sync.dealt-pipe;
it needs the turns), `tile=64x256` (each consumer's tile one 64-row
accumulator of 256 columns, m64n256 wgmmas: 40 KB stages, which fit the
shared memory four deep only as one dealt ring).
"""
import sys

G_C = "!cake.global<?x?xbf16>"


def kernel(dtype="bf16", stages=3, turns=1, dealt=0, tile="128x128"):
    fp8 = dtype == "e4m3"
    elt = "f8E4M3FN" if fp8 else "bf16"
    bk = 128 if fp8 else 64          # K elements a stage: 128 bytes a row
    bm, bn = (int(x) for x in tile.split("x"))
    assert (bm, bn) in ((128, 128), (64, 256)), "tile: 128x128 or 64x256"
    F = f"!cake.frag<64x{bn}xf32>"
    FB = f"!cake.frag<64x{bn}xbf16>"
    # The tile's 64-row slabs of A, each its own box and accumulator.
    slabs = [("top", "%m"), ("bot", "%m64")] if bm == 128 else [("", "%m")]

    def ring(q, slab):  # the A ring of a slab
        return f"%a{q}_{slab}" if slab else f"%a{q}"
    G = f"!cake.global<?x?x{elt}>"
    RA = f"!cake.ring<{stages} x 64x{bk}x{elt}, swizzle = 128>"
    RB = f"!cake.ring<{stages} x {bn}x{bk}x{elt}, swizzle = 128>"
    name = (f"gemm_e4m3_pp_{tile}x{bk}_s{stages}" if fp8
            else f"gemm_bf16_pp_{tile}x{bk}_s{stages}")
    if dealt:
        name = name.replace("_pp_", "_pp_dealt_")
    if not turns:
        name += "_noturns"

    def dims(indent="    "):
        return (f"{indent}%M = cake.dim %A, 0 : {G}\n"
                f"{indent}%N = cake.dim %B, 0 : {G}\n"
                f"{indent}%K = cake.dim %A, 1 : {G}\n"
                f"{indent}%c0 = arith.constant 0 : index\n"
                f"{indent}%c64 = arith.constant 64 : index\n"
                + (f"{indent}%c128 = arith.constant 128 : index\n"
                   if fp8 else ""))

    step = "%c128" if fp8 else "%c64"
    m64 = "      %m64 = arith.addi %m, %c64 : index\n" if bm == 128 else ""

    def load(i, role):
        q = 0 if dealt else i  # the ring and pipe it fills
        if dealt:
            head = '''  // The filling warp: every tile of the CTA, in order, into the one ring;
  // each tile's stages go to the consumer whose slice holds it.
'''
            tiles = "cake.tiles (%m, %n) in (%M, %N)"
        else:
            head = f'''  // The filling warp of turn {i}: its own pipe, so that it never waits on
  // the other turn's stages.
'''
            tiles = f"cake.tiles (%m, %n) in (%M, %N) slice {i} of 2"
        loads = "".join(
            f"        cake.tma.load %A[{row}, %k] -> {ring(q, slab)}[%s] : "
            f"{G} -> {RA}\n" for slab, row in slabs)
        return f'''{head}  cake.role "{role}" warps(1) {{
{dims()}    {tiles} {{
{m64}      scf.for %k = %c0 to %K step {step} {{
        %s = cake.pipe.acquire %p{q} : !cake.pipe<{stages}>
{loads}        cake.tma.load %B[%n, %k] -> %b{q}[%s] : {G} -> {RB}
        cake.pipe.commit %p{q}, %s : !cake.pipe<{stages}>
      }}
    }}
  }}
'''

    def epilogue(acc, out, row):
        if not fp8:
            return f'''      %{out} = cake.frag.convert %acc#{acc} : {F} -> {FB}
      cake.store %{out} -> %C[{row}, %n] : {FB} -> {G_C}
'''
        return f'''      %{out}_f = cake.frag.map %acc#{acc} : ({F}) -> {F} {{
      ^bb0(%x: f32):
        %y = arith.mulf %x, %scale : f32
        cake.frag.yield %y : f32
      }}
      %{out} = cake.frag.convert %{out}_f : {F} -> {FB}
      cake.store %{out} -> %C[{row}, %n] : {FB} -> {G_C}
'''

    def mma(i, role):
        q = 0 if dealt else i  # the ring and pipe it drains
        scales = ('''    %sa = cake.scalar.load %Sa[%c0] : !cake.global<?xf32>
    %sb = cake.scalar.load %Sb[%c0] : !cake.global<?xf32>
    %scale = arith.mulf %sa, %sb : f32
''' if fp8 else "")
        accs = [slab or "tile" for slab, _ in slabs]
        what = ("its rows as two\n  // 64-row accumulators" if bm == 128
                else "in one\n  // accumulator")
        inits = ", ".join(f"%{a}0 = %zero" for a in accs)
        mmas = "".join(
            f"        %{a} = cake.mma wgmma {ring(q, slab)}[%s], %b{q}[%s], "
            f"%{a}0 : {RA}, {RB}, {F}\n" for a, (slab, _) in zip(accs, slabs))
        outs = "".join(epilogue(j, f"out_{a}" if a != "tile" else "out", row)
                       for j, (a, (_, row)) in enumerate(zip(accs, slabs)))
        return f'''  // Turn {i}: one warpgroup computes the whole {tile} tile, {what}.
  cake.role "{role}" warpgroups(1) {{
{dims()}{scales}    cake.tiles (%m, %n) in (%M, %N) slice {i} of 2 {{
{m64}      %zero = cake.frag.zero : {F}
      %acc:{len(accs)} = scf.for %k = %c0 to %K step {step}
          iter_args({inits}) -> ({", ".join([F] * len(accs))}) {{
        %s = cake.pipe.wait %p{q} : !cake.pipe<{stages}>
{mmas}        cake.pipe.release %p{q}, %s : !cake.pipe<{stages}>
        scf.yield {", ".join("%" + a for a in accs)} : {", ".join([F] * len(accs))}
      }}
{outs}    }}
  }}
'''

    rings = ""
    for i in range(1 if dealt else 2):
        rings += "".join(f"  {ring(i, slab)} = cake.ring : {RA}\n"
                         for slab, _ in slabs)
        rings += f'''  %b{i} = cake.ring : {RB}
  %p{i} = cake.pipe {", ".join(ring(i, slab) for slab, _ in slabs)}, %b{i} : {", ".join([RA] * len(slabs))}, {RB}
'''
    if fp8:
        head = f'''// A ping-pong FP8 GEMM with per-tensor scales (the contract of
// examples/gemm-variants/gemm_e4m3_128x128x128_s6: C = sa·sb·(A·Bᵀ), A and
// B float8 e4m3 K-major, C bf16) in the ping-pong form of
// gemm_pp_128x128x64_s3: 128 K elements a stage.
'''
        args = f'''(%A: {G},
    %B: {G}, %Sa: !cake.global<?xf32>, %Sb: !cake.global<?xf32>,
    %C: {G_C})'''
    else:
        head = f'''// A ping-pong bf16 GEMM for Hopper (CUTLASS's KernelTmaWarpSpecializedPingpong
// shape): C = A * B^T, A MxK, B NxK (both K-major), C MxN, row-major bf16,
// f32 accumulation, {tile} tiles.
'''
        args = f'''(%A: {G},
                                        %B: {G},
                                        %C: {G})'''
    if dealt:
        feed = f'''One filling warp walks all of the CTA's tiles into one
// {stages}-stage ring, a dealt pipe (sync.dealt-pipe): the stages of a tile go to
// the consumer whose slice holds it, so the consumer in its turn has the
// whole ring ahead of it. Where each consumer's stages lie in the ring
// (it skips the other slice's tile's stages) is derived by the compiler.'''
    else:
        feed = f'''Each consumer has its own {stages}-stage pipe and a filling warp;
// a pipe shared by the two turns could deadlock (sync.role-turn).'''
    body = f'''//
// Two consumer warpgroups take alternate tiles of the CTA (slice 0 and 1
// of 2), each computing a whole tile, and take turns over their main loops
// (cake.role_turns): while one issues its tile's wgmmas the other converts
// and stores the tile before, so that the tensor cores need not wait for
// epilogues. {feed} The
// turns' named barriers, their thread counts and where a turn starts and
// ends are derived by the compiler.
'''
    if not turns:
        body += "//\n// Without cake.role_turns: the same kernel, its consumers unordered.\n"
    attrs = ('''
                cake.role_turns = ["mma", "mma_1"]''' if turns else "")
    sched = f"schedule = #cake.persistent<tile = [{bm}, {bn}], group_m = 8>"
    return f'''{head}{body}cake.kernel @{name}{args}
    attributes {{target = #cake.target<"sm_90a">,
                {sched}{"," if turns else ""}{attrs}}} {{
{rings}
{load(0, "load")}
{"" if dealt else load(1, "load_1") + chr(10)}{mma(0, "mma")}
{mma(1, "mma_1")}}}
'''


if __name__ == "__main__":
    opts = dict(a.split("=") for a in sys.argv[1:])
    sys.stdout.write(kernel(dtype=opts.get("dtype", "bf16"),
                            stages=int(opts.get("stages", 3)),
                            turns=int(opts.get("turns", 1)),
                            dealt=int(opts.get("dealt", 0)),
                            tile=opts.get("tile", "128x128")))
