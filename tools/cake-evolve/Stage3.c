// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Stage3.c - Stage 3: the export and its bookkeeping -----------------===*\
|*                                                                            *|
|* The top candidates and the seed as bundles with a manifest, for            *|
|* bench/cost/measure.py on this host's GPUs (Workers.c), through Slurm       *|
|* (Slurm.c) or on a GPU host without MLIR. Whichever runs it, stage 3 here   *|
|* splits the manifest into shards, merges what comes back, writes each       *|
|* candidate's ledger lines as its result arrives, and hands the merged       *|
|* results to stage 4's report (Import.c).                                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L /* readlink */

#include "Evolve.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* The measurement command stage 3 runs by default: measure.py with the
 * runtime and cake-run beside this binary. Installed, measure.py is in
 * P/share/cake/bench (cmake/CakeInstall.cmake); in a build tree, the source
 * tree's bench/. */
void defaultMeasureCommand(char *out, size_t size) {
  char exe[2048];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  char *slash = strrchr(exe, '/');
  if (slash)
    *slash = 0; /* P/bin or build/bin */
  char bench[2200], script[2300];
  snprintf(bench, sizeof bench, "%s/../share/cake/bench", exe);
  snprintf(script, sizeof script, "%s/cost/measure.py", bench);
  if (access(script, R_OK) != 0)
    snprintf(bench, sizeof bench, "%s/bench", CAKE_SOURCE_DIR);
  snprintf(out, size,
           "python3 '%s/cost/measure.py' --runtime "
           "'%s/../lib/libcake_runtime.so' --cake-run '%s/cake-run' "
           "--manifest {manifest} --out {results}",
           bench, exe, exe);
}

char *substituteCommand(const char *command, const char *manifest,
                        const char *results, char quote) {
  Buffer b = {0};
  for (const char *c = command; *c;) {
    const char *value = !strncmp(c, "{manifest}", 10)  ? manifest
                        : !strncmp(c, "{results}", 9) ? results
                                                      : NULL;
    if (value) {
      bufferAppend(&b, &quote, 1);
      bufferAppend(&b, value, strlen(value));
      bufferAppend(&b, &quote, 1);
      c += value == manifest ? 10 : 9;
    } else {
      bufferAppend(&b, c++, 1);
    }
  }
  return b.data;
}

int exportCandidates(Search *s) {
  const EvolveOptions *o = s->options;
  const char *exportDir = o->exportDir, *seedPath = o->seedPath;
  MlirContext ctx = s->ctx;
  const char *seed = s->seed;
  const Ranked *ranked = s->ranked;
  long numRanked = s->numRanked;
  int exportTop = o->exportTop;
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
  cJSON_AddStringToObject(manifest, "shapes", o->shapes);
  cJSON_AddStringToObject(manifest, "check", o->check);
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
    cJSON_AddNumberToObject(e, "rank", (double)(k + 1));
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
  return 0;
}

/*===----------------------------------------------------------------------===*
 * Stage 3's bookkeeping
 *===----------------------------------------------------------------------===*/

/* The index of the candidate `id` in the manifest, or -1. */
static int candidateIndex(const Stage3 *st, const char *id) {
  for (int i = 0; i < st->numCandidates; ++i) {
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(st->candidates[i], "id");
    if (cJSON_IsString(c) && !strcmp(c->valuestring, id))
      return i;
  }
  return -1;
}

static const char *candidateId(const Stage3 *st, int item) {
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(st->candidates[item], "id");
  return cJSON_IsString(c) ? c->valuestring : "?";
}

/* Whether the ledger text already holds a stage-3 line for `id`. */
static int ledgerHasResult(const char *ledgerText, const char *id) {
  static const char *const stages[] = {"measured", "failed-on-gpu",
                                       "not-measured"};
  for (int k = 0; k < 3; ++k) {
    char key[160];
    snprintf(key, sizeof key, "{\"id\":\"%.64s\",\"stage\":\"%s\"", id,
             stages[k]);
    if (ledgerText && strstr(ledgerText, key))
      return 1;
  }
  return 0;
}

