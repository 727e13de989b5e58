/*===- cake-evolve.c - Generate, filter and rank kernel candidates --------===*\
|*                                                                            *|
|* The search loop's stages 1, 2 and 4 on the C API (docs/agents.md):         *|
|*   1. generate: tactic sequences from a search space (JSON) applied to a    *|
|*      seed kernel, over the whole grid or a seeded random sample;           *|
|*      duplicates (same printed IR) are recorded and skipped;                *|
|*   2. filter: cake-verify (rejections counted per rule id), then the cost   *|
|*      model ranks the legal candidates; ptxas compiles the top ones         *|
|*      (--ptxas-check K) and those whose registers spill move down;          *|
|*   4. route: a ledger of JSON lines (one per candidate) and a summary.      *|
|*   3. benchmark: --export DIR lowers the top candidates and the seed to     *|
|*      bundles with a manifest; a measurement command (bench/cost/           *|
|*      measure.py --manifest by default) screens each in a child cake-run    *|
|*      with a timeout, times the rest beside the peer and writes results;    *|
|*      importing them adds the measurements to the ledger and reports the    *|
|*      cost model's rank quality, the failures (proposed rules) and large    *|
|*      mispredictions (proposed calibrations).                               *|
|* On one GPU machine that is one command: without --no-gpu, cake-evolve      *|
|* exports, runs the measurement command in a child process group with a      *|
|* time limit, and imports. On a GPU host without MLIR (or a Slurm array),    *|
|* run the three steps apart: --export here, measure.py there, --import.      *|
|*                                                                            *|
|* cake-evolve --seed K.cake.mlir --space S.json --shapes 8192x8192,...       *|
|*             --ledger L.jsonl [--no-gpu] [--top K] [--sample N]             *|
|*             [--rng-seed S] [--resume] [--mutate ROUNDS]                    *|
|*             [--export DIR] [--export-top K] [--check gemm|none]            *|
|*             [--measure CMD] [--measure-timeout SECONDS] [--ptxas-check K]  *|
|* cake-evolve --import RESULTS.json --ledger L.jsonl                         *|
|* cake-evolve --agent-dir DIR [--shapes S]  (an agent's drop folder: every   *|
|*             NAME.cake.mlir without a newer NAME.feedback.json gets one)    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L /* isatty, fork, setpgid, nanosleep */

#include "cake-c/Cost.h"
#include "cake-c/Dialect.h"
#include "cake-c/Pipeline.h"
#include "mlir-c/IR.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TACTICS 16
#define MAX_RULES 64
#define MUTATE_TOP 8 /* candidates whose neighbours each round tries */
#define MAX_GRID 100000000L
/* Spill stores (bytes per thread) past which a candidate ranks below the
 * ones that do not spill: on the H200 a 4-byte spill cost nothing
 * measurable (the three-warpgroup k-means kernel, the fastest of k-means
 * run 13), 364 bytes made the four-warpgroup one 2x slower. */
#define SPILL_DEMOTE_BYTES 64

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
 * option it varies and the values it takes. A null value leaves the
 * tactic out of the candidate's sequence. */
typedef struct {
  char pass[64];
  char fixed[128];
  char option[32];
  char values[32][32];
  unsigned char skip[32]; /* values[i] is null: the step is left out */
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

/* A context with Cake's dialects whose own diagnostics (the cost model's)
 * collect in `diagnostics`. */
static MlirContext createContext(Buffer *diagnostics) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirCakeRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, onContextDiagnostic, diagnostics,
                                     NULL);
  return ctx;
}

/* Predicts the verified module printed in `ir` for `shapes`: the JSON
 * report into `report` and the time into `*ns`. */
static MlirLogicalResult predict(MlirContext ctx, const Buffer *ir,
                                 const char *shapes, Buffer *report,
                                 double *ns) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreate(ir->data, ir->length));
  if (mlirModuleIsNull(module))
    return mlirLogicalResultFailure();
  MlirLogicalResult r = mlirCakeEstimateCost(
      mlirModuleGetOperation(module), mlirStringRefCreateFromCString(shapes),
      mlirStringRefCreateFromCString(""), 1, appendCallback, report, ns);
  mlirModuleDestroy(module);
  return r;
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
          "SHAPES --ledger L.jsonl [--no-gpu]\n"
          "                   [--top K] [--sample N] [--rng-seed S] "
          "[--resume] [--mutate ROUNDS] [--ptxas-check K]\n"
          "                   [--export DIR] [--export-top K] [--check "
          "gemm|none]\n"
          "                   [--measure CMD] [--measure-timeout SECONDS]\n"
          "       cake-evolve --import RESULTS.json --ledger L.jsonl\n"
          "       cake-evolve --agent-dir DIR [--shapes SHAPES]\n");
}

static void writeCallback(MlirStringRef s, void *userData) {
  fwrite(s.data, 1, s.length, (FILE *)userData);
}

/* Kendall tau-b between two series. */
static double kendall(const double *a, const double *b, int n) {
  long conc = 0, disc = 0, ta = 0, tb = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double da = a[i] - a[j], db = b[i] - b[j];
      if (da == 0 && db == 0)
        continue;
      if (da == 0)
        ++ta;
      else if (db == 0)
        ++tb;
      else if ((da > 0) == (db > 0))
        ++conc;
      else
        ++disc;
    }
  double den = (double)(conc + disc + ta) * (double)(conc + disc + tb);
  return den > 0 ? (double)(conc - disc) / sqrt(den) : 0;
}


