# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Uses the installed `cake` package (test/Python/package.test): versions,
verify on a good and a bad kernel, a parse error, and with --bundle a
compiled bundle.

usage: use_package.py GOOD.cake.mlir BAD.cake.mlir [--bundle]
"""
import json
import sys

import cake

good, bad = sys.argv[1], sys.argv[2]
print("package", cake.__version__, "library", cake.library_version())
print("from", cake.__file__)

r = cake.verify(open(good).read(), name=good)
print("good:", r.ok, len(r.errors), "errors")

r = cake.verify(open(bad).read(), name=bad)
print("bad:", r.ok)
for d in r.errors:
    print(" ", d.location.rsplit("/", 1)[-1], d.rule, d.role or "-",
          d.resource or "-")
print(json.dumps(r.errors[0].as_dict(), sort_keys=True)[:60])

r = cake.verify("cake.kernel @k(", name="broken.mlir")
print("parse:", r.ok, [d.location for d in r.errors])

try:
    cake.compile_bundle(open(bad).read(), name=bad)
except cake.CakeError as e:
    print("compile bad:", str(e).split(":")[0].rsplit("/", 1)[-1],
          e.diagnostics[0].rule)

if "--bundle" in sys.argv:
    bundle = json.loads(cake.compile_bundle(open(good).read(), name=good))
    print("bundle:", sorted(bundle)[:4])