int stage3Open(Stage3 *st, const EvolveOptions *o, const char *dir) {
  memset(st, 0, sizeof *st);
  st->options = o;
  snprintf(st->dir, sizeof st->dir, "%s", dir);
  char path[4200];
  snprintf(path, sizeof path, "%s/manifest.json", dir);
  char *text = readFile(path);
  st->manifest = text ? cJSON_Parse(text) : NULL;
  free(text);
  const cJSON *list =
      cJSON_GetObjectItemCaseSensitive(st->manifest, "candidates");
  if (!cJSON_IsArray(list)) {
    fprintf(stderr, "cake-evolve: %s: %s\n", path,
            st->manifest ? "expected {\"candidates\": [...]} (an export of "
                           "cake-evolve)"
                         : "cannot read it as JSON");
    return 1;
  }
  st->numCandidates = cJSON_GetArraySize(list);
  st->candidates =
      calloc((size_t)st->numCandidates + 1, sizeof *st->candidates);
  st->settled = calloc((size_t)st->numCandidates + 1, 1);
  int i = 0;
  const cJSON *c;
  cJSON_ArrayForEach(c, list) { st->candidates[i++] = c; }
  st->merged = cJSON_CreateObject();
  cJSON_AddArrayToObject(st->merged, "rows");
  cJSON_AddArrayToObject(st->merged, "findings");
  cJSON_AddObjectToObject(st->merged, "peers");
  cJSON_AddArrayToObject(st->merged, "failed");
  st->ledgerText = readFile(o->ledgerPath);
  st->ledger = fopen(o->ledgerPath, "a");
  if (!st->ledger) {
    fprintf(stderr, "cake-evolve: cannot append to '%s'\n", o->ledgerPath);
    return 1;
  }
  snprintf(path, sizeof path, "%s/stage3", dir);
  mkdir(path, 0777);
  if (!o->resume)
    return 0;
  /* A previous stage 3's results, one file per candidate (Workers.c). */
  int resumed = 0;
  for (int k = 0; k < st->numCandidates; ++k) {
    snprintf(path, sizeof path, "%s/stage3/%s.results.json", dir,
             candidateId(st, k));
    if (access(path, R_OK) != 0)
      continue;
    resumed += stage3Collect(st, &k, 1, path, NULL);
  }
  /* A previous Slurm run's task results (Slurm.c), if any. */
  int *all = calloc((size_t)st->numCandidates + 1, sizeof *all);
  for (int k = 0; k < st->numCandidates; ++k)
    all[k] = k;
  for (int t = 0; t < 1000; ++t) {
    snprintf(path, sizeof path, "%s/slurm/results-%d.json", dir, t);
    if (access(path, R_OK) != 0)
      continue;
    resumed += stage3Collect(st, all, st->numCandidates, path, NULL);
  }
  free(all);
  if (resumed)
    printf("stage 3: resumed: %d of %d candidates measured before\n", resumed,
           st->numCandidates);
  return 0;
}

int stage3WriteShard(const Stage3 *st, const int *items, int n,
                     const char *path) {
  cJSON *shard = cJSON_CreateObject();
  const cJSON *field;
  cJSON_ArrayForEach(field, st->manifest) {
    if (strcmp(field->string, "candidates"))
      cJSON_AddItemToObject(shard, field->string, cJSON_Duplicate(field, 1));
  }
  /* measure.py reads the bundles beside the manifest it is given. */
  cJSON_AddStringToObject(shard, "bundle_dir", "..");
  int seed = 0;
  cJSON *list = cJSON_AddArrayToObject(shard, "candidates");
  for (int i = 0; i < n; ++i) {
    cJSON_AddItemToArray(list, cJSON_Duplicate(st->candidates[items[i]], 1));
    seed |= cJSON_IsTrue(
        cJSON_GetObjectItemCaseSensitive(st->candidates[items[i]], "seed"));
  }
  /* The peer once per stage 3: with the seed. */
  cJSON_AddBoolToObject(shard, "peers", seed);
  char *text = cJSON_Print(shard);
  FILE *f = fopen(path, "w");
  int ok = f && fprintf(f, "%s\n", text) > 0;
  if (f && fclose(f) != 0)
    ok = 0;
  if (!ok)
    fprintf(stderr, "cake-evolve: cannot write '%s'\n", path);
  cJSON_free(text);
  cJSON_Delete(shard);
  return ok;
}

/* Copies the entries of `from` about candidates in `want` to `to`, and to
 * `toLedger` unless a resumed run finds them in the ledger already; marks
 * them in `got`. */
static void takeEntries(Stage3 *st, const cJSON *from, cJSON *to,
                        cJSON *toLedger, const unsigned char *want,
                        unsigned char *got) {
  const cJSON *e;
  cJSON_ArrayForEach(e, from) {
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "candidate");
    int k = cJSON_IsString(c) ? candidateIndex(st, c->valuestring) : -1;
    if (k < 0 || !want[k] || got[k])
      continue;
    got[k] = 1;
    cJSON_AddItemToArray(to, cJSON_Duplicate(e, 1));
    if (!st->options->resume ||
        !ledgerHasResult(st->ledgerText, c->valuestring))
      cJSON_AddItemToArray(toLedger, cJSON_Duplicate(e, 1));
  }
}

