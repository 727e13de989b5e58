// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Options.h - Number options of Cake's C tools ---------------*- C -*-===*\
|*                                                                            *|
|* One parser for the numbers the C tools take on their command lines, so     *|
|* that cake-run, cake-kmeans, cake-evolve and cake-mcp accept and refuse     *|
|* the same way and say so in the same words. Plain C11 without MLIR: the     *|
|* runtime's tools link it on GPU hosts that have no MLIR.                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_TOOLS_OPTIONS_H
#define CAKE_TOOLS_OPTIONS_H

/* `text` as a whole decimal number in [min, max] into `*out`. Returns 1; or
 * 0 after writing "TOOL: --OPTION expects an integer from MIN to MAX
 * (UNIT), got 'TEXT'" to stderr (`unit` may be null). */
int cakeParseIntegerOption(const char *tool, const char *option,
                           const char *text, long long min, long long max,
                           const char *unit, long long *out);

#endif // CAKE_TOOLS_OPTIONS_H
