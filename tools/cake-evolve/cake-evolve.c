/*===- cake-evolve.c - Generate, filter and rank kernel candidates --------===*\
|*                                                                            *|
|* The search loop's stages 1, 2 and 4 on the C API (docs/agents.md):         *|
|*   1. generate: tactic sequences from a search space (JSON) applied to a    *|
|*      seed kernel, over the whole grid or a seeded random sample;           *|
|*      duplicates (same printed IR) are recorded and skipped;                *|
|*   2. filter: cake-verify (rejections counted per rule id), then the cost   *|
|*      model ranks the legal candidates;                                     *|
|*   4. route: a ledger of JSON lines (one per candidate) and a summary.      *|
|* Stage 3 (timing on the GPU) is not built yet: --no-gpu is required.        *|
|*                                                                            *|
|* cake-evolve --seed K.cake.mlir --space S.json --shapes 8192x8192,...       *|
|*             --ledger L.jsonl --no-gpu [--top K] [--sample N]               *|
|*             [--rng-seed S] [--resume]                                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L /* isatty */

#include "cake-c/Cost.h"
#include "cake-c/Dialect.h"
#include "cake-c/Pipeline.h"
#include "mlir-c/IR.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_TACTICS 16
#define MAX_RULES 64

/* A growable string. */
typedef struct {
  char *data;
  size_t length, capacity;
} Buffer;

static void bufferAppend(Buffer *b, const char *s, size_t n) {
  if (b->length + n + 1 > b->capacity) {
    size_t cap = b->capacity ? b->capacity : 4096;
    while (cap < b->length + n + 1)
      cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
      fprintf(stderr, "cake-evolve: out of memory\n");
      exit(1);
    }
    b->data = p;
    b->capacity = cap;
  }
  memcpy(b->data + b->length, s, n);
  b->length += n;
  b->data[b->length] = 0;
}

static void appendCallback(MlirStringRef s, void *userData) {
  bufferAppend((Buffer *)userData, s.data, s.length);
}

/* One axis of the search space: a tactic pass, its fixed options, the
 * option it varies and the values it takes. */
typedef struct {
  char pass[64];
  char fixed[128];
  char option[32];
  char values[32][32];
  int numValues;
} Tactic;

/* Rejections per rule id. */
typedef struct {
  char rule[64];
  int count;
} RuleCount;

typedef struct {
  cJSON *diagnostics; /* array */
  char firstRule[64];
} DiagnosticSink;

static void onDiagnostic(const MlirCakeDiagnostic *d, void *userData) {
  DiagnosticSink *sink = userData;
  if (d->severity != MlirDiagnosticError)
    return;
  cJSON *o = cJSON_CreateObject();
  char buf[1024];
  snprintf(buf, sizeof buf, "%.*s", (int)d->rule.length, d->rule.data);
  cJSON_AddStringToObject(o, "rule", buf);
  if (!sink->firstRule[0] && d->rule.length)
    snprintf(sink->firstRule, sizeof sink->firstRule, "%.63s", buf);
  snprintf(buf, sizeof buf, "%.*s", (int)d->location.length, d->location.data);
  cJSON_AddStringToObject(o, "location", buf);
  snprintf(buf, sizeof buf, "%.*s", (int)d->message.length, d->message.data);
  cJSON_AddStringToObject(o, "message", buf);
  snprintf(buf, sizeof buf, "%.*s", (int)d->hint.length, d->hint.data);
  if (buf[0])
    cJSON_AddStringToObject(o, "hint", buf);
  cJSON_AddItemToArray(sink->diagnostics, o);
}

/* Diagnostics of the cost model, which reports through the context. */
static MlirLogicalResult onContextDiagnostic(MlirDiagnostic d, void *userData) {
  Buffer *b = userData;
  mlirDiagnosticPrint(d, appendCallback, b);
  bufferAppend(b, "\n", 1);
  return mlirLogicalResultSuccess();
}

static uint64_t fnv1a(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ull;
  }
  return h;
}

static char *readFile(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  Buffer b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    bufferAppend(&b, chunk, n);
  fclose(f);
  if (!b.data)
    bufferAppend(&b, "", 0);
  return b.data;
}

