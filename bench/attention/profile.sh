#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Where an attention kernel's time goes, on the GPU machine: its SASS
# skeleton (the wgmmas, their waits, the stage releases and the MUFU.EX2s in
# order: whether a step's softmax sits between its waits) and Nsight
# Compute's stall reasons and pipe utilization for one launch at
# 4 x 32 x 4096 x D through cake-run.
#   bench/attention/profile.sh BUNDLE_DIR [D] [causal]
# after scripts/device-pack examples/attention/*.cake.mlir (BUNDLE_DIR
# .device/bundles). Writes NAME.sass and NAME-ncu.txt to $OUT (or /tmp).
set -eu
dir=$1
d=${2:-128}
name=attention_fwd_d$d${3:+_causal}
out=${OUT:-/tmp}
export LD_LIBRARY_PATH=$PWD/.device/lib
python3 - "$dir/$name.json" "$out/$name.cubin" <<'PY'
import base64, json, sys
bundle = json.load(open(sys.argv[1]))
open(sys.argv[2], "wb").write(base64.b64decode(bundle["cubin"]))
PY
cuobjdump -sass "$out/$name.cubin" > "$out/$name.sass"
echo "== $name: SASS skeleton (count, opcode)"
grep -E "HGMMA|DEPBAR|SYNCS.ARRIVE|MUFU.EX2|BAR.SYNC|BAR.ARV" "$out/$name.sass" |
  sed -E 's#/\*[^*]*\*/##g; s/ +/ /g' | awk '{print $1 == "@!P4" || $1 ~ /^@/ ? $2 : $1}' |
  uniq -c | head -80
shape=128x4096x$d
ncu --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active" \
    --section SpeedOfLight --launch-count 1 \
    .device/bin/cake-run "$dir/$name.json" --arg 0=$shape --arg 1=$shape \
    --arg 2=$shape --arg 3=$shape --scalar 4=1 --iters 1 --warmup 0 \
    > "$out/$name-ncu.txt" 2>&1
echo "== $name: stall reasons per issued instruction, pipes (% of peak)"
grep -E "stalled|pipe_" "$out/$name-ncu.txt" | awk '$NF + 0 > 0.05' | sort -k3 -rn | head -24
