# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What package-torch.test runs: the package's torch-facing layer without
a GPU (Debian's CPU torch): the operators' shapes through their Meta
kernels, the argument checks of the flashlib-style entry points, the
k-means table's chooser, where the KNN bundles are found, and a bundle
load that needs a driver."""
import os
import sys

import torch

import cake
import cake.kmeans
import cake.knn
import cake.ops
import cake.runtime


def error(f):
    try:
        f()
    except Exception as e:  # print what a user would see
        return f"{type(e).__name__}: {e}"
    return "no error"


# The operators on meta tensors: the shapes and types torch.compile's fake
# tensors get. (CPU torch 1.13 has no autograd fallthrough for Meta: the
# calls run in inference mode.)
x = torch.empty(2, 1000, 96, device="meta", dtype=torch.bfloat16)
c = torch.empty(2, 64, 96, device="meta", dtype=torch.bfloat16)
with torch.inference_mode():
    ids = torch.ops.cake.kmeans_assign(x, c)
    lids, lc = torch.ops.cake.kmeans_lloyd(x, c, 10, 0.0)
    vals, idxs = torch.ops.cake.knn(x[0], c[0], 10)
    gvals, gidxs = torch.ops.cake.knn_graph(x, 32)
print("assign", tuple(ids.shape), ids.dtype)
print("lloyd", tuple(lids.shape), ids.dtype, tuple(lc.shape), lc.dtype)
print("knn", tuple(vals.shape), vals.dtype, tuple(idxs.shape), idxs.dtype)
print("knn_graph", tuple(gvals.shape), tuple(gidxs.shape))

# The entry points check their arguments before any library loads; the
# device last, so that meta tensors show the shape and type errors.
xc = torch.randn(1000, 96).to(torch.bfloat16)
print(error(lambda: cake.kmeans.flash_kmeans(xc, 8)))
print(error(lambda: cake.kmeans.batch_kmeans_Euclid(x[0], 8)))
print(error(lambda: cake.kmeans.flash_kmeans(x, 8, metric="cosine")))
print(error(lambda: cake.kmeans.euclid_assign(x, c.float())))
print(error(lambda: cake.kmeans.euclid_assign(x, c[:, :, :64])))
print(error(lambda: cake.kmeans.flash_kmeans(x, 0)))
print(error(lambda: cake.kmeans.flash_kmeans(x, 8, max_iters=0)))
print(error(lambda: cake.kmeans.flash_kmeans(x.double(), 8)))
print(error(lambda: cake.kmeans.flash_kmeans(
    x, 8, init_centroids=torch.empty(2, 7, 96, device="meta",
                                     dtype=torch.bfloat16))))
print(error(lambda: cake.kmeans.flash_kmeans(x, 64, init_centroids=c)))
print(error(lambda: cake.knn.flash_knn(x, c[0], 3)))
print(error(lambda: cake.knn.flash_knn(x.half(), c, 3)))
print(error(lambda: cake.knn.knn_graph("points", 3)))
print(error(lambda: cake.knn.knn_graph(x.double(), 3)))
print(error(lambda: cake.knn.knn_graph(x.float(), 3)))  # fp32: a graph
print(error(lambda: cake.knn.flash_knn(xc, xc, 3)))

# The table's chooser needs no GPU: what the dispatcher would launch.
km = cake.kmeans.Kmeans()
for shape in ((1, 1048576, 128, 1024), (1, 2000000, 32, 512),
              (8, 65536, 100, 256)):
    bundle, evidence = km.choose("bf16", *shape)
    print("choose", *shape, bundle, "|", evidence)
print(error(lambda: km.choose("f32", 1, 100, 128, 8)))

# The KNN bundles: the build's cake-knn-kernels folder beside the library.
print("knn bundles", cake.knn.default_bundle_dir())
print(error(lambda: cake.knn.Knn("/nonexistent/knn")))

# A bundle needs a CUDA driver to load; without one, the reason.
bundle = os.path.join(sys.argv[1], bundle)
print(error(lambda: cake.runtime.Bundle(bundle)))
print(error(lambda: cake.runtime.Bundle(bundle + ".missing")))