/* Applies `pipeline` and then `lower` (a cake-lower pass with its options)
 * to the seed and parses the result; a null module if either fails, the
 * diagnostics in `sink`. */
static MlirModule lowerCandidate(MlirContext ctx, const char *seed,
                                 const char *seedPath, const char *pipeline,
                                 const char *lower, DiagnosticSink *sink) {
  Buffer full = {0}, lowered = {0};
  bufferAppend(&full, pipeline, strlen(pipeline));
  bufferAppend(&full, ",", 1);
  bufferAppend(&full, lower, strlen(lower));
  MlirLogicalResult r = mlirCakeRunPipelineOnSource(
      ctx, mlirStringRefCreateFromCString(seed),
      mlirStringRefCreateFromCString(seedPath),
      mlirStringRefCreateFromCString(full.data), onDiagnostic, sink,
      appendCallback, &lowered);
  MlirModule module =
      mlirLogicalResultIsSuccess(r)
          ? mlirModuleCreateParse(
                ctx, mlirStringRefCreate(lowered.data, lowered.length))
          : (MlirModule){NULL};
  free(full.data);
  free(lowered.data);
  return module;
}

/* Lowers the seed through `pipeline` and cake-lower and writes the bundle
 * DIR/NAME.json; says why on stderr and returns 0 if it cannot. */
static int exportBundle(MlirContext ctx, const char *seed,
                        const char *seedPath, const char *pipeline,
                        const char *dir, const char *name) {
  DiagnosticSink sink = {cJSON_CreateArray(), ""};
  MlirModule module =
      lowerCandidate(ctx, seed, seedPath, pipeline, "cake-lower", &sink);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.json", dir, name);
  FILE *bf = mlirModuleIsNull(module) ? NULL : fopen(path, "w");
  MlirLogicalResult w =
      bf ? mlirCakeWriteBundleJson(mlirModuleGetOperation(module),
                                   writeCallback, bf)
         : mlirLogicalResultFailure();
  if (bf)
    fclose(bf);
  if (mlirLogicalResultIsFailure(w)) {
    char *d = cJSON_PrintUnformatted(sink.diagnostics);
    fprintf(stderr, "cake-evolve: %s did not lower: %s\n", name, d);
    cJSON_free(d);
  }
  cJSON_Delete(sink.diagnostics);
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  return mlirLogicalResultIsSuccess(w);
}

/* What ptxas made of one candidate: registers per thread and spill bytes
 * (stores and loads) of its kernel, or why it could not say. */
typedef struct {
  int ok;
  int registers, spillStores, spillLoads;
  char error[256];
} PtxasInfo;

/* The ptxas the lowering uses: $CUDA_HOME/bin/ptxas, else /usr/local/cuda. */
static void ptxasPath(char *out, size_t size) {
  const char *home = getenv("CUDA_HOME");
  snprintf(out, size, "%s/bin/ptxas", home && *home ? home : "/usr/local/cuda");
}

/* Lowers the seed through `pipeline` and cake-lower{format=ptx}, then runs
 * ptxas -v on the PTX for its register and spill counts. The cost model
 * does not see spills (it has no register allocator), and cake-verify's
 * fragment-register estimate does not see what else ptxas keeps live. */
static void ptxasCheck(MlirContext ctx, const char *seed, const char *seedPath,
                       const char *pipeline, PtxasInfo *info) {
  memset(info, 0, sizeof *info);
  Buffer ptx = {0};
  DiagnosticSink sink = {cJSON_CreateArray(), ""};
  MlirModule module = lowerCandidate(ctx, seed, seedPath, pipeline,
                                     "cake-lower{format=ptx}", &sink);
  if (mlirModuleIsNull(module) ||
      mlirLogicalResultIsFailure(mlirCakeWritePtx(
          mlirModuleGetOperation(module), appendCallback, &ptx))) {
    const cJSON *first = cJSON_GetArrayItem(sink.diagnostics, 0);
    const cJSON *message = cJSON_GetObjectItemCaseSensitive(first, "message");
    snprintf(info->error, sizeof info->error, "did not lower to PTX%s%.200s",
             cJSON_IsString(message) ? ": " : "",
             cJSON_IsString(message) ? message->valuestring : "");
    goto done;
  }
  /* The target is the PTX's own (.target sm_90a). */
  char arch[32] = "";
  const char *t = ptx.data ? strstr(ptx.data, ".target ") : NULL;
  if (!t || sscanf(t, ".target %31[a-z0-9_]", arch) != 1) {
    snprintf(info->error, sizeof info->error, "no .target in the PTX");
    goto done;
  }
  char path[] = "/tmp/cake-evolve-XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f || fwrite(ptx.data, 1, ptx.length, f) != ptx.length) {
    snprintf(info->error, sizeof info->error, "cannot write a temporary file");
    if (f)
      fclose(f);
    else if (fd >= 0)
      close(fd);
    unlink(path);
    goto done;
  }
  fclose(f);
  char ptxas[4096], command[8400];
  ptxasPath(ptxas, sizeof ptxas);
  snprintf(command, sizeof command, "'%s' -arch=%s -v '%s' -o /dev/null 2>&1",
           ptxas, arch, path);
  FILE *p = access(ptxas, X_OK) == 0 ? popen(command, "r") : NULL;
  if (!p) {
    snprintf(info->error, sizeof info->error, "cannot run %.200s", ptxas);
    unlink(path);
    goto done;
  }
  char line[1024];
  int sawRegisters = 0;
  /* One "Used" and one spill line per function: the worst of them. */
  while (fgets(line, sizeof line, p)) {
    const char *u = strstr(line, "Used ");
    int registers = 0, stores = 0, loads = 0;
    if (u && sscanf(u, "Used %d registers", &registers) == 1) {
      sawRegisters = 1;
      if (registers > info->registers)
        info->registers = registers;
    }
    /* "N bytes stack frame, S bytes spill stores, L bytes spill loads" */
    const char *c = strstr(line, "bytes spill stores") ? strchr(line, ',')
                                                      : NULL;
    if (c && sscanf(c, ", %d bytes spill stores, %d bytes spill loads",
                    &stores, &loads) == 2) {
      if (stores > info->spillStores)
        info->spillStores = stores;
      if (loads > info->spillLoads)
        info->spillLoads = loads;
    }
  }
  int status = pclose(p);
  unlink(path);
  if (status != 0 || !sawRegisters)
    snprintf(info->error, sizeof info->error, "ptxas failed (status %d)",
             status);
  else
    info->ok = 1;
