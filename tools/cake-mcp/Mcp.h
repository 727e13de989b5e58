// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Mcp.h - What cake-mcp's files share -----------------------*- C -*-===*\
|*                                                                            *|
|* The tactics a request may name (Tactics.c) and the cake_evolve tool        *|
|* (Evolve.c: stages 1 and 2 of cake-evolve's search, in memory).             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_MCP_MCP_H
#define CAKE_MCP_MCP_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* Cake's tactics (include/cake/Transforms/Passes.td, "Tactic: ..."), none
 * of which reads or writes a file; any other pass name is refused, so a
 * request cannot reach a pass with a file option (cake-cost's json=). */
extern const char *const mcpTactics[];
extern const size_t mcpNumTactics;
int mcpIsTactic(const char *name);
/* Options that cannot close a pass's braces or start another pass: at
 * most 512 characters of letters, digits and _-=. space and quotes. */
int mcpIsPlainOptions(const char *options);

/* cake_evolve's arguments, checked before the child runs: NULL, or why
 * not. */
const char *mcpCheckEvolve(const cJSON *args);
/* The tool itself (in the child process): the search's summary, the
 * ranked best and the ledger, or ok = false with the reason. */
cJSON *mcpEvolve(const cJSON *args);

#endif /* CAKE_MCP_MCP_H */
