// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Space.c - The search space, sampling and ranking order -------------===*\
|*                                                                            *|
|* The tactics a search varies (read from the space's JSON), the sampler's    *|
|* generator, and the order of ranked candidates.                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Evolve.h"

#include <stdlib.h>
#include <string.h>

int readSpace(const char *path, Tactic *tactics, int *numTactics) {
  char *text = readFile(path);
  if (!text) {
    fprintf(stderr, "cake-evolve: cannot read space '%s'\n", path);
    return 0;
  }
  cJSON *doc = cJSON_Parse(text);
  free(text);
  int ok = parseSpace(doc, path, tactics, numTactics, stderr);
  cJSON_Delete(doc);
  return ok;
}

int parseSpace(const cJSON *doc, const char *name, Tactic *tactics,
               int *numTactics, FILE *err) {
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "tactics");
  if (!doc || !cJSON_IsArray(list)) {
    fprintf(err, "cake-evolve: %s: expected {\"tactics\": [...]}\n", name);
    return 0;
  }
  int n = 0;
  const cJSON *t;
  cJSON_ArrayForEach(t, list) {
    if (n == MAX_TACTICS) {
      fprintf(err, "cake-evolve: %s: more than %d tactics\n", name,
              MAX_TACTICS);
      return 0;
    }
    Tactic *x = &tactics[n];
    memset(x, 0, sizeof *x);
    const cJSON *pass = cJSON_GetObjectItemCaseSensitive(t, "pass");
    const cJSON *fixed = cJSON_GetObjectItemCaseSensitive(t, "fixed");
    const cJSON *option = cJSON_GetObjectItemCaseSensitive(t, "option");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(t, "values");
    if (!cJSON_IsString(pass) || !cJSON_IsString(option) ||
        !cJSON_IsArray(values) || cJSON_GetArraySize(values) == 0 ||
        (fixed && !cJSON_IsString(fixed))) {
      fprintf(err,
              "cake-evolve: %s: tactic #%d needs \"pass\", \"option\" and a "
              "non-empty \"values\" (and \"fixed\" a string)\n",
              name, n);
      return 0;
    }
    snprintf(x->pass, sizeof x->pass, "%s", pass->valuestring);
    snprintf(x->option, sizeof x->option, "%s", option->valuestring);
    if (fixed)
      snprintf(x->fixed, sizeof x->fixed, "%s", fixed->valuestring);
    const cJSON *v;
    cJSON_ArrayForEach(v, values) {
      if (x->numValues == 32)
        break;
      if (cJSON_IsNumber(v))
        snprintf(x->values[x->numValues], 32, "%d", v->valueint);
      else if (cJSON_IsString(v))
        snprintf(x->values[x->numValues], 32, "%s", v->valuestring);
      else if (cJSON_IsNull(v))
        x->skip[x->numValues] = 1;
      else
        continue;
      ++x->numValues;
    }
    ++n;
  }
  *numTactics = n;
  return n > 0;
}

long gcd(long a, long b) {
  while (b) {
    long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static uint64_t rngState = 88172645463325252ull;

void rngSeed(uint64_t state) { rngState = state; }

uint64_t rngNext(void) { /* xorshift64 */
  rngState ^= rngState << 13;
  rngState ^= rngState >> 7;
  rngState ^= rngState << 17;
  return rngState;
}

/* The tactics of a candidate that may change what a thread keeps in
 * registers: all but those that only move stages, the schedule or the
 * layout of shared memory. Candidates with the same signature compile to
 * about the same register pressure (on the k-means grid every such
 * neighbour of a spilling candidate spilled 444-484 bytes). */
void registerSignature(const char *tactics, char *out, size_t size) {
  static const char *neutral[] = {"cake-set-stages", "cake-set-schedule",
                                  "cake-set-raster", "cake-set-swizzle"};
  size_t n = 0;
  out[0] = 0;
  const char *p = tactics;
  while (*p) {
    while (*p == ' ')
      ++p;
    const char *start = p;
    int depth = 0;
    while (*p && (depth > 0 || *p != ' ')) {
      depth += (*p == '{') - (*p == '}');
      ++p;
    }
    size_t len = (size_t)(p - start), name = strcspn(start, "{ ");
    int skip = len == 0;
    for (size_t k = 0; !skip && k < sizeof neutral / sizeof *neutral; ++k)
      skip = name == strlen(neutral[k]) && !strncmp(start, neutral[k], name);
    if (!skip && n + len + 2 < size) {
      memcpy(out + n, start, len);
      n += len;
      out[n++] = ' ';
      out[n] = 0;
    }
  }
}

/* By predicted time; among equal predictions, the one whose pipes cycle
 * fastest (their stage cycles per tile summed): where the consumer's path
 * bounds the tile, the model gives deeper rings no credit (a stage count
 * below the path's length does not change its prediction), and the GPU
 * still runs a ring that can fill ahead faster. Then the one that keeps
 * the SM's units busy for less in all (the resources' busy times summed:
 * the same time with more slack). Only candidates equal in all three fall
 * back to the grid's order (their ids), so that a ranking never depends on
 * the order candidates were evaluated in. */
int byPredicted(const void *a, const void *b) {
  const Ranked *x = a, *y = b;
  if (x->predictedNs != y->predictedNs)
    return (x->predictedNs > y->predictedNs) -
           (x->predictedNs < y->predictedNs);
  if (x->pipeBoundNs != y->pipeBoundNs)
    return (x->pipeBoundNs > y->pipeBoundNs) -
           (x->pipeBoundNs < y->pipeBoundNs);
  if (x->busyNs != y->busyNs)
    return (x->busyNs > y->busyNs) - (x->busyNs < y->busyNs);
  return strcmp(x->id, y->id);
}

const char *tieBrokenBy(const Ranked *x, const Ranked *y) {
  if (x->predictedNs != y->predictedNs)
    return NULL;
  if (x->pipeBoundNs != y->pipeBoundNs)
    return "the pipes' stage cycles";
  if (x->busyNs != y->busyNs)
    return "the units' busy time";
  return "the grid's order (equal in every term)";
}