done:
  if (!info->ok && !info->error[0])
    snprintf(info->error, sizeof info->error, "unknown failure");
  cJSON_Delete(sink.diagnostics);
  if (!mlirModuleIsNull(module))
    mlirModuleDestroy(module);
  free(ptx.data);
}

/* Stage 4 for measurements made elsewhere: bench/cost/measure.py's
 * results ({"rows": [{candidate, ms, ok}], "findings": [{candidate,
 * result}]}) joined with the ledger's predictions. */
static int importResults(const char *resultsPath, const char *ledgerPath) {
  char *text = readFile(resultsPath);
  char *ledgerText = readFile(ledgerPath);
  if (!text || !ledgerText) {
    fprintf(stderr, "cake-evolve: cannot read '%s'\n",
            text ? ledgerPath : resultsPath);
    return 1;
  }
  cJSON *doc = cJSON_Parse(text);
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "rows");
  const cJSON *findings = cJSON_GetObjectItemCaseSensitive(doc, "findings");
  if (!cJSON_IsArray(rows)) {
    fprintf(stderr, "cake-evolve: %s: expected {\"rows\": [...]} from "
                    "bench/cost/measure.py\n", resultsPath);
    return 1;
  }
  FILE *ledger = fopen(ledgerPath, "a");
  if (!ledger) {
    fprintf(stderr, "cake-evolve: cannot append to '%s'\n", ledgerPath);
    return 1;
  }
  int n = cJSON_GetArraySize(rows);
  double *pred = calloc((size_t)n + 1, sizeof *pred);
  double *meas = calloc((size_t)n + 1, sizeof *meas);
  char(*ids)[24] = calloc((size_t)n + 1, 24);
  int m = 0, wrong = 0;
  double seedNs = 0;
  const cJSON *r;
  printf("cake-evolve: importing %s\n", resultsPath);
  cJSON_ArrayForEach(r, rows) {
    const cJSON *cand = cJSON_GetObjectItemCaseSensitive(r, "candidate");
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(r, "ms");
    const cJSON *ok = cJSON_GetObjectItemCaseSensitive(r, "ok");
    if (!cJSON_IsString(cand) || !cJSON_IsNumber(ms))
      continue;
    if (!strcmp(cand->valuestring, "seed") && cJSON_IsTrue(ok))
      seedNs = ms->valuedouble * 1e6;
    /* The prediction from the candidate's ranked ledger line. */
    char key[64];
    snprintf(key, sizeof key, "{\"id\":\"%.24s\"", cand->valuestring);
    const char *line = strstr(ledgerText, key);
    const char *p = line ? strstr(line, "\"predicted_ns\":") : NULL;
    const char *eol = line ? strchr(line, '\n') : NULL;
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "id", cand->valuestring);
    cJSON_AddStringToObject(out, "stage", "measured");
    cJSON_AddNumberToObject(out, "measured_ns", ms->valuedouble * 1e6);
    cJSON_AddBoolToObject(out, "ok", cJSON_IsTrue(ok));
    if (!cJSON_IsTrue(ok)) {
      ++wrong;
      printf("  proposed rule: %s passed cake-verify but computed a wrong "
             "result (minimize it and add a rule)\n", cand->valuestring);
    } else if (p && (!eol || p < eol)) {
      pred[m] = strtod(p + strlen("\"predicted_ns\":"), NULL);
      meas[m] = ms->valuedouble * 1e6;
      snprintf(ids[m], 24, "%.23s", cand->valuestring);
      cJSON_AddNumberToObject(out, "predicted_ns", pred[m]);
      ++m;
    }
    char *s = cJSON_PrintUnformatted(out);
    fprintf(ledger, "%s\n", s);
    cJSON_free(s);
    cJSON_Delete(out);
  }
  const cJSON *f;
  int failed = 0;
  cJSON_ArrayForEach(f, findings) {
    const cJSON *cand = cJSON_GetObjectItemCaseSensitive(f, "candidate");
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(f, "result");
    if (!cJSON_IsString(cand))
      continue;
    ++failed;
    printf("  proposed rule: %s passed cake-verify but failed on the GPU "
           "(%s): minimize it and add a rule\n", cand->valuestring,
           cJSON_IsString(res) ? res->valuestring : "?");
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "id", cand->valuestring);
    cJSON_AddStringToObject(out, "stage", "failed-on-gpu");
    cJSON_AddStringToObject(out, "result",
                            cJSON_IsString(res) ? res->valuestring : "?");
    char *s = cJSON_PrintUnformatted(out);
    fprintf(ledger, "%s\n", s);
    cJSON_free(s);
    cJSON_Delete(out);
  }
  fclose(ledger);
  printf("  measured: %d with a prediction, %d wrong, %d failed on the GPU\n",
         m, wrong, failed);
  if (m >= 2) {
    int bestM = 0, bestP = 0;
    for (int i = 1; i < m; ++i) {
      if (meas[i] < meas[bestM])
        bestM = i;
      if (pred[i] < pred[bestP])
        bestP = i;
    }
    printf("  cost model on this run: Kendall tau %.3f, top-1 regret %.1f%%\n",
           kendall(pred, meas, m), 100 * (meas[bestP] / meas[bestM] - 1));
    printf("  fastest measured: %s %.1f us\n", ids[bestM], meas[bestM] / 1e3);
    if (seedNs > 0)
      printf("  the seed: %.1f us; the fastest candidate is %.2fx faster\n",
             seedNs / 1e3, seedNs / meas[bestM]);
    /* The peers timed in the same run (measure.py --manifest). */
    const cJSON *peers = cJSON_GetObjectItemCaseSensitive(doc, "peers");
    const cJSON *peer, *fastestPeer = NULL;
    cJSON_ArrayForEach(peer, peers)
      if (cJSON_IsNumber(peer) &&
          (!fastestPeer || peer->valuedouble < fastestPeer->valuedouble))
        fastestPeer = peer;
    if (fastestPeer)
      printf("  against the peer (%s, %.1f us): %.3fx\n", fastestPeer->string,
             fastestPeer->valuedouble * 1e3,
             fastestPeer->valuedouble * 1e6 / meas[bestM]);
    for (int i = 0; i < m; ++i) {
      double err = pred[i] / meas[i] - 1;
      if (err > 0.25 || err < -0.25)
        printf("  proposed calibration: %s predicted %.1f us, measured "
               "%.1f us (%+.0f%%)\n", ids[i], pred[i] / 1e3, meas[i] / 1e3,
               100 * err);
    }
  }
  free(pred);
  free(meas);
  free(ids);
  cJSON_Delete(doc);
  free(text);
  free(ledgerText);
  return 0;
}

