#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Which GEMM kernel to launch for C = A·Bᵀ of a shape (M×K by N×K), and
how to split K: the table of issue #23, bf16 and fp8 e4m3.

The rule was fitted by hand to GEMM runs 9 and 10 on the H200
(docs/benchmarks/gemm.md, the 32 shapes of bench/gemm/grid.py), not
searched by cake-evolve yet; bench/gemm/bench.py --table times it on the
grid and on shapes it was not fitted to. In order:

1. Few tiles: when the 128×128 output tiles fill at most half the SMs and
   K >= 2048, split K over S = clamp(sms // tiles, 2, 8) slices
   (`gemm_splitk_128x128x64_s4`: 32 tiles take S = 4, 64 take 2; run 10:
   0.89-0.94x cuBLAS where the best unsplit kernel reached 0.56-0.85x).
2. Short K (K <= 1024): the 128×128 tile with its epilogue staged through
   shared memory and sent by TMA stores, two stages (`gemm_128x128_se2`;
   run 10: 1.20-1.33x its direct stores there).
3. Tile waves: the 128×128 rotated tile (`gemm_128x128x64_s6_rot`) when
   128×256 tiles would fill at most half the SMs, or their waves leave
   more SM-slots idle (wave efficiency 0.10 below the 128×128 tiles':
   1024 × 14336 has 448 such tiles, 3.4 waves); else the 128×256 tile
   (`gemm_ws_persistent`).

FP8 e4m3 takes rule 3 alone, between `gemm_e4m3_128x128x128_s6` and
`gemm_e4m3_128x256x128_s4`.

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
    "gemm_128x128x64_s6_rot": (
        "gemm-variants/gemm_128x128x64_s6_rot.cake.mlir", []),
    "gemm_128x128_se2": (
        "gemm-variants/gemm_128x128x64_s6.cake.mlir",
        ["--cake-stage-epilogue=stages=2",
         "--cake-set-stages=pipe=0 stages=4",
         "--cake-set-regs=role=mma regs=168"]),
    "gemm_splitk_128x128x64_s4": (
        "gemm-variants/gemm_splitk_128x128x64_s4.cake.mlir", []),
    "gemm_e4m3_128x256x128_s4": (
        "gemm-variants/gemm_e4m3_128x256x128_s4.cake.mlir", []),
    "gemm_e4m3_128x128x128_s6": (
        "gemm-variants/gemm_e4m3_128x128x128_s6.cake.mlir", []),
}

DTYPES = ("bf16", "e4m3")


class DispatchError(ValueError):
    pass


def cdiv(a, b):
    return -(-a // b)


def wave_efficiency(tiles, sms):
    """The share of the SM-slots of all waves that do work."""
    return tiles / (sms * cdiv(tiles, sms))


def split_plan(M, N, K, splits, tile=128):
    """(J, S, Kc) for the split-K kernel: Kc a multiple of 64, no slice
    empty (S shrinks to ceil(K / Kc)); None when one slice would do."""
    kc = cdiv(cdiv(K, splits), 64) * 64
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
        return ("gemm_e4m3_128x128x128_s6" if small
                else "gemm_e4m3_128x256x128_s4"), None
    if 2 * t128 <= sms and K >= 2048:
        plan = split_plan(M, N, K, max(2, min(8, sms // t128)))
        if plan:
            return "gemm_splitk_128x128x64_s4", plan
    if K <= 1024:
        return "gemm_128x128_se2", None
    return ("gemm_128x128x64_s6_rot" if small else "gemm_ws_persistent"), None


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
