#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes KDA's chunked forward (docs/kda.md) in Cake IR, 64-token chunks:

    python3 examples/kda/gen-kda.py fused > examples/kda/kda_fwd.cake.mlir
    python3 examples/kda/gen-kda.py intra > examples/kda/kda_intra.cake.mlir
    python3 examples/kda/gen-kda.py recur > examples/kda/kda_recur.cake.mlir

`fused` is the whole forward in one kernel, one (head, 64-column V block)
per CTA and one warpgroup, the intra-chunk work on the chain of chunks.
`intra` and `recur` split it: `intra` computes every chunk's W, U, Q̃,
K̄, A_qk and Γ_C at once (nothing sequential: a persistent pipeline of
three warpgroups, two channel halves and the solve; `intra wgs=1` is
the one-warpgroup kernel, a CTA per chunk and head; `merge=1` forms T's
off-diagonal blocks by f16 wgmmas; `vsolve=0` leaves β ⊙ v to the
halves; `share=0` gives each half its own copy of the code instead of
"h1" running "h0"'s, shares_code_with; `exchange=0` has each half load
the other's k and q for the norms instead of trading row sums;
`gearly=0` loads each half's gate tile after that trade, not beside k
and q), `recur` runs only the chain (V_new = U − W·S, O, the state) per (head, V
block), its operands streamed by a copy warp through TMA. `recur chains=2`
(kda_recur_x2*) puts both V blocks of a head in one CTA, a chain
warpgroup each: bench/kda/cake_kda.py launches it where the one-chain
CTAs would take more than one wave. `ahead=1` carries the next chunk's
Γ_C across the step (the kernel before 2026-12-06; more spills).

The kernel is long but regular: every operand is built per channel half
(64 channels, one 128-byte swizzle atom), so the generator writes the
halves and the gated variants of q and k from one template each (`intra
wgs=1` runs that template as one loop body over the two halves, the
pipeline as one role per half). The chain's kernel is written by
kda_chain.py; the text gen-kda16.py shares with these kernels is in
kda_ir.py.
"""
import re

from kda_chain import recur
from kda_ir import (COLF, COLI, F, FB, G2, G2F, R, ROW, beta_of_b, beta_v,
                    consts, decay, head_params, norm_scales, stage_state,
                    sum_of_squares)


# Stages the warpgroup fills itself each chunk (pipe %pa): the K̂ factors
# around rows 16 and 48, β ⊙ K̃, K̄, β ⊙ v and the state Sᵀ in bf16.
STAGED = ["kx0", "kx1", "ky0", "ky1", "kt0", "kt1", "kb0", "kb1", "bv",
          "st0", "st1"]


def gated(name, src, inputs, types, body, write=True):
    """A frag.map over (src, g, ...) yielding bf16; written to its stage."""
    args = ", ".join(f"%{i}" for i in inputs)
    sig = ", ".join(types)
    out = f"""      %{name} = cake.frag.map {args}
          : ({sig}) -> {FB} {{
      ^bb0({body[0]}):
{body[1]}
      }}
"""
    if write:
        out += (f"      cake.smem.write %{name} -> %s_{name}[%s] : "
                f"{FB} -> {R}\n")
    return out


def exp_times(x, d, scale=None):
    """Lines computing bf16(x_f32 * e^d [* scale]) into %t."""
    lines = [f"        %e = arith.mulf {d}, %log2e : f32",
             "        %f = math.exp2 %e : f32",
             f"        %xf = arith.extf {x} : bf16 to f32",
             "        %v = arith.mulf %xf, %f : f32"]
    last = "%v"
    if scale:
        lines.append(f"        %w = arith.mulf %v, {scale} : f32")
        last = "%w"
    lines += [f"        %t = arith.truncf {last} : f32 to bf16",
              "        cake.frag.yield %t : bf16"]
    return "\n".join(lines)


def half(h, staged=True):
    c = f"%ch{h}"
    kk, qq = f"k{h}", f"q{h}"
    s = f"""      // Channels {64 * h}..{64 * h + 63}: the gate a = lb·sigmoid(e^A_log·(g + dt_bias)),
      // Γ, its reference rows and last row.
      %gw{h} = cake.load %G[%t0, {c}] : {G2} -> {FB}
      %dt{h} = cake.load %Dt[%h, {"%c0" if h == 0 else "%c64"}] : !cake.global<?x?xf32> -> {ROW}
      %a{h} = cake.frag.map %gw{h}, %dt{h}, %rows
          : ({FB}, {ROW}, {COLI}) -> {F} {{
      ^bb0(%x: bf16, %d: f32, %r: i32):
        %xf = arith.extf %x : bf16 to f32
        %xd = arith.addf %xf, %d : f32
        %z = arith.mulf %xd, %ealog : f32
        %ze = arith.mulf %z, %nlog2e : f32
        %ez = math.exp2 %ze : f32
        %den = arith.addf %ez, %one : f32
        // afn: div.approx (2 ulp), not the IEEE division's dozen
        // instructions per element; the gate comes from bf16 inputs.
        %sig = arith.divf %lb, %den fastmath<afn> : f32
        // No decay past the sequence's end: Γ_C is the last token's.
        %in = arith.cmpi ult, %r, %lefti : i32
        %zf = arith.constant 0.0 : f32
        %ai = arith.select %in, %sig, %zf : f32
        cake.frag.yield %ai : f32
      }}
      %g{h} = cake.frag.scan sum %a{h} down : {F}
      %x{h} = cake.frag.row %g{h}[16] : {F} -> {ROW}
      %y{h} = cake.frag.row %g{h}[48] : {F} -> {ROW}
      %gc{h} = cake.frag.row %g{h}[63] : {F} -> {ROW}
