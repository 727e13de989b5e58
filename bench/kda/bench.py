# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""KDA prefill beside FlashKDA and fla on one GPU (issue #21).

    bench/kda/build-peers.sh .device/peers /tmp/kda-peers   # on the GPU machine
    python3 bench/kda/bench.py --peers-dir /tmp/kda-peers [--rounds 5]
        [--iters 20] [--heads 96,64] [--cases fixed,mixed,uniform]
        [--states bf16,fp32] [--impls flashkda,fla] [--out results.json]
        [--cake-bundle .device/bundles/kda_intra.json,.device/bundles/kda_recur.json
         --runtime LIB]

The issue's rows: T = 8192 tokens, K = V = 128, bf16, H = 96 and 64, as
one sequence [8192] ("fixed"), six sequences [1300, 547, 2048, 963, 271,
3063] ("mixed") and [1024] x 8 ("uniform"); the state in bf16 and in fp32.
Inputs as FlashKDA's benchmark makes them (benchmarks/bench_fwd.py: q, k
L2-normalized standard normals, v, g, b standard normal, A_log and dt_bias
uniform [0, 1), lower_bound -5, scale 1/sqrt(K)), fresh per row, with a
random initial state (standard normal) instead of its arange one. The
kernels normalize q and k, take sigmoid(b) and the gate themselves.

Correctness, per row and implementation: the output and the final state
against the fp32 token recurrence (reference.py) on the same bf16 inputs,
as fla's tests measure it: RMS error over RMS, at most 6e-3 for the
output (FlashKDA's tests against fla's reference allow 5e-3 for one
sequence and 6e-3 for several; its bf16 state measured 5.2e-3 on every
row here, peers run of 2026-12-01); the state's is reported. A
short check first (two ragged sequences, [300, 77], H = 4) runs every
implementation against the reference too.

Timing: the implementations interleaved round by round (each round starts
one implementation later), each the median of --iters CUDA-event timed
calls after a warm-up; FlashKDA reads its initial state and writes the
final one to another buffer and fla returns a new one, so no call sees a
state another left behind. fla (pure Python, Triton) takes the state in
fp32 only: its rows are the fp32-state rows.

Cake: with --cake-bundle, Cake's forward (fp32 state, the preprocessing
in the kernels) runs as "cake" on the rows it covers, after a short check
of its own ([377], H = 4): two bundles (comma-separated) are the split
forward, examples/kda/kda_intra then kda_recur (cake_kda.py), which takes
batches of sequences (every fp32-state row and the ragged check); a third,
kda_recur_bf16_state, runs the bf16-state rows; one is the fused
examples/kda/kda_fwd (one sequence: the fixed rows).

