#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs a portfolio benchmark on every GPU of this host: one worker per
GPU, fed from one queue of shapes.

The benchmark is any of bench/kmeans/lloyd.py, bench/knn/bench.py and
build.py (they take --portfolio --dtype --only --out; PortfolioRun in
shapes.py): the runner hands each worker a chunk of --chunk shapes at a
time, in a child process group pinned to the worker's device
(CUDA_VISIBLE_DEVICES) and killed after --time-limit seconds, and merges
every child's JSON into --out. The benchmark writes its JSON after every
shape, so a child that crashes or hangs costs only the shape it was
running: that shape is retried once on another worker and then recorded
as failed with the reason, the chunk's unstarted shapes go back to the
queue, and a worker that fails twice in a row (a lost GPU) is retired.
--resume keeps every shape a previous run's parts (OUT.parts/) measured.
The merged JSON is one run for report.py (rows, unsupported, not_run) plus
"failed" and "workers".

usage: gpus.py --kind kmeans|knn-search|knn-build --dtype bf16 --out F.json
               [--gpus N|LIST] [--chunk 4] [--time-limit S] [--only SHAPES]
               [--resume] -- BENCHMARK COMMAND...
"""
import argparse
import glob
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import shapes  # noqa: E402

ATTEMPTS = 2           # the first and one retry on another worker
RETIRE_AFTER = 2       # failures in a row that retire a worker


def row_shape(kind, row):
    """The shape string ("B:N:D:K", "Q:M:D:k", "N:D:k") of a result row."""
    fields = {"kmeans": ("B", "N", "D", "K"), "knn-search": ("Q", "M", "D", "k"),
              "knn-build": ("N", "D", "k")}[kind]
    return ":".join(str(row[f]) for f in fields)


def list_gpus(spec):
    """--gpus (a count or a comma list), else CUDA_VISIBLE_DEVICES, else
    one per `nvidia-smi -L` line, else ["0"]."""
    if spec:
        if spec.isdigit() and int(spec) >= 1:
            return [str(i) for i in range(int(spec))]
        return [g for g in spec.split(",") if g]
    if os.environ.get("CUDA_VISIBLE_DEVICES"):
        return [g for g in os.environ["CUDA_VISIBLE_DEVICES"].split(",") if g]
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True,
                             text=True, timeout=30).stdout
        n = sum(1 for line in out.splitlines() if line.startswith("GPU "))
    except (OSError, subprocess.SubprocessError):
        n = 0
    return [str(i) for i in range(max(n, 1))]


def read_part(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


class Worker:
    def __init__(self, index, gpu):
        self.index, self.gpu = index, gpu
        self.proc = None
        self.chunk, self.part, self.log = [], "", ""
        self.start = 0.0
        self.failures_in_a_row, self.retired, self.measured = 0, False, 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", required=True, choices=sorted(shapes.PORTFOLIOS))
    ap.add_argument("--dtype", default="bf16")
    ap.add_argument("--out", required=True)
    ap.add_argument("--gpus", default="")
    ap.add_argument("--chunk", type=int, default=4)
    ap.add_argument("--time-limit", type=float, default=3600,
                    help="seconds a child may run (a chunk)")
    ap.add_argument("--only", default="")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not command:
        ap.error("the benchmark command follows --")
    if a.chunk < 1:
        ap.error("--chunk must be at least 1")

    have, lacking = shapes.portfolio_split(a.kind, a.dtype)
    queue = [":".join(map(str, sh)) for sh in have]
    if a.only:
        only = set(a.only.split(","))
        queue = [s for s in queue if s in only]
    parts_dir = a.out + ".parts"
    os.makedirs(parts_dir, exist_ok=True)
    rows, header = {}, {}
    if a.resume:
        for path in sorted(glob.glob(os.path.join(parts_dir, "*.json"))):
            d = read_part(path) or {}
            for r in d.get("rows", []):
                rows[row_shape(a.kind, r)] = r
            header = header or {k: v for k, v in d.items() if k not in (
                "rows", "unsupported", "not_run")}
        print(f"gpus: resumed: {len(rows)} shapes measured before",
              flush=True)
    else:
        for path in glob.glob(os.path.join(parts_dir, "*")):
            os.remove(path)
    queue = [s for s in queue if s not in rows]
    attempts = {s: 0 for s in queue}
    last_worker = {}
    failed = []
    workers = [Worker(i, g) for i, g in enumerate(list_gpus(a.gpus))]
    print(f"gpus: {len(queue)} shapes on {len(workers)} worker"
          f"{'s' if len(workers) > 1 else ''} (GPU "
          f"{', '.join(w.gpu for w in workers)}), chunks of {a.chunk}",
          flush=True)
    serial = 0

    def start(w, chunk):
        nonlocal serial
        serial += 1
        w.chunk = chunk
        w.part = os.path.join(parts_dir, f"part{serial:04d}-gpu{w.index}.json")
        w.log = w.part[:-5] + ".log"
        env = dict(os.environ, CUDA_VISIBLE_DEVICES=w.gpu)
        argv = command + ["--portfolio", "--dtype", a.dtype, "--only",
                          ",".join(chunk), "--out", w.part]
        with open(w.log, "w") as log:
            w.proc = subprocess.Popen(argv, env=env, stdout=log,
                                      stderr=subprocess.STDOUT,
                                      start_new_session=True)
        w.start = time.monotonic()
        for s in chunk:
            attempts[s] += 1
        print(f"gpus: GPU {w.gpu}: {' '.join(chunk)}", flush=True)

    def finish(w, why, interrupted=False):
        """Collects a finished (or killed) child's rows; requeues or fails
        what it did not measure (after an interruption: requeues)."""
        nonlocal header
        d = read_part(w.part) or {}
        if d and not header:
            header = {k: v for k, v in d.items()
                      if k not in ("rows", "unsupported", "not_run")}
        done = set()
        for r in d.get("rows", []):
            s = row_shape(a.kind, r)
            if s in w.chunk:
                rows[s] = r
                done.add(s)
        w.measured += len(done)
        left = [s for s in w.chunk if s not in done]
        if interrupted:
            queue[:0] = left
            w.proc, w.chunk = None, []
            return
        if left and not why:
            why = "exited without a result for " + left[0]
        w.proc, w.chunk = None, []
        if not why:
            w.failures_in_a_row = 0
            return
        try:
            with open(w.log) as f:
                tail = [x for x in f.read().splitlines() if x.strip()]
        except OSError:
            tail = []
        reason = f"GPU {w.gpu}: {why}" + (f": {tail[-1][:200]}" if tail else "")
        # The benchmark runs its chunk in order: the first shape without a
        # row was running; the rest never started.
        running, unstarted = left[0], left[1:]
        for s in unstarted:
            attempts[s] -= 1
            queue.insert(0, s)
        last_worker[running] = w.index
        w.failures_in_a_row += 1
        if w.failures_in_a_row >= RETIRE_AFTER:
            w.retired = True
            print(f"gpus: the worker on GPU {w.gpu} failed {RETIRE_AFTER} "
                  "times in a row and is retired", flush=True)
        if attempts[running] < ATTEMPTS:
            print(f"gpus: {running} on GPU {w.gpu}: {why}; retried once",
                  flush=True)
            queue.append(running)
        else:
            print(f"gpus: {running} on GPU {w.gpu}: {why}; not measured "
                  f"after {attempts[running]} attempts", flush=True)
            failed.append(dict(shape=running, reason=reason,
                               attempts=attempts[running]))

    interrupted = []
    signal.signal(signal.SIGTERM, lambda *_: interrupted.append(1))
    try:
        while (queue or any(w.proc for w in workers)) and not interrupted:
            active = [w for w in workers if not w.retired]
            if not active:
                for s in queue:
                    failed.append(dict(shape=s, reason="no worker left: every "
                                       "GPU's worker failed twice in a row",
                                       attempts=attempts[s]))
                queue.clear()
                break
            for w in active:
                if w.proc or not queue:
                    continue
                # A retried shape goes to another worker while one is left.
                chunk = [s for s in queue if last_worker.get(s) != w.index
                         or len(active) == 1][:a.chunk]
                if not chunk:
                    continue
                for s in chunk:
                    queue.remove(s)
                start(w, chunk)
            for w in workers:
                if not w.proc:
                    continue
                code = w.proc.poll()
                if code is None and time.monotonic() - w.start < a.time_limit:
                    continue
                why = ""
                if code is None:
                    why = (f"did not finish in {a.time_limit:g} s and was "
                           "killed (--time-limit)")
                elif code < 0:
                    why = f"died of signal {-code}"
                elif code > 0:
                    why = f"exited with status {code}"
                try:
                    os.killpg(w.proc.pid, signal.SIGKILL)
                except OSError:
                    pass
                w.proc.wait()
                finish(w, why)
            time.sleep(0.05)
    except KeyboardInterrupt:
        interrupted.append(1)
    for w in workers:
        if w.proc:
            try:
                os.killpg(w.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            w.proc.wait()
            finish(w, "", interrupted=True)
    not_run = [s for s in queue] if interrupted else []
    merged = dict(header, dtype=a.dtype, portfolio=a.kind,
                  rows=list(rows.values()),
                  unsupported=[{"shape": ":".join(map(str, sh)), "why": why}
                               for sh, why in lacking],
                  not_run=not_run, failed=failed,
                  workers=[dict(gpu=w.gpu, measured=w.measured,
                                retired=w.retired) for w in workers])
    with open(a.out, "w") as f:
        json.dump(merged, f, indent=1)
    for w in workers:
        print(f"gpus: GPU {w.gpu} measured {w.measured}"
              + (" (retired)" if w.retired else ""))
    print(f"gpus: {len(rows)} shapes in {a.out}, {len(failed)} failed"
          + (f", {len(not_run)} not run (interrupted; --resume continues)"
             if interrupted else ""))
    return 1 if failed or interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