"""
    ref = ("        %top = arith.cmpi ult, %r, %c32i : i32\n"
           "        %ref = arith.select %top, %x, %y : f32\n"
           "        %d = arith.subf %g, %ref : f32\n")
    if not staged:
        s += shared_exps(h, kk, qq, ref)
    else:
        # A operands from registers: k and s·q against their row's reference.
        # (The L2 norms come in as the per-row factors %rk and %rqs = s / |q|.)
        s += gated(f"ka{h}", None,
                   [kk, f"g{h}", f"x{h}", f"y{h}", "rows", "rk"],
                   [FB, F, ROW, ROW, COLI, COLF],
                   ("%k: bf16, %g: f32, %x: f32, %y: f32, %r: i32, %n: f32",
                    ref + exp_times("%k", "%d", "%n")), write=False)
        s += gated(f"qa{h}", None,
                   [qq, f"g{h}", f"x{h}", f"y{h}", "rows", "rqs"],
                   [FB, F, ROW, ROW, COLI, COLF],
                   ("%k: bf16, %g: f32, %x: f32, %y: f32, %r: i32, %n: f32",
                    ref + exp_times("%k", "%d", "%n")), write=False)
        # Q̃ = s·q ⊙ e^Γ, the A operand of Q̃·S.
        s += gated(f"qt{h}", None, [qq, f"g{h}", "rqs"], [FB, F, COLF],
                   ("%k: bf16, %g: f32, %n: f32", exp_times("%k", "%g", "%n")),
                   write=False)
    if not staged:
        # Outputs of the intra-chunk kernel, stored as soon as they exist
        # (their registers are free for what follows).
        s += (f"      cake.store %qt{h} -> %Qt[%t0, {c}] : {FB} -> {G2}\n"
              f"      cake.store %gc{h} -> %Gc[%ci, {c}] : {ROW} -> {G2F}\n")
    # B operands: k ⊙ e^(Γ_ref − Γ) for both references, β ⊙ k ⊙ e^Γ and
    # K̄ = k ⊙ e^(Γ_C − Γ).
    for n, r in (("x", "x"), ("y", "y"), ("b", "gc")):
        s += gated(f"k{n}{h}", None, [kk, f"g{h}", f"{r}{h}", "rk"],
                   [FB, F, ROW, COLF],
                   ("%k: bf16, %g: f32, %r: f32, %n: f32",
                    "        %d = arith.subf %r, %g : f32\n"
                    + exp_times("%k", "%d", "%n")),
                   write=staged or n != "b")
        if not staged and n == "b":
            s += f"      cake.store %kb{h} -> %Kb[%t0, {c}] : {FB} -> {G2}\n"
    if not staged:
        return s
    s += gated(f"kt{h}", None, [kk, f"g{h}", "brk"], [FB, F, COLF],
               ("%k: bf16, %g: f32, %b: f32",
                "        %e = arith.mulf %g, %log2e : f32\n"
                "        %f = math.exp2 %e : f32\n"
                "        %kw = arith.extf %k : bf16 to f32\n"
                "        %kbw = arith.mulf %kw, %b : f32\n"
                "        %v = arith.mulf %kbw, %f : f32\n"
                "        %t = arith.truncf %v : f32 to bf16\n"
                "        cake.frag.yield %t : bf16"))
    return s


def shared_exps(h, kk, qq, ref):
    """The intra kernel's A operands and Q̃, β ⊙ K̃: k and s·q against their
    row's reference (one e^(Γ − Γ_ref) for both), then s·q ⊙ e^Γ and
    β ⊙ k ⊙ e^Γ (one e^Γ for both): the kt stage is written here."""
    out = f"""      %ka{h}, %qa{h} = cake.frag.map %{kk}, %{qq}, %g{h}, %x{h}, %y{h}, %rows, %rk, %rqs
          : ({FB}, {FB}, {F}, {ROW}, {ROW}, {COLI}, {COLF}, {COLF}) -> ({FB}, {FB}) {{
      ^bb0(%k: bf16, %q: bf16, %g: f32, %x: f32, %y: f32, %r: i32, %nk: f32, %nq: f32):
{ref}        %e = arith.mulf %d, %log2e : f32
        %f = math.exp2 %e : f32
        %kf = arith.extf %k : bf16 to f32
        %qf = arith.extf %q : bf16 to f32
        %kn = arith.mulf %kf, %nk : f32
        %qn = arith.mulf %qf, %nq : f32
        %kv = arith.mulf %kn, %f : f32
        %qv = arith.mulf %qn, %f : f32
        %kt = arith.truncf %kv : f32 to bf16
        %qt = arith.truncf %qv : f32 to bf16
        cake.frag.yield %kt, %qt : bf16, bf16
      }}
      // Q̃ = s·q ⊙ e^Γ (the A operand of Q̃·S) and β ⊙ k ⊙ e^Γ.
      %qt{h}, %kt{h} = cake.frag.map %{qq}, %{kk}, %g{h}, %rqs, %brk
          : ({FB}, {FB}, {F}, {COLF}, {COLF}) -> ({FB}, {FB}) {{
      ^bb0(%q: bf16, %k: bf16, %g: f32, %nq: f32, %b: f32):
        %e = arith.mulf %g, %log2e : f32
        %f = math.exp2 %e : f32
        %qf = arith.extf %q : bf16 to f32
        %kf = arith.extf %k : bf16 to f32
        %qn = arith.mulf %qf, %nq : f32
        %kb = arith.mulf %kf, %b : f32
        %qv = arith.mulf %qn, %f : f32
        %kv = arith.mulf %kb, %f : f32
        %qt = arith.truncf %qv : f32 to bf16
        %kt = arith.truncf %kv : f32 to bf16
        cake.frag.yield %qt, %kt : bf16, bf16
      }}
      cake.smem.write %kt{h} -> %s_kt{h}[%s] : {FB} -> {R}
