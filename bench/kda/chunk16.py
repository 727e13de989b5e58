#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""KDA in 16-token chunks: the intra step's intermediates computed in torch
(fp32, stored bf16 as examples/kda/gen-kda16.py's chain reads them), and a
check and timing of that chain (examples/kda/kda_recur16) on them.

    python3 bench/kda/chunk16.py --runtime LIB --recur16 [LABEL=]kda_recur16.json[,...] \
        [--intra16 kda_intra16.json] \
        [--recur kda_recur.json,kda_recur_x2.json --intra kda_intra.json] \
        [--shapes 300+77+1x2 8192x96] [--time 8192x96,8192x64] [--rounds 5]

Checks: the chain's output and final state against the fp32 token
recurrence (reference.py), fla's measure (RMS error over RMS, at most
6e-3 for the output, as check_fwd.py), outputs poisoned with NaN first.
With --intra16, the 16-token forward (examples/kda/kda_intra16, then the
first chain) is checked the same way, and the intra kernel's
intermediates against this file's torch ones. Timing (with --time): the
16-token chains on torch's intermediates, the 16-token forward (its intra
kernel alone and whole) and the 64-token forward (kda_intra and
kda_recur, or kda_recur_x2 where cake_kda.py would launch it: each
kernel alone and whole), on the same inputs, interleaved, the median of
the rounds.

Per sequence and head, chunks of 16 tokens (a sequence's last chunk
padded with zero rows: no gate, no key, no value), Γ the running sum of
the gate within the chunk:
  K̃ = k̂ ⊙ e^Γ, Q̃ = s·q̂ ⊙ e^Γ, K̄ = k̂ ⊙ e^(Γ_C − Γ), K̂ = k̂ ⊙ e^−Γ
  L = strict_tril(Diag(β)·K̃K̂ᵀ), A_qk = tril(Q̃K̂ᵀ), T = (I + L)⁻¹,
  W = T·Diag(β)·K̃,