static void usage(void) {
  fprintf(stderr,
          "usage: cake-evolve --seed K.cake.mlir --space S.json --shapes "
          "SHAPES --ledger L.jsonl --no-gpu\n"
          "                   [--top K] [--sample N] [--rng-seed S] "
          "[--resume]\n");
}

/* Reads the space: {"tactics": [{"pass", "fixed"?, "option", "values"}]}. */
static int readSpace(const char *path, Tactic *tactics, int *numTactics) {
  char *text = readFile(path);
  if (!text) {
    fprintf(stderr, "cake-evolve: cannot read space '%s'\n", path);
    return 0;
  }
  cJSON *doc = cJSON_Parse(text);
  free(text);
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(doc, "tactics");
  if (!doc || !cJSON_IsArray(list)) {
    fprintf(stderr, "cake-evolve: %s: expected {\"tactics\": [...]}\n", path);
    cJSON_Delete(doc);
    return 0;
  }
  int n = 0;
  const cJSON *t;
  cJSON_ArrayForEach(t, list) {
    if (n == MAX_TACTICS) {
      fprintf(stderr, "cake-evolve: %s: more than %d tactics\n", path,
              MAX_TACTICS);
      cJSON_Delete(doc);
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
      fprintf(stderr,
              "cake-evolve: %s: tactic #%d needs \"pass\", \"option\" and a "
              "non-empty \"values\" (and \"fixed\" a string)\n",
              path, n);
      cJSON_Delete(doc);
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
      else
        continue;
      ++x->numValues;
    }
    ++n;
  }
  cJSON_Delete(doc);
  *numTactics = n;
  return n > 0;
}

