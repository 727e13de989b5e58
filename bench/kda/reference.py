# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Kimi Delta Attention (KDA) forward: the definition, in fp32, on one GPU.

The token recurrence of issue #21, with the preprocessing the kernels fuse
(per sequence and head; K = V = D):

    q, k    <- x / sqrt(sum x^2 + 1e-6)                (L2 norm)
    beta    <- sigmoid(b)
    a       <- lower_bound * sigmoid(exp(A_log_h) * (g + dt_bias_h))
    S~      =  Diag(exp a_t) S_{t-1}                   (S: K x V, fp32)
    S_t     =  S~ + beta_t k_t (v_t - S~^T k_t)^T
    o_t     =  S_t^T (scale * q_t)

Written from the issue's statement (not from a peer's code). Tensors follow
FlashKDA's calling convention: q, k, v, g [1, T, H, D], beta [1, T, H],
A_log [H], dt_bias [H, D], states [N, H, V, K] (FlashKDA stores the state
transposed: V rows, K columns), cu_seqlens [N + 1] (None: one sequence).
"""
import torch


def l2_normalize(x, eps=1e-6):
    x = x.float()
    return x * torch.rsqrt((x * x).sum(-1, keepdim=True) + eps)


def gate(g, A_log, dt_bias, lower_bound):
    """a = lower_bound * sigmoid(exp(A_log_h) * (g + dt_bias_h)), [.., H, D]."""
    inner = A_log.float().exp()[:, None] * (g.float() + dt_bias.float())
    return lower_bound * torch.sigmoid(inner)


def kda_recurrent(q, k, v, g, beta, scale, A_log, dt_bias, lower_bound,
                  initial_state=None, cu_seqlens=None):
    """Returns (o [1, T, H, V] fp32, final state [N, H, V, K] fp32)."""
    T, H, D = q.shape[1], q.shape[2], q.shape[3]
    bounds = ([0, T] if cu_seqlens is None
              else [int(x) for x in cu_seqlens.tolist()])
    qn = l2_normalize(q[0]) * scale          # [T, H, K]
    kn = l2_normalize(k[0])
    vf = v[0].float()                        # [T, H, V]
    decay = gate(g[0], A_log, dt_bias, lower_bound).exp()  # [T, H, K]
    bf = torch.sigmoid(beta[0].float())      # [T, H]
    o = torch.empty(T, H, vf.shape[-1], dtype=torch.float32, device=q.device)
    finals = []
    for n in range(len(bounds) - 1):
        if initial_state is None:
            S = torch.zeros(H, D, D, dtype=torch.float32, device=q.device)
        else:  # [H, V, K] -> [H, K, V]
            S = initial_state[n].float().transpose(-1, -2).contiguous()
        for t in range(bounds[n], bounds[n + 1]):
            S.mul_(decay[t][:, :, None])
            kt = kn[t]
            pred = torch.einsum("hk,hkv->hv", kt, S)
            S.add_(torch.einsum("hk,hv->hkv", bf[t][:, None] * kt,
                                vf[t] - pred))
            o[t] = torch.einsum("hk,hkv->hv", qn[t], S)
        finals.append(S.transpose(-1, -2))
    return o[None], torch.stack(finals)


def kda_chunked(q, k, v, g, beta, scale, A_log, dt_bias, lower_bound,
                initial_state=None, cu_seqlens=None, chunk=64, block=16):
    """The chunked form a Cake kernel computes (docs/kda.md), in fp32.

    Per chunk of `chunk` tokens, with Gamma the running sum of the log
    decay a within the chunk (inclusive) and S0 the state entering it:
      K~ = k * e^Gamma, Q~ = q * e^Gamma, Kbar = k * e^(Gamma_C - Gamma)
      L[j, l] = beta_j sum_c k_j k_l e^(Gamma_j - Gamma_l)   (l < j)
      A[i, j] =        sum_c q_i k_j e^(Gamma_i - Gamma_j)   (j <= i)
      (I + L) Unew = Diag(beta) (v - K~ S0)
      o = Q~ S0 + A Unew;  S = Diag(e^Gamma_C) S0 + Kbar^T Unew
    Every factor above is at most 1 except the pairwise decays, which are
    formed per `block` x `block` tile as products of two bounded factors
    around the row block's first token r: e^(Gamma_i - Gamma_r) <= 1 and
    e^(Gamma_r - Gamma_j) <= e^(5 block) (at most e^80 with a lower bound
    of -5 and 16-token blocks: inside fp32's range, where e^-Gamma over a
    whole 64-token chunk, up to e^320, is not). Returns what kda_recurrent
    returns.
    """
    T, H, D = q.shape[1], q.shape[2], q.shape[3]
    bounds = ([0, T] if cu_seqlens is None
              else [int(x) for x in cu_seqlens.tolist()])
    qn = (l2_normalize(q[0]) * scale).transpose(0, 1)   # [H, T, K]
    kn = l2_normalize(k[0]).transpose(0, 1)
    vf = v[0].float().transpose(0, 1)                  # [H, T, V]
    a = gate(g[0], A_log, dt_bias, lower_bound).transpose(0, 1)
    bf = torch.sigmoid(beta[0].float()).transpose(0, 1)  # [H, T]
    o = torch.empty(H, T, vf.shape[-1], dtype=torch.float32, device=q.device)
    finals = []
    for n in range(len(bounds) - 1):
        if initial_state is None:
            S = torch.zeros(H, D, D, dtype=torch.float32, device=q.device)
        else:
            S = initial_state[n].float().transpose(-1, -2).contiguous()
        for c0 in range(bounds[n], bounds[n + 1], chunk):
            c1 = min(c0 + chunk, bounds[n + 1])
            C = c1 - c0
            G = a[:, c0:c1].cumsum(1)                  # [H, C, K]
            qc, kc, vc, bc = qn[:, c0:c1], kn[:, c0:c1], vf[:, c0:c1], bf[:, c0:c1]
            A = torch.zeros(H, C, C, device=q.device)
            L = torch.zeros(H, C, C, device=q.device)
            for i0 in range(0, C, block):
                i1 = min(i0 + block, C)
                Gr = G[:, i0:i0 + 1]                   # the row block's first token
                qi = qc[:, i0:i1] * torch.exp(G[:, i0:i1] - Gr)
                ki = kc[:, i0:i1] * torch.exp(G[:, i0:i1] - Gr)
                kj = kc[:, :i1] * torch.exp(Gr - G[:, :i1])
                A[:, i0:i1, :i1] = qi @ kj.transpose(1, 2)
                L[:, i0:i1, :i1] = ki @ kj.transpose(1, 2)
            rows = torch.arange(C, device=q.device)
            A = A * (rows[:, None] >= rows[None, :])
            L = L * (rows[:, None] > rows[None, :]) * bc[:, :, None]
            Kt = kc * torch.exp(G)
            Qt = qc * torch.exp(G)
            Kb = kc * torch.exp(G[:, -1:] - G)
            eye = torch.eye(C, device=q.device).expand(H, C, C)
            rhs = bc[:, :, None] * (vc - Kt @ S)
            Unew = torch.linalg.solve_triangular(eye + L, rhs, upper=False,
                                                 unitriangular=True)
            o[:, c0:c1] = Qt @ S + A @ Unew
            S = torch.exp(G[:, -1])[:, :, None] * S + Kb.transpose(1, 2) @ Unew
        finals.append(S.transpose(-1, -2))
    return o.transpose(0, 1)[None], torch.stack(finals)


def err_ratio(x, y):
    """RMS of the difference over the RMS of the reference (fla's measure)."""
    x, y = x.double(), y.double()
    return ((x - y).pow(2).mean().sqrt() / (y.pow(2).mean().sqrt() + 1e-30)).item()
