# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The attention step of test/Conversion/Inputs/attention-step.mlir on the
GPU: O = bf16(Q Kᵀ) V for 64-row tiles, P from registers (wgmma's RS
form) and V read MN-major, against torch from the same rounding of P.

    python3 bench/attention/check_step.py --runtime LIB --bundle STEP.json
"""
import argparse
import ctypes
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import CakeRtArg, load_runtime, tensor_arg  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", required=True)
    p.add_argument("--bundle", required=True)
    args = p.parse_args()
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    torch.empty(1, device="cuda")
    rt = load_runtime(args.runtime)
    h = ctypes.c_void_p()
    if rt.cakeRtBundleLoad(args.bundle.encode(), ctypes.byref(h)) != 0:
        sys.exit(rt.cakeRtLastError().decode())
    n = 256
    q = torch.randn(n, 64, device="cuda", dtype=torch.bfloat16) / 8
    k = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16) / 8
    v = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
    o = torch.full((n, 64), float("nan"), device="cuda", dtype=torch.float32)
    a = (CakeRtArg * 4)(tensor_arg(q), tensor_arg(k), tensor_arg(v),
                        tensor_arg(o))
    stream = torch.cuda.current_stream().cuda_stream
    if rt.cakeRtLaunch(h, a, 4, ctypes.c_void_p(stream)) != 0 or \
            rt.cakeRtSynchronize(ctypes.c_void_p(stream), 10000) != 0:
        sys.exit(rt.cakeRtLastError().decode())
    pm = (q.float() @ k.float().T).to(torch.bfloat16).float()
    ref = pm @ v.float()
    err = ((o - ref).norm() / ref.norm()).item()
    ok = not torch.isnan(o).any().item() and err < 1e-3
    print(f"attention step (RS wgmma, MN-major V): rel err {err:.2e}: "
          f"{'ok' if ok else 'FAIL'}")
    if not ok:
        print("rows 0-1, cols 0-8 got:", o[:2, :8].tolist())
        print("              want:", ref[:2, :8].tolist())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
