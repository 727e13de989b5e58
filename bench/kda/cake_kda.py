# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Cake's KDA forward on torch tensors: examples/kda/kda_intra, then
examples/kda/kda_recur, on the current stream (docs/kda.md); or the
16-token forward, kda_intra16 then kda_recur16 (examples/kda/gen-kda16.py),
told apart by the intra bundle's entry.

    fwd = CakeKda(runtime_path, intra_bundle, recur_bundle[, wide_bundle])
    run = fwd.prepare(x)        # x as bench.make_inputs makes it
    o, s = run()                # o [1, T, H, 128] bf16, s [N, H, 128, 128] fp32

x holds one sequence or several (x["cu"], their bounds as cu_seqlens).
The state's dtype in and out is the chain's (kda_recur: fp32,
kda_recur_bf16_state: bf16), read from its bundle. With a wide bundle
(kda_recur_x2: both V blocks of a (sequence, head) in one CTA, the same
state dtype), prepare() launches it where the one-chain kernel's CTAs,
two per (sequence, head), would take more than one wave of the SMs:
measured on an H100 (docs/benchmarks/kda.md, run 9), the wide kernel's
chain was 0.70 against 0.96 ms at H = 96 and 0.60 against 0.51 ms at
H = 64 over one sequence (128 CTAs, one wave either way).
prepare() builds the two work lists (kda_intra's chunks: first token and
the sequence's end; kda_recur's sequences: first and end chunk slot,
first and end token), allocates the intermediates once, 64 rows per
chunk slot (W, beta*v, Q~, K-bar in bf16 as [64 slots, H*128], A_qk and
T [64 slots, H*64], Gamma_C [slots, H*128] fp32; in 16-token chunks
(beta*v)^T [H*128, 64 slots], A_qk and T block diagonal, Gamma_C a row
per 16-token chunk) and the outputs, so that a timed call is the two
launches only. Every launch is checked.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from cake_rt import CakeRtArg, load_bundle, load_runtime, tensor_arg  # noqa


def wide_chain(sequences, heads, sms):
    """Whether the wide chain kernel (kda_recur_x2, a CTA per sequence and
    head) is the one to launch: where the one-chain kernel's CTAs, two per
    sequence and head, would take more than one wave of the SMs."""
    return 2 * sequences * heads > sms


class CakeKda:
    def __init__(self, runtime, intra_bundle, recur_bundle, wide_bundle=None):
        import json
        self.rt = load_runtime(runtime)
        self.intra = load_bundle(self.rt, intra_bundle)
        self.recur = load_bundle(self.rt, recur_bundle)
        self.wide = None
        # 16-token chunks (examples/kda/gen-kda16.py): kda_intra16 and
        # kda_recur16, whose intermediates differ in layout.
        entry = json.load(open(intra_bundle)).get("entry")
        self.chunk = 16 if entry == "kda_intra16" else 64
        if self.chunk == 16 and wide_bundle:
            sys.exit("cake_kda: the 16-token forward has no wide chain")

        def state_elt(path):
            # kda_recur's eighth argument is the initial state.
            elt = json.load(open(path))["args"][7].get("element")
            if elt not in ("f32", "bf16"):
                sys.exit(f"{path}: a state of {elt} elements; "
                         "expected kda_recur's f32 or bf16")
            return elt
        elt = state_elt(recur_bundle)
        self.state_bf16 = elt == "bf16"
        if wide_bundle:
            if state_elt(wide_bundle) != elt:
                sys.exit(f"{wide_bundle}: its state is not {recur_bundle}'s "
                         f"{elt}")
            self.wide = load_bundle(self.rt, wide_bundle)

    def _args(self, tensors):
        return (CakeRtArg * len(tensors))(*(tensor_arg(t) for t in tensors))

    def prepare(self, x, s0=None):
        """The launches for x: x["q"] is [1, T, H, 128], x["cu"] None (one
        sequence) or the sequences' bounds; s0 the initial state
        [N, H, 128, 128] (x["h0"] when absent), any float dtype (converted
        to the chain's)."""
        import torch
        q = x["q"][0]
        T, H, D = q.shape
        dev = q.device
        cu = ([0, T] if x.get("cu") is None
              else [int(c) for c in x["cu"].tolist()])
        N = len(cu) - 1
        C = self.chunk
        work, seqs = [], []
        for n in range(N):
            first = len(work)
            work += [(t, cu[n + 1]) for t in range(cu[n], cu[n + 1], 64)]
            # The chain's chunks: 64-token slots, or 16-token chunks (four
            # a slot, those past the sequence's end skipped).
            per = 64 // C
            seqs.append((per * first, per * first + -(-(cu[n + 1] - cu[n]) // C),
                         cu[n], cu[n + 1]))
        i32 = dict(device=dev, dtype=torch.int32)
        work = torch.tensor(work, **i32).view(-1, 2)
        seqs = torch.tensor(seqs, **i32).view(-1, 4)
        R = 64 * work.shape[0]
        bf = dict(device=dev, dtype=torch.bfloat16)
        w, qt, kb = (torch.empty(R, H * D, **bf) for _ in range(3))
        # beta * v: (beta * v)^T [H * 128, R] for the 16-token chain.
        bv = (torch.empty(H * D, R, **bf) if C == 16
              else torch.empty(R, H * D, **bf))
        aqk, tt = (torch.empty(R, H * 64, **bf) for _ in range(2))
        gc = torch.empty(R // C, H * D, device=dev)
        o = torch.empty(T, H * D, **bf)
        if s0 is None:
            s0 = x["h0"]
        sdt = torch.bfloat16 if self.state_bf16 else torch.float32
        s0 = s0.to(sdt).contiguous().view(N * H, D, D)
        sn = torch.empty(N * H, D, D, device=dev, dtype=sdt)
        keep = [q.view(T, H * D), x["k"][0].view(T, H * D),
                x["v"][0].view(T, H * D), x["g"][0].view(T, H * D),
                x["beta"][0].view(T, H), x["A_log"], x["dt_bias"],
                w, bv, qt, kb, aqk, tt, gc, work]
        intra = self._args(keep)
        chain = [w, bv, qt, kb, aqk, tt, gc, s0, o, sn, seqs]
        recur = self._args(chain)
        rt = self.rt

        def launch(h, a, n, name):
            if rt.cakeRtLaunch(h, a, n, None) != 0:
                sys.exit(f"{name}: {rt.cakeRtLastError().decode()}")

        def run_intra():
            launch(self.intra, intra, len(keep),
                   "kda_intra16" if C == 16 else "kda_intra")

        # One wave of one-chain CTAs (two per sequence and head) keeps the
        # one-chain kernel; past it, the wide kernel halves the CTAs.
        sms = torch.cuda.get_device_properties(dev).multi_processor_count
        chain_kernel = (self.wide if self.wide is not None and C == 64
                        and wide_chain(N, H, sms) else self.recur)

        def run_recur():
            launch(chain_kernel, recur, len(chain),
                   "kda_recur16" if C == 16 else "kda_recur")

        def run():
            run_intra()
            run_recur()
            return o.view(1, T, H, D), sn.view(N, H, D, D)
        # Each kernel alone, for a breakdown of the time.
        run.intra, run.recur = run_intra, run_recur
        run.keep = keep + chain  # the tensors the argument arrays point at
        run.mid = {"Wt": w, "Bvt" if C == 16 else "Bv": bv, "Qt": qt,
                   "Kb": kb, "Aqk": aqk, "Tt": tt, "Gc": gc}
        return run
