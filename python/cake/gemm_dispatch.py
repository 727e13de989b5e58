#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Which GEMM kernel to launch for C = A·Bᵀ of a shape (M×K by N×K), and
how to split K: the table of issue #23, bf16 and fp8 e4m3.

The rules were fitted by hand to the GEMM runs in
docs/benchmarks/gemm.md (runs 9 and 10 on the H200; run 14 on an H100,
which timed every kernel below and the tactic variants beside them on
the 32 grid shapes of bench/gemm/grid.py and 12 held-out ones), not
searched by cake-evolve yet; bench/gemm/bench.py --table times the table
on the grid and on shapes it was not fitted to. "Staged" kernels send
each output tile through shared memory and TMA stores (cake-stage-epilogue),
issued one tile behind by the load role (`into=load`) or by a store warp.

bf16, in order:

1. Few tiles: when the 128×128 output tiles fill at most half the SMs and
   K >= 2048, split K over S = clamp(sms // tiles, 2, 8) slices
   (`gemm_splitk_128x128x64_s4`: 32 tiles take S = 4, 64 take 2).
2. Tile waves: when 128×256 tiles would fill at most half the SMs, or
   their waves leave more SM-slots idle (wave efficiency 0.10 below the
   128×128 tiles': 1024 × 14336 has 448 such tiles, 3.4 waves), the
   128×128 tile staged into the load role, five stages
   (`gemm_128x128_sel_s5`).
3. Long K (K >= 12288): the 128×256 tile with direct stores
   (`gemm_ws_persistent`): the epilogue is a small part of the tile.
4. Else, short K included, the 128×256 tile staged into the load role,
   three stages (`gemm_128x256_sel_s3`).

FP8 e4m3: where the 128×256 tiles are few (rule 2's test), the 128×128
tile, staged through a store warp with two stages
(`gemm_e4m3_128x128_se2`), or without staging and with six stages when
the tiles fit one wave and K >= 12288 (`gemm_e4m3_128x128x128_s6`); else
the 128×256 tile staged into the load role (`gemm_e4m3_128x256_sel_s3`).
Split K (`gemm_splitk_e4m3_128x128x128_s4`) was behind the unsplit tiles
on every few-tile row of run 14 and is not in the table.

VARIANTS maps each name to the example it is built from and the tactics
applied to it (scripts/device-pack-gemm builds them into bundles).

usage: python3 -m cake.gemm_dispatch M N K [--dtype bf16|e4m3] [--sms 132]
                                   (prints: bundle [J S Kc])
       python3 -m cake.gemm_dispatch --recipes
                                   (prints: name source tactics...)
"""
import argparse
import sys

# name -> (example under examples/, cake-opt tactic flags)
VARIANTS = {
    "gemm_ws_persistent": ("gemm_ws_persistent.cake.mlir", []),
    "gemm_128x256_sel_s3": (
        "gemm-variants/gemm_128x256x64_s3_se.cake.mlir", []),
    "gemm_128x128_sel_s5": (
        "gemm-variants/gemm_128x128x64_s6.cake.mlir",
        ["--cake-stage-epilogue=into=load",
         "--cake-set-stages=pipe=0 stages=5"]),
    "gemm_splitk_128x128x64_s4": (
        "gemm-variants/gemm_splitk_128x128x64_s4.cake.mlir", []),
    "gemm_e4m3_128x128x128_s6": (
        "gemm-variants/gemm_e4m3_128x128x128_s6.cake.mlir", []),
    "gemm_e4m3_128x128_se2": (
        "gemm-variants/gemm_e4m3_128x128x128_s6.cake.mlir",
        ["--cake-stage-epilogue=stages=2",
         "--cake-set-stages=pipe=0 stages=4",
         "--cake-set-regs=role=mma regs=168"]),
    "gemm_e4m3_128x256_sel_s3": (
        "gemm-variants/gemm_e4m3_128x256x128_s4.cake.mlir",
        ["--cake-stage-epilogue=into=load",
         "--cake-set-stages=pipe=0 stages=3"]),
}

DTYPES = ("bf16", "e4m3")


class DispatchError(ValueError):
    pass


def cdiv(a, b):
    return -(-a // b)


def wave_efficiency(tiles, sms):
    """The share of the SM-slots of all waves that do work."""
    return tiles / (sms * cdiv(tiles, sms))


def k_step(dtype):
    """The K elements of one stage of the split-K kernel of `dtype`
    (examples/gemm-variants/gemm_splitk_*; 128 bytes of a row): a slice
    must hold whole steps, or its last step would read into the next
    slice."""
    return 128 if dtype == "e4m3" else 64


def split_plan(M, N, K, splits, tile=128, step=64):
    """(J, S, Kc) for the split-K kernel: Kc a multiple of `step`, no slice
    empty (S shrinks to ceil(K / Kc)); None when one slice would do."""
    kc = cdiv(cdiv(K, splits), step) * step
    s = cdiv(K, kc)
    if s < 2:
        return None
    return cdiv(N, tile) * s, s, kc


def choose(M, N, K, dtype="bf16", sms=132):
    """(variant name, split plan or None) for C = A·Bᵀ."""
    if dtype not in DTYPES:
        raise DispatchError(f"no GEMM kernel for {dtype}; the table has "
                            f"{', '.join(DTYPES)}")
    if min(M, N, K) < 1:
        raise DispatchError(f"empty GEMM {M}x{N}x{K}")
    if K % (16 if dtype == "e4m3" else 8):
        raise DispatchError(f"K = {K}: rows must be whole 16-byte pieces "
                            "for TMA")
    t128 = cdiv(M, 128) * cdiv(N, 128)
    t256 = cdiv(M, 128) * cdiv(N, 256)
    small = (2 * t256 <= sms or wave_efficiency(t128, sms)
             > wave_efficiency(t256, sms) + 0.10)
    if dtype == "e4m3":
        if not small:
            return "gemm_e4m3_128x256_sel_s3", None
        if t128 <= sms and K >= 12288:
            return "gemm_e4m3_128x128x128_s6", None
        return "gemm_e4m3_128x128_se2", None
    if 2 * t128 <= sms and K >= 2048:
        plan = split_plan(M, N, K, max(2, min(8, sms // t128)))
        if plan:
            return "gemm_splitk_128x128x64_s4", plan
    if small:
        return "gemm_128x128_sel_s5", None
    if K >= 12288:
        return "gemm_ws_persistent", None
    return "gemm_128x256_sel_s3", None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("shape", nargs="*", type=int, metavar="M N K")
    ap.add_argument("--dtype", default="bf16")
    ap.add_argument("--sms", type=int, default=132)
    ap.add_argument("--recipes", action="store_true")
    args = ap.parse_args(argv)
    if args.recipes:
        for name, (src, flags) in VARIANTS.items():
            print("\t".join([name, src, *flags]))
        return 0
    if len(args.shape) != 3:
        ap.error("expected M N K")
    try:
        name, plan = choose(*args.shape, dtype=args.dtype, sms=args.sms)
    except DispatchError as e:
        print(f"gemm_dispatch: error: {e}", file=sys.stderr)
        return 1
    print(name, *(plan or ()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
