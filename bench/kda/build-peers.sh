#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# On the GPU machine: unpacks the KDA peers that scripts/device-pack-kda
# packed (PEERS, default .device/peers) into DIR (default /tmp/kda-peers)
# and builds FlashKDA's extension for sm_90a in place (torch's
# cpp_extension, nvcc; about 90 s with 16 jobs). fla is pure Python.
#   bench/kda/build-peers.sh [PEERS] [DIR]
set -eu
peers=${1:-.device/peers}
dir=${2:-/tmp/kda-peers}
mkdir -p "$dir"
for t in flashkda cutlass fla; do
  tar xzf "$peers/$t.tar.gz" -C "$dir"
done
cp "$peers/VERSIONS" "$dir/"
cd "$dir/flashkda"
if ! ls flash_kda_C*.so > /dev/null 2>&1; then
  FLASH_KDA_CUDA_ARCHS=90a MAX_JOBS=${MAX_JOBS:-16} NVCC_THREADS=4 \
    python3 setup.py build_ext --inplace > "$dir/flashkda-build.log" 2>&1 ||
    { tail -30 "$dir/flashkda-build.log"; exit 1; }
fi
ls flash_kda_C*.so
