#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes KDA's forward in 16-token chunks (docs/kda.md "The chunk size")
in Cake IR:

    python3 examples/kda/gen-kda16.py intra > examples/kda/kda_intra16.cake.mlir
    python3 examples/kda/gen-kda16.py recur > examples/kda/kda_recur16.cake.mlir

`intra` computes every chunk's intermediates at once (a persistent
pipeline of three warpgroups, as examples/kda/kda_intra), `recur` is
the chain of chunks over them (bench/kda/chunk16.py computes the same
intermediates in torch; their layout is below). With 16 tokens on wgmma's N and the V block on its M
(the state kept transposed, Sᵀ, in registers), every product of a step
is an M = 64 wgmma and nothing but the small operands passes through
shared memory:

    V_newᵀ = (β ⊙ v)ᵀ·Tᵀ − Sᵀ·Wᵀ        (64 x 16)
    Oᵀ     = Sᵀ·Q̃ᵀ + V_newᵀ·A_qkᵀ        (64 x 16, stored transposed)
    Sᵀ    ← Sᵀ ⊙ e^Γ_C + V_newᵀ·K̄        (64 x 128)

Sᵀ (bf16) and V_newᵀ are register A operands (wgmma's RS form). The
16 x 16 blocks T and A_qk are 32-byte rows (swizzle 32), and so is
(β ⊙ v)ᵀ, which the intra step writes transposed ([H·128, tokens]) so
that it is a K-major A beside T's K-major B: a descriptor's operands
share a swizzle.

Intermediates, 64 rows per work slot (four 16-token chunks; a
sequence's chunks past its end are zero rows), bf16 unless noted:
W, Q̃, K̄ [64·slots, H·128]; (β ⊙ v)ᵀ [H·128, 64·slots]; T and A_qk
[64·slots, H·64], each 64-row tile's four 16 x 16 diagonal blocks (the
chain reads only those); Γ_C fp32 [4·slots, H·128], a row per chunk.

Options: `intra depth=N hregs=R sregs=R gcrow=0|1` (stages between the
halves and "solve", default 2; registers, default 192 and 120; 1: Γ_C's
rows broadcast by frag.row and stored, instead of `every(16)`);
`recur depth=N`
(ring stages, default 4), `ctas=N` (CTAs an SM, default 2: the 192
chains of H = 96 resident at once on 132 SMs), `state=fp32|bf16`.
"""
import importlib.util
import os
import sys

# gen-kda.py (the 64-token kernels) for the text both generators share.
_spec = importlib.util.spec_from_file_location(
    "gen_kda", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "gen-kda.py"))
KDA64 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(KDA64)

G2 = "!cake.global<?x?xbf16>"
G2F = "!cake.global<?x?xf32>"
F = "!cake.frag<64x64xf32>"
FB = "!cake.frag<64x64xbf16>"
F16 = "!cake.frag<64x16xf32>"
FB16 = "!cake.frag<64x16xbf16>"
ROW = "!cake.frag<1x64xf32>"


def recur(depth=4, ctas=2, state="fp32"):
    if state not in ("fp32", "bf16"):
        raise SystemExit("gen-kda16.py: state=fp32 or state=bf16")
    bf16_state = state == "bf16"
    name = "kda_recur16_bf16_state" if bf16_state else "kda_recur16"
    S3 = f"!cake.global<?x128x128x{'bf16' if bf16_state else 'f32'}>"
    wide = f"!cake.ring<{depth} x 16x64xbf16, swizzle = 128>"
    small = f"!cake.ring<{depth} x 16x16xbf16, swizzle = 32>"
    bvt = f"!cake.ring<{depth} x 64x16xbf16, swizzle = 32>"
    PD = f"!cake.pipe<{depth}>"
    # Ring, its type, the tensor and column it is loaded from (row %t0
    # unless the tensor is transposed).
    streamed = [("w0", wide, "Wt", "%ch0"), ("w1", wide, "Wt", "%ch1"),
                ("q0", wide, "Qt", "%ch0"), ("q1", wide, "Qt", "%ch1"),
                ("kb0", wide, "Kb", "%ch0"), ("kb1", wide, "Kb", "%ch1"),
                ("aq", small, "Aqk", "%sch"), ("tt", small, "Tt", "%sch"),
                ("bvt", bvt, "Bvt", None)]
    rings = "\n".join(f"  %r_{r} = cake.ring : {t}" for r, t, _, _ in streamed)
    pipe = ("  %pin = cake.pipe " + ", ".join(f"%r_{r}" for r, *_ in streamed)
            + "\n      : " + ",\n        ".join(t for _, t, _, _ in streamed))
    loads = ""
    for r, t, src, col in streamed:
        at = f"%vcol, %t0" if col is None else f"%t0, {col}"
        loads += (f"        cake.tma.load %{src}[{at}] -> %r_{r}[%s] : "
                  f"{G2} -> {t}\n")
    init = fin = ""
    for i, col in ((0, "%c0"), (1, "%c64")):
        if bf16_state:
            init += (f"      %init{i}b = cake.load %S0[%nh, %vb, {col}] : {S3} -> {FB}\n"
                     f"      %init{i} = cake.frag.convert %init{i}b : {FB} -> {F}\n")
            fin += (f"      %fin{i}b = cake.frag.convert %fin#{i} : {F} -> {FB}\n"
                    f"      cake.store %fin{i}b -> %SN[%nh, %vb, {col}] : {FB} -> {S3}\n")
        else:
            init += f"      %init{i} = cake.load %S0[%nh, %vb, {col}] : {S3} -> {F}\n"
            fin += f"      cake.store %fin#{i} -> %SN[%nh, %vb, {col}] : {F} -> {S3}\n"
    updates = ""
    for h in (0, 1):
        updates += f"""      %d{h} = cake.frag.map %s{h}, %gc{h} : ({F}, {ROW}) -> {F} {{
      ^bb0(%x: f32, %c: f32):
        %e = arith.mulf %c, %log2e : f32
        %f = math.exp2 %e : f32
        %y = arith.mulf %x, %f : f32
        cake.frag.yield %y : f32
      }}
      %n{h} = cake.mma wgmma %vnb, %r_kb{h}[%ta] mn_major, %d{h} : {FB16}, {wide}, {F}
"""
    params = f"""    %NH = cake.dim %S0, 0 : {S3}
    %Vd = cake.dim %S0, 1 : {S3}
    %HD = cake.dim %Gc, 1 : {G2F}
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %log2e = arith.constant 1.44269504 : f32
    %H = arith.divui %HD, %c128 : index
    cake.tiles (%nh, %vb) in (%NH, %Vd) {{
      %n = arith.divui %nh, %H : index
      %h = arith.remui %nh, %H : index
      %first = cake.scalar.load %Seqs[%n, %c0] : !cake.global<?x4xi32>
      %last = cake.scalar.load %Seqs[%n, %c1] : !cake.global<?x4xi32>
      %ts = cake.scalar.load %Seqs[%n, %c2] : !cake.global<?x4xi32>
      %te = cake.scalar.load %Seqs[%n, %c3] : !cake.global<?x4xi32>
      %ch0 = arith.muli %h, %c128 : index
      %ch1 = arith.addi %ch0, %c64 : index
      %vcol = arith.addi %ch0, %vb : index
"""
    return f"""// KDA's chain of 16-token chunks (issue #21, docs/kda.md "The chunk
// size"), generated by examples/kda/gen-kda16.py recur. One CTA per
// (sequence and head, 64-column block of V), {ctas} an SM; a copy warp
// streams each chunk's W, Q̃ and K̄ (by channel half), A_qk, T and
// (β ⊙ v)ᵀ (the V block) through a TMA ring of {depth} stages; one
// warpgroup holds the state Sᵀ (64 V columns x 128 channels, fp32) in
// registers and per chunk computes, with the V block on wgmma's M and
// the chunk's 16 tokens on N,
//   V_newᵀ = (β ⊙ v)ᵀ·Tᵀ − Sᵀ·Wᵀ;  Oᵀ = Sᵀ·Q̃ᵀ + V_newᵀ·A_qkᵀ;
//   Sᵀ ← Sᵀ ⊙ e^Γ_C + V_newᵀ·K̄,
// Sᵀ (in bf16) and V_newᵀ as register A operands; Oᵀ stored transposed
// into O [T, H·128], the chunk's tokens up to its sequence's end. The
// work list %Seqs ([N, 4]: first and end chunk, first and end token)
// gives each sequence's 16-token chunks and tokens; the states in and
// out as [N·H, 128, 128] {state} (FlashKDA's [N, H, V, K]).
cake.kernel @{name}(%Wt: {G2}, %Bvt: {G2}, %Qt: {G2}, %Kb: {G2},
                       %Aqk: {G2}, %Tt: {G2}, %Gc: {G2F},
                       %S0: {S3}, %O: {G2}, %SN: {S3},
                       %Seqs: !cake.global<?x4xi32>)
    attributes {{target = #cake.target<"sm_90a">,
                schedule = #cake.grid<tile = [1, 64]>,
                cake.ctas_per_sm = {ctas},
                cake.flush_denormals = true}} {{
{rings}
{pipe}

  cake.role "chain" warpgroups(1) {{
{params}{init}      %fin:2 = scf.for %ci = %first to %last step %c1
          iter_args(%s0 = %init0, %s1 = %init1) -> ({F}, {F}) {{
      // The chunk's tokens.
      %done = arith.subi %ci, %first : index
      %dtok = arith.muli %done, %c16 : index
      %tok = arith.addi %ts, %dtok : index
      %left = arith.subi %te, %tok : index
      // Γ_C of this chunk, for the decay at the step's end.
      %gc0 = cake.load %Gc[%ci, %ch0] : {G2F} -> {ROW}
      %gc1 = cake.load %Gc[%ci, %ch1] : {G2F} -> {ROW}
      // The state entering the chunk, as the register A of Sᵀ·Wᵀ and Sᵀ·Q̃ᵀ.
      %sb0 = cake.frag.convert %s0 : {F} -> {FB}
      %sb1 = cake.frag.convert %s1 : {F} -> {FB}
      %ta = cake.pipe.wait %pin : {PD}
      %z = cake.frag.zero : {F16}
      %u = cake.mma wgmma %r_bvt[%ta], %r_tt[%ta], %z : {bvt}, {small}, {F16}
      %vn0 = cake.mma wgmma negate %sb0, %r_w0[%ta], %u : {FB}, {wide}, {F16}
      %vn = cake.mma wgmma negate %sb1, %r_w1[%ta], %vn0 : {FB}, {wide}, {F16}
      %vnb = cake.frag.convert %vn : {F16} -> {FB16}
      // Oᵀ = Sᵀ·Q̃ᵀ + V_newᵀ·A_qkᵀ.
      %o0 = cake.mma wgmma %sb0, %r_q0[%ta], %z : {FB}, {wide}, {F16}
      %o1 = cake.mma wgmma %sb1, %r_q1[%ta], %o0 : {FB}, {wide}, {F16}
      %o = cake.mma wgmma %vnb, %r_aq[%ta], %o1 : {FB16}, {small}, {F16}
      %ob = cake.frag.convert %o : {F16} -> {FB16}
      cake.store %ob -> %O[%tok, %vcol] transposed rows %left : {FB16} -> {G2}
      // Sᵀ ← Sᵀ ⊙ e^Γ_C + V_newᵀ·K̄, per channel half.
{updates}      cake.pipe.release %pin, %ta : {PD}
      scf.yield %n0, %n1 : {F}, {F}
      }}
{fin}    }}
  }}

  cake.role "load" warps(1) {{
{params}      %c4 = arith.constant 4 : index
      %ach = arith.muli %h, %c64 : index
      scf.for %ci = %first to %last step %c1 {{
        %t0 = arith.muli %ci, %c16 : index
        // T and A_qk: the chunk's diagonal block of its 64-row tile's.
        %cq = arith.remui %ci, %c4 : index
        %cb = arith.muli %cq, %c16 : index
        %sch = arith.addi %ach, %cb : index
        %s = cake.pipe.acquire %pin : {PD}
{loads}        cake.pipe.commit %pin, %s : {PD}
      }}
    }}
  }}
}}
"""


XR = "!cake.ring<1 x 64x1xf32>"
COLF = "!cake.frag<64x1xf32>"
COLI = "!cake.frag<64x1xi32>"


def half(j, ring, pt, regs, gcrow=0):
    """Channel half j's role: β, the norms (row sums traded with the other
    half), the gate, Γ and its reversed sums within each 16-token chunk,
    the outputs Q̃, K̄ and Γ_C, and the staged operands of the products:
    β ⊙ K̃ (β/|k| folded in), Q̃ and K̂. "h1" runs "h0"'s code."""
    o = 1 - j
    share = ' shares_code_with("h0")' if j else ""
    # Γ_C of the four chunks: the reversed sums' first rows, stored by the
    # lanes that hold them (every(16)); gcrow=1 broadcasts each row
    # (frag.row: a scratch and a barrier each) and stores it.
    gc = f"      cake.store %rj -> %Gc[%c4ci, %ch0] every(16) : {F} -> {G2F}\n"
    if gcrow:
        gc = ""
        for c in range(4):
            gc += (f"      %gr{c} = cake.frag.row %rj[{16 * c}] : {F} -> {ROW}\n"
                   f"      %cc{c} = arith.addi %c4ci, %c{c} : index\n"
                   f"      cake.store %gr{c} -> %Gc[%cc{c}, %ch0] : {ROW} -> {G2F}\n")
    return f"""  cake.role "h{j}" warpgroups(1) regs({regs}){share} {{
    %H = cake.dim %Alog, 0 : !cake.global<?xf32>
    %slots = cake.dim %Wt, 0 : {G2}
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %log2e = arith.constant 1.44269504 : f32
    %nlog2e = arith.constant -1.44269504 : f32
    %scale = arith.constant 0.0883883476 : f32
    %one = arith.constant 1.0 : f32
    %eps = arith.constant 1.0e-06 : f32
    %lb = arith.constant -5.0 : f32
    %col8 = cake.frag.iota : !cake.frag<1x8xi32>
    %rows = cake.frag.iota : {COLI}
    cake.tiles (%t0, %h) in (%slots, %H) {{
      // This role's channel half.
      %cj = arith.constant {64 * j} : index
      %chh = arith.muli %h, %c128 : index
      %ch0 = arith.addi %chh, %cj : index
      %ci = arith.divui %t0, %c64 : index
      %c4ci = arith.muli %ci, %c4 : index
      %ts = cake.scalar.load %Work[%ci, %c0] : !cake.global<?x2xi32>
      %te = cake.scalar.load %Work[%ci, %c1] : !cake.global<?x2xi32>
      %left = arith.subi %te, %ts : index
      %lefti = arith.index_cast %left : index to i32
{head_beta()}      // Every global load of the chunk in flight together: k, q, the
      // gate tile and dt_bias.
      %k0 = cake.load %K[%ts, %ch0] rows %left : {G2} -> {FB}
      %q0 = cake.load %Q[%ts, %ch0] rows %left : {G2} -> {FB}
      %gwj = cake.load %G[%ts, %ch0] rows %left : {G2} -> {FB}
      %dtj = cake.load %Dt[%h, %cj] : {G2F} -> {ROW}
      // q and k, L2-normalized over their 128 channels: this half's sums
      // of squares out, the other half's in.
      %ksq0 = cake.frag.map %k0 : ({FB}) -> {F} {{
      ^bb0(%x: bf16):
        %xf = arith.extf %x : bf16 to f32
        %y = arith.mulf %xf, %xf : f32
        cake.frag.yield %y : f32
      }}
      %kn0 = cake.frag.reduce sum %ksq0 : {F} -> {COLF}
      %qsq0 = cake.frag.map %q0 : ({FB}) -> {F} {{
      ^bb0(%x: bf16):
        %xf = arith.extf %x : bf16 to f32
        %y = arith.mulf %xf, %xf : f32
        cake.frag.yield %y : f32
      }}
      %qn0 = cake.frag.reduce sum %qsq0 : {F} -> {COLF}
      %sx = cake.pipe.acquire %nx{j} : !cake.pipe<1>
      cake.smem.write %kn0 -> %nx_k{j}[%sx] : {COLF} -> {XR}
      cake.smem.write %qn0 -> %nx_q{j}[%sx] : {COLF} -> {XR}
      cake.pipe.commit %nx{j}, %sx : !cake.pipe<1>
      %tx = cake.pipe.wait %nx{o} : !cake.pipe<1>
      %kn1 = cake.smem.read %nx_k{o}[%tx] : {XR} -> {COLF}
      %qn1 = cake.smem.read %nx_q{o}[%tx] : {XR} -> {COLF}
      cake.pipe.release %nx{o}, %tx : !cake.pipe<1>
      %rk, %rqs, %brk = cake.frag.map %kn0, %kn1, %qn0, %qn1, %beta
          : ({COLF}, {COLF}, {COLF}, {COLF}, {COLF}) -> ({COLF}, {COLF}, {COLF}) {{
      ^bb0(%a: f32, %b: f32, %c: f32, %d: f32, %bb: f32):
        %ks = arith.addf %a, %b : f32
        %ke = arith.addf %ks, %eps : f32
        %kr = math.sqrt %ke : f32
        %ki = arith.divf %one, %kr : f32
        %qs = arith.addf %c, %d : f32
        %qe = arith.addf %qs, %eps : f32
        %qr = math.sqrt %qe : f32
        %qi = arith.divf %scale, %qr : f32
        %bk = arith.mulf %bb, %ki : f32
        cake.frag.yield %ki, %qi, %bk : f32, f32, f32
      }}
      %s = cake.pipe.acquire %p{j} : {pt}
      // The gate a = lb·sigmoid(e^A_log·(g + dt_bias)), none past the
      // sequence's end (Γ_C is then its last token's).
      %aj = cake.frag.map %gwj, %dtj, %rows : ({FB}, {ROW}, {COLI}) -> {F} {{
      ^bb0(%x: bf16, %d: f32, %r: i32):
        %xf = arith.extf %x : bf16 to f32
        %xd = arith.addf %xf, %d : f32
        %z = arith.mulf %xd, %ealog : f32
        %ze = arith.mulf %z, %nlog2e : f32
        %ez = math.exp2 %ze : f32
        %den = arith.addf %ez, %one : f32
        %sig = arith.divf %lb, %den fastmath<afn> : f32
        %in = arith.cmpi ult, %r, %lefti : i32
        %zf = arith.constant 0.0 : f32
        %ai = arith.select %in, %sig, %zf : f32
        cake.frag.yield %ai : f32
      }}
      // Γ within each 16-token chunk, and Γ_C − Γ + a (the sums from each
      // token to its chunk's end: Γ_C in the chunk's first row).
      %gj = cake.frag.scan sum %aj down segment(16) : {F}
      %rj = cake.frag.scan sum %aj down reverse segment(16) : {F}
{gc}      // K̄ = k ⊙ e^(Γ_C − Γ).
      %kbj = cake.frag.map %k0, %rj, %aj, %rk : ({FB}, {F}, {F}, {COLF}) -> {FB} {{
      ^bb0(%k: bf16, %r: f32, %a: f32, %n: f32):
        %d = arith.subf %r, %a : f32
        %e = arith.mulf %d, %log2e : f32
        %f = math.exp2 %e : f32
        %xf = arith.extf %k : bf16 to f32
        %v = arith.mulf %xf, %f : f32
        %w = arith.mulf %v, %n : f32
        %t = arith.truncf %w : f32 to bf16
        cake.frag.yield %t : bf16
      }}
      cake.store %kbj -> %Kb[%t0, %ch0] : {FB} -> {G2}
      // β ⊙ K̃ (L's A operand and W's B), Q̃ = s·q ⊙ e^Γ and K̂ = k ⊙ e^−Γ
      // (at most e^80 within a chunk: bf16's range holds it).
      %kaj, %qaj, %kxj = cake.frag.map %k0, %q0, %gj, %brk, %rqs, %rk
          : ({FB}, {FB}, {F}, {COLF}, {COLF}, {COLF}) -> ({FB}, {FB}, {FB}) {{
      ^bb0(%k: bf16, %q: bf16, %g: f32, %nb: f32, %nq: f32, %nk: f32):
        %e = arith.mulf %g, %log2e : f32
        %f = math.exp2 %e : f32
        %ne = arith.mulf %g, %nlog2e : f32
        %fi = math.exp2 %ne : f32
        %kf = arith.extf %k : bf16 to f32
        %qf = arith.extf %q : bf16 to f32
        %kb = arith.mulf %kf, %nb : f32
        %ka = arith.mulf %kb, %f : f32
        %qn = arith.mulf %qf, %nq : f32
        %qa = arith.mulf %qn, %f : f32
        %kn = arith.mulf %kf, %nk : f32
        %kx = arith.mulf %kn, %fi : f32
        %kat = arith.truncf %ka : f32 to bf16
        %qat = arith.truncf %qa : f32 to bf16
        %kxt = arith.truncf %kx : f32 to bf16
        cake.frag.yield %kat, %qat, %kxt : bf16, bf16, bf16
      }}
      cake.smem.write %kaj -> %s_ka{j}[%s] : {FB} -> {ring}
      cake.smem.write %qaj -> %s_qa{j}[%s] : {FB} -> {ring}
      cake.smem.write %kxj -> %s_kx{j}[%s] : {FB} -> {ring}
      cake.store %qaj -> %Qt[%t0, %ch0] : {FB} -> {G2}
      cake.fence.proxy_async
      cake.pipe.commit %p{j}, %s : {pt}
    }}
  }}
"""


