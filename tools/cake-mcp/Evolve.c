// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Evolve.c - cake_evolve: a search step for an agent ----------------===*\
|*                                                                            *|
|* Stages 1 and 2 of cake-evolve (tools/cake-evolve/Search.c) over a seed    *|
|* and a search space given inline: every candidate generated, verified and  *|
|* ranked by the cost model, the ledger kept in memory. No file is read or   *|
|* written; the space may name only the tactics of Tactics.c with plain      *|
|* options, and the number of candidates is bounded. Stage 3 (timing on the  *|
|* GPU) stays with cake-evolve --export / --import (docs/agents.md).         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "Evolve.h"
#include "Mcp.h"

#include <stdlib.h>
#include <string.h>

/* The most candidates one call generates before mutation (the grid, or
 * the sample when the grid is larger), and the limits on the rest. */
#define MAX_CANDIDATES 512
#define MAX_MUTATE_ROUNDS 4
#define MAX_TOP 32

static int intArg(const cJSON *args, const char *key, int fallback, int lo,
                  int hi, int *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, key);
  if (!v) {
    *out = fallback;
    return 1;
  }
  if (!cJSON_IsNumber(v) || v->valuedouble != (double)v->valueint ||
      v->valueint < lo || v->valueint > hi)
    return 0;
  *out = v->valueint;
  return 1;
}

const char *mcpCheckEvolve(const cJSON *args) {
  int unused;
  if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(args, "shapes")))
    return "cake_evolve needs arguments.shapes (one per tensor argument, "
           "e.g. 8192x8192,8192x8192,8192x8192)";
  if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(args, "space")))
    return "cake_evolve needs arguments.space: {\"tactics\": [{\"pass\", "
           "\"option\", \"values\", \"fixed\"?}]}";
  if (!intArg(args, "sample", 0, 0, MAX_CANDIDATES, &unused))
    return "cake_evolve: arguments.sample is an integer from 0 (the whole "
           "grid) to 512";
  if (!intArg(args, "mutate_rounds", 0, 0, MAX_MUTATE_ROUNDS, &unused))
    return "cake_evolve: arguments.mutate_rounds is an integer from 0 to 4";
  if (!intArg(args, "top", 8, 1, MAX_TOP, &unused))
    return "cake_evolve: arguments.top is an integer from 1 to 32";
  if (!intArg(args, "rng_seed", 1, 1, 0x7fffffff, &unused))
    return "cake_evolve: arguments.rng_seed is a positive integer";
  return NULL;
}

/* The space's tactics: only known ones, with options that cannot reach
 * another pass. */
static int checkSpace(const Tactic *tactics, int n, FILE *err) {
  for (int t = 0; t < n; ++t) {
    const Tactic *x = &tactics[t];
    if (!mcpIsTactic(x->pass)) {
      fprintf(err,
              "cake_evolve: space tactic #%d: '%s' is not one of the "
              "tactics cake_apply_tactic lists\n",
              t, x->pass);
      return 0;
    }
    int plain = mcpIsPlainOptions(x->fixed) && mcpIsPlainOptions(x->option);
    for (int v = 0; v < x->numValues; ++v)
      plain &= mcpIsPlainOptions(x->values[v]);
    if (!plain) {
      fprintf(err,
              "cake_evolve: space tactic #%d (%s): \"fixed\", \"option\" "
              "and \"values\" are option text (letters, digits, _-=. and "
              "spaces)\n",
              t, x->pass);
      return 0;
    }
  }
  return 1;
}

/* Adds the text the search wrote to `log` as one error diagnostic. */
static void addLog(cJSON *diagnostics, const char *text) {
  if (!text || !*text)
    return;
  cJSON *d = cJSON_CreateObject();
  cJSON_AddStringToObject(d, "severity", "error");
  cJSON_AddStringToObject(d, "message", text);
  cJSON_AddItemToArray(diagnostics, d);
}

