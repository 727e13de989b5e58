# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake IR text that KDA's generators share (gen-kda.py's 64-token kernels,
gen-kda16.py's 16-token ones): the fragment and ring types, the norms'
sums and scales, β, the head's gate parameters, the decay of the state,
the constants every role declares."""

R = "!cake.ring<1 x 64x64xbf16, swizzle = 128>"
F = "!cake.frag<64x64xf32>"
FB = "!cake.frag<64x64xbf16>"
ROW = "!cake.frag<1x64xf32>"
COLI = "!cake.frag<64x1xi32>"
COLF = "!cake.frag<64x1xf32>"
G2 = "!cake.global<?x?xbf16>"
G2F = "!cake.global<?x?xf32>"


def sum_of_squares(x, h):
    """%<x>n<h>: the row sums of squares of channel half h of %<x><h>."""
    return f"""      %{x}sq{h} = cake.frag.map %{x}{h} : ({FB}) -> {F} {{
      ^bb0(%x: bf16):
        %xf = arith.extf %x : bf16 to f32
        %y = arith.mulf %xf, %xf : f32
        cake.frag.yield %y : f32
      }}
      %{x}n{h} = cake.frag.reduce sum %{x}sq{h} : {F} -> {COLF}
"""


def norm_scales():
    """%rk, %rqs, %brk from both halves' sums of squares (%kn0, %kn1, %qn0,
    %qn1) and %beta."""
    return f"""      %rk, %rqs, %brk = cake.frag.map %kn0, %kn1, %qn0, %qn1, %beta
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
"""


def beta_of_b(row="%t0", bound=""):
    """%beta = sigmoid(b) of the tile's rows from `row` (`bound`: the load's
    `rows` clause, if any), after head_params()."""
    return f"""      // β = sigmoid(b): b is [T, H]; an 8-column tile around column h,
      // the column picked by a mask and a row sum.
      %bt = cake.load %B[{row}, %hb]{bound} : {G2} -> !cake.frag<64x8xbf16>
      %bm = cake.frag.map %bt, %col8 : (!cake.frag<64x8xbf16>, !cake.frag<1x8xi32>) -> !cake.frag<64x8xf32> {{
      ^bb0(%x: bf16, %c: i32):
        %xf = arith.extf %x : bf16 to f32
        %is = arith.cmpi eq, %c, %hsel : i32
        %zf = arith.constant 0.0 : f32
        %y = arith.select %is, %xf, %zf : f32
        cake.frag.yield %y : f32
      }}
      %bs = cake.frag.reduce sum %bm : !cake.frag<64x8xf32> -> {COLF}
      %beta = cake.frag.map %bs : ({COLF}) -> {COLF} {{
      ^bb0(%x: f32):
        %xe = arith.mulf %x, %nlog2e : f32
        %ex = math.exp2 %xe : f32
        %den = arith.addf %ex, %one : f32
        %sig = arith.divf %one, %den : f32
        cake.frag.yield %sig : f32
      }}
"""


def head_params():
    """Head h's place among b's 8-column tiles and e^A_log."""
    return """      %hr = arith.remui %h, %c8 : index
      %hb = arith.subi %h, %hr : index
      %hsel = arith.index_cast %hr : index to i32
      %alog = cake.scalar.load %Alog[%h] : !cake.global<?xf32>
      %al2 = arith.mulf %alog, %log2e : f32
      %ealog = math.exp2 %al2 : f32
"""


def beta_v(name, src):
    """%name = β ⊙ %src in bf16."""
    return f"""      %{name} = cake.frag.map %{src}, %beta : ({FB}, {COLF}) -> {FB} {{
      ^bb0(%x: bf16, %b: f32):
        %xf = arith.extf %x : bf16 to f32
        %y = arith.mulf %xf, %b : f32
        %t = arith.truncf %y : f32 to bf16
        cake.frag.yield %t : bf16
      }}
"""


def stage_state(ring, stage, acquire=""):
    """The state entering the chunk in bf16, written to its two stages
    (after `acquire`, the line that takes the stage, when given)."""
    return f"""      // The state entering the chunk, as the K-major B of W·S and Q̃·S.
{acquire}      %st0 = cake.frag.convert %s0 : {F} -> {FB}
      cake.smem.write %st0 -> %{ring}0[%{stage}] : {FB} -> {R}
      %st1 = cake.frag.convert %s1 : {F} -> {FB}
      cake.smem.write %st1 -> %{ring}1[%{stage}] : {FB} -> {R}
"""


def decay(h):
    """%d{h} = Sᵀ's channel half h ⊙ e^Γ_C (a column broadcast)."""
    return f"""      %d{h} = cake.frag.map %s{h}, %gc{h} : ({F}, {ROW}) -> {F} {{
      ^bb0(%x: f32, %c: f32):
        %e = arith.mulf %c, %log2e : f32
        %f = math.exp2 %e : f32
        %y = arith.mulf %x, %f : f32
        cake.frag.yield %y : f32
      }}
"""


def consts():
    return """    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %log2e = arith.constant 1.44269504 : f32
"""