def head_beta():
    """e^A_log of head h and β = sigmoid(b) of the chunk's rows, as the
    64-token kernels compute them (gen-kda.py's text)."""
    return KDA64.head_params() + KDA64.beta_of_b("%ts", " rows %left")


def intra(depth=2, hregs=192, sregs=120, gcrow=0):
    ring = f"!cake.ring<{depth} x 64x64xbf16, swizzle = 128>"
    pt = f"!cake.pipe<{depth}>"
    staged = ("ka", "qa", "kx")
    decls = ""
    for j in (0, 1):
        decls += "".join(f"  %s_{r}{j} = cake.ring : {ring}\n" for r in staged)
        decls += (f"  %p{j} = cake.pipe " + ", ".join(f"%s_{r}{j}" for r in staged)
                  + "\n      : " + ",\n        ".join([ring] * 3) + "\n")
    for j in (0, 1):
        decls += (f"  %nx_k{j} = cake.ring : {XR}\n  %nx_q{j} = cake.ring : {XR}\n"
                  f"  %nx{j} = cake.pipe %nx_k{j}, %nx_q{j} : {XR}, {XR}\n")
    bv = ""
    for j in (0, 1):
        bv += f"""      %vv{j} = cake.load %V[%ts, %ch{j}] rows %left : {G2} -> {FB}
      %bv{j} = cake.frag.map %vv{j}, %beta : ({FB}, {COLF}) -> {FB} {{
      ^bb0(%x: bf16, %b: f32):
        %xf = arith.extf %x : bf16 to f32
        %y = arith.mulf %xf, %b : f32
        %t = arith.truncf %y : f32 to bf16
        cake.frag.yield %t : bf16
      }}
      cake.store %bv{j} -> %Bvt[%ch{j}, %t0] transposed : {FB} -> {G2}
"""
    ws = ""
    for j in (0, 1):
        ws += f"""      %w{j} = cake.mma wgmma %inv16, %s_ka{j}[%u{j}] mn_major, %z : {FB}, {ring}, {F}
      %w{j}b = cake.frag.convert %w{j} : {F} -> {FB}
      cake.store %w{j}b -> %Wt[%t0, %ch{j}] : {FB} -> {G2}
"""
    return f"""// KDA's intra-chunk step in 16-token chunks for every chunk at once
// (issue #21, docs/kda.md "The chunk size"), generated by
// examples/kda/gen-kda16.py intra: what examples/kda/kda_recur16 reads.
// A 64-row tile holds four chunks. Per (tile, head), the preprocessing
// fused (q, k L2-normalized, β = sigmoid(b), the gate from g, A_log and
// dt_bias), Γ the running sum of the gate within each chunk:
//   K̃ = k ⊙ e^Γ, K̂ = k ⊙ e^−Γ, Q̃ = s·q ⊙ e^Γ, K̄ = k ⊙ e^(Γ_C − Γ);
//   L = strict_tril(Diag(β)·K̃K̂ᵀ) and A_qk = tril(Q̃K̂ᵀ) on the chunks'
//   16 x 16 diagonal blocks; T = (I + L)⁻¹ (the blocks' exact fp32
//   inverses); W = T·(β ⊙ K̃).
// Within a chunk e^−Γ is at most e^80 (a lower bound of −5): no
// reference rows. Work list, slots and rows past a sequence's end as
// kda_intra's. Written, bf16: W, Q̃, K̄ [64·slots, H·128]; (β ⊙ v)ᵀ
// [H·128, 64·slots] (stored transposed: the chain's K-major A); A_qk and
// T [64·slots, H·64], zero outside the diagonal blocks; Γ_C fp32
// [4·slots, H·128], a row per chunk. Denormals flush to zero.
// The pipeline of kda_intra: "h0" and "h1" (one code, shares_code_with)
// each take a channel half's preprocessing and stage its operands
// ({depth} stages); "solve" writes (β ⊙ v)ᵀ, then forms L and A_qk over
// both halves, inverts the blocks and writes A_qk, T and W. Registers:
// halves {hregs}, "solve" {sregs} (setmaxnreg).
cake.kernel @kda_intra16(%Q: {G2}, %K: {G2}, %V: {G2}, %G: {G2}, %B: {G2},
                       %Alog: !cake.global<?xf32>, %Dt: {G2F},
                       %Wt: {G2}, %Bvt: {G2}, %Qt: {G2}, %Kb: {G2},
                       %Aqk: {G2}, %Tt: {G2}, %Gc: {G2F},
                       %Work: !cake.global<?x2xi32>)
    attributes {{target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [64, 1], group_m = 1>,
                cake.flush_denormals = true}} {{
{decls}
{half(0, ring, pt, hregs, gcrow)}
{half(1, ring, pt, hregs, gcrow)}
  cake.role "solve" warpgroups(1) regs({sregs}) {{
    %H = cake.dim %Alog, 0 : !cake.global<?xf32>
    %slots = cake.dim %Wt, 0 : {G2}
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4i = arith.constant 4 : i32
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %log2e = arith.constant 1.44269504 : f32
    %nlog2e = arith.constant -1.44269504 : f32
    %one = arith.constant 1.0 : f32
    %col8 = cake.frag.iota : !cake.frag<1x8xi32>
    %rows = cake.frag.iota : {COLI}
    %cols = cake.frag.iota : !cake.frag<1x64xi32>
    cake.tiles (%t0, %h) in (%slots, %H) {{
      %ch0 = arith.muli %h, %c128 : index
      %ch1 = arith.addi %ch0, %c64 : index
      %ach = arith.muli %h, %c64 : index
      %ci = arith.divui %t0, %c64 : index
      %ts = cake.scalar.load %Work[%ci, %c0] : !cake.global<?x2xi32>
      %te = cake.scalar.load %Work[%ci, %c1] : !cake.global<?x2xi32>
      %left = arith.subi %te, %ts : index
{head_beta()}{bv}      %u0 = cake.pipe.wait %p0 : {pt}
      %u1 = cake.pipe.wait %p1 : {pt}
      %z = cake.frag.zero : {F}
      // L = Diag(β)·K̃K̂ᵀ (tril_inverse ... diagonal reads only the
      // diagonal blocks' strict lower triangles) and Q̃K̂ᵀ.
      %l0 = cake.mma wgmma %s_ka0[%u0], %s_kx0[%u0], %z : {ring}, {ring}, {F}
      %l = cake.mma wgmma %s_ka1[%u1], %s_kx1[%u1], %l0 : {ring}, {ring}, {F}
      %a0 = cake.mma wgmma %s_qa0[%u0], %s_kx0[%u0], %z : {ring}, {ring}, {F}
      %a = cake.mma wgmma %s_qa1[%u1], %s_kx1[%u1], %a0 : {ring}, {ring}, {F}
      %aqk = cake.frag.map %a, %rows, %cols : ({F}, {COLI}, !cake.frag<1x64xi32>) -> {FB} {{
      ^bb0(%x: f32, %r: i32, %c: i32):
        %rb = arith.shrui %r, %c4i : i32
        %cb = arith.shrui %c, %c4i : i32
        %blk = arith.cmpi eq, %rb, %cb : i32
        %low = arith.cmpi ule, %c, %r : i32
        %keep = arith.andi %blk, %low : i1
        %zf = arith.constant 0.0 : f32
        %o = arith.select %keep, %x, %zf : f32
        %t = arith.truncf %o : f32 to bf16
        cake.frag.yield %t : bf16
      }}
      cake.store %aqk -> %Aqk[%t0, %ach] : {FB} -> {G2}
      %inv = cake.frag.tril_inverse %l diagonal : {F}
      %inv16 = cake.frag.convert %inv : {F} -> {FB}
      cake.store %inv16 -> %Tt[%t0, %ach] : {FB} -> {G2}
{ws}      cake.pipe.release %p0, %u0 : {pt}
      cake.pipe.release %p1, %u1 : {pt}
    }}
  }}
}}
"""


KERNELS = {"intra": intra, "recur": recur}


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "recur"
    if which not in KERNELS:
        sys.exit(f"usage: gen-kda16.py [{'|'.join(KERNELS)}] [name=value ...]")
    opts = {k: int(v) if v.isdigit() else v
            for k, v in (a.split("=") for a in sys.argv[2:])}
    print(KERNELS[which](**opts), end="")
