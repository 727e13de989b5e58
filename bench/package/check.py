#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The Python package (python/cake) on the GPU, beside flashlib: a user's
switch of import, checked and timed.

- cake.kmeans.batch_kmeans_Euclid / flash_kmeans / euclid_assign against
  flashlib's batch_kmeans_Euclid / euclid_assign_triton on the same data
  and initial centroids: the same return types and shapes, the k-means
  objective (fp32, each with its own centroids) within 1e-3 relative,
  assignments equal except on near-ties; then both timed, interleaved,
  each call as a user makes it (dispatcher and Python included).
- cake.knn.flash_knn / knn_graph against an fp32 brute force (the top-k
  sets up to fp32 ties, bench/knn/bench.py's check), beside flashlib's
  flash_knn_triton plus its distance gather (what flashlib's flash_knn
  runs), timed the same way.
- torch.compile(fullgraph=True) over torch.ops.cake.* against eager.
- cake.runtime.Bundle: a launch checked against its input, and the errors
  a bad argument gets.

usage: check.py --lib DIR --kmeans-table DIR --knn-bundles DIR
                --flashlib DIR --bundle tma_copy.json [--out FILE]
"""
import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def median_ms(fn, reps=5):
    import torch
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def objective(x, c, ids):
    """sum ||x - c[ids]||^2 in fp32."""
    xf, cf = x.float(), c.float()
    picked = cf.gather(1, ids.long()[..., None].expand(-1, -1, x.shape[-1]))
    return ((xf - picked) ** 2).sum().item()


def near_tie_mismatches(x, c, a, b, rel=1e-3):
    """Points where assignments a and b differ by more than a near tie."""
    xf, cf = x.float(), c.float()
    da = ((xf - cf.gather(1, a.long()[..., None].expand(-1, -1, x.shape[-1])))
          ** 2).sum(-1)
    db = ((xf - cf.gather(1, b.long()[..., None].expand(-1, -1, x.shape[-1])))
          ** 2).sum(-1)
    bad = (a != b) & ((da - db).abs() > rel * (da.abs() + 1e-6))
    return int(bad.sum().item()), int((a != b).sum().item())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lib", required=True)
    p.add_argument("--kmeans-table", required=True)
    p.add_argument("--knn-bundles", required=True)
    p.add_argument("--flashlib", required=True)
    p.add_argument("--bundle", required=True, help="tma_copy's bundle")
    p.add_argument("--out", default="")
    a = p.parse_args()
    os.environ["CAKE_LIBRARY_DIR"] = a.lib
    os.environ["CAKE_KMEANS_TABLE"] = a.kmeans_table
    os.environ["CAKE_KNN_BUNDLES"] = a.knn_bundles
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
    sys.path.insert(0, os.path.join(HERE, "..", "kmeans"))
    import importlib.util
    import torch
    import cake
    import cake.kmeans
    import cake.knn
    import cake.ops  # noqa: F401
    import cake.runtime
    from lloyd import load_peer  # bench/kmeans (it imports its bench.py)
    # bench/knn/bench.py under another name: "bench" is k-means' now.
    spec = importlib.util.spec_from_file_location(
        "knn_bench", os.path.join(HERE, "..", "knn", "bench.py"))
    knn_bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(knn_bench)
    knn_check, load_flashlib = knn_bench.check, knn_bench.load_flashlib
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    results, failures = [], 0

    def record(row):
        nonlocal failures
        failures += not row["ok"]
        results.append(row)
        print(json.dumps(row), flush=True)

    # --- k-means beside flashlib -------------------------------------------
    fl_lloyd, fl_assign, _ = load_peer("flashlib", a.flashlib)
    for B, N, D, K, dt in ((1, 1048576, 128, 1024, torch.bfloat16),
                           (1, 2000000, 32, 512, torch.bfloat16),
                           (4, 131072, 64, 256, torch.float16),
                           (2, 100000, 72, 100, torch.bfloat16),
                           (1, 65536, 256, 4096, torch.float16)):
        x = torch.randn(B, N, D, device="cuda", dtype=dt)
        c0 = x[:, torch.randperm(N, device="cuda")[:K]].contiguous()
        ids_f, c_f, it_f = fl_lloyd(x, K, max_iters=10,
                                    init_centroids=c0.clone())
        ids_c, c_c, it_c = cake.kmeans.batch_kmeans_Euclid(
            x, K, max_iters=10, init_centroids=c0)
        of, oc = objective(x, c_f, ids_f), objective(x, c_c, ids_c)
        # One assignment from the same centroids: equal but for near ties.
        a_f = fl_assign(x, c_c, None, None, True)
        a_c = cake.kmeans.euclid_assign(x, c_c)
        bad, differ = near_tie_mismatches(x, c_c, a_f, a_c)
        same_api = (ids_c.shape == ids_f.shape and c_c.shape == c_f.shape
                    and c_c.dtype == c_f.dtype and it_c == it_f == 10
                    and a_c.dtype == a_f.dtype)
        t_f = median_ms(lambda: fl_lloyd(x, K, max_iters=10,
                                         init_centroids=c0.clone()))
        t_c = median_ms(lambda: cake.kmeans.batch_kmeans_Euclid(
            x, K, max_iters=10, init_centroids=c0))
        t_f2 = median_ms(lambda: fl_lloyd(x, K, max_iters=10,
                                          init_centroids=c0.clone()))
        t_fl = min(t_f, t_f2)
        rel = abs(oc - of) / of
        record(dict(what="kmeans", shape=f"{B}x{N}x{D} K={K}",
                    dtype=str(dt).replace("torch.", ""),
                    ok=bool(rel <= 1e-3 and bad == 0 and same_api),
                    objective_rel=rel, assign_differ=differ,
                    assign_not_tie=bad, ids_dtype=str(ids_c.dtype),
                    flashlib_ids_dtype=str(ids_f.dtype), same_api=same_api,
                    cake_ms=t_c, flashlib_ms=t_fl, speedup=t_fl / t_c))
    # (N, D) through flash_kmeans; verbose; tol stops early.
    x = torch.randn(300000, 64, device="cuda", dtype=torch.bfloat16)
    ids, c, it = cake.kmeans.flash_kmeans(x, 100, max_iters=5, verbose=True)
    _, _, it_tol = cake.kmeans.flash_kmeans(x, 100, max_iters=50, tol=1e9)
    record(dict(what="flash_kmeans 2-D, verbose, tol", ok=bool(
        ids.shape == (300000,) and c.shape == (100, 64) and it == 5
        and it_tol == 1), rounds=it, rounds_tol=it_tol))

    # --- KNN beside flashlib ---------------------------------------------
    fl_knn, fl_gather = load_flashlib(a.flashlib)

    def flashlib_knn(x, c, k):
        idx = fl_knn(x[None], c[None], k)
        return fl_gather(x[None], c[None], idx), idx

    for Q, M, D, k, dt in ((1, 1048576, 128, 10, torch.bfloat16),
                           (256, 1048576, 128, 10, torch.bfloat16),
                           (4096, 1048576, 64, 10, torch.float16),
                           (1024, 200000, 96, 10, torch.bfloat16)):
        x = torch.randn(Q, D, device="cuda", dtype=dt)
        c = torch.randn(M, D, device="cuda", dtype=dt)
        vals, idxs = cake.knn.flash_knn(x, c, k)
        only = cake.knn.flash_knn(x, c, k, return_distances=False)
        sample = torch.randperm(Q, device="cuda")[:64]
        chk = knn_check(x, c, vals, idxs, k, sample)
        t_c = median_ms(lambda: cake.knn.flash_knn(x, c, k))
        t_f = median_ms(lambda: flashlib_knn(x, c, k))
        record(dict(what="flash_knn", shape=f"{Q}x{M}x{D} k={k}",
                    dtype=str(dt).replace("torch.", ""),
                    ok=bool(chk.get("ok") and torch.equal(only, idxs)
                            and vals.shape == (Q, k)),
                    check=chk, cake_ms=t_c, flashlib_ms=t_f,
                    speedup=t_f / t_c))
    x = torch.randn(2, 70000, 128, device="cuda", dtype=torch.bfloat16)
    vals, idxs = cake.knn.knn_graph(x, 10)
    sample = torch.randperm(70000, device="cuda")[:64]
    chk = [knn_check(x[i], x[i], vals[i], idxs[i], 10, sample,
                     exclude_self=True) for i in range(2)]
    record(dict(what="knn_graph", shape="2x70000x128 k=10",
                ok=all(c.get("ok") for c in chk), check=chk))

    # --- torch.compile over the operators ----------------------------------
    def pipeline(x, c):
        ids = torch.ops.cake.kmeans_assign(x, c)
        vals, idxs = torch.ops.cake.knn(x[0], c[0], 10)
        return ids.float().mean() + vals.sqrt().sum(-1), idxs
    x = torch.randn(1, 100000, 128, device="cuda", dtype=torch.bfloat16)
    c = torch.randn(1, 256, 128, device="cuda", dtype=torch.bfloat16)
    try:
        compiled = torch.compile(pipeline, fullgraph=True)
        got, gidx = compiled(x, c)
        want, widx = pipeline(x, c)
        ok = torch.allclose(got, want, rtol=1e-5) and torch.equal(gidx, widx)
        record(dict(what="torch.compile(fullgraph) over torch.ops.cake",
                    ok=bool(ok), max_diff=(got - want).abs().max().item()))
    except Exception as e:  # the reason, as a failed row
        record(dict(what="torch.compile(fullgraph) over torch.ops.cake",
                    ok=False, error=f"{type(e).__name__}: {e}"[:2000]))

    # --- cake.runtime.Bundle -------------------------------------------------
    copy = cake.runtime.Bundle(a.bundle)
    src = torch.randn(512, 384, device="cuda", dtype=torch.bfloat16)
    dst = torch.full_like(src, float("nan"))
    copy(src, dst, sync=True)
    errors = {}
    for name, args in (
            ("count", (src,)),
            ("cpu", (src.cpu(), dst)),
            ("dtype", (src.float(), dst)),
            ("strided", (src.t(), dst)),
            ("rank", (src[0], dst)),
            ("int", (src, 3))):
        try:
            copy(*args)
            errors[name] = "no error"
        except (TypeError, ValueError, RuntimeError) as e:
            errors[name] = f"{type(e).__name__}: {e}"
    record(dict(what="Bundle", repr=repr(copy), ok=bool(
        torch.equal(src, dst) and "no error" not in errors.values()),
        errors=errors, time_ms=copy.time(src, dst)))

    if a.out:
        with open(a.out, "w") as f:
            json.dump(dict(torch=torch.__version__, cake=cake.__version__,
                           gpu=torch.cuda.get_device_name(), rows=results),
                      f, indent=1)
    print(f"{len(results) - failures} of {len(results)} ok")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
