#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Compiles pkgconfig.c with the flags of the installed .pc files alone.
#   build-with-pkgconfig.sh PREFIX SOURCE OUT
set -eu
export PKG_CONFIG_PATH="$1/lib/pkgconfig"
cc -std=c11 "$2" -o "$3" $(pkg-config --cflags --libs cake-kmeans)
