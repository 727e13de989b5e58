// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Tactics.c - The tactics a cake-mcp request may name ---------------===*\
|*                                                                            *|
|* One list for cake_apply_tactic and cake_evolve's search spaces.            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Mcp.h"

#include <string.h>

const char *const mcpTactics[] = {"cake-overlap-epilogue",
                                  "cake-ping-pong",
                                  "cake-set-argmin",
                                  "cake-set-cluster",
                                  "cake-set-ctas-per-sm",
                                  "cake-set-fence-waits",
                                  "cake-set-flush-denormals",
                                  "cake-set-mma-chain",
                                  "cake-set-raster",
                                  "cake-set-regs",
                                  "cake-set-retire-late",
                                  "cake-set-schedule",
                                  "cake-set-stages",
                                  "cake-set-swizzle",
                                  "cake-set-tile",
                                  "cake-set-uniform-warp",
                                  "cake-set-wg-order",
                                  "cake-stage-epilogue",
                                  "cake-warp-specialize"};
const size_t mcpNumTactics = sizeof mcpTactics / sizeof mcpTactics[0];

int mcpIsTactic(const char *name) {
  for (size_t i = 0; i < mcpNumTactics; ++i)
    if (!strcmp(mcpTactics[i], name))
      return 1;
  return 0;
}

int mcpIsPlainOptions(const char *options) {
  size_t n = strlen(options);
  return n <= 512 &&
         strspn(options, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                         "0123456789_-=. \"") == n;
}
