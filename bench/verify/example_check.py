"""The loop shared by the checks of single example kernels on the GPU
(check_chain.py, check_row.py, check_gates.py): per problem size, fresh
inputs, the output poisoned with NaN, one checked launch, and the relative
error (Frobenius norm) against a torch reference in fp32; a row left
unwritten fails. Prints a line per size; returns the exit status."""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import launch_checked, load_bundle, load_runtime  # noqa: E402


def check_sizes(doc, make_inputs, reference, tolerance, add_options=None,
                label=lambda args: "", default_rows=(1000, 4096, 65536)):
    """`make_inputs(rows)` gives the kernel's inputs and its output (last);
    `reference(inputs, args)` the expected output; `add_options(parser)`
    adds a script's own options; `label(args)`, printed after the bundle's
    name, tells variants apart."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--runtime", required=True)
    ap.add_argument("--rows", type=int, nargs="+", default=list(default_rows))
    ap.add_argument("bundle")
    if add_options:
        add_options(ap)
    args = ap.parse_args()
    rt = load_runtime(args.runtime)
    h = load_bundle(rt, args.bundle)
    name = os.path.basename(args.bundle)
    tag = f" {label(args)}" if label(args) else ""
    failed = 0
    torch.manual_seed(20261201)
    for rows in args.rows:
        tensors = make_inputs(rows)
        out = tensors[-1]
        launch_checked(rt, h, tensors, args.bundle)
        want = reference(tensors[:-1], args)
        unwritten = out.isnan().sum().item()
        rel = (((out - want).norm() / want.norm()).item()
               if unwritten == 0 else float("inf"))
        ok = unwritten == 0 and rel < tolerance
        failed += not ok
        print(f"{name}{tag} {rows}x{out.shape[1]}: {unwritten} unwritten, "
              f"relative error {rel:.2e}: {'PASS' if ok else 'WRONG'}")
    return 1 if failed else 0
