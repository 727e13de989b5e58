// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Search.c - Stages 1 and 2: generate, verify, rank ------------------===*\
|*                                                                            *|
|* Each grid point of the space (or a seeded sample of them, then the         *|
|* neighbours of the best in mutation rounds) is a tactic sequence applied    *|
|* to the seed and checked by cake-verify; duplicates (the same printed IR)   *|
|* are recorded and skipped, and the cost model ranks the rest. Every         *|
|* candidate becomes one ledger line.                                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L /* isatty */

#include "Evolve.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int searchOpen(Search *s, const EvolveOptions *o) {
  memset(s, 0, sizeof *s);
  s->options = o;
  s->log = stderr;
  s->seed = readFile(o->seedPath);
  if (!s->seed) {
    fprintf(stderr, "cake-evolve: cannot read seed '%s'\n", o->seedPath);
    return 1;
  }
  if (!readSpace(o->spacePath, s->tactics, &s->numTactics))
    return 1;
  /* Candidates already in the ledger (resume). */
  s->previous = o->resume ? readFile(o->ledgerPath) : NULL;
  s->ledger = fopen(o->ledgerPath, o->resume ? "a" : "w");
  if (!s->ledger) {
    fprintf(stderr, "cake-evolve: cannot write ledger '%s'\n", o->ledgerPath);
    return 1;
  }
  return searchQueue(s);
}

int searchQueue(Search *s) {
  const EvolveOptions *o = s->options;
  FILE *err = s->log ? s->log : stderr;
  s->total = 1;
  for (int t = 0; t < s->numTactics; ++t) {
    s->radix[t] = s->total;
    if (s->total > MAX_GRID / s->tactics[t].numValues) {
      fprintf(err, "cake-evolve: the space has more than %ld points\n",
              MAX_GRID);
      return 1;
    }
    s->total *= s->tactics[t].numValues;
  }
  s->ctx = createContext(&s->costDiagnostics);

  s->count = o->sample > 0 && o->sample < s->total ? o->sample : s->total;
  /* The work queue: the grid or a sample of it, then each mutation
   * round's neighbours (one tactic value moved by one) of the best. */
  s->capacity =
      s->count + (long)o->mutateRounds * MUTATE_TOP * 2 * s->numTactics;
  s->queue = calloc((size_t)s->capacity, sizeof *s->queue);
  s->parents = calloc((size_t)s->capacity, 24);
  s->visited = calloc((size_t)s->total / 8 + 1, 1);
  s->hashes = calloc((size_t)s->capacity, sizeof *s->hashes);
  s->hashIds = calloc((size_t)s->capacity, 24);
  s->ranked = calloc((size_t)s->capacity, sizeof *s->ranked);
  if (!s->queue || !s->parents || !s->visited || !s->hashes ||
      !s->hashIds || !s->ranked) {
    fprintf(err, "cake-evolve: out of memory for %ld candidates\n",
            s->capacity);
    return 1;
  }
  /* In order, or sampled without replacement when the sample is a
   * fraction of the grid (a stride coprime with it). */
  long stride = 0, offset = 0;
  if (s->count < s->total) {
    offset = (long)(rngNext() % (uint64_t)s->total);
    do
      stride = 1 + (long)(rngNext() % (uint64_t)s->total);
    while (gcd(stride, s->total) != 1);
  }
  for (long c = 0; c < s->count; ++c) {
    long point = s->count < s->total ? (offset + c * stride) % s->total : c;
    s->visited[point / 8] |= (unsigned char)(1u << (point % 8));
    s->queue[s->qlen] = point;
    snprintf(s->parents[s->qlen++], 24, "seed");
  }
  return 0;
}

/* Stages 1 and 2 for the queue's candidate `c`: its tactics applied to the
 * seed, cake-verify, the duplicate check and the cost model; one ledger
 * line. A candidate already in the ledger (--resume) is skipped. */