static long gcd(long a, long b) {
  while (b) {
    long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static uint64_t rngState = 88172645463325252ull;
static uint64_t rngNext(void) { /* xorshift64 */
  rngState ^= rngState << 13;
  rngState ^= rngState >> 7;
  rngState ^= rngState << 17;
  return rngState;
}

/* A ranked candidate for the summary. */
typedef struct {
  char id[24];
  char tactics[1024];
  double predictedNs;
  char bottleneck[32];
} Ranked;

static int byPredicted(const void *a, const void *b) {
  double x = ((const Ranked *)a)->predictedNs,
         y = ((const Ranked *)b)->predictedNs;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const char *seedPath = NULL, *spacePath = NULL, *shapes = "",
             *ledgerPath = NULL;
  int noGpu = 0, top = 10, resume = 0;
  long sample = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--no-gpu"))
      noGpu = 1;
    else if (!strcmp(a, "--resume"))
      resume = 1;
    else if (next && !strcmp(a, "--seed"))
      seedPath = argv[++i];
    else if (next && !strcmp(a, "--space"))
      spacePath = argv[++i];
    else if (next && !strcmp(a, "--shapes"))
      shapes = argv[++i];
    else if (next && !strcmp(a, "--ledger"))
      ledgerPath = argv[++i];
    else if (next && !strcmp(a, "--top"))
      top = atoi(argv[++i]);
    else if (next && !strcmp(a, "--sample"))
      sample = atol(argv[++i]);
    else if (next && !strcmp(a, "--rng-seed"))
      rngState = strtoull(argv[++i], NULL, 10) | 1;
    else {
      usage();
      return 2;
    }
  }
  if (!seedPath || !spacePath || !ledgerPath) {
    usage();
    return 2;
  }
  if (!noGpu) {
    fprintf(stderr, "cake-evolve: stage 3 (timing candidates on the GPU) is "
                    "not built yet; pass --no-gpu to run generation, "
                    "verification and ranking\n");
    return 2;
  }
  char *seed = readFile(seedPath);
  if (!seed) {
    fprintf(stderr, "cake-evolve: cannot read seed '%s'\n", seedPath);
    return 1;
  }
  Tactic tactics[MAX_TACTICS];
  int numTactics = 0;
  if (!readSpace(spacePath, tactics, &numTactics))
    return 1;
  long total = 1;
  for (int t = 0; t < numTactics; ++t)
    total *= tactics[t].numValues;

  /* Candidates already in the ledger (resume). */
  char *previous = resume ? readFile(ledgerPath) : NULL;
  FILE *ledger = fopen(ledgerPath, resume ? "a" : "w");
  if (!ledger) {
    fprintf(stderr, "cake-evolve: cannot write ledger '%s'\n", ledgerPath);
    return 1;
  }

  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirCakeRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  Buffer costDiagnostics = {0};
  mlirContextAttachDiagnosticHandler(ctx, onContextDiagnostic,
                                     &costDiagnostics, NULL);

  long count = sample > 0 && sample < total ? sample : total;
  uint64_t *hashes = calloc((size_t)count, sizeof *hashes);
  char(*hashIds)[24] = calloc((size_t)count, 24);
  Ranked *ranked = calloc((size_t)count, sizeof *ranked);
  RuleCount rules[MAX_RULES];
  int numRules = 0;
  long numHashes = 0, numRanked = 0, numRejected = 0, numDuplicates = 0,
       numSkipped = 0, numCostFailed = 0;

  int tty = isatty(2);
  for (long c = 0; c < count; ++c) {
    /* Which grid point: in order, or sampled without replacement when the
     * sample is a fraction of the grid (a stride coprime with it). */
    long point = c;
    if (count < total) {
      static long stride = 0, offset = 0;
      if (!stride) {
        offset = (long)(rngNext() % (uint64_t)total);
        do
          stride = 1 + (long)(rngNext() % (uint64_t)total);
        while (gcd(stride, total) != 1);
      }
      point = (offset + c * stride) % total;
    }
    char id[24];
    snprintf(id, sizeof id, "c%05ld", point % 10000000);
    if (previous) {
      char key[32];
      snprintf(key, sizeof key, "\"id\":\"%s\"", id);
      if (strstr(previous, key)) {
        ++numSkipped;
        continue;
      }
    }
    /* The pipeline: each tactic with its value, then cake-verify. */
    Buffer pipeline = {0}, tacticList = {0};
    cJSON *tacticJson = cJSON_CreateArray();
    long rest = point;
    for (int t = 0; t < numTactics; ++t) {
      const Tactic *x = &tactics[t];
      const char *value = x->values[rest % x->numValues];
      rest /= x->numValues;
      char step[320];
      snprintf(step, sizeof step, "%.63s{%.127s%s%.31s=%.31s}", x->pass, x->fixed,
               x->fixed[0] ? " " : "", x->option, value);
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
        ctx, mlirStringRefCreateFromCString(seed),
        mlirStringRefCreateFromCString(seedPath),
        mlirStringRefCreateFromCString(pipeline.data), onDiagnostic, &sink,
        appendCallback, &output);

    cJSON *line = cJSON_CreateObject();
    cJSON_AddStringToObject(line, "id", id);
    cJSON_AddStringToObject(line, "parent", "seed");
    cJSON_AddItemToObject(line, "tactics", tacticJson);
    if (mlirLogicalResultIsFailure(r)) {
      ++numRejected;
      const char *rule = sink.firstRule[0] ? sink.firstRule : "(no rule id)";
      int k = 0;
      while (k < numRules && strcmp(rules[k].rule, rule))
        ++k;
      if (k == numRules && numRules < MAX_RULES) {
        snprintf(rules[numRules].rule, sizeof rules[numRules].rule, "%s",
                 rule);
        rules[numRules++].count = 0;
      }
      if (k < numRules)
        ++rules[k].count;
      cJSON_AddStringToObject(line, "stage", "rejected");
      cJSON_AddStringToObject(line, "rule", rule);
      cJSON_AddItemToObject(line, "diagnostics", sink.diagnostics);
    } else {
      cJSON_Delete(sink.diagnostics);
      /* The printed IR names the candidate: equal text, same kernel. */
      uint64_t h = fnv1a(output.data, output.length);
      long dup = -1;
      for (long k = 0; k < numHashes; ++k)
        if (hashes[k] == h)
          dup = k;
      char hash[24];
      snprintf(hash, sizeof hash, "%016llx", (unsigned long long)h);
      cJSON_AddStringToObject(line, "hash", hash);
      if (dup >= 0) {
        ++numDuplicates;
        cJSON_AddStringToObject(line, "stage", "duplicate");
        cJSON_AddStringToObject(line, "duplicate_of", hashIds[dup]);
      } else {
        hashes[numHashes] = h;
        snprintf(hashIds[numHashes++], 24, "%s", id);
        MlirModule module = mlirModuleCreateParse(
            ctx, mlirStringRefCreate(output.data, output.length));
        Buffer report = {0};
        double ns = 0;
        costDiagnostics.length = 0;
        MlirLogicalResult cr =
            mlirModuleIsNull(module)
                ? mlirLogicalResultFailure()
                : mlirCakeEstimateCost(mlirModuleGetOperation(module),
                                       mlirStringRefCreateFromCString(shapes),
                                       mlirStringRefCreateFromCString(""), 1,
                                       appendCallback, &report, &ns);
        if (mlirLogicalResultIsFailure(cr)) {
          ++numCostFailed;
          cJSON_AddStringToObject(line, "stage", "verified");
          cJSON_AddStringToObject(line, "cost_error",
                                  costDiagnostics.data ? costDiagnostics.data
                                                       : "");
        } else {
          cJSON_AddStringToObject(line, "stage", "ranked");
          cJSON_AddNumberToObject(line, "predicted_ns", ns);
          cJSON *rep = cJSON_Parse(report.data);
          const cJSON *first = cJSON_GetArrayItem(rep, 0);
          const cJSON *b = cJSON_GetObjectItemCaseSensitive(
              cJSON_GetObjectItemCaseSensitive(first, "bottleneck"),
              "resource");
          Ranked *x = &ranked[numRanked++];
          snprintf(x->id, sizeof x->id, "%s", id);
          snprintf(x->tactics, sizeof x->tactics, "%.1000s", tacticList.data);
          x->predictedNs = ns;
          snprintf(x->bottleneck, sizeof x->bottleneck, "%s",
                   cJSON_IsString(b) ? b->valuestring : "?");
          cJSON_AddStringToObject(line, "bottleneck", x->bottleneck);
          cJSON_Delete(rep);
        }
        free(report.data);
        if (!mlirModuleIsNull(module))
          mlirModuleDestroy(module);
      }
    }
    char *text = cJSON_PrintUnformatted(line);
    fprintf(ledger, "%s\n", text);
    cJSON_free(text);
    cJSON_Delete(line);
    free(pipeline.data);
    free(tacticList.data);
    free(output.data);

    /* A live progress line, every 25 candidates and at the end. */
    if ((c + 1) % 25 && c + 1 != count)
      continue;
    double best = 0;
    for (long k = 0; k < numRanked; ++k)
      if (!best || ranked[k].predictedNs < best)
        best = ranked[k].predictedNs;
    fprintf(stderr,
            "%scake-evolve: %ld/%ld generated, %ld rejected, %ld duplicate, "
            "%ld ranked, best predicted %.1f us%s",
            tty ? "\r" : "", c + 1, count, numRejected, numDuplicates,
            numRanked, best / 1e3, tty ? "" : "\n");
  }
  if (tty)
    fprintf(stderr, "\n");
  fclose(ledger);

  /* Summary. */
  printf("cake-evolve: seed %s, %d tactics, grid of %ld, %ld candidates "
         "generated%s\n",
         seedPath, numTactics, total, count,
         count < total ? " (sampled)" : "");
  if (numSkipped)
    printf("  resumed: %ld already in the ledger\n", numSkipped);
  printf("  rejected by cake-verify: %ld\n", numRejected);
  for (int k = 0; k < numRules; ++k)
    printf("    %-32s %d\n", rules[k].rule, rules[k].count);
  printf("  duplicates: %ld\n", numDuplicates);
  if (numCostFailed)
    printf("  verified but not ranked (cost model errors): %ld\n",
           numCostFailed);
  printf("  ranked by the cost model: %ld\n", numRanked);
  qsort(ranked, (size_t)numRanked, sizeof *ranked, byPredicted);
  for (long k = 0; k < numRanked && k < top; ++k)
    printf("  #%ld %s %.1f us (%s): %s\n", k + 1, ranked[k].id,
           ranked[k].predictedNs / 1e3, ranked[k].bottleneck,
           ranked[k].tactics);
  printf("  ledger: %s\n", ledgerPath);

  free(hashes);
  free(hashIds);
  free(ranked);
  free(seed);
  free(previous);
  free(costDiagnostics.data);
  mlirContextDestroy(ctx);
  return 0;
}
