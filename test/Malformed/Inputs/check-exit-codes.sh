#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs cake-opt and cake-translate on malformed inputs and prints each exit
# code. A signal shows up as 128+N, so "exit=1" on every line means every
# input was rejected cleanly.
bin=$1; tmp=$2
mkdir -p "$tmp"
printf '\001\377\376garbage' > "$tmp/garbage.mlir"
printf 'cake.kernel @k(' > "$tmp/cut.mlir"
printf 'module attributes {t.r = !cake.ring<0 x 64xf16>} {}' > "$tmp/bad-ring.mlir"
printf 'cake.role "r" warps(1) {}' > "$tmp/orphan.mlir"
printf '"cake.mma"() : () -> ()' > "$tmp/generic-no-operands.mlir"
printf '"cake.tiles"() ({}) : () -> ()' > "$tmp/generic-tiles.mlir"
printf '"cake.kernel"() ({}) : () -> ()' > "$tmp/generic-kernel.mlir"
printf '"cake.frag.map"() ({}) : () -> ()' > "$tmp/generic-map.mlir"
for f in "$tmp"/*.mlir; do
  "$bin/cake-opt" --cake-verify "$f" > /dev/null 2>&1
  echo "cake-opt $(basename "$f") exit=$?"
  "$bin/cake-translate" --cake-to-summary-json "$f" > /dev/null 2>&1
  echo "cake-translate $(basename "$f") exit=$?"
done