the pairwise decays formed around the chunk's first token (at most
e^80 with a lower bound of −5: inside fp32's and bf16's range).
"""
import argparse
import os
import statistics
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
from bench import LOWER_BOUND, OUT_TOL, make_inputs  # noqa: E402
from cake_rt import (CakeRtArg, load_bundle, load_runtime,  # noqa: E402
                     tensor_arg, time_ms)
from reference import err_ratio, gate, kda_recurrent, l2_normalize  # noqa: E402

C = 16  # tokens a chunk
SLOT = 64  # rows a work slot (four chunks)


def intermediates16(x):
    """The chain's inputs for x (bench.make_inputs' dict): a dict of W, Bvt,
    Qt, Kb, Aqk, Tt, Gc and Seqs as kda_recur16 takes them."""
    q = x["q"][0]
    T, H, D = q.shape
    dev = q.device
    bounds = [0, T] if x["cu"] is None else [int(c) for c in x["cu"].tolist()]
    qn = (l2_normalize(q) * x["scale"]).transpose(0, 1)    # [H, T, K]
    kn = l2_normalize(x["k"][0]).transpose(0, 1)
    vf = x["v"][0].float().transpose(0, 1)
    a = gate(x["g"][0], x["A_log"], x["dt_bias"], LOWER_BOUND).transpose(0, 1)
    bf = torch.sigmoid(x["beta"][0].float()).transpose(0, 1)  # [H, T]
    parts = {k: [] for k in ("W", "Bv", "Qt", "Kb", "Aqk", "Tt", "Gc")}
    seqs = []
    chunks = 0
    for n in range(len(bounds) - 1):
        t0, t1 = bounds[n], bounds[n + 1]
        rows = -(-(t1 - t0) // SLOT) * SLOT
        pad = rows - (t1 - t0)

        def padded(t):  # [H, len, ...] -> [H, rows / 16, 16, ...]
            t = t[:, t0:t1]
            t = F.pad(t, (0, 0, 0, pad)) if t.dim() == 3 else F.pad(t, (0, pad))
            return t.reshape(H, rows // C, C, *t.shape[2:])
        qc, kc, vc, ac, bc = (padded(t) for t in (qn, kn, vf, a, bf))
        G = ac.cumsum(2)                                   # [H, n, 16, K]
        Gr = G[:, :, :1]                                   # the first token's
        Kt = kc * torch.exp(G)
        Qt = qc * torch.exp(G)
        Kb = kc * torch.exp(G[:, :, -1:] - G)
        ki = kc * torch.exp(G - Gr)                        # <= 1
        kj = kc * torch.exp(Gr - G)                        # <= e^80
        qi = qc * torch.exp(G - Gr)
        r = torch.arange(C, device=dev)
        L = (ki @ kj.transpose(-1, -2)) * (r[:, None] > r[None, :])
        L = L * bc[..., None]
        A = (qi @ kj.transpose(-1, -2)) * (r[:, None] >= r[None, :])
        eye = torch.eye(C, device=dev).expand_as(L)
        Tm = torch.linalg.solve_triangular(eye + L, eye, upper=False,
                                           unitriangular=True)
        W = Tm @ (bc[..., None] * Kt)
        Bv = bc[..., None] * vc

        def rows_of(t):  # [H, n, 16, X] -> [rows, H * X]
            return t.permute(1, 2, 0, 3).reshape(rows, H * t.shape[-1])

        def blocks_of(t):  # [H, n, 16, 16] -> [rows, H * 64], block diagonal
            t = t.reshape(H, rows // SLOT, SLOT // C, C, C)
            out = torch.zeros(H, rows // SLOT, SLOT // C, C, SLOT // C, C,
                              device=dev)
            for b in range(SLOT // C):
                out[:, :, b, :, b] = t[:, :, b]
            return out.reshape(H, rows, SLOT).permute(1, 0, 2).reshape(
                rows, H * SLOT)
        parts["W"].append(rows_of(W))
        parts["Bv"].append(rows_of(Bv))
        parts["Qt"].append(rows_of(Qt))
        parts["Kb"].append(rows_of(Kb))
        parts["Aqk"].append(blocks_of(A))
        parts["Tt"].append(blocks_of(Tm))
        parts["Gc"].append(G[:, :, -1].permute(1, 0, 2).reshape(rows // C, H * D))
        seqs.append((chunks, chunks + -(-(t1 - t0) // C), t0, t1))
        chunks += rows // C
    bf16 = {k: torch.cat(v).bfloat16().contiguous()
            for k, v in parts.items() if k != "Gc"}
    return {"Wt": bf16["W"], "Bvt": bf16["Bv"].t().contiguous(),
            "Qt": bf16["Qt"], "Kb": bf16["Kb"], "Aqk": bf16["Aqk"],
            "Tt": bf16["Tt"], "Gc": torch.cat(parts["Gc"]).contiguous(),
            "Seqs": torch.tensor(seqs, dtype=torch.int32,
                                 device=dev).view(-1, 4)}


class Recur16:
    """kda_recur16 on torch tensors: prepare(x, s0) returns run(), which
    launches the chain on the current stream and returns (o, sn)."""

    def __init__(self, runtime, bundle):
        self.rt = load_runtime(runtime)
        self.h = load_bundle(self.rt, bundle)

    def prepare(self, x, s0):
        T, H, D = x["q"].shape[1:]
        mid = intermediates16(x)
        o = torch.empty(T, H * D, device=x["q"].device, dtype=torch.bfloat16)
        N = s0.shape[0]
        s0 = s0.float().contiguous().view(N * H, D, D)
        sn = torch.empty_like(s0)
        tensors = [mid["Wt"], mid["Bvt"], mid["Qt"], mid["Kb"], mid["Aqk"],
                   mid["Tt"], mid["Gc"], s0, o, sn, mid["Seqs"]]
        args = (CakeRtArg * len(tensors))(*(tensor_arg(t) for t in tensors))
        rt, h = self.rt, self.h

        def run():
            if rt.cakeRtLaunch(h, args, len(tensors), None) != 0:
                sys.exit(f"kda_recur16: {rt.cakeRtLastError().decode()}")
            return o.view(1, T, H, D), sn.view(N, H, D, D)
        run.keep = tensors
        return run


def parse_shape(text):
    lens, heads = text.split("x")
    return [int(t) for t in lens.split("+")], int(heads)


def check(chain, lens, H, mids=False):
    """Runs chain (a Recur16, or a CakeKda of the 16-token kernels) on
    fresh inputs, its outputs poisoned first; returns (unwritten, output
    error, state error) against the fp32 token recurrence. With mids (a
    CakeKda), prints the intra kernel's intermediates' errors against
    intermediates16's."""
    x = make_inputs(lens, H, 128, "cuda", torch, F)
    s0 = torch.randn(len(lens), H, 128, 128, device="cuda")
    run = chain.prepare(x, s0)
    o, sn = run()
    if mids:
        want = intermediates16(x)
        print("  intra16 against torch: " + ", ".join(
            f"{k} {err_ratio(run.mid[k].float(), want[k].float()):.1e}"
            for k in ("Wt", "Bvt", "Qt", "Kb", "Aqk", "Tt", "Gc")))
    o.fill_(float("nan"))
    sn.fill_(float("nan"))
    run()
    if chain.rt.cakeRtSynchronize(None, 10000) != 0:
        sys.exit(f"kda_recur16: {chain.rt.cakeRtLastError().decode()}")
    want_o, want_s = kda_recurrent(
        x["q"], x["k"], x["v"], x["g"], x["beta"], x["scale"], x["A_log"],
        x["dt_bias"], LOWER_BOUND, s0, x["cu"])
    unwritten = o.isnan().sum().item() + sn.isnan().sum().item()
    return unwritten, err_ratio(o.float(), want_o), err_ratio(sn, want_s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--recur16", required=True,
                    help="kda_recur16's bundles, [LABEL=]PATH,... (each "
                    "checked and timed)")
    ap.add_argument("--shapes", nargs="+",
                    default=["16x1", "300+77+1x2", "1000x2",
                             "1300+547+2048+963+271+3063x2"])
    ap.add_argument("--intra16", help="kda_intra16's bundle: the 16-token "
                    "forward (with the first --recur16 bundle) is checked and "
                    "timed too")
    ap.add_argument("--time", default="", help="shapes to time, e.g. 8192x96")
    ap.add_argument("--intra", help="kda_intra's bundle (64-token chain's)")
    ap.add_argument("--recur", help="kda_recur[,kda_recur_x2] bundles")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iters", type=int, default=20)
    args = ap.parse_args()
    torch.manual_seed(20261206)
    chains = {}
    for spec in args.recur16.split(","):
        label, _, path = spec.rpartition("=")
        chains[label or os.path.basename(path)] = Recur16(args.runtime, path)
    failed = 0
    for label, chain in chains.items():
        for shape in args.shapes:
            lens, H = parse_shape(shape)
            unwritten, eo, es = check(chain, lens, H)
            ok = unwritten == 0 and eo <= OUT_TOL
            failed += not ok
            print(f"{label} T={shape}: {unwritten} unwritten, out err "
                  f"{eo:.2e}, state err {es:.2e}: "
                  f"{'PASS' if ok else 'WRONG'}")
    fwd16, failed16 = None, 0
    if args.intra16:
        from cake_kda import CakeKda
        fwd16 = CakeKda(args.runtime, args.intra16,
                        args.recur16.split(",")[0].rpartition("=")[2])
        for shape in args.shapes:
            lens, H = parse_shape(shape)
            unwritten, eo, es = check(fwd16, lens, H, mids=True)
            ok = unwritten == 0 and eo <= OUT_TOL
            failed16 += not ok
            print(f"kda_intra16+kda_recur16 T={shape}: {unwritten} unwritten, "
                  f"out err {eo:.2e}, state err {es:.2e}: "
                  f"{'PASS' if ok else 'WRONG'}")
    if failed16:
        fwd16 = None  # not timed
    if failed or not args.time:
        return 1 if failed or failed16 else 0
    fwd64 = None
    if args.recur and args.intra:
        from cake_kda import CakeKda
        recurs = args.recur.split(",")
        fwd64 = CakeKda(args.runtime, args.intra, *recurs[:2])
    print(f"\nchains, {args.rounds} rounds x {args.iters} calls, medians (ms)")
    extra = ["chain64", "intra64", "fwd64", "intra16", "fwd16"]
    print(f"{'shape':<12} " + " ".join(f"{k:>10}" for k in chains)
          + "".join(f" {k:>10}" for k in extra))
    for shape in args.time.split(","):
        lens, H = parse_shape(shape)
        x = make_inputs(lens, H, 128, "cuda", torch, F)
        s0 = torch.randn(len(lens), H, 128, 128, device="cuda")
        runs = {k: c.prepare(x, s0) for k, c in chains.items()}
        if fwd64:
            r64 = fwd64.prepare(x, s0)
            runs["chain64"], runs["intra64"], runs["fwd64"] = (
                r64.recur, r64.intra, r64)
        if fwd16:
            r16 = fwd16.prepare(x, s0)
            runs["intra16"], runs["fwd16"] = r16.intra, r16
        times = {k: [] for k in runs}
        items = list(runs.items())
        for r in range(args.rounds):
            for k, run in items[r % len(items):] + items[:r % len(items)]:
                times[k].append(time_ms(run, iters=args.iters, warmup=3))
        med = {k: statistics.median(v) for k, v in times.items()}
        print(f"{shape:<12} " + " ".join(f"{med[k]:10.3f}" for k in chains)
              + "".join(f" {med.get(k, float('nan')):10.3f}" for k in extra))
    return 1 if failed16 else 0


if __name__ == "__main__":
    sys.exit(main())
