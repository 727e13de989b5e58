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


def err_ratio(x, y):
    """RMS of the difference over the RMS of the reference (fla's measure)."""
    x, y = x.double(), y.double()
    return ((x - y).pow(2).mean().sqrt() / (y.pow(2).mean().sqrt() + 1e-30)).item()
