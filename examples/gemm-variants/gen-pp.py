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
against).
"""
import sys

G_C = "!cake.global<?x?xbf16>"
F = "!cake.frag<64x128xf32>"
FB = "!cake.frag<64x128xbf16>"


def kernel(dtype="bf16", stages=3, turns=1):
    fp8 = dtype == "e4m3"
    elt = "f8E4M3FN" if fp8 else "bf16"
    bk = 128 if fp8 else 64          # K elements a stage: 128 bytes a row
    G = f"!cake.global<?x?x{elt}>"
    RA = f"!cake.ring<{stages} x 64x{bk}x{elt}, swizzle = 128>"
    RB = f"!cake.ring<{stages} x 128x{bk}x{elt}, swizzle = 128>"
    name = (f"gemm_e4m3_pp_128x128x{bk}_s{stages}" if fp8
            else f"gemm_bf16_pp_128x128x{bk}_s{stages}")
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

    def load(i, role):
        return f'''  // The filling warp of turn {i}: its own pipe, so that it never waits on
  // the other turn's stages.
  cake.role "{role}" warps(1) {{
{dims()}    cake.tiles (%m, %n) in (%M, %N) slice {i} of 2 {{
      %m64 = arith.addi %m, %c64 : index
      scf.for %k = %c0 to %K step {step} {{
        %s = cake.pipe.acquire %p{i} : !cake.pipe<{stages}>
        cake.tma.load %A[%m, %k] -> %a{i}_top[%s] : {G} -> {RA}
        cake.tma.load %A[%m64, %k] -> %a{i}_bot[%s] : {G} -> {RA}
        cake.tma.load %B[%n, %k] -> %b{i}[%s] : {G} -> {RB}
        cake.pipe.commit %p{i}, %s : !cake.pipe<{stages}>
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
        scales = ('''    %sa = cake.scalar.load %Sa[%c0] : !cake.global<?xf32>
    %sb = cake.scalar.load %Sb[%c0] : !cake.global<?xf32>
    %scale = arith.mulf %sa, %sb : f32
''' if fp8 else "")
        return f'''  // Turn {i}: one warpgroup computes the whole 128x128 tile, its rows as two
  // 64-row accumulators.
  cake.role "{role}" warpgroups(1) {{
{dims()}{scales}    cake.tiles (%m, %n) in (%M, %N) slice {i} of 2 {{
      %m64 = arith.addi %m, %c64 : index
      %zero = cake.frag.zero : {F}
      %acc:2 = scf.for %k = %c0 to %K step {step}
          iter_args(%top0 = %zero, %bot0 = %zero) -> ({F}, {F}) {{
        %s = cake.pipe.wait %p{i} : !cake.pipe<{stages}>
        %top = cake.mma wgmma %a{i}_top[%s], %b{i}[%s], %top0 : {RA}, {RB}, {F}
        %bot = cake.mma wgmma %a{i}_bot[%s], %b{i}[%s], %bot0 : {RA}, {RB}, {F}
        cake.pipe.release %p{i}, %s : !cake.pipe<{stages}>
        scf.yield %top, %bot : {F}, {F}
      }}
{epilogue(0, "out_top", "%m")}{epilogue(1, "out_bot", "%m64")}    }}
  }}
'''

    rings = ""
    for i in range(2):
        rings += f'''  %a{i}_top = cake.ring : {RA}
  %a{i}_bot = cake.ring : {RA}
  %b{i} = cake.ring : {RB}
  %p{i} = cake.pipe %a{i}_top, %a{i}_bot, %b{i} : {RA}, {RA}, {RB}
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
// f32 accumulation, 128x128 tiles.
'''
        args = f'''(%A: {G},
                                        %B: {G},
                                        %C: {G})'''
    body = f'''//
// Two consumer warpgroups take alternate tiles of the CTA (slice 0 and 1
// of 2), each computing a whole tile, and take turns over their main loops
// (cake.role_turns): while one issues its tile's wgmmas the other converts
// and stores the tile before, so that the tensor cores need not wait for
// epilogues. Each consumer has its own {stages}-stage pipe and a filling warp;
// a pipe shared by the two turns could deadlock (sync.role-turn). The
// turns' named barriers, their thread counts and where a turn starts and
// ends are derived by the compiler.
'''
    if not turns:
        body += "//\n// Without cake.role_turns: the same kernel, its consumers unordered.\n"
    attrs = ('''
                cake.role_turns = ["mma", "mma_1"]''' if turns else "")
    sched = "schedule = #cake.persistent<tile = [128, 128], group_m = 8>"
    return f'''{head}{body}cake.kernel @{name}{args}
    attributes {{target = #cake.target<"sm_90a">,
                {sched}{"," if turns else ""}{attrs}}} {{
{rings}
{load(0, "load")}
{load(1, "load_1")}
{mma(0, "mma")}
{mma(1, "mma_1")}}}
'''


if __name__ == "__main__":
    opts = dict(a.split("=") for a in sys.argv[1:])
    sys.stdout.write(kernel(dtype=opts.get("dtype", "bf16"),
                            stages=int(opts.get("stages", 3)),
                            turns=int(opts.get("turns", 1))))
