# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The check the small KNN runs share (bench/knn/sanitize_small.py,
bench/verify/run_mutants.py): every returned index is among the k nearest
by torch's fp32 distances (ties within fp32 rounding allowed)."""
import torch


def top_k_ok(what, x, c, i, k, self_excluded=False):
    """True if every index of i [Q, k] is within the k nearest rows of c
    for its row of x (self excluded: x is c and a row is not its own
    neighbour); prints 'what: ok' or 'what: WRONG'."""
    exact = torch.cdist(x.float(), c.float()).square()
    if self_excluded:
        exact.fill_diagonal_(float("inf"))
    kth = exact.topk(k, dim=1, largest=False).values[:, -1:]
    got = exact.gather(1, i.long())
    ok = bool((got <= kth + 1e-3 * kth.abs() + 1e-3).all())
    print(f"{what}: {'ok' if ok else 'WRONG'}", flush=True)
    return ok