/* Reads the space: {"tactics": [{"pass", "fixed"?, "option", "values"}]};
 * a value is a number, a string, or null (the tactic is not applied). */
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
      else if (cJSON_IsNull(v))
        x->skip[x->numValues] = 1;
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
  long point; /* in the grid */
  char tactics[1024];
  char pipeline[1024];
  double predictedNs;
  double pipeBoundNs; /* the pipes' stage cycles per tile, summed */
  char bottleneck[32];
  int compiled; /* 1: ptxas compiled it (registers, spillStores set) */
  int registers, spillStores;
  char signature[1024]; /* registerSignature(tactics), once checked */
} Ranked;

/* The tactics of a candidate that may change what a thread keeps in
 * registers: all but those that only move stages, the schedule or the
 * layout of shared memory. Candidates with the same signature compile to
 * about the same register pressure (on the k-means grid every such
 * neighbour of a spilling candidate spilled 444-484 bytes). */
static void registerSignature(const char *tactics, char *out, size_t size) {
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
 * still runs a ring that can fill ahead faster. */
static int byPredicted(const void *a, const void *b) {
  const Ranked *x = a, *y = b;
  if (x->predictedNs != y->predictedNs)
    return (x->predictedNs > y->predictedNs) -
           (x->predictedNs < y->predictedNs);
  return (x->pipeBoundNs > y->pipeBoundNs) - (x->pipeBoundNs < y->pipeBoundNs);
}

/* The agent protocol (docs/agents.md): every NAME.cake.mlir in `dir` that
 * has no NAME.feedback.json newer than itself is verified and, if legal,
 * predicted; the verdict goes to NAME.feedback.json. A first line
 * "// cake-shapes: 8192x8192,..." gives the problem (else `shapes`). */
static int agentDir(const char *dir, const char *shapes) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "cake-evolve: cannot open agent folder '%s'\n", dir);
    return 1;
  }
  Buffer costDiagnostics = {0};
  MlirContext ctx = createContext(&costDiagnostics);
  int seen = 0, answered = 0, rejected = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    const char *ext = ".cake.mlir";
    if (len <= strlen(ext) || strcmp(e->d_name + len - strlen(ext), ext))
      continue;
    ++seen;
    char src[4096], out[4096];
    snprintf(src, sizeof src, "%s/%s", dir, e->d_name);
    snprintf(out, sizeof out, "%s/%.*s.feedback.json", dir,
             (int)(len - strlen(ext)), e->d_name);
    struct stat ss, so;
    if (stat(src, &ss) == 0 && stat(out, &so) == 0 &&
        so.st_mtime >= ss.st_mtime)
      continue; /* answered already */
    char *text = readFile(src);
    if (!text)
      continue;
    char problem[1024];
    snprintf(problem, sizeof problem, "%s", shapes);
    const char *tag = "// cake-shapes:";
    if (!strncmp(text, tag, strlen(tag))) {
      const char *v = text + strlen(tag);
      while (*v == ' ')
        ++v;
      size_t n = strcspn(v, "\n");
      snprintf(problem, sizeof problem, "%.*s", (int)n, v);
    }
    DiagnosticSink sink = {cJSON_CreateArray(), ""};
    Buffer verified = {0};
    MlirLogicalResult r = mlirCakeRunPipelineOnSource(
        ctx, mlirStringRefCreateFromCString(text),
        mlirStringRefCreateFromCString(src),
        mlirStringRefCreateFromCString("cake-verify"), onDiagnostic, &sink,
        appendCallback, &verified);
    cJSON *fb = cJSON_CreateObject();
    cJSON_AddStringToObject(fb, "candidate", e->d_name);
    cJSON_AddStringToObject(fb, "shapes", problem);
    if (mlirLogicalResultIsFailure(r)) {
      ++rejected;
      cJSON_AddStringToObject(fb, "verdict", "rejected");
      cJSON_AddItemToObject(fb, "diagnostics", sink.diagnostics);
    } else {
      cJSON_Delete(sink.diagnostics);
      Buffer report = {0};
      double ns = 0;
      costDiagnostics.length = 0;
      MlirLogicalResult cr = predict(ctx, &verified, problem, &report, &ns);
      if (mlirLogicalResultIsFailure(cr)) {
        cJSON_AddStringToObject(fb, "verdict", "verified");
        cJSON_AddStringToObject(fb, "cost_error", costDiagnostics.data
                                                      ? costDiagnostics.data
                                                      : "");
      } else {
        cJSON_AddStringToObject(fb, "verdict", "ranked");
        cJSON_AddNumberToObject(fb, "predicted_ns", ns);
        cJSON *rep = cJSON_Parse(report.data);
        cJSON_AddItemToObject(fb, "cost", cJSON_DetachItemFromArray(rep, 0));
        cJSON_Delete(rep);
      }
      free(report.data);
    }
    FILE *f = fopen(out, "w");
    if (f) {
      char *t = cJSON_Print(fb);
      fprintf(f, "%s\n", t);
      cJSON_free(t);
      fclose(f);
      ++answered;
    } else {
      fprintf(stderr, "cake-evolve: cannot write '%s'\n", out);
    }
    cJSON_Delete(fb);
    free(verified.data);
    free(text);
  }
  closedir(d);
  printf("cake-evolve: agent folder %s: %d candidates, %d answered now "
         "(%d rejected)\n", dir, seen, answered, rejected);
  free(costDiagnostics.data);
  mlirContextDestroy(ctx);
  return 0;
}