static void evaluateCandidate(Search *s, long c) {
  long point = s->queue[c];
  char id[24];
  snprintf(id, sizeof id, "c%05ld", point % 10000000);
  if (s->previous) {
    char key[32];
    snprintf(key, sizeof key, "\"id\":\"%s\"", id);
    if (strstr(s->previous, key)) {
      ++s->numSkipped;
      return; /* already in the ledger: not ranked in this run */
    }
  }
  /* The pipeline: each tactic with its value, then cake-verify. */
  Buffer pipeline = {0}, tacticList = {0};
  cJSON *tacticJson = cJSON_CreateArray();
  long rest = point;
  for (int t = 0; t < s->numTactics; ++t) {
    const Tactic *x = &s->tactics[t];
    long which = rest % x->numValues;
    const char *value = x->values[which];
    rest /= x->numValues;
    if (x->skip[which])
      continue;
    char step[320];
    /* An empty option: each value is a whole option string. */
    if (x->option[0])
      snprintf(step, sizeof step, "%.63s{%.127s%s%.31s=%.31s}", x->pass,
               x->fixed, x->fixed[0] ? " " : "", x->option, value);
    else
      snprintf(step, sizeof step, "%.63s{%.127s%s%.31s}", x->pass,
               x->fixed, x->fixed[0] ? " " : "", value);
    bufferAppend(&pipeline, step, strlen(step));
    bufferAppend(&pipeline, ",", 1);
    cJSON_AddItemToArray(tacticJson, cJSON_CreateString(step));
    if (tacticList.length)
      bufferAppend(&tacticList, " ", 1);
    bufferAppend(&tacticList, step, strlen(step));
  }
  bufferAppend(&pipeline, "cake-verify", strlen("cake-verify"));

  DiagnosticSink sink = {cJSON_CreateArray(), ""};
  Buffer output = {0};
  MlirLogicalResult r = mlirCakeRunPipelineOnSource(
      s->ctx, mlirStringRefCreateFromCString(s->seed),
      mlirStringRefCreateFromCString(s->options->seedPath),
      mlirStringRefCreateFromCString(pipeline.data), onDiagnostic, &sink,
      appendCallback, &output);

  cJSON *line = cJSON_CreateObject();
  cJSON_AddStringToObject(line, "id", id);
  cJSON_AddStringToObject(line, "parent", s->parents[c]);
  cJSON_AddItemToObject(line, "tactics", tacticJson);
  if (mlirLogicalResultIsFailure(r)) {
    ++s->numRejected;
    const char *rule = sink.firstRule[0] ? sink.firstRule : "(no rule id)";
    int k = 0;
    while (k < s->numRules && strcmp(s->rules[k].rule, rule))
      ++k;
    if (k == s->numRules && s->numRules < MAX_RULES) {
      RuleCount *added = &s->rules[s->numRules];
      snprintf(added->rule, sizeof added->rule, "%s", rule);
      added->count = 0;
      ++s->numRules;
    }
    if (k < s->numRules)
      ++s->rules[k].count;
    cJSON_AddStringToObject(line, "stage", "rejected");
    cJSON_AddStringToObject(line, "rule", rule);
    cJSON_AddItemToObject(line, "diagnostics", sink.diagnostics);
  } else {
    cJSON_Delete(sink.diagnostics);
    /* The printed IR names the candidate: equal text, same kernel. */
    uint64_t h = fnv1a(output.data, output.length);
    long dup = -1;
    for (long k = 0; k < s->numHashes; ++k)
      if (s->hashes[k] == h)
        dup = k;
    char hash[24];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)h);
    cJSON_AddStringToObject(line, "hash", hash);
    if (dup >= 0) {
      ++s->numDuplicates;
      cJSON_AddStringToObject(line, "stage", "duplicate");
      cJSON_AddStringToObject(line, "duplicate_of", s->hashIds[dup]);
    } else {
      s->hashes[s->numHashes] = h;
      snprintf(s->hashIds[s->numHashes++], 24, "%s", id);
      Buffer report = {0};
      double ns = 0;
      s->costDiagnostics.length = 0;
      MlirLogicalResult cr = predict(s->ctx, &output, s->options->shapes,
                                     s->options->calibration, &report, &ns);
      if (mlirLogicalResultIsFailure(cr)) {
        ++s->numCostFailed;
        cJSON_AddStringToObject(line, "stage", "verified");
        const char *error = s->costDiagnostics.data;
        cJSON_AddStringToObject(line, "cost_error", error ? error : "");
      } else {
        cJSON_AddStringToObject(line, "stage", "ranked");
        cJSON_AddNumberToObject(line, "predicted_ns", ns);
        cJSON *rep = cJSON_Parse(report.data);
        const cJSON *first = cJSON_GetArrayItem(rep, 0);
        Ranked *x = &s->ranked[s->numRanked++];
        snprintf(x->id, sizeof x->id, "%s", id);
        x->point = point;
        snprintf(x->tactics, sizeof x->tactics, "%.1000s", tacticList.data);
        snprintf(x->pipeline, sizeof x->pipeline, "%.1000s", pipeline.data);
        rankedFromReport(x, first, ns);
        cJSON_AddStringToObject(line, "bottleneck", x->bottleneck);
        cJSON_Delete(rep);
      }
      free(report.data);
    }
  }
  char *text = cJSON_PrintUnformatted(line);
  fprintf(s->ledger, "%s\n", text);
  cJSON_free(text);
  cJSON_Delete(line);
  free(pipeline.data);
  free(tacticList.data);
  free(output.data);
}

void rankedFromReport(Ranked *x, const cJSON *report, double ns) {
  x->predictedNs = ns;
  x->pipeBoundNs = 0;
  x->busyNs = 0;
  const cJSON *resource;
  cJSON_ArrayForEach(resource,
                     cJSON_GetObjectItemCaseSensitive(report, "resources")) {
    const cJSON *busy = cJSON_GetObjectItemCaseSensitive(resource, "ns");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(resource, "name");
    /* The launch is the same for every candidate. */
    if (cJSON_IsNumber(busy) && cJSON_IsString(name) &&
        strcmp(name->valuestring, "launch"))
      x->busyNs += busy->valuedouble;
  }
  const cJSON *pipe;
  cJSON_ArrayForEach(pipe, cJSON_GetObjectItemCaseSensitive(report, "pipes")) {
    const cJSON *bound =
        cJSON_GetObjectItemCaseSensitive(pipe, "bound_per_tile_ns");
    if (cJSON_IsNumber(bound))
      x->pipeBoundNs += bound->valuedouble;
  }
  const cJSON *b = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(report, "bottleneck"), "resource");
  snprintf(x->bottleneck, sizeof x->bottleneck, "%s",
           cJSON_IsString(b) ? b->valuestring : "?");
}

