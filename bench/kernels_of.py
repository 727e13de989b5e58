# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What kernels a call launches, and how: one row per kernel with its mean
time per call, grid, block, registers per thread, shared memory and the
occupancy CUPTI estimates. Peers and Cake alike (CUPTI records launches
through the driver API, which is how libcake_runtime launches).

    python3 bench/kernels_of.py kda --peers-dir /tmp/kda-peers
        [--heads 96,64] [--cases fixed,mixed] [--cake INTRA,RECUR
         [--cake-wide RECUR_X2] --runtime LIB]
    python3 bench/kernels_of.py sdpa [--shapes 16x16x1024x128,...]
        [--backends cudnn,flash]

KDA: FlashKDA (its two kernels), fla's chunk_kda and Cake's split forward
on the issue's rows (fp32 state). SDPA: each backend on attention rows,
causal and not. torch.profiler's Chrome trace carries each kernel's
launch configuration; its per-kernel times are the mean over --iters
calls after a warm-up. Timing here is for attribution (which kernel
takes what); bench.py is where implementations are compared.
"""
import argparse
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def kernel_rows(torch, fn, iters):
    """Runs fn once to warm up, then iters times under the profiler; returns
    [(name, calls per fn, mean us, grid, block, regs, smem, occupancy)]."""
    from torch.profiler import ProfilerActivity, profile
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(iters):
            fn()
        torch.cuda.synchronize()
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    prof.export_chrome_trace(path)
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    os.unlink(path)
    by = {}
    for e in events:
        if e.get("cat") != "kernel":
            continue
        a = e.get("args", {})
        key = (e["name"], str(a.get("grid")), str(a.get("block")))
        r = by.setdefault(key, {"n": 0, "us": 0.0, "args": a})
        r["n"] += 1
        r["us"] += float(e.get("dur", 0.0))
    rows = []
    for (name, grid, block), r in by.items():
        a = r["args"]
        rows.append((name, r["n"] / iters, r["us"] / iters, grid, block,
                     a.get("registers per thread"),
                     a.get("shared memory"),
                     a.get("est. achieved occupancy %")))
    rows.sort(key=lambda x: -x[2])
    return rows


def print_rows(title, rows):
    total = sum(r[2] for r in rows)
    print(f"\n## {title}: {total:.1f} us a call in kernels")
    print("| kernel | launches | us a call | grid | block | regs | smem B | occ % |")
    print("|---|---|---|---|---|---|---|---|")
    for name, n, us, grid, block, regs, smem, occ in rows:
        short = name if len(name) <= 90 else name[:87] + "..."
        print(f"| `{short}` | {n:g} | {us:.1f} | {grid} | {block} | {regs} "
              f"| {smem} | {occ} |")
    return total


def kda(args, torch):
    import torch.nn.functional as F
    os.environ["FLA_FLASH_KDA"] = "0"
    sys.path.insert(0, os.path.join(HERE, "kda"))
    sys.path.insert(0, os.path.join(args.peers_dir, "flashkda"))
    sys.path.insert(0, os.path.join(args.peers_dir, "fla"))
    import bench as kb
    impls = {}
    try:
        import flash_kda
        impls["flashkda"] = lambda x: kb.flashkda_call(flash_kda, x,
                                                       torch.float32, torch)
    except ImportError as e:
        print(f"FlashKDA not importable: {e}")
    if "fla" in args.impls:
        from fla.ops.kda import chunk_kda
        impls["fla"] = lambda x: kb.fla_call(chunk_kda, x, torch)
    if args.cake:
        from cake_kda import CakeKda
        intra, recur = args.cake.split(",")
        wide = [args.cake_wide] if args.cake_wide else []
        impls["cake"] = CakeKda(args.runtime, intra, recur, *wide).prepare
    dev = torch.device("cuda")
    for H in [int(h) for h in args.heads.split(",")]:
        for case in args.cases.split(","):
            lens = kb.CASES[case]
            torch.manual_seed(0)
            x = kb.make_inputs(lens, H, 128, dev, torch, F)
            for name, make in impls.items():
                rows = kernel_rows(torch, make(x), args.iters)
                print_rows(f"{name}, H = {H}, {case} {lens}, fp32 state", rows)


def sdpa(args, torch):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F
    backends = {"cudnn": SDPBackend.CUDNN_ATTENTION,
                "flash": SDPBackend.FLASH_ATTENTION,
                "efficient": SDPBackend.EFFICIENT_ATTENTION}
    for shape in args.shapes.split(","):
        B, H, S, D = (int(v) for v in shape.split("x"))
        q, k, v = (torch.randn(B, H, S, D, device="cuda",
                               dtype=torch.bfloat16) for _ in range(3))
        for causal in (False, True):
            for b in args.backends.split(","):
                def run(b=b, causal=causal):
                    with sdpa_kernel([backends[b]]):
                        return F.scaled_dot_product_attention(
                            q, k, v, is_causal=causal)
                rows = kernel_rows(torch, run, args.iters)
                print_rows(f"{b}, {shape}{' causal' if causal else ''}",
                           rows)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["kda", "sdpa"])
    p.add_argument("--iters", type=int, default=10)
    p.add_argument("--peers-dir", default="/tmp/kda-peers")
    p.add_argument("--heads", default="96,64")
    p.add_argument("--cases", default="fixed,mixed")
    p.add_argument("--impls", default="flashkda,cake")
    p.add_argument("--cake", help="INTRA,RECUR bundles of the split forward")
    p.add_argument("--cake-wide", help="the kda_recur_x2 bundle")
    p.add_argument("--runtime", help="libcake_runtime.so")
    p.add_argument("--shapes", default="16x16x1024x128,4x32x4096x128,8x16x2048x64")
    p.add_argument("--backends", default="cudnn")
    args = p.parse_args()
    import torch
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}  "
          f"cuDNN {torch.backends.cudnn.version()}")
    {"kda": kda, "sdpa": sdpa}[args.what](args, torch)


if __name__ == "__main__":
    main()
