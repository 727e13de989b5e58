# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Prints the sizes and field offsets of the package's ctypes mirrors of
Cake's C structs, as test/CAPI/layout.c prints the C ones; the C API test
diffs the two (`python3 -m cake._layout`)."""
from .compiler import _Diagnostic, _Note
from .runtime import CakeRtArg


def describe(name, struct):
    fields = " ".join(f"{f} {getattr(struct, f).offset}"
                      for f, _ in struct._fields_)
    return f"{name} size {__import__('ctypes').sizeof(struct)} {fields}"


if __name__ == "__main__":
    print(describe("MlirCakeDiagnostic", _Diagnostic))
    print(describe("MlirCakeDiagnosticNote", _Note))
    print(describe("CakeRtArg", CakeRtArg))