/* A mutation round: the neighbours (one tactic value moved by one) of the
 * best ranked candidates join the queue. */
static void enqueueNeighbours(Search *s) {
  ++s->round;
  qsort(s->ranked, (size_t)s->numRanked, sizeof *s->ranked, byPredicted);
  for (long k = 0; k < s->numRanked && k < MUTATE_TOP; ++k)
    for (int t = 0; t < s->numTactics; ++t)
      for (int dir = -1; dir <= 1; dir += 2) {
        long digit = s->ranked[k].point / s->radix[t] % s->tactics[t].numValues;
        if (digit + dir < 0 || digit + dir >= s->tactics[t].numValues)
          continue;
        long next = s->ranked[k].point + dir * s->radix[t];
        if (s->visited[next / 8] & (1u << (next % 8)) || s->qlen == s->capacity)
          continue;
        s->visited[next / 8] |= (unsigned char)(1u << (next % 8));
        s->queue[s->qlen] = next;
        snprintf(s->parents[s->qlen++], 24, "%s", s->ranked[k].id);
        ++s->mutated;
      }
}

void searchRun(Search *s) {
  int tty = isatty(2);
  for (long c = 0; c < s->qlen; ++c) {
    evaluateCandidate(s, c);
    /* Mutation: when the queue runs dry, the neighbours of the best. */
    if (c + 1 == s->qlen && s->round < s->options->mutateRounds)
      enqueueNeighbours(s);

    /* A live progress line, every 25 candidates and at the end. */
    if (!s->log || ((c + 1) % 25 && c + 1 != s->qlen))
      continue;
    double best = 0;
    for (long k = 0; k < s->numRanked; ++k)
      if (!best || s->ranked[k].predictedNs < best)
        best = s->ranked[k].predictedNs;
    fprintf(s->log,
            "%scake-evolve: %ld/%ld generated, %ld rejected, %ld duplicate, "
            "%ld ranked, best predicted %.1f us%s",
            tty ? "\r" : "", c + 1, s->qlen, s->numRejected, s->numDuplicates,
            s->numRanked, best / 1e3, tty ? "" : "\n");
  }
  if (tty && s->log)
    fprintf(s->log, "\n");
  fclose(s->ledger);
  s->ledger = NULL;
  qsort(s->ranked, (size_t)s->numRanked, sizeof *s->ranked, byPredicted);
}

void searchPrintSummary(const Search *s) {
  printf("cake-evolve: seed %s, %d tactics, grid of %ld, %ld candidates "
         "generated%s\n",
         s->options->seedPath, s->numTactics, s->total, s->qlen,
         s->count < s->total ? " (sampled)" : "");
  if (s->options->mutateRounds)
    printf("  mutation: %d rounds, %ld neighbours of the best %d\n", s->round,
           s->mutated, MUTATE_TOP);
  if (s->numSkipped)
    printf("  resumed: %ld already in the ledger\n", s->numSkipped);
  printf("  rejected by cake-verify: %ld\n", s->numRejected);
  for (int k = 0; k < s->numRules; ++k)
    printf("    %-32s %d\n", s->rules[k].rule, s->rules[k].count);
  printf("  duplicates: %ld\n", s->numDuplicates);
  if (s->numCostFailed)
    printf("  verified but not ranked (cost model errors): %ld\n",
           s->numCostFailed);
  printf("  ranked by the cost model: %ld\n", s->numRanked);
}

void searchPrintTop(const Search *s) {
  for (long k = 0; k < s->numRanked && k < s->options->top; ++k) {
    const Ranked *r = &s->ranked[k];
    char regs[64] = "";
    if (r->checked)
      snprintf(regs, sizeof regs, ", %d registers, %d + %d bytes spilled",
               r->registers, r->spillStores, r->spillLoads);
    const char *tie = k > 0 ? tieBrokenBy(&s->ranked[k - 1], r) : NULL;
    char tieText[96] = "";
    if (tie)
      snprintf(tieText, sizeof tieText, "; tied with #%ld, after it by %s", k,
               tie);
    printf("  #%ld %s %.1f us (%s%s%s): %s\n", k + 1, r->id,
           r->predictedNs / 1e3, r->bottleneck, regs, tieText, r->tactics);
  }
  printf("  ledger: %s\n", s->options->ledgerPath);
}

void searchClose(Search *s) {
  if (s->ledger)
    fclose(s->ledger);
  free(s->queue);
  free(s->parents);
  free(s->visited);
  free(s->hashes);
  free(s->hashIds);
  free(s->ranked);
  free(s->seed);
  free(s->previous);
  free(s->costDiagnostics.data);
  if (!mlirContextIsNull(s->ctx))
    mlirContextDestroy(s->ctx);
}