/* The measurement command stage 3 runs by default: measure.py of this
 * source tree with the runtime and cake-run built beside this binary. */
static void defaultMeasureCommand(char *out, size_t size) {
  char exe[2048];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  char *slash = strrchr(exe, '/');
  if (slash)
    *slash = 0; /* build/bin */
  snprintf(out, size,
           "python3 '%s/bench/cost/measure.py' --runtime "
           "'%s/../lib/libcake_runtime.so' --cake-run '%s/cake-run' "
           "--manifest {manifest} --out {results}",
           CAKE_SOURCE_DIR, exe, exe);
}

/* `command` with {manifest} and {results} replaced (quoted). */
static char *substitute(const char *command, const char *manifest,
                        const char *results) {
  Buffer b = {0};
  for (const char *c = command; *c;) {
    const char *value = !strncmp(c, "{manifest}", 10)  ? manifest
                        : !strncmp(c, "{results}", 9) ? results
                                                      : NULL;
    if (value) {
      bufferAppend(&b, "'", 1);
      bufferAppend(&b, value, strlen(value));
      bufferAppend(&b, "'", 1);
      c += value == manifest ? 10 : 9;
    } else {
      bufferAppend(&b, c++, 1);
    }
  }
  return b.data;
}

/* Stage 3 on this machine: runs `command` through /bin/sh in its own
 * process group, killing the group after `timeoutSeconds`. 0 when it
 * exited with status 0. */
static int runMeasurement(const char *command, int timeoutSeconds) {
  printf("stage 3: %s\n", command);
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    perror("cake-evolve: fork");
    return 1;
  }
  if (pid == 0) {
    setpgid(0, 0);
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
  }
  setpgid(pid, pid);
  struct timespec start, now, nap = {0, 50 * 1000 * 1000};
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    int status;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
      fprintf(stderr, "cake-evolve: stage 3's measurement %s %d\n",
              WIFEXITED(status) ? "exited with status" : "died of signal",
              WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
      return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec >= timeoutSeconds) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      fprintf(stderr, "cake-evolve: stage 3's measurement did not finish in "
                      "%d s and was killed (--measure-timeout)\n",
              timeoutSeconds);
      return 1;
    }
    nanosleep(&nap, NULL);
  }
}