Peers: FlashKDA (MoonshotAI/FlashKDA, built for sm_90a against CUTLASS
v4.3.2 by build-peers.sh) and fla's chunk_kda (fla-org/flash-linear-
attention, FLA_FLASH_KDA=0 so that it does not hand the call to FlashKDA).
"""
import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))

LOWER_BOUND = -5.0
CASES = {
    "fixed": [8192],
    "mixed": [1300, 547, 2048, 963, 271, 3063],
    "uniform": [1024] * 8,
}
OUT_TOL = 6e-3


def make_inputs(lens, H, D, device, torch, F):
    T = sum(lens)
    N = len(lens)
    q = F.normalize(torch.randn(1, T, H, D, device=device), p=2, dim=-1).bfloat16()
    k = F.normalize(torch.randn(1, T, H, D, device=device), p=2, dim=-1).bfloat16()
    v = torch.randn(1, T, H, D, device=device).bfloat16()
    g = torch.randn(1, T, H, D, device=device).bfloat16()
    beta = torch.randn(1, T, H, device=device).bfloat16()
    A_log = torch.rand(H, device=device)
    dt_bias = torch.rand(H, D, device=device)
    h0 = torch.randn(N, H, D, D, device=device).bfloat16()
    cu = None
    if N > 1:
        cu = torch.tensor([0] + list(torch.tensor(lens).cumsum(0).tolist()),
                          dtype=torch.long, device=device)
    return dict(q=q, k=k, v=v, g=g, beta=beta, A_log=A_log, dt_bias=dt_bias,
                h0=h0, cu=cu, scale=1.0 / math.sqrt(D))


def flashkda_call(flash_kda, x, state_dtype, torch):
    out = torch.empty_like(x["q"])
    h0 = x["h0"].to(state_dtype)
    ht = torch.empty_like(h0)
    extra = {"cu_seqlens": x["cu"]} if x["cu"] is not None else {}

    def run():
        flash_kda.fwd(x["q"], x["k"], x["v"], x["g"], x["beta"], x["scale"],
                      out, A_log=x["A_log"], dt_bias=x["dt_bias"],
                      lower_bound=LOWER_BOUND, initial_state=h0,
                      final_state=ht, **extra)
        return out, ht
    return run


def fla_call(chunk_kda, x, torch):
    h0 = x["h0"].float()
    extra = {"cu_seqlens": x["cu"]} if x["cu"] is not None else {}

    def run():
        return chunk_kda(q=x["q"], k=x["k"], v=x["v"], g=x["g"],
                         beta=x["beta"], scale=x["scale"], initial_state=h0,
                         output_final_state=True, use_gate_in_kernel=True,
                         use_qk_l2norm_in_kernel=True,
                         use_beta_sigmoid_in_kernel=True, A_log=x["A_log"],
                         dt_bias=x["dt_bias"], lower_bound=LOWER_BOUND,
                         transpose_state_layout=True, **extra)
    return run


def cake_args(x, torch):
    """examples/kda/kda_fwd's arguments: FlashKDA's inputs as they are
    (q, k, v, g [T, H*128], b [T, H], A_log, dt_bias), the initial state
    in fp32 as [H*128, 128] (its [N, H, V, K] with N = 1)."""
    q = x["q"][0]
    T, H, D = q.shape
    return [q.view(T, H * D), x["k"][0].view(T, H * D),
            x["v"][0].view(T, H * D), x["g"][0].view(T, H * D),
            x["beta"][0].view(T, H), x["A_log"], x["dt_bias"],
            x["h0"][0].float().contiguous().view(H * D, D)]


def cake_call(rt, h, x, torch):
    """examples/kda/kda_fwd: one sequence, fp32 state, the preprocessing
    in the kernel."""
    from cake_rt import CakeRtArg, tensor_arg
    T, H, D = x["q"].shape[1:]
    o = torch.empty(T, H * D, device=x["q"].device)
    sn = torch.empty(H * D, D, device=x["q"].device)
    tensors = cake_args(x, torch) + [o, sn]
    cargs = (CakeRtArg * len(tensors))(*(tensor_arg(t) for t in tensors))

    def run():
        if rt.cakeRtLaunch(h, cargs, len(tensors), None) != 0:
            sys.exit(f"kda_fwd: {rt.cakeRtLastError().decode()}")
        return o.view(1, T, H, D), sn.view(1, H, D, D)
    return run


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--peers-dir", required=True,
                   help="where build-peers.sh unpacked and built the peers")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--heads", default="96,64")
    p.add_argument("--cases", default="fixed,mixed,uniform")
    p.add_argument("--states", default="bf16,fp32")
    p.add_argument("--impls", default="flashkda,fla")
    p.add_argument("--cake-bundle", default="",
                   help="kda_intra's and kda_recur's bundles (comma-"
                   "separated), or kda_fwd's: adds 'cake' on the "
                   "one-sequence fp32-state rows")
    p.add_argument("--cake-wide", default="",
                   help="kda_recur_x2's bundles (fp32 state, and bf16 "
                   "state with a third --cake-bundle), comma-separated: "
                   "launched where two CTAs per (sequence, head) would "
                   "take more than one wave (cake_kda.py)")
    p.add_argument("--runtime", default="", help="libcake_runtime.so")
    p.add_argument("--out", default="")
    p.add_argument("--check-only", action="store_true",
                   help="run the short checks only (peers, and the chunked "
                   "form against the recurrence)")
    args = p.parse_args()

    os.environ["FLA_FLASH_KDA"] = "0"
    sys.path.insert(0, os.path.join(args.peers_dir, "flashkda"))
    sys.path.insert(0, os.path.join(args.peers_dir, "fla"))
    import torch
    import torch.nn.functional as F
    from cake_rt import time_ms
    from reference import err_ratio, kda_chunked, kda_recurrent

    impls = args.impls.split(",")
    mods = {}
    if "flashkda" in impls:
        import flash_kda
        mods["flashkda"] = flash_kda
    if "fla" in impls:
        from fla.ops.kda import chunk_kda
        mods["fla"] = chunk_kda
    cake, cake_batches, cake_bf16 = None, False, None
    if args.cake_bundle:
        bundles = args.cake_bundle.split(",")
        if len(bundles) in (2, 3):
            from cake_kda import CakeKda
            wide = args.cake_wide.split(",") if args.cake_wide else []
            cake = CakeKda(args.runtime, *bundles[:2],
                           *wide[:1]).prepare
            cake_batches = True
            if len(bundles) == 3:
                cake_bf16 = CakeKda(args.runtime, bundles[0],
                                    bundles[2], *wide[1:2]).prepare
        else:
            from cake_rt import load_bundle, load_runtime
            rt = load_runtime(args.runtime)
            h = load_bundle(rt, bundles[0])
            cake = lambda x: cake_call(rt, h, x, torch)  # noqa: E731
    dev = torch.device("cuda")
    versions = {}
    vf = os.path.join(args.peers_dir, "VERSIONS")
    if os.path.exists(vf):
        for line in open(vf):
            name, _, rest = line.strip().partition(" ")
            versions[name] = rest
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}  "
          f"CUDA {torch.version.cuda}  peers: {versions}")

    def runners(x, state):
        r = {}
        if "flashkda" in mods:
            r["flashkda"] = flashkda_call(mods["flashkda"], x,
                                          getattr(torch, {"bf16": "bfloat16",
                                                          "fp32": "float32"}[state]),
                                          torch)
        if "fla" in mods and state == "fp32":
            r["fla"] = fla_call(mods["fla"], x, torch)
        if cake and state == "fp32" and (x["cu"] is None or cake_batches):
            r["cake"] = cake(x)
        if cake_bf16 and state == "bf16":
            r["cake"] = cake_bf16(x)
        return r

    def check(x, run, ref_o, ref_s):
        o, s = run()
        torch.cuda.synchronize()
        eo = err_ratio(o.float(), ref_o)
        es = err_ratio(s.float(), ref_s)
        return eo, es, (o.float() - ref_o).abs().max().item()

    # The short check: two ragged sequences, few heads.
    torch.manual_seed(0)
    x = make_inputs([300, 77], 4, 128, dev, torch, F)
    ref_o, ref_s = kda_recurrent(x["q"], x["k"], x["v"], x["g"], x["beta"],
                                 x["scale"], x["A_log"], x["dt_bias"],
                                 LOWER_BOUND, x["h0"], x["cu"])
    failed = 0
    for state in args.states.split(","):
        for name, run in runners(x, state).items():
            eo, es, mx = check(x, run, ref_o, ref_s)
            ok = eo <= OUT_TOL
            failed += not ok
            print(f"check [300, 77] H=4 {state} state: {name}: out err "
                  f"{eo:.2e} (max abs {mx:.2e}), state err {es:.2e}: "
                  f"{'ok' if ok else 'WRONG'}")

    if cake:
        # examples/kda/kda_fwd runs one sequence: [377] against the
        # recurrence on the same inputs.
        torch.manual_seed(1)
        xc = make_inputs([377], 4, 128, dev, torch, F)
        rco, rcs = kda_recurrent(xc["q"], xc["k"], xc["v"], xc["g"],
                                 xc["beta"], xc["scale"], xc["A_log"],
                                 xc["dt_bias"], LOWER_BOUND, xc["h0"], None)
        eo, es, mx = check(xc, cake(xc), rco, rcs)
        ok = eo <= OUT_TOL
        failed += not ok
        print(f"check [377] H=4 fp32 state: cake: out err {eo:.2e} (max abs "
              f"{mx:.2e}), state err {es:.2e}: {'ok' if ok else 'WRONG'}")

    # The chunked form (the spec of a Cake kernel, reference.py) against
    # the recurrence: the ragged check, and one sequence whose gates all
    # sit at the lower bound (g = 20: a = -5 on every token and channel,
    # the largest decays, where e^-Gamma over a 64-token chunk would
    # overflow fp32 without the 16-token blocks).
    x2 = make_inputs([1024], 4, 128, dev, torch, F)
    x2["g"] = torch.full_like(x2["g"], 20.0)
    for label, xx in (("[300, 77] H=4", x), ("[1024] H=4, a = -5", x2)):
        args_ = (xx["q"], xx["k"], xx["v"], xx["g"], xx["beta"], xx["scale"],
                 xx["A_log"], xx["dt_bias"], LOWER_BOUND, xx["h0"], xx["cu"])
        ro, rs = kda_recurrent(*args_)
        co, cs = kda_chunked(*args_)
        eo, es = err_ratio(co, ro), err_ratio(cs, rs)
        finite = bool(torch.isfinite(co).all() and torch.isfinite(cs).all())
        ok = finite and eo <= 1e-4 and es <= 1e-4
        failed += not ok
        print(f"check {label}: chunked form (64-token chunks, 16-token "
              f"blocks) against the recurrence: out err {eo:.2e}, state err "
              f"{es:.2e}{'' if finite else ', not finite'}: "
              f"{'ok' if ok else 'WRONG'}")
    if args.check_only:
        print(f"checks: {failed} wrong")
        return 1 if failed else 0

    rows = []
    for H in [int(h) for h in args.heads.split(",")]:
        for case in args.cases.split(","):
            lens = CASES[case]
            x = make_inputs(lens, H, 128, dev, torch, F)
            ref_o, ref_s = kda_recurrent(x["q"], x["k"], x["v"], x["g"],
                                         x["beta"], x["scale"], x["A_log"],
                                         x["dt_bias"], LOWER_BOUND, x["h0"],
                                         x["cu"])
            for state in args.states.split(","):
                rs = runners(x, state)
                row = {"H": H, "case": case, "lens": lens, "state": state,
                       "ms": {}, "err_out": {}, "err_state": {}, "ok": {}}
                for name, run in rs.items():
                    eo, es, _ = check(x, run, ref_o, ref_s)
                    row["err_out"][name] = eo
                    row["err_state"][name] = es
                    row["ok"][name] = eo <= OUT_TOL
                    failed += eo > OUT_TOL
                names = list(rs)
                times = {n: [] for n in names}
                for r in range(args.rounds):
                    order = names[r % len(names):] + names[:r % len(names)]
                    for n in order:
                        times[n].append(time_ms(rs[n], iters=args.iters,
                                                warmup=3))
                for n in names:
                    row["ms"][n] = sorted(times[n])[len(times[n]) // 2]
                rows.append(row)
                print(f"H={H} {case:8s} {state} state: " + "  ".join(
                    f"{n} {row['ms'][n]:.3f} ms (err {row['err_out'][n]:.1e}"
                    f"/{row['err_state'][n]:.1e}{'' if row['ok'][n] else ' WRONG'})"
                    for n in names), flush=True)
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"gpu": torch.cuda.get_device_name(),
                       "torch": torch.__version__, "peers": versions,
                       "rows": rows}, fh, indent=1)
    print(f"{len(rows)} rows, {failed} wrong")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
