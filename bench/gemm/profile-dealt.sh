#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Nsight Compute on the dealt 64 x 256 ping-pong with 4 and 5 stages at
# 8192^3 (GEMM run 20: why 5 stages run slower), on the GPU machine after
# the bundles are packed into .device/tac/ (cake-opt
# examples/gemm_ws_persistent.cake.mlir --cake-set-tile="m=64"
# --cake-ping-pong="dealt=true" --cake-set-stages="pipe=0 stages=N"
# --cake-lower | cake-translate --cake-to-bundle). Writes ncu-sN.txt to $OUT.
set -u
cd "$(dirname "$0")/../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
for st in 4 5; do
  b=.device/tac/ws_dealt_64x256_s$st.json
  [ -f $b ] || continue
  ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
      --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_hit_rate.pct,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__cycles_active.avg" \
      --launch-count 1 .device/bin/cake-run $b --arg 0=8192x8192 --arg 1=8192x8192 --arg 2=8192x8192 --iters 1 --warmup 0 > $OUT/ncu-s$st.txt 2>&1
  echo "== s$st"; grep -E "Duration|SM Frequency|Compute \(SM\) Throughput|Memory Throughput|L2 Cache Throughput|DRAM Throughput|Shared Memory Configuration Size|Driver Shared Memory|Dynamic Shared Memory|L1/TEX Hit|L2 Hit Rate|hmma|stalled_(long|barrier|wait|short|math|mio|lg|membar|branch|dispatch|sleeping|tex|drain|no_inst|selected|not_selected|imc)|bank_conflicts|Registers Per|Block Limit Shared" $OUT/ncu-s$st.txt | awk '{$1=$1};1' | head -50
done
