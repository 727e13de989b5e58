#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs a command against a private single-node Slurm in DIR
# (scripts/local-slurm), stopping the daemons however the command ends.
# usage: with-local-slurm.sh SRC DIR COMMAND...
set -eu
src=$1
dir=$2
shift 2
rm -rf "$dir"
trap '"$src/scripts/local-slurm" stop "$dir"' EXIT INT TERM
eval "$("$src/scripts/local-slurm" start "$dir")"
"$@"