cJSON *mcpEvolve(const cJSON *args) {
  cJSON *result = cJSON_CreateObject();
  cJSON *diagnostics = cJSON_CreateArray();
  EvolveOptions options = {0};
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(args, "name");
  options.seedPath =
      cJSON_IsString(name) ? name->valuestring : "input.cake.mlir";
  options.spacePath = "arguments.space";
  options.ledgerPath = "(in memory)";
  options.shapes =
      cJSON_GetObjectItemCaseSensitive(args, "shapes")->valuestring;
  int sample = 0, rounds = 0, top = 8, seed = 1; /* checked by mcpCheckEvolve */
  intArg(args, "sample", 0, 0, MAX_CANDIDATES, &sample);
  intArg(args, "mutate_rounds", 0, 0, MAX_MUTATE_ROUNDS, &rounds);
  intArg(args, "top", 8, 1, MAX_TOP, &top);
  intArg(args, "rng_seed", 1, 1, 0x7fffffff, &seed);
  options.sample = sample;
  options.mutateRounds = rounds;
  options.top = top;
  rngSeed((uint64_t)seed);

  char *logText = NULL, *ledgerText = NULL;
  size_t logSize = 0, ledgerSize = 0;
  FILE *log = open_memstream(&logText, &logSize);
  FILE *ledger = open_memstream(&ledgerText, &ledgerSize);
  Search s;
  memset(&s, 0, sizeof s);
  s.options = &options;
  s.log = log;
  s.ledger = ledger;
  s.seed = strdup(cJSON_GetObjectItemCaseSensitive(args, "ir")->valuestring);
  int ok = log && ledger && s.seed &&
           parseSpace(cJSON_GetObjectItemCaseSensitive(args, "space"),
                      options.spacePath, s.tactics, &s.numTactics, log) &&
           checkSpace(s.tactics, s.numTactics, log);
  if (ok) {
    /* The grid's size is known once the space is read: a grid above the
     * limit needs a sample. */
    long grid = 1;
    for (int t = 0; t < s.numTactics && grid <= MAX_CANDIDATES; ++t)
      grid *= s.tactics[t].numValues;
    if (grid > MAX_CANDIDATES && !sample) {
      fprintf(log,
              "cake_evolve: the space has more than %d points; give "
              "arguments.sample (at most %d)\n",
              MAX_CANDIDATES, MAX_CANDIDATES);
      ok = 0;
    }
  }
  ok = ok && searchQueue(&s) == 0;
  if (ok) {
    s.log = NULL;  /* no progress lines */
    searchRun(&s); /* closes the ledger */
    ledger = NULL;
    s.ledger = NULL;
  }
  if (log)
    fclose(log);
  if (ledger)
    fclose(ledger);
  s.ledger = NULL;
  addLog(diagnostics, logText);

  if (ok) {
    cJSON *summary = cJSON_AddObjectToObject(result, "summary");
    cJSON_AddNumberToObject(summary, "grid", (double)s.total);
    cJSON_AddNumberToObject(summary, "candidates", (double)s.qlen);
    cJSON_AddNumberToObject(summary, "mutation_rounds", s.round);
    cJSON_AddNumberToObject(summary, "rejected", (double)s.numRejected);
    cJSON *rules = cJSON_AddObjectToObject(summary, "rejected_by_rule");
    for (int k = 0; k < s.numRules; ++k)
      cJSON_AddNumberToObject(rules, s.rules[k].rule, s.rules[k].count);
    cJSON_AddNumberToObject(summary, "duplicates", (double)s.numDuplicates);
    cJSON_AddNumberToObject(summary, "cost_failed", (double)s.numCostFailed);
    cJSON_AddNumberToObject(summary, "ranked", (double)s.numRanked);
    /* The best first (searchRun sorted them by predicted time). */
    cJSON *best = cJSON_AddArrayToObject(result, "top");
    for (long k = 0; k < s.numRanked && k < top; ++k) {
      const Ranked *r = &s.ranked[k];
      cJSON *c = cJSON_CreateObject();
      cJSON_AddStringToObject(c, "id", r->id);
      cJSON_AddStringToObject(c, "tactics", r->tactics);
      cJSON_AddStringToObject(c, "pipeline", r->pipeline);
      cJSON_AddNumberToObject(c, "predicted_ns", r->predictedNs);
      cJSON_AddStringToObject(c, "bottleneck", r->bottleneck);
      cJSON_AddItemToArray(best, c);
    }
    /* Every candidate, as cake-evolve's ledger has it (JSON Lines). */
    cJSON *lines = cJSON_AddArrayToObject(result, "ledger");
    for (char *line = ledgerText, *end; line && *line; line = end + 1) {
      end = strchr(line, '\n');
      if (!end)
        break;
      *end = 0;
      cJSON *entry = cJSON_Parse(line);
      if (entry)
        cJSON_AddItemToArray(lines, entry);
    }
  }
  free(logText);
  free(ledgerText);
  searchClose(&s);
  cJSON_AddBoolToObject(result, "ok", ok);
  cJSON_AddItemToObject(result, "diagnostics", diagnostics);
  return result;
}
