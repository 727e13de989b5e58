# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The loop shared by the checks of single example kernels on the GPU
(check_chain.py, check_row.py, check_gates.py, check_solve.py): per problem
size, fresh inputs, the outputs poisoned with NaN, one checked launch, and
the relative error (Frobenius norm) of each output against a torch
reference; a row left unwritten fails. Prints a line per size and output;
returns the exit status."""
import argparse
import inspect
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cake_rt import launch_checked, load_bundle, load_runtime  # noqa: E402


def check_sizes(doc, make_inputs, reference, tolerance, add_options=None,
                label=lambda args: "", default_rows=(1000, 4096, 65536),
                outputs=1):
    """`make_inputs(rows, args)` (or `make_inputs(rows)`) gives the
    kernel's arguments, its `outputs` output tensors last;
    `reference(inputs, args)` the expected output (a tuple of them when
    there are several); `tolerance` a bound or one per output, or a
    function of the parsed arguments giving them;
    `add_options(parser)` adds a script's own options; `label(args)`,
    printed after the bundle's name, tells variants apart."""
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
    if callable(tolerance):
        tolerance = tolerance(args)
    tolerances = (tolerance if isinstance(tolerance, (tuple, list))
                  else [tolerance] * outputs)
    for rows in args.rows:
        takes_args = len(inspect.signature(make_inputs).parameters) > 1
        tensors = make_inputs(rows, args) if takes_args else make_inputs(rows)
        outs = tensors[-outputs:]
        launch_checked(rt, h, tensors, args.bundle)
        wants = reference(tensors[:-outputs], args)
        if outputs == 1:
            wants = [wants]
        for k, (out, want, tol) in enumerate(zip(outs, wants, tolerances)):
            unwritten = out.isnan().sum().item()
            rel = (((out - want).norm() / want.norm()).item()
                   if unwritten == 0 else float("inf"))
            ok = unwritten == 0 and rel < tol
            failed += not ok
            which = f" output {k}" if outputs > 1 else ""
            print(f"{name}{tag} {rows}x{out.shape[1]}{which}: {unwritten} "
                  f"unwritten, relative error {rel:.2e}: "
                  f"{'PASS' if ok else 'WRONG'}")
    return 1 if failed else 0