"""
    return out


def norms():
    """%rk = 1/|k|, %rqs = s/|q| and %brk = β/|k| per token (eps 1e-6)."""
    out = ""
    for x in ("k", "q"):
        for h in (0, 1):
            out += sum_of_squares(x, h)
    return out + norm_scales()


def prep(staged):
    """A chunk's inputs: β, q and k with their norms, the gates, Γ and the
    gated operands (the B operands written to their stages)."""
    return f"""      %left = arith.subi %T, %t0 : index
      %lefti = arith.index_cast %left : index to i32
{beta_of_b()}      // q and k, L2-normalized over their 128 channels: per-row factors.
      %k0 = cake.load %K[%t0, %ch0] : {G2} -> {FB}
      %k1 = cake.load %K[%t0, %ch1] : {G2} -> {FB}
      %q0 = cake.load %Q[%t0, %ch0] : {G2} -> {FB}
      %q1 = cake.load %Q[%t0, %ch1] : {G2} -> {FB}
{norms()}{half(0, staged)}{half(1, staged)}"""


# The operands of the L and A_qk products per channel half: A (k and s·q
# against their row's reference), B (the K̂ factors around rows 16 and 48)
# and the types of A and B. The fused kernel keeps A in registers; the
# intra kernel stages both halves' A and B, one stage each.
REG_OPERANDS = [(f"%ka{h}", f"%qa{h}", f"%s_kx{h}[%ta]", f"%s_ky{h}[%ta]",
                 FB, R) for h in (0, 1)]


def products(early=False, operands=REG_OPERANDS):
    """L and A_qk from the staged K̂ factors, T = (I + L)⁻¹ in bf16. With
    `early`, L is formed (and its products' accumulators freed) before
    A_qk's products start, and A_qk is stored at once: fewer fragments
    live at a time."""
    def chain(out, a, b):
        """%out = A_a·B_b summed over the two halves (operand columns)."""
        text, acc = "", "%z"
        for h, o in enumerate(operands):
            name = f"%{out}0" if h == 0 else f"%{out}"
            text += (f"      {name} = cake.mma wgmma {o[a]}, {o[b]}, {acc} : "
                     f"{o[4]}, {o[5]}, {F}\n")
            acc = name
        return text
    lx = chain("lx", 0, 2) + chain("ly", 0, 3)
    ax = chain("ax", 1, 2) + chain("ay", 1, 3)
    lmap = f"""      // Rows 0..31 from the products around row 16, 32..63 around 48.
      %l = cake.frag.map %lx, %ly, %rows, %beta
          : ({F}, {F}, {COLI}, {COLF}) -> {F} {{
      ^bb0(%x: f32, %y: f32, %r: i32, %b: f32):
        %top = arith.cmpi ult, %r, %c32i : i32
        %e = arith.select %top, %x, %y : f32
        %o = arith.mulf %e, %b : f32
        cake.frag.yield %o : f32
      }}
"""
    amap = f"""      %aqk = cake.frag.map %ax, %ay, %rows, %cols
          : ({F}, {F}, {COLI}, !cake.frag<1x64xi32>) -> {FB} {{
      ^bb0(%x: f32, %y: f32, %r: i32, %c: i32):
        %top = arith.cmpi ult, %r, %c32i : i32
        %e = arith.select %top, %x, %y : f32
        %keep = arith.cmpi ule, %c, %r : i32
        %zf = arith.constant 0.0 : f32
        %o = arith.select %keep, %e, %zf : f32
        %t = arith.truncf %o : f32 to bf16
        cake.frag.yield %t : bf16
      }}
"""
    inv = f"""      %inv = cake.frag.tril_inverse %l : {F}
      %inv16 = cake.frag.convert %inv : {F} -> {FB}
"""
    z = f"      %z = cake.frag.zero : {F}\n"
    if early:
        store = f"      cake.store %aqk -> %Aqk[%t0, %ach] : {FB} -> {G2}\n"
        return z + lx + lmap + ax + amap + store + inv
    return z + lx + ax + lmap + amap + inv


def prep_consts():
    """The preprocessing's constants (after %c32i and %log2e)."""
    return """    %scale = arith.constant 0.0883883476 : f32
    %nlog2e = arith.constant -1.44269504 : f32
    %one = arith.constant 1.0 : f32
    %eps = arith.constant 1.0e-06 : f32
    %lb = arith.constant -5.0 : f32
    %c8 = arith.constant 8 : index
    %col8 = cake.frag.iota : !cake.frag<1x8xi32>
"""


def fused():
    rings = "\n".join(f"  %s_{r} = cake.ring : {R}" for r in STAGED)
    pipe_a = ("  %pa = cake.pipe " + ", ".join(f"%s_{r}" for r in STAGED)
              + "\n      : " + ",\n        ".join([R] * len(STAGED)))
    body = f"""// KDA's chunked forward (issue #21, docs/kda.md), generated by
// examples/kda/gen-kda.py. One CTA per (head, 64-column block of V), one
// warpgroup, 64-token chunks in order; the state Sᵀ (64 V columns x 128
// channels, fp32, FlashKDA's [V, K] layout) lives in registers across the
// chunks. Per chunk:
//   Γ = cumsum(a) down the tokens; L = strict_tril(Diag(β)·K̃K̂ᵀ) and
//   A_qk = tril(Q̃K̂ᵀ), the pairwise decays split around rows 16 and 48;
//   T = (I + L)⁻¹ in fp32; W = T·(β ⊙ K̃), U = T·(β ⊙ v);
//   V_new = U − W·S; O = Q̃·S + A_qk·V_new;
//   Sᵀ ← Sᵀ ⊙ e^Γ_C + V_newᵀ·K̄.
// The preprocessing is fused: q and k L2-normalized (eps 1e-6), β =
// sigmoid(b), a = −5·sigmoid(e^A_log_h·(g + dt_bias_h)), scale 1/√128.
// Inputs as FlashKDA takes them: q, k, v, g [T, H·128] and b [T, H] in
// bf16, A_log [H] and dt_bias [H, 128] in fp32; the state in and out as
// [H·128, 128] fp32 ([H, V, K]). Checked on the GPU by
// bench/kda/check_fwd.py.
cake.kernel @kda_fwd(%Q: {G2}, %K: {G2}, %V: {G2}, %G: {G2}, %B: {G2},
                     %Alog: !cake.global<?xf32>, %Dt: !cake.global<?x?xf32>,
                     %S0: !cake.global<?x128xf32>, %O: {G2F},
                     %SN: !cake.global<?x128xf32>)
    attributes {{target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [1, 64]>}} {{
{rings}
{pipe_a}
  %s_vn = cake.ring : {R}
  %pb = cake.pipe %s_vn : {R}

  cake.role "chunks" warpgroups(1) {{
    %H = cake.dim %Alog, 0 : !cake.global<?xf32>
    %Vd = cake.dim %S0, 1 : !cake.global<?x128xf32>
    %T = cake.dim %Q, 0 : {G2}
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c32i = arith.constant 32 : i32
    %log2e = arith.constant 1.44269504 : f32
{prep_consts()}    cake.tiles (%h, %vb) in (%H, %Vd) {{
      %ch0 = arith.muli %h, %c128 : index
      %ch1 = arith.addi %ch0, %c64 : index
      %vcol = arith.addi %ch0, %vb : index
      %srow = arith.addi %ch0, %vb : index
{head_params()}      %init0 = cake.load %S0[%srow, %c0] : !cake.global<?x128xf32> -> {F}
      %init1 = cake.load %S0[%srow, %c64] : !cake.global<?x128xf32> -> {F}
      %rows = cake.frag.iota : {COLI}
      %cols = cake.frag.iota : !cake.frag<1x64xi32>
      %fin:2 = scf.for %t0 = %c0 to %T step %c64
          iter_args(%s0 = %init0, %s1 = %init1) -> ({F}, {F}) {{
      %s = cake.pipe.acquire %pa : !cake.pipe<1>
{prep(staged=True)}      %vv = cake.load %V[%t0, %vcol] : {G2} -> {FB}
{beta_v("bv", "vv")}      cake.smem.write %bv -> %s_bv[%s] : {FB} -> {R}
{stage_state("s_st", "s")}      cake.fence.proxy_async
      cake.pipe.commit %pa, %s : !cake.pipe<1>
      %ta = cake.pipe.wait %pa : !cake.pipe<1>
{products()}      %w0 = cake.mma wgmma %inv16, %s_kt0[%ta] mn_major, %z : {FB}, {R}, {F}
      %w1 = cake.mma wgmma %inv16, %s_kt1[%ta] mn_major, %z : {FB}, {R}, {F}
      %u = cake.mma wgmma %inv16, %s_bv[%ta] mn_major, %z : {FB}, {R}, {F}
      %w0b = cake.frag.convert %w0 : {F} -> {FB}
      %w1b = cake.frag.convert %w1 : {F} -> {FB}
      %ws0 = cake.mma wgmma %w0b, %s_st0[%ta], %z : {FB}, {R}, {F}
      %ws = cake.mma wgmma %w1b, %s_st1[%ta], %ws0 : {FB}, {R}, {F}
      %vnew = cake.frag.map %u, %ws : ({F}, {F}) -> {FB} {{
      ^bb0(%x: f32, %y: f32):
        %d = arith.subf %x, %y : f32
        %t = arith.truncf %d : f32 to bf16
        cake.frag.yield %t : bf16
      }}
      %sv = cake.pipe.acquire %pb : !cake.pipe<1>
      cake.smem.write %vnew -> %s_vn[%sv] : {FB} -> {R}
      cake.fence.proxy_async
      cake.pipe.commit %pb, %sv : !cake.pipe<1>
      %tv = cake.pipe.wait %pb : !cake.pipe<1>
      // O = Q̃·S + A_qk·V_new.
      %o0 = cake.mma wgmma %qt0, %s_st0[%ta], %z : {FB}, {R}, {F}
      %o1 = cake.mma wgmma %qt1, %s_st1[%ta], %o0 : {FB}, {R}, {F}
      %o = cake.mma wgmma %aqk, %s_vn[%tv] mn_major, %o1 : {FB}, {R}, {F}
      cake.store %o -> %O[%t0, %vcol] : {F} -> {G2F}
      // Sᵀ ← Sᵀ ⊙ e^Γ_C + V_newᵀ·K̄, per channel half.
{decay(0)}{decay(1)}      %n0 = cake.mma wgmma %s_vn[%tv] mn_major, %s_kb0[%ta] mn_major, %d0 : {R}, {R}, {F}
      %n1 = cake.mma wgmma %s_vn[%tv] mn_major, %s_kb1[%ta] mn_major, %d1 : {R}, {R}, {F}
      cake.pipe.release %pb, %tv : !cake.pipe<1>
      cake.pipe.release %pa, %ta : !cake.pipe<1>
      scf.yield %n0, %n1 : {F}, {F}
      }}
      cake.store %fin#0 -> %SN[%srow, %c0] : {F} -> !cake.global<?x128xf32>
      cake.store %fin#1 -> %SN[%srow, %c64] : {F} -> !cake.global<?x128xf32>
    }}
  }}
}}
"""
    return body


R2 = "!cake.ring<2 x 64x64xbf16, swizzle = 128>"
# Stages per channel half of kda_intra: the A operands (k and s·q against
# their row's reference), the K̂ factors and β ⊙ K̃.
LOOP_STAGED = ["ka", "qa", "kx", "ky", "kt"]


def loop_half():
    """One channel half (channels 64 j.. of head h) of kda_intra's loop:
    half 0's code from half() with its channels, loads, stages and names
    made the loop's: gate, Γ, the gated operands into stage %s, the
    outputs."""
    s = half(0, staged=False)
    s = s.replace("%ch0", "%chj")
    s = s.replace("cake.load %Dt[%h, %c0]", "cake.load %Dt[%h, %cj]")
    s = re.sub(r"cake\.load %([QKVGB])\[%t0, ([^\]]+)\] :",
               r"cake.load %\1[%ts, \2] rows %left :", s)
    s = re.sub(r"%s_(kx|ky|kt)0\[%s\]", r"%s_\1[%s]", s)
    s = s.replace(f"-> {R}\n", f"-> {R2}\n")
    # The A operands go to their stages too: the products read both
    # halves from shared memory after the loop.
    s = s.replace("        cake.frag.yield %kt, %qt : bf16, bf16\n      }\n"
                  "      // Q̃",
                  "        cake.frag.yield %kt, %qt : bf16, bf16\n      }\n"
                  f"      cake.smem.write %ka0 -> %s_ka[%s] : {FB} -> {R2}\n"
                  f"      cake.smem.write %qa0 -> %s_qa[%s] : {FB} -> {R2}\n"
                  "      // Q̃", 1)
    s = s.replace("// Channels 0..63: the gate", "// Channels 64 j..: the gate")
    s = s.replace("%k0", "%kj").replace("%q0", "%qj")
    s = re.sub(r"%(gw|dt|a|g|x|y|gc|ka|qa|qt|kt|kx|ky|kb)0\b", r"%\1j", s)
    return by_reference_row(s)


def by_reference_row(s):
    """The half's body reordered so each of Γ's reference rows (1 x 64
    fragments, 16 registers a thread each) dies early: Γ_C's row and K̄
    first, then row 16 with its K̂ factor, row 48 with L's and A_qk's A
    operands and its K̂ factor, and the operands of Γ alone (Q̃, β ⊙ K̃)
    last. In half() order all three rows lived across the body: ptxas
    spilled twice as much, and the intra kernel ran 10 % slower on an
    H100 (docs/benchmarks/kda.md, run 10)."""
    def cut(start, end):
        a = s.index(start)
        return s[a:s.index(end, a) + len(end)]
    fr = f"{FB} -> {R2}\n"
    rows = {r: cut(f"      %{r}j = cake.frag.row", "\n")
            for r in ("x", "y", "gc")}
    gc_store = cut("      cake.store %gcj -> %Gc", "\n")
    a_ops = cut("      %kaj, %qaj", f"%s_qa[%s] : {fr}")
    gamma = cut("      // Q̃ = s·q", gc_store).replace(gc_store, "")
    kx = cut("      %kxj = cake.frag.map", f"%s_kx[%s] : {fr}")
    ky = cut("      %kyj = cake.frag.map", f"%s_ky[%s] : {fr}")
    kb = cut("      %kbj = cake.frag.map", "-> !cake.global<?x?xbf16>\n")
    head = s[:s.index(rows["x"])]
    out = (head + rows["gc"] + gc_store + kb + rows["x"] + kx + rows["y"] +
           a_ops + ky + gamma)
    assert len(out) == len(s), "by_reference_row: the body changed shape"
    return out


# What every form of kda_intra computes and writes (its header), and its
# arguments: the one-warpgroup kernel and the pipeline share both.
INTRA_HEADER = """//   Γ = cumsum(a) down the tokens; L = strict_tril(Diag(β)·K̃K̂ᵀ) and
//   A_qk = tril(Q̃K̂ᵀ), the pairwise decays split around rows 16 and 48;
//   T = (I + L)⁻¹ in fp32; W = T·(β ⊙ K̃).
// A batch of sequences of any lengths (one sequence is a batch of one):
// chunk c of the work list %Work ([chunks, 2]: the first token, the
// sequence's end) reads the inputs' rows from its first token on, none
// past the sequence's end (`rows %left`: they read as zero), and writes
// its slot, rows 64 c.. of the outputs. Written, bf16 and laid out as q
// ([64·chunks, H·128]; T and A_qk [64·chunks, H·64]): W, β ⊙ v,
// Q̃ = s·q ⊙ e^Γ, K̄ = k ⊙ e^(Γ_C − Γ), A_qk and T (U = T·(β ⊙ v) is left
// to kda_recur, which folds it into V_new); Γ_C in fp32 as
// [chunks, H·128]. Inputs as kda_fwd takes them. Denormals flush to zero
"""
INTRA_SIGNATURE = f"""cake.kernel @kda_intra(%Q: {G2}, %K: {G2}, %V: {G2}, %G: {G2}, %B: {G2},
                       %Alog: !cake.global<?xf32>, %Dt: !cake.global<?x?xf32>,
                       %Wt: {G2}, %Bv: {G2}, %Qt: {G2}, %Kb: {G2},
                       %Aqk: {G2}, %Tt: {G2}, %Gc: {G2F},
                       %Work: !cake.global<?x2xi32>)
    attributes {{target = #cake.target<"sm_90a">,
"""


def intra():
    rings = "\n".join(f"  %s_{r} = cake.ring : {R2}" for r in LOOP_STAGED)
    pipe_a = ("  %pa = cake.pipe " + ", ".join(f"%s_{r}" for r in LOOP_STAGED)
              + "\n      : " + ",\n        ".join([R2] * len(LOOP_STAGED)))
    # β and the norms, as prep() computes them (a loop over the halves for
    # the norms' row sums would be unrolled by LLVM); the chunk's tokens
    # come from its sequence (rows ts.. of the inputs, none past the
    # sequence's end); what it writes goes to its slot (rows t0.. of the
    # outputs, 64 per chunk).
    pre = prep(staged=False)
    pre = pre[:pre.index("      // Channels 0..63")]
    pre = pre.replace("      %left = arith.subi %T, %t0 : index\n", "")
    pre = re.sub(r"cake\.load %([QKVGB])\[%t0, ([^\]]+)\] :",
                 r"cake.load %\1[%ts, \2] rows %left :", pre)
    body = "\n".join("  " + l if l else l for l in loop_half().split("\n"))
    bv = "".join("  " + l + "\n" for l in beta_v("bvj", "vvj").splitlines())
    prod = products(early=True, operands=[
        (f"%s_ka[{t}]", f"%s_qa[{t}]", f"%s_kx[{t}]", f"%s_ky[{t}]", R2, R2)
        for t in ("%ta", "%tb")])
    out = ""
    for h, t in ((0, "%ta"), (1, "%tb")):
        out += f"""      %w{h} = cake.mma wgmma %inv16, %s_kt[{t}] mn_major, %z : {FB}, {R2}, {F}
      %w{h}b = cake.frag.convert %w{h} : {F} -> {FB}
      cake.store %w{h}b -> %Wt[%t0, %ch{h}] : {FB} -> {G2}
"""
    return f"""// KDA's intra-chunk step for every chunk at once (issue #21, docs/kda.md),
// generated by examples/kda/gen-kda.py: what examples/kda/kda_recur
// reads. One CTA per (64-token chunk, head), one warpgroup, nothing
// sequential. Per chunk, with the preprocessing fused as in kda_fwd:
{INTRA_HEADER}// (10 % faster on the H200; they are the tails of underflowing decays).
// The two channel halves run as one loop body (the gates, Γ and the
// gated operands of channels 64 j..64 j + 63, staged per half), not as
// two copies of it: the kernel's time went to fetching its straight-line
// code (41 % of the stalls), and half the code took a third off the
// time (docs/kda.md).
{INTRA_SIGNATURE}                schedule = #cake.grid<tile = [64, 1]>,
                cake.flush_denormals = true}} {{
{rings}
{pipe_a}

  cake.role "chunk" warpgroups(1) {{
    %H = cake.dim %Alog, 0 : !cake.global<?xf32>
    %slots = cake.dim %Wt, 0 : {G2}
{consts()}    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32i = arith.constant 32 : i32
{prep_consts()}    %rows = cake.frag.iota : {COLI}
    %cols = cake.frag.iota : !cake.frag<1x64xi32>
    cake.tiles (%t0, %h) in (%slots, %H) {{
      %ch0 = arith.muli %h, %c128 : index
      %ch1 = arith.addi %ch0, %c64 : index
      %ach = arith.muli %h, %c64 : index
      %ci = arith.divui %t0, %c64 : index
      %ts = cake.scalar.load %Work[%ci, %c0] : !cake.global<?x2xi32>
      %te = cake.scalar.load %Work[%ci, %c1] : !cake.global<?x2xi32>
      %left = arith.subi %te, %ts : index
{head_params()}{pre}      scf.for %j = %c0 to %c2 step %c1 {{
        %cj = arith.muli %j, %c64 : index
        %chj = arith.addi %ch0, %cj : index
        %s = cake.pipe.acquire %pa : !cake.pipe<2>
        %kj = cake.load %K[%ts, %chj] rows %left : {G2} -> {FB}
        %qj = cake.load %Q[%ts, %chj] rows %left : {G2} -> {FB}
{body}        %vvj = cake.load %V[%ts, %chj] rows %left : {G2} -> {FB}
{bv}        cake.store %bvj -> %Bv[%t0, %chj] : {FB} -> {G2}
        cake.fence.proxy_async
        cake.pipe.commit %pa, %s : !cake.pipe<2>
      }}
      %ta = cake.pipe.wait %pa : !cake.pipe<2>
      %tb = cake.pipe.wait %pa : !cake.pipe<2>
{prod}      cake.store %inv16 -> %Tt[%t0, %ach] : {FB} -> {G2}
{out}      cake.pipe.release %pa, %ta : !cake.pipe<2>
      cake.pipe.release %pa, %tb : !cake.pipe<2>
    }}
  }}
}}
"""


def half_of_role(j, stages):
    """The loop body of kda_intra for channel half j alone: its k and q are
    the prologue's %k{j} and %q{j} (no second load), its operands written to
    the role's own rings; `stages` maps each staged operand to its
    `ring[stage]`."""
    s = loop_half()
    s = s.replace("%cj", f"%c{64 * j}" if j else "%c0")
    s = s.replace("%chj", f"%ch{j}")
    s = s.replace("%kj,", f"%k{j},").replace("%qj,", f"%q{j},")
    for r in LOOP_STAGED:
        s = s.replace(f"%s_{r}[%s] : {FB} -> {R2}", f"{stages[r]} : {FB} -> {R}")
    return s


# T = (I + L)⁻¹ with the exact fp32 solve confined to the 16 x 16
# diagonal blocks (D) and the rest formed by four f16 wgmmas:
# N = D·L_off, T = (I − N)·(I + N²)·D (examples/chunk_solve_merge).
MERGE_RINGS = """  // T's merge (solve's own stages): D, and one stage for L_off, N, I + N².
  %md = cake.ring : {h}
  %pd = cake.pipe %md : {h}
  %mb = cake.ring : {h}
  %pm = cake.pipe %mb : {h}
""".format(h="!cake.ring<1 x 64x64xf16, swizzle = 128>")


SHARE_NOTE = """
// "h1" runs "h0"'s code (shares_code_with): one copy of the halves' body
// in the instruction cache, each half's channel offset its constant %cj
// (`share=0`: two copies, 2.11 ms against 1.96 at 184 / 136 registers,
// run 11)."""
# How the halves get every channel's row sums for the norms: by loading
# the other half's k and q too (`exchange=0`), or from the other half.
NORMS_NOTE = {
    0: "both\n// need every channel's row sums, so both load all of k and q",
    1: "each\n// loads its own channels of k and q and trades its row sums of\n"
       "// squares with the other half through %nx0 and %nx1: 7-9 % faster on\n"
       "// an H100 than loading both halves, docs/benchmarks/kda.md, run 12"}


SOLVE_V_NOTE = """// writes β ⊙ v while the halves fill its stages (6 % faster on an H100
// than β ⊙ v in the halves, docs/benchmarks/kda.md, run 10), then
"""
MERGE_NOTE = """
// T = (I + L)⁻¹ as examples/chunk_solve_merge forms it: the fp32 solve on
// the 16 x 16 diagonal blocks only, the rest by four f16 wgmmas through
// "solve"'s own stages (`merge=1`; 7 % slower in run 10)."""


def merge_inverse():
    """%inv (f32) and %inv16 (bf16) from %l, as examples/chunk_solve_merge."""
    H = "!cake.frag<64x64xf16>"
    RH = "!cake.ring<1 x 64x64xf16, swizzle = 128>"
    P1 = "!cake.pipe<1>"

    def stage(val, n):
        return f"""      %ms{n} = cake.pipe.acquire %pm : {P1}
      cake.smem.write {val} -> %mb[%ms{n}] : {H} -> {RH}
      cake.fence.proxy_async
      cake.pipe.commit %pm, %ms{n} : {P1}
      %mw{n} = cake.pipe.wait %pm : {P1}
"""

    def mma(out, a, w):
        return (f"      {out} = cake.mma wgmma {a}, %mb[{w}] mn_major, %z : "
                f"{H}, {RH}, {F}\n      cake.pipe.release %pm, {w} : {P1}\n")
    return f"""      %dg = cake.frag.tril_inverse %l diagonal : {F}
      %d16 = cake.frag.convert %dg : {F} -> {H}
      // L below the diagonal blocks (row block > column block).
      %loff = cake.frag.map %l, %rows, %cols
          : ({F}, {COLI}, !cake.frag<1x64xi32>) -> {H} {{
      ^bb0(%x: f32, %r: i32, %c: i32):
        %c4 = arith.constant 4 : i32
        %rb = arith.shrui %r, %c4 : i32
        %cb = arith.shrui %c, %c4 : i32
        %below = arith.cmpi ugt, %rb, %cb : i32
        %zf = arith.constant 0.0 : f32
        %y = arith.select %below, %x, %zf : f32
        %yh = arith.truncf %y : f32 to f16
        cake.frag.yield %yh : f16
      }}
      %sd = cake.pipe.acquire %pd : {P1}
      cake.smem.write %d16 -> %md[%sd] : {H} -> {RH}
      %ms1 = cake.pipe.acquire %pm : {P1}
      cake.smem.write %loff -> %mb[%ms1] : {H} -> {RH}
      cake.fence.proxy_async
      cake.pipe.commit %pd, %sd : {P1}
      cake.pipe.commit %pm, %ms1 : {P1}
      %wd = cake.pipe.wait %pd : {P1}
      %mw1 = cake.pipe.wait %pm : {P1}
{mma("%nn", "%d16", "%mw1")}      %n16 = cake.frag.convert %nn : {F} -> {H}
{stage("%n16", 2)}{mma("%n2", "%n16", "%mw2")}      %ipn2, %imn = cake.frag.map %n2, %nn, %rows, %cols
          : ({F}, {F}, {COLI}, !cake.frag<1x64xi32>) -> ({H}, {H}) {{
      ^bb0(%x2: f32, %x: f32, %r: i32, %c: i32):
        %diag = arith.cmpi eq, %r, %c : i32
        %one1 = arith.constant 1.0 : f32
        %zf = arith.constant 0.0 : f32
        %id = arith.select %diag, %one1, %zf : f32
        %p2 = arith.addf %id, %x2 : f32
        %m1 = arith.subf %id, %x : f32
        %hp = arith.truncf %p2 : f32 to f16
        %hm = arith.truncf %m1 : f32 to f16
        cake.frag.yield %hp, %hm : f16, f16
      }}
{stage("%ipn2", 3)}{mma("%mm", "%imn", "%mw3")}      %m16 = cake.frag.convert %mm : {F} -> {H}
      %inv = cake.mma wgmma %m16, %md[%wd] mn_major, %z : {H}, {RH}, {F}
      cake.pipe.release %pd, %wd : {P1}
      %inv16 = cake.frag.convert %inv : {F} -> {FB}
"""


def intra_kernel(wgs=3, depth=2, hregs=192, sregs=120, merge=0, vsolve=1,
                 share=1, exchange=1, gearly=1):
    """kda_intra: the three-warpgroup pipeline (the default), or the
    one-warpgroup kernel before it (`wgs=1`); `merge=1` forms T's
    off-diagonal blocks on the tensor cores (merge_inverse); `vsolve=0`
    leaves β ⊙ v to the halves instead of "solve"; `share=0` gives each
    half its own copy of the code; `gearly=0` issues the halves' gate
    loads after the norms' exchange instead of beside k and q."""
    if wgs == 1:
        return intra()
    if wgs != 3:
        raise SystemExit("gen-kda.py: wgs=1 or wgs=3")
    text = intra_pipe(depth, hregs, sregs, merge, vsolve, share,
                      exchange if share else 0)
    return gate_loads_early(text) if gearly else text


def gate_loads_early(text):
    """Each half's loads of the gate tile and dt_bias moved up beside its
    loads of k and q, so that all of a chunk's global loads are in flight
    together rather than the gate's behind the norms' exchange (whose
    barrier waits the loads may not pass)."""
    text = text.replace(
        "// then their channel half's gate, Γ,\n",
        "// then their channel half's gate (its tile loaded beside k and q,\n"
        "// ahead of the exchange: 7-8 % faster on an H100 than after it,\n"
        "// docs/benchmarks/kda.md, run 13), Γ,\n", 1)
    out = []
    for part in re.split(r'(?=  cake\.role ")', text):
        loads = re.findall(r"      %(?:gwj|dtj) = cake\.load [^\n]*\n", part)
        at = re.search(r"      %q0 = cake\.load [^\n]*\n", part)
        if len(loads) == 2 and at:
            for line in loads:
                part = part.replace(line, "")
            at = re.search(r"      %q0 = cake\.load [^\n]*\n", part)
            part = part[:at.end()] + "".join(loads) + part[at.end():]
        out.append(part)
    return "".join(out)


def shared_half(text, j):
    """Half 0's role rewritten as half j's with the same code: its channel
    offsets are the constants %cj (its own half) and %co (the other, whose
    rows the norms need too), its pipe and rings the half's own; "h1"
    shares "h0"'s code (shares_code_with)."""
    text = text.replace(
        "      %ch0 = arith.muli %h, %c128 : index\n"
        "      %ch1 = arith.addi %ch0, %c64 : index\n",
        "      // This role's channel half (%ch0) and the other (%ch1).\n"
        f"      %cj = arith.constant {64 * j} : index\n"
        f"      %co = arith.constant {64 * (1 - j)} : index\n"
        "      %chh = arith.muli %h, %c128 : index\n"
        "      %ch0 = arith.addi %chh, %cj : index\n"
        "      %ch1 = arith.addi %chh, %co : index\n")
    text = text.replace("%Dt[%h, %c0]", "%Dt[%h, %cj]")
    if j:
        text = text.replace('cake.role "h0" warpgroups(1)',
                            'cake.role "h1" warpgroups(1)')
        text = re.sub(r'(cake\.role "h1" [^{]*)\{',
                      r'\1shares_code_with("h0") {', text, count=1)
        text = text.replace("%p0", "%p1")
        text = re.sub(r"%s_(\w+)0\[", r"%s_\g<1>1[", text)
        text = re.sub(r"%nx(_[kq])?([01])\b",
                      lambda m: f"%nx{m.group(1) or ''}{1 - int(m.group(2))}",
                      text)
    return text


# The norms' other half, exchanged: each half sums the squares of its own
# 64 channels of k and q per row and hands the sums to the other half
# through a one-stage pipe of two 64 x 1 rings (%nx0 from "h0", %nx1 from
# "h1"), in place of loading the other half's k and q.
XR = "!cake.ring<1 x 64x1xf32>"


def exchange_rings():
    out = ""
    for j in (0, 1):
        out += (f"  %nx_k{j} = cake.ring : {XR}\n  %nx_q{j} = cake.ring : {XR}\n"
                f"  %nx{j} = cake.pipe %nx_k{j}, %nx_q{j} : {XR}, {XR}\n")
    return out


def exchange_norms(text):
    """Half 0's role with the other half's row sums taken from "h1" instead
    of its k and q: the loads and sums of %k1 and %q1 give way to the
    exchange (shared_half swaps the pipes for "h1")."""
    for x in ("k", "q"):
        load = re.search(rf"      %{x}1 = cake\.load [^\n]*\n", text).group(0)
        text = text.replace(load, "")
        a = text.index(f"      %{x}sq1 = cake.frag.map")
        b = text.index("\n", text.index(f"      %{x}n1 = cake.frag.reduce", a)) + 1
        text = text[:a] + text[b:]
    at = text.index("      %rk, %rqs, %brk = cake.frag.map")
    swap = f"""      // This half's sums of squares out, the other half's in: generic-
      // proxy stores and loads, ordered by the pipe.
      %sx = cake.pipe.acquire %nx0 : !cake.pipe<1>
      cake.smem.write %kn0 -> %nx_k0[%sx] : {COLF} -> {XR}
      cake.smem.write %qn0 -> %nx_q0[%sx] : {COLF} -> {XR}
      cake.pipe.commit %nx0, %sx : !cake.pipe<1>
      %tx = cake.pipe.wait %nx1 : !cake.pipe<1>
      %kn1 = cake.smem.read %nx_k1[%tx] : {XR} -> {COLF}
      %qn1 = cake.smem.read %nx_q1[%tx] : {XR} -> {COLF}
      cake.pipe.release %nx1, %tx : !cake.pipe<1>
"""
    return text[:at] + swap + text[at:]


def own_half_only(text):
    """A shared half's role without the other half's channel offset (%co,
    %ch1), which only the loads of the other half's k and q used."""
    text = text.replace(
        "      // This role's channel half (%ch0) and the other (%ch1).\n",
        "      // This role's channel half.\n")
    text = re.sub(r"      %co = arith\.constant \d+ : index\n", "", text)
    return text.replace("      %ch1 = arith.addi %chh, %co : index\n", "")


def intra_pipe(depth=2, hregs=192, sregs=120, merge=0, vsolve=1, share=1,
               exchange=1):
    """kda_intra as a pipeline of three warpgroups on a persistent CTA
    (docs/kda.md, "The intra kernel as a pipeline"): "h0" and "h1" each run
    one channel half's preprocessing of a chunk (β and the norms, then the
    half's gates, Γ, gated operands and outputs) and stage the half's
    operands; "solve" forms L and A_qk over both halves, inverts I + L and
    writes T and W, while the halves already work on the next chunks
    (`depth` stages)."""
    ring = f"!cake.ring<{depth} x 64x64xbf16, swizzle = 128>"
    pt = f"!cake.pipe<{depth}>"

    def rings(j):
        return "".join(f"  %s_{r}{j} = cake.ring : {ring}\n"
                       for r in LOOP_STAGED)

    def pipe(j):
        return (f"  %p{j} = cake.pipe " +
                ", ".join(f"%s_{r}{j}" for r in LOOP_STAGED) + "\n      : " +
                ",\n        ".join([ring] * len(LOOP_STAGED)) + "\n")
    pre = prep(staged=False)
    pre = pre[:pre.index("      // Channels 0..63")]
    pre = pre.replace("      %left = arith.subi %T, %t0 : index\n", "")
    pre = re.sub(r"cake\.load %([QKVGB])\[%t0, ([^\]]+)\] :",
                 r"cake.load %\1[%ts, \2] rows %left :", pre)

    def regs(r):
        return f" regs({r})" if r else ""

    def tiles(role, r):
        return f"""  cake.role "{role}" warpgroups(1){regs(r)} {{
    %H = cake.dim %Alog, 0 : !cake.global<?xf32>
    %slots = cake.dim %Wt, 0 : {G2}
{consts()}    %c1 = arith.constant 1 : index
    %c32i = arith.constant 32 : i32
"""

    def v_out(j):
        """β ⊙ v of channel half j, loaded, scaled and stored."""
        return (f"      %vv{j} = cake.load %V[%ts, %ch{j}] rows %left : {G2} -> {FB}\n"
                + beta_v(f"bv{j}", f"vv{j}") +
                f"      cake.store %bv{j} -> %Bv[%t0, %ch{j}] : {FB} -> {G2}\n")
    # β alone (the b tile, its column and the sigmoid), for "solve".
    beta = pre[pre.index("      // β = sigmoid(b)"):pre.index("      // q and k, L2-normalized")]

    def half_role(j):
        body = half_of_role(j, {r: f"%s_{r}{j}[%s]" for r in LOOP_STAGED})
        body = body.replace(" : " + FB + " -> " + R + "\n",
                            " : " + FB + " -> " + ring + "\n")
        # β folded into the A operand of L (L = Diag(β)·K̃K̂ᵀ): "solve"
        # then needs no β.
        body = body.replace(
            f"%kaj, %qaj = cake.frag.map %k{j}, %q{j}, %gj, %xj, %yj, %rows, %rk, %rqs",
            f"%kaj, %qaj = cake.frag.map %k{j}, %q{j}, %gj, %xj, %yj, %rows, %brk, %rqs")
        return f"""{tiles(f"h{j}", hregs)}{prep_consts()}    %rows = cake.frag.iota : {COLI}
    cake.tiles (%t0, %h) in (%slots, %H) {{
      %ch0 = arith.muli %h, %c128 : index
      %ch1 = arith.addi %ch0, %c64 : index
      %ci = arith.divui %t0, %c64 : index
      %ts = cake.scalar.load %Work[%ci, %c0] : !cake.global<?x2xi32>
      %te = cake.scalar.load %Work[%ci, %c1] : !cake.global<?x2xi32>
      %left = arith.subi %te, %ts : index
{head_params()}{pre}      %s = cake.pipe.acquire %p{j} : {pt}
{body}{"" if vsolve else v_out(j)}      cake.fence.proxy_async
      cake.pipe.commit %p{j}, %s : {pt}
    }}
  }}
"""
    # With vsolve, "solve" writes β ⊙ v before it waits for the halves.
    solve_v = f"""      %ci = arith.divui %t0, %c64 : index
      %ts = cake.scalar.load %Work[%ci, %c0] : !cake.global<?x2xi32>
      %te = cake.scalar.load %Work[%ci, %c1] : !cake.global<?x2xi32>
      %left = arith.subi %te, %ts : index
{head_params()}{beta}{v_out(0)}{v_out(1)}"""
    T = ("%u0", "%u1")  # the stages "solve" reads
    prod = products(early=True, operands=[
        (f"%s_ka{j}[{T[j]}]", f"%s_qa{j}[{T[j]}]", f"%s_kx{j}[{T[j]}]",
         f"%s_ky{j}[{T[j]}]", ring, ring) for j in (0, 1)])
    if merge:
        prod = prod.replace(f"""      %inv = cake.frag.tril_inverse %l : {F}
      %inv16 = cake.frag.convert %inv : {F} -> {FB}
""", merge_inverse())
    # β is in the A operand now: L is the products' rows as they are.
    prod = prod.replace("%l = cake.frag.map %lx, %ly, %rows, %beta",
                        "%l = cake.frag.map %lx, %ly, %rows")
    prod = prod.replace(f"({F}, {F}, {COLI}, {COLF}) -> {F} {{\n"
                        "      ^bb0(%x: f32, %y: f32, %r: i32, %b: f32):",
                        f"({F}, {F}, {COLI}) -> {F} {{\n"
                        "      ^bb0(%x: f32, %y: f32, %r: i32):")
    prod = prod.replace("        %o = arith.mulf %e, %b : f32\n"
                        "        cake.frag.yield %o : f32",
                        "        cake.frag.yield %e : f32")
    if exchange and not share:
        raise SystemExit("gen-kda.py: exchange=1 needs share=1 (the halves "
                         "swap their sums through one body)")
    h0 = exchange_norms(half_role(0)) if exchange else half_role(0)

    def mine(text):
        return own_half_only(text) if exchange else text
    ws = ""
    for j in (0, 1):
        ws += f"""      %w{j} = cake.mma wgmma %inv16, %s_kt{j}[{T[j]}] mn_major, %z : {FB}, {ring}, {F}
      %w{j}b = cake.frag.convert %w{j} : {F} -> {FB}
      cake.store %w{j}b -> %Wt[%t0, %ch{j}] : {FB} -> {G2}
"""
    return f"""// KDA's intra-chunk step for every chunk at once (issue #21, docs/kda.md),
// generated by examples/kda/gen-kda.py intra: what examples/kda/kda_recur
// reads. Per (64-token chunk, head), with the preprocessing fused as in
// kda_fwd:
{INTRA_HEADER}// (they are the tails of underflowing decays).
// A pipeline of three warpgroups on one persistent CTA per SM, over the
// (chunk, head) tiles: "h0" and "h1" each compute β and the norms ({NORMS_NOTE[exchange]}),
// then their channel half's gate, Γ,
// gated operands and outputs (Q̃, K̄, Γ_C{"" if vsolve else ", β ⊙ v"}), and stage the half's
// operands of the products ({depth} stages, pipes %p0 and %p1); "solve"
{SOLVE_V_NOTE if vsolve else ""}// forms L and A_qk over both halves, inverts I + L and writes A_qk, T
// and W, while the halves already work on the next chunks. β is folded
// into L's A operand (K̃ scaled by β/|k|).
// The halves take {hregs or 'the default'} registers, "solve" {sregs or 'the default'}
// (setmaxnreg; at the launch's 168 each ptxas spilled three times as
// much). One warpgroup doing all of it, two CTAs an SM (`gen-kda.py
// intra wgs=1`), took 2.55 ms against the default pipeline's 1.82 at
// 8192 × 96 on an H100 (docs/benchmarks/kda.md, runs 10 and 11).{SHARE_NOTE if share else ""}{MERGE_NOTE if merge else ""}
{INTRA_SIGNATURE}                schedule = #cake.persistent<tile = [64, 1], group_m = 1>,
                cake.flush_denormals = true}} {{
{rings(0)}{pipe(0)}{rings(1)}{pipe(1)}{MERGE_RINGS if merge else ""}{exchange_rings() if exchange else ""}
{half_role(0) if not share else mine(shared_half(h0, 0))}
{half_role(1) if not share else mine(shared_half(h0, 1))}
{tiles("solve", sregs)}{prep_consts() if vsolve else ""}    %rows = cake.frag.iota : {COLI}
    %cols = cake.frag.iota : !cake.frag<1x64xi32>
    cake.tiles (%t0, %h) in (%slots, %H) {{
      %ch0 = arith.muli %h, %c128 : index
      %ch1 = arith.addi %ch0, %c64 : index
      %ach = arith.muli %h, %c64 : index
{solve_v if vsolve else ""}      %u0 = cake.pipe.wait %p0 : {pt}
      %u1 = cake.pipe.wait %p1 : {pt}
{prod}      cake.store %inv16 -> %Tt[%t0, %ach] : {FB} -> {G2}
{ws}      cake.pipe.release %p0, %u0 : {pt}
      cake.pipe.release %p1, %u1 : {pt}
    }}
  }}
}}
"""


KERNELS = {"fused": fused, "intra": intra_kernel, "recur": recur}


if __name__ == "__main__":
    import sys
    which = sys.argv[1] if len(sys.argv) > 1 else "fused"
    if which not in KERNELS:
        sys.exit(f"usage: gen-kda.py [{'|'.join(KERNELS)}] [name=value ...]")
    # Variants: e.g. `recur depth=2 ctas=1`, `recur state=bf16`,
    # `recur chains=2`.
    opts = {k: int(v) if v.isdigit() else v
            for k, v in (a.split("=") for a in sys.argv[2:])}
    print(KERNELS[which](**opts), end="")