int main(int argc, char **argv) {
  const char *seedPath = NULL, *spacePath = NULL, *shapes = "",
             *ledgerPath = NULL;
  int noGpu = 0, top = 10, resume = 0, exportTop = 8, mutateRounds = 0;
  const char *exportDir = NULL, *importPath = NULL, *check = "none",
             *agentPath = NULL, *measure = NULL;
  int measureTimeout = 600, ptxasTop = -1;
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
    else if (next && !strcmp(a, "--export"))
      exportDir = argv[++i];
    else if (next && !strcmp(a, "--export-top"))
      exportTop = atoi(argv[++i]);
    else if (next && !strcmp(a, "--check"))
      check = argv[++i];
    else if (next && !strcmp(a, "--mutate"))
      mutateRounds = atoi(argv[++i]);
    else if (next && !strcmp(a, "--agent-dir"))
      agentPath = argv[++i];
    else if (next && !strcmp(a, "--import"))
      importPath = argv[++i];
    else if (next && !strcmp(a, "--measure"))
      measure = argv[++i];
    else if (next && !strcmp(a, "--measure-timeout"))
      measureTimeout = atoi(argv[++i]);
    else if (next && !strcmp(a, "--ptxas-check"))
      ptxasTop = atoi(argv[++i]);
    else if (next && !strcmp(a, "--rng-seed"))
      rngState = strtoull(argv[++i], NULL, 10) | 1;
    else {
      usage();
      return 2;
    }
  }
  if (importPath && ledgerPath)
    return importResults(importPath, ledgerPath);
  if (agentPath)
    return agentDir(agentPath, shapes);
  if (!seedPath || !spacePath || !ledgerPath) {
    usage();
    return 2;
  }
  /* Stage 3 here: bundles into --export DIR, or beside the ledger. */
  char defaultExport[4096], defaultMeasure[8192];
  if (!noGpu) {
    if (!exportDir) {
      snprintf(defaultExport, sizeof defaultExport, "%s.bundles",
               ledgerPath);
      mkdir(defaultExport, 0777);
      exportDir = defaultExport;
    }
    if (!measure) {
      defaultMeasureCommand(defaultMeasure, sizeof defaultMeasure);
      measure = defaultMeasure;
    }
  } else if (measure) {
    fprintf(stderr, "cake-evolve: --measure runs stage 3, which --no-gpu "
                    "leaves out\n");
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
  long radix[MAX_TACTICS]; /* grid point = sum of digit[t] * radix[t] */
  for (int t = 0; t < numTactics; ++t) {
    radix[t] = total;
    if (total > MAX_GRID / tactics[t].numValues) {
      fprintf(stderr, "cake-evolve: the space has more than %ld points\n",
              MAX_GRID);
      return 1;
    }
    total *= tactics[t].numValues;
  }

  /* Candidates already in the ledger (resume). */
  char *previous = resume ? readFile(ledgerPath) : NULL;
  FILE *ledger = fopen(ledgerPath, resume ? "a" : "w");
  if (!ledger) {
    fprintf(stderr, "cake-evolve: cannot write ledger '%s'\n", ledgerPath);
    return 1;
  }

  Buffer costDiagnostics = {0};
  MlirContext ctx = createContext(&costDiagnostics);

  long count = sample > 0 && sample < total ? sample : total;
  /* The work queue: the grid or a sample of it, then each mutation
   * round's neighbours (one tactic value moved by one) of the best. */
  long capacity = count + (long)mutateRounds * MUTATE_TOP * 2 * numTactics;
  long *queue = calloc((size_t)capacity, sizeof *queue);
  char(*parents)[24] = calloc((size_t)capacity, 24);
  unsigned char *visited = calloc((size_t)total / 8 + 1, 1);
  long qlen = 0;
  for (long c = 0; c < count; ++c) {
    /* In order, or sampled without replacement when the sample is a
     * fraction of the grid (a stride coprime with it). */
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
    visited[point / 8] |= (unsigned char)(1u << (point % 8));
    queue[qlen] = point;
    snprintf(parents[qlen++], 24, "seed");
  }
  int round = 0;
  long mutated = 0;
  uint64_t *hashes = calloc((size_t)capacity, sizeof *hashes);
  char(*hashIds)[24] = calloc((size_t)capacity, 24);
  Ranked *ranked = calloc((size_t)capacity, sizeof *ranked);
  RuleCount rules[MAX_RULES];
  int numRules = 0;
  long numHashes = 0, numRanked = 0, numRejected = 0, numDuplicates = 0,
       numSkipped = 0, numCostFailed = 0;

  int tty = isatty(2);
  for (long c = 0; c < qlen; ++c) {
    long point = queue[c];
    char id[24];
    snprintf(id, sizeof id, "c%05ld", point % 10000000);
    if (previous) {
      char key[32];
      snprintf(key, sizeof key, "\"id\":\"%s\"", id);
      if (strstr(previous, key)) {
        ++numSkipped;
        goto next; /* already in the ledger: not ranked in this run */
      }
    }
    /* The pipeline: each tactic with its value, then cake-verify. */
    Buffer pipeline = {0}, tacticList = {0};
    cJSON *tacticJson = cJSON_CreateArray();
    long rest = point;
    for (int t = 0; t < numTactics; ++t) {
      const Tactic *x = &tactics[t];
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
        ctx, mlirStringRefCreateFromCString(seed),
        mlirStringRefCreateFromCString(seedPath),
        mlirStringRefCreateFromCString(pipeline.data), onDiagnostic, &sink,
        appendCallback, &output);

    cJSON *line = cJSON_CreateObject();
    cJSON_AddStringToObject(line, "id", id);
    cJSON_AddStringToObject(line, "parent", parents[c]);
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
        Buffer report = {0};
        double ns = 0;
        costDiagnostics.length = 0;
        MlirLogicalResult cr = predict(ctx, &output, shapes, &report, &ns);
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
          x->point = point;
          snprintf(x->tactics, sizeof x->tactics, "%.1000s", tacticList.data);
          snprintf(x->pipeline, sizeof x->pipeline, "%.1000s", pipeline.data);
          x->predictedNs = ns;
          x->pipeBoundNs = 0;
          const cJSON *pipe;
          cJSON_ArrayForEach(pipe, cJSON_GetObjectItemCaseSensitive(
                                       first, "pipes")) {
            const cJSON *bound =
                cJSON_GetObjectItemCaseSensitive(pipe, "bound_per_tile_ns");
            if (cJSON_IsNumber(bound))
              x->pipeBoundNs += bound->valuedouble;
          }
          snprintf(x->bottleneck, sizeof x->bottleneck, "%s",
                   cJSON_IsString(b) ? b->valuestring : "?");
          cJSON_AddStringToObject(line, "bottleneck", x->bottleneck);
          cJSON_Delete(rep);
        }
        free(report.data);
      }
    }
    char *text = cJSON_PrintUnformatted(line);
    fprintf(ledger, "%s\n", text);
    cJSON_free(text);
    cJSON_Delete(line);
    free(pipeline.data);
    free(tacticList.data);
    free(output.data);

  next:
    /* Mutation: when the queue runs dry, the neighbours of the best. */
    if (c + 1 == qlen && round < mutateRounds) {
      ++round;
      qsort(ranked, (size_t)numRanked, sizeof *ranked, byPredicted);
      for (long k = 0; k < numRanked && k < MUTATE_TOP; ++k)
        for (int t = 0; t < numTactics; ++t)
          for (int dir = -1; dir <= 1; dir += 2) {
            long digit = ranked[k].point / radix[t] % tactics[t].numValues;
            if (digit + dir < 0 || digit + dir >= tactics[t].numValues)
              continue;
            long next = ranked[k].point + dir * radix[t];
            if (visited[next / 8] & (1u << (next % 8)) || qlen == capacity)
              continue;
            visited[next / 8] |= (unsigned char)(1u << (next % 8));
            queue[qlen] = next;
            snprintf(parents[qlen++], 24, "%s", ranked[k].id);
            ++mutated;
          }
    }

    /* A live progress line, every 25 candidates and at the end. */
    if ((c + 1) % 25 && c + 1 != qlen)
      continue;
    double best = 0;
    for (long k = 0; k < numRanked; ++k)
      if (!best || ranked[k].predictedNs < best)
        best = ranked[k].predictedNs;
    fprintf(stderr,
            "%scake-evolve: %ld/%ld generated, %ld rejected, %ld duplicate, "
            "%ld ranked, best predicted %.1f us%s",
            tty ? "\r" : "", c + 1, qlen, numRejected, numDuplicates,
            numRanked, best / 1e3, tty ? "" : "\n");
  }
  if (tty)
    fprintf(stderr, "\n");
  fclose(ledger);

  /* Summary. */
  printf("cake-evolve: seed %s, %d tactics, grid of %ld, %ld candidates "
         "generated%s\n",
         seedPath, numTactics, total, qlen,
         count < total ? " (sampled)" : "");
  if (mutateRounds)
    printf("  mutation: %d rounds, %ld neighbours of the best %d\n", round,
           mutated, MUTATE_TOP);
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
  /* ptxas on the best ranked, until K compile without spilling (at most
   * 8K tries: grid neighbours that differ only in stages or schedule
   * spill alike; by default the export's K, none without an export): a
   * candidate that spills, or does not compile, moves to the end of the
   * ranking. */
  if (ptxasTop < 0)
    ptxasTop = exportDir ? exportTop : 0;
  if (ptxasTop > 0) {
    FILE *append = fopen(ledgerPath, "a");
    if (!append)
      fprintf(stderr, "cake-evolve: cannot append the ptxas check to '%s'\n",
              ledgerPath);
    long k = 0, tried = 0, kept = 0, demoted = 0, inferred = 0;
    int unavailable = 0;
    while (kept < ptxasTop && k < numRanked - demoted &&
           tried < 8L * ptxasTop) {
      /* A neighbour of a candidate that spilled (same register
       * signature) moves down without another compile. */
      registerSignature(ranked[k].tactics, ranked[k].signature,
                        sizeof ranked[k].signature);
      int known = 0;
      for (long j = numRanked - demoted; j < numRanked && !known; ++j) {
        known = ranked[j].compiled &&
                !strcmp(ranked[k].signature, ranked[j].signature);
        if (known) {
          ranked[k].registers = ranked[j].registers;
          ranked[k].spillStores = ranked[j].spillStores;
        }
      }
      PtxasInfo info = {0};
      if (known) {
        info.ok = 1;
        info.registers = ranked[k].registers;
        info.spillStores = ranked[k].spillStores;
        ++inferred;
      } else {
        ptxasCheck(ctx, seed, seedPath, ranked[k].pipeline, &info);
        ++tried;
      }
      /* ptxas missing, or failing on the very first (best-ranked)
       * candidate: most likely the toolkit, not the candidates; better no
       * check than demoting the best of them. */
      if (!info.ok && (strstr(info.error, "cannot run") ||
                       (tried == 1 && kept == 0 && demoted == 0 &&
                        strstr(info.error, "ptxas failed")))) {
        printf("  ptxas check skipped: %s\n", info.error);
        unavailable = 1;
        break;
      }
      cJSON *line = cJSON_CreateObject();
      cJSON_AddStringToObject(line, "id", ranked[k].id);
      cJSON_AddStringToObject(line, "stage", "compiled");
      cJSON *px = cJSON_AddObjectToObject(line, "ptxas");
      if (known) {
        cJSON_AddStringToObject(px, "like", "a spilling candidate of the "
                                            "same register signature");
        cJSON_AddNumberToObject(px, "spill_stores", info.spillStores);
      } else if (info.ok) {
        cJSON_AddNumberToObject(px, "registers", info.registers);
        cJSON_AddNumberToObject(px, "spill_stores", info.spillStores);
        cJSON_AddNumberToObject(px, "spill_loads", info.spillLoads);
      } else {
        cJSON_AddStringToObject(px, "error", info.error);
      }
      char *text = cJSON_PrintUnformatted(line);
      if (append)
        fprintf(append, "%s\n", text);
      cJSON_free(text);
      cJSON_Delete(line);
      ranked[k].compiled = info.ok && !known;
      ranked[k].registers = info.registers;
      ranked[k].spillStores = info.spillStores;
      if (info.ok && info.spillStores <= SPILL_DEMOTE_BYTES) {
        ++kept;
        ++k;
        continue;
      }
      if (demoted >= 4 || known)
        ; /* the first four are shown; the count below has the rest */
      else if (info.ok)
        printf("  ptxas: %s spills %d bytes at %d registers (moved to the "
               "end; proposed calibration: the cost model does not see "
               "spills): %s\n",
               ranked[k].id, info.spillStores, info.registers,
               ranked[k].tactics);
      else
        printf("  ptxas: %s verified but %s (moved to the end; proposed "
               "rule): %s\n",
               ranked[k].id, info.error, ranked[k].tactics);
      Ranked moved = ranked[k];
      memmove(&ranked[k], &ranked[k + 1],
              (size_t)(numRanked - k - 1) * sizeof *ranked);
      ranked[numRanked - 1] = moved;
      ++demoted;
    }
    if (append)
      fclose(append);
    if (!unavailable)
      printf("  ptxas on the best ranked: %ld compiled, %ld kept, %ld moved "
             "to the end (spills over %d bytes or no cubin; %ld of them "
             "like a spilling one, not compiled)\n",
             tried, kept, demoted, SPILL_DEMOTE_BYTES, inferred);
  }
  for (long k = 0; k < numRanked && k < top; ++k) {
    char regs[64] = "";
    if (ranked[k].compiled)
      snprintf(regs, sizeof regs, ", %d registers, %d bytes spilled",
               ranked[k].registers, ranked[k].spillStores);
    printf("  #%ld %s %.1f us (%s%s): %s\n", k + 1, ranked[k].id,
           ranked[k].predictedNs / 1e3, ranked[k].bottleneck, regs,
           ranked[k].tactics);
  }
  printf("  ledger: %s\n", ledgerPath);

  /* Stage 3 elsewhere: the top candidates as bundles and a manifest. */
  if (exportDir) {
    char path[4200]; /* exportDir (< 4096) and a file name */
    snprintf(path, sizeof path, "%s/manifest.json", exportDir);
    FILE *mf = fopen(path, "w");
    if (!mf) {
      fprintf(stderr, "cake-evolve: cannot write '%s' (does the folder "
                      "exist?)\n", path);
      return 1;
    }
    cJSON *manifest = cJSON_CreateObject();
    cJSON_AddStringToObject(manifest, "seed", seedPath);
    cJSON_AddStringToObject(manifest, "shapes", shapes);
    cJSON_AddStringToObject(manifest, "check", check);
    cJSON *list = cJSON_AddArrayToObject(manifest, "candidates");
    int exported = 0;
    /* The seed as it is, so that the GPU run shows where the search
     * started; then the top candidates. */
    if (exportBundle(ctx, seed, seedPath, "cake-verify", exportDir, "seed")) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "id", "seed");
      cJSON_AddStringToObject(e, "bundle", "seed.json");
      cJSON_AddBoolToObject(e, "seed", 1);
      cJSON_AddItemToArray(list, e);
    }
    for (long k = 0; k < numRanked && k < exportTop; ++k) {
      if (!exportBundle(ctx, seed, seedPath, ranked[k].pipeline, exportDir,
                        ranked[k].id))
        continue;
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "id", ranked[k].id);
      snprintf(path, sizeof path, "%s.json", ranked[k].id);
      cJSON_AddStringToObject(e, "bundle", path);
      cJSON_AddNumberToObject(e, "predicted_ns", ranked[k].predictedNs);
      cJSON_AddStringToObject(e, "tactics", ranked[k].tactics);
      cJSON_AddItemToArray(list, e);
      ++exported;
    }
    char *mtext = cJSON_Print(manifest);
    fprintf(mf, "%s\n", mtext);
    cJSON_free(mtext);
    cJSON_Delete(manifest);
    fclose(mf);
    printf("  exported: %d bundles and manifest.json to %s\n", exported,
           exportDir);
  }

  int status = 0;
  if (measure) {
    char manifestPath[4200], resultsPath[4200];
    snprintf(manifestPath, sizeof manifestPath, "%s/manifest.json",
             exportDir);
    snprintf(resultsPath, sizeof resultsPath, "%s/results.json", exportDir);
    remove(resultsPath);
    char *command = substitute(measure, manifestPath, resultsPath);
    status = runMeasurement(command, measureTimeout);
    free(command);
    if (status == 0)
      status = importResults(resultsPath, ledgerPath);
    else
      fprintf(stderr, "cake-evolve: stages 1, 2 and 4's ledger is kept; "
                      "measure %s later and --import its results, or run "
                      "with --no-gpu\n", manifestPath);
  }

  free(queue);
  free(parents);
  free(visited);
  free(hashes);
  free(hashIds);
  free(ranked);
  free(seed);
  free(previous);
  free(costDiagnostics.data);
  mlirContextDestroy(ctx);
  return status;
}
