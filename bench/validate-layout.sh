#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# One device call that checks the packed tools and libraries end to end on
# the GPU after a change of layout: cake-run's options and checks (GEMM,
# copy), cake-kmeans (Lloyd from C through libcake_kmeans), and Lloyd from
# Python (libs/kmeans/python) beside flash-kmeans in .device/peer.
# Run from the repository root on the GPU machine, after scripts/device-pack
# examples/gemm_ws_persistent.cake.mlir examples/tma_copy.cake.mlir and
# scripts/device-pack-kmeans.
D=.device
export LD_LIBRARY_PATH=$PWD/$D/lib
out=${OUT:-/tmp}
status=0
step() { echo "== $*"; "$@" || { echo "FAILED (status $?): $*"; status=1; }; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
step $D/bin/cake-run --help
$D/bin/cake-run --bogus; echo "cake-run --bogus: exit $? (2 expected)"
step $D/bin/cake-run $D/bundles/gemm_ws_persistent.json --arg 0=8192x8192 \
  --arg 1=8192x8192 --arg 2=8192x8192 --check gemm
step $D/bin/cake-run $D/bundles/gemm_ws_persistent.json --arg 0=4000x2000 \
  --arg 1=3000x2000 --arg 2=4000x3000 --check gemm --seed 7
step $D/bin/cake-run $D/bundles/tma_copy.json --arg 0=8192x8192 \
  --arg 1=8192x8192 --check copy
step $D/bin/cake-kmeans $D/kmeans --shape 1:1048576:128:1024 --dtype f16
step $D/bin/cake-kmeans $D/kmeans --shape 8:65536:128:256 --dtype bf16
PYTHONUNBUFFERED=1 step python3 bench/kmeans/lloyd.py \
  --runtime $D/lib/libcake_runtime.so --dispatch $D/kmeans --peer $D/peer \
  --shapes 1:1048576:128:1024,8:65536:128:256 --out "$out/lloyd.json"
echo "validate-layout: status $status"
exit $status
