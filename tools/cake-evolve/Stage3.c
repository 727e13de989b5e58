// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Stage3.c - Stage 3: export, measure, import ------------------------===*\
|*                                                                            *|
|* The top candidates and the seed as bundles with a manifest, for            *|
|* bench/cost/measure.py here (in a child process group with a time limit)    *|
|* or on a GPU host without MLIR; the results come back through Import.c.     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L /* fork, setpgid, nanosleep, readlink */

#include "Evolve.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
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

int measureAndImport(Search *s) {
  const EvolveOptions *o = s->options;
  const char *exportDir = o->exportDir;
  char manifestPath[4200], resultsPath[4200];
  snprintf(manifestPath, sizeof manifestPath, "%s/manifest.json",
           exportDir);
  snprintf(resultsPath, sizeof resultsPath, "%s/results.json", exportDir);
  remove(resultsPath);
  char *command = substitute(o->measure, manifestPath, resultsPath);
  int status = runMeasurement(command, o->measureTimeout);
  free(command);
  if (status == 0)
    status = importResults(resultsPath, o->ledgerPath);
  else
    fprintf(stderr, "cake-evolve: stages 1, 2 and 4's ledger is kept; "
                    "measure %s later and --import its results, or run "
                    "with --no-gpu\n", manifestPath);
  return status;
}