int stage3Collect(Stage3 *st, const int *items, int n, const char *resultsPath,
                  unsigned char *missing) {
  char *text = readFile(resultsPath);
  cJSON *doc = text ? cJSON_Parse(text) : NULL;
  free(text);
  unsigned char *want = calloc((size_t)st->numCandidates + 1, 1);
  unsigned char *got = calloc((size_t)st->numCandidates + 1, 1);
  for (int i = 0; i < n; ++i)
    want[items[i]] = !st->settled[items[i]];
  /* Only the shard's own candidates, each once: a results file cannot
   * settle what it was not asked to measure. */
  cJSON *part = cJSON_CreateObject(), *fresh = cJSON_CreateObject();
  cJSON *rows = cJSON_AddArrayToObject(part, "rows");
  cJSON *findings = cJSON_AddArrayToObject(part, "findings");
  takeEntries(st, cJSON_GetObjectItemCaseSensitive(doc, "rows"), rows,
              cJSON_AddArrayToObject(fresh, "rows"), want, got);
  takeEntries(st, cJSON_GetObjectItemCaseSensitive(doc, "findings"), findings,
              cJSON_AddArrayToObject(fresh, "findings"), want, got);
  appendMeasurements(fresh, st->ledgerText, st->ledger);
  fflush(st->ledger);
  cJSON_Delete(fresh);
  cJSON *e;
  cJSON *mergedRows = cJSON_GetObjectItemCaseSensitive(st->merged, "rows");
  cJSON *mergedFindings =
      cJSON_GetObjectItemCaseSensitive(st->merged, "findings");
  cJSON_ArrayForEach(e, rows) {
    cJSON_AddItemToArray(mergedRows, cJSON_Duplicate(e, 1));
  }
  cJSON_ArrayForEach(e, findings) {
    cJSON_AddItemToArray(mergedFindings, cJSON_Duplicate(e, 1));
  }
  /* The peer, timed by the shard that holds the seed. */
  cJSON *peers = cJSON_GetObjectItemCaseSensitive(st->merged, "peers");
  cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "peers")) {
    if (!cJSON_GetObjectItemCaseSensitive(peers, e->string))
      cJSON_AddItemToObject(peers, e->string, cJSON_Duplicate(e, 1));
  }
  /* What the machine was (measure.py's "gpu", "torch"), from the first. */
  static const char *const about[] = {"gpu", "torch"};
  for (int k = 0; k < 2; ++k) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, about[k]);
    if (v && !cJSON_GetObjectItemCaseSensitive(st->merged, about[k]))
      cJSON_AddItemToObject(st->merged, about[k], cJSON_Duplicate(v, 1));
  }
  int settled = 0;
  for (int i = 0; i < n; ++i) {
    int k = items[i];
    if (got[k]) {
      st->settled[k] = 1;
      ++settled;
    }
    if (missing)
      missing[i] = want[k] && !got[k];
  }
  cJSON_Delete(part);
  cJSON_Delete(doc);
  free(want);
  free(got);
  return settled;
}

void stage3GiveUp(Stage3 *st, int item, const char *reason, int attempts) {
  if (st->settled[item])
    return;
  st->settled[item] = 1;
  cJSON *e = cJSON_CreateObject();
  cJSON_AddStringToObject(e, "candidate", candidateId(st, item));
  cJSON_AddStringToObject(e, "reason", reason);
  cJSON_AddNumberToObject(e, "attempts", attempts);
  cJSON *one = cJSON_CreateObject();
  cJSON_AddItemToArray(cJSON_AddArrayToObject(one, "failed"),
                       cJSON_Duplicate(e, 1));
  appendMeasurements(one, st->ledgerText, st->ledger);
  fflush(st->ledger);
  cJSON_Delete(one);
  cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(st->merged, "failed"),
                       e);
}

int stage3Close(Stage3 *st, int report) {
  int status = 1;
  if (st->ledger)
    fclose(st->ledger);
  if (st->ledger && report) {
    char path[4200];
    snprintf(path, sizeof path, "%s/results.json", st->dir);
    char *text = cJSON_Print(st->merged);
    FILE *f = fopen(path, "w");
    if (f) {
      fprintf(f, "%s\n", text);
      fclose(f);
    }
    cJSON_free(text);
    printf("cake-evolve: stage 3's results in %s\n", path);
    /* The report needs the predictions, i.e. the ledger as it is now. */
    char *ledgerText = readFile(st->options->ledgerPath);
    reportMeasurements(st->merged, ledgerText);
    free(ledgerText);
    status = cJSON_GetArraySize(
                 cJSON_GetObjectItemCaseSensitive(st->merged, "failed")) > 0;
  }
  st->ledger = NULL;
  cJSON_Delete(st->merged);
  cJSON_Delete(st->manifest);
  free(st->candidates);
  free(st->settled);
  free(st->ledgerText);
  return status;
}

int measureAndImport(const EvolveOptions *o, const char *exportDir) {
  Stage3 st;
  int status = stage3Open(&st, o, exportDir);
  if (!status) {
    int slurm = o->measureWith && !strcmp(o->measureWith, "slurm");
    status = slurm ? measureWithSlurm(&st) : measureOnWorkers(&st);
  }
  /* MEASURE_LATER: the Slurm script is written for the user to submit. */
  int closed = stage3Close(&st, status == 0);
  if (status == MEASURE_LATER)
    return 0;
  if (status || closed)
    fprintf(stderr,
            "cake-evolve: the ledger of stages 1, 2 and 4 is kept; "
            "continue with --measure-export %s --resume, or measure "
            "%s/manifest.json elsewhere and --import the results\n",
            exportDir, exportDir);
  return status ? status : closed;
}
