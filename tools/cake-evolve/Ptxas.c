// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Ptxas.c - ptxas on the best ranked candidates ----------------------===*\
|*                                                                            *|
|* The cost model has no register allocator: ptxas compiles the best ranked   *|
|* candidates, and what it reports (registers per thread, spill bytes)        *|
|* reaches the model as the kernel's cake.ptxas, which re-predicts them with  *|
|* ptxas's occupancy and the spills' local-memory traffic. The ranking is     *|
|* then sorted again, until the top K are all compiled. Candidates that do    *|
|* not compile move to the end.                                               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Evolve.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Re-predicts `r` with ptxas's registers and spills (cake.ptxas). On
 * failure the prediction stays as it was. */
static int repredict(Search *s, Ranked *r) {
  DiagnosticSink sink = {cJSON_CreateArray(), ""};
  Buffer verified = {0}, report = {0};
  MlirLogicalResult v = mlirCakeRunPipelineOnSource(
      s->ctx, mlirStringRefCreateFromCString(s->seed),
      mlirStringRefCreateFromCString(s->options->seedPath),
      mlirStringRefCreateFromCString(r->pipeline), onDiagnostic, &sink,
      appendCallback, &verified);
  cJSON_Delete(sink.diagnostics);
  char facts[160];
  snprintf(facts, sizeof facts,
           "{registers = %d : i64, spill_stores = %d : i64, "
           "spill_loads = %d : i64}",
           r->registers, r->spillStores, r->spillLoads);
  double ns = 0;
  int ok = mlirLogicalResultIsSuccess(v) &&
           mlirLogicalResultIsSuccess(
               predictWithPtxas(s->ctx, &verified, s->options->shapes,
                                s->options->calibration, facts, &report, &ns));
  if (ok) {
    cJSON *rep = cJSON_Parse(report.data);
    rankedFromReport(r, cJSON_GetArrayItem(rep, 0), ns);
    cJSON_Delete(rep);
  }
  free(verified.data);
  free(report.data);
  return ok;
}

/* ptxas on the best ranked until the first `ptxasTop` of the ranking have
 * all been compiled (at most 8 times as many compiles): each one checked is
 * re-predicted with its registers and spills and the ranking sorted again,
 * so that a candidate that spills drops by what its spills cost in the
 * model rather than to the end. A grid neighbour with the same register
 * signature (it differs only in stages, schedule, raster or swizzle) takes
 * the registers of one compiled before, without another compile. A
 * candidate that does not compile moves to the end. */
void ptxasRank(Search *s, int ptxasTop) {
  const char *ledgerPath = s->options->ledgerPath;
  Ranked *ranked = s->ranked;
  long numRanked = s->numRanked;
  FILE *append = fopen(ledgerPath, "a");
  if (!append)
    fprintf(stderr, "cake-evolve: cannot append the ptxas check to '%s'\n",
            ledgerPath);
  long tried = 0, inferred = 0, demoted = 0, spilling = 0, shown = 0;
  int unavailable = 0;
  while (tried < 8L * ptxasTop) {
    qsort(ranked, (size_t)(numRanked - demoted), sizeof *ranked, byPredicted);
    long k = 0;
    while (k < ptxasTop && k < numRanked - demoted && ranked[k].checked)
      ++k;
    if (k == ptxasTop || k == numRanked - demoted)
      break;
    Ranked *r = &ranked[k];
    registerSignature(r->tactics, r->signature, sizeof r->signature);
    const Ranked *like = NULL;
    for (long j = 0; j < numRanked - demoted && !like; ++j)
      if (ranked[j].compiled && !strcmp(r->signature, ranked[j].signature))
        like = &ranked[j];
    PtxasInfo info = {0};
    if (like) {
      info.ok = 1;
      info.registers = like->registers;
      info.spillStores = like->spillStores;
      info.spillLoads = like->spillLoads;
      ++inferred;
    } else {
      ptxasCheck(s->ctx, s->seed, s->options->seedPath, r->pipeline, &info);
      ++tried;
    }
    /* ptxas missing, or failing on the very first (best-ranked)
     * candidate: most likely the toolkit, not the candidates; better no
     * check than demoting the best of them. */
    if (!info.ok && (strstr(info.error, "cannot run") ||
                     (tried == 1 && k == 0 && demoted == 0 &&
                      strstr(info.error, "ptxas failed")))) {
      printf("  ptxas check skipped: %s\n", info.error);
      unavailable = 1;
      break;
    }
    double before = r->predictedNs;
    int repredicted = 0;
    if (info.ok) {
      r->checked = 1;
      r->compiled = !like;
      r->registers = info.registers;
      r->spillStores = info.spillStores;
      r->spillLoads = info.spillLoads;
      repredicted = repredict(s, r);
    }
    cJSON *line = cJSON_CreateObject();
    cJSON_AddStringToObject(line, "id", r->id);
    cJSON_AddStringToObject(line, "stage", "compiled");
    cJSON *px = cJSON_AddObjectToObject(line, "ptxas");
    if (info.ok) {
      if (like)
        cJSON_AddStringToObject(px, "like", like->id);
      cJSON_AddNumberToObject(px, "registers", info.registers);
      cJSON_AddNumberToObject(px, "spill_stores", info.spillStores);
      cJSON_AddNumberToObject(px, "spill_loads", info.spillLoads);
      if (repredicted)
        cJSON_AddNumberToObject(line, "predicted_ns", r->predictedNs);
      else
        cJSON_AddStringToObject(line, "cost_error",
                                "the model refused the ptxas facts");
    } else {
      cJSON_AddStringToObject(px, "error", info.error);
    }
    char *text = cJSON_PrintUnformatted(line);
    if (append)
      fprintf(append, "%s\n", text);
    cJSON_free(text);
    cJSON_Delete(line);
    if (info.ok) {
      if (info.spillStores + info.spillLoads > 0) {
        ++spilling;
        if (shown++ < 4)
          printf("  ptxas: %s spills %d + %d bytes at %d registers: "
                 "predicted %.1f -> %.1f us: %s\n",
                 r->id, info.spillStores, info.spillLoads, info.registers,
                 before / 1e3, r->predictedNs / 1e3, r->tactics);
      }
      continue;
    }
    if (shown++ < 4)
      printf("  ptxas: %s verified but %s (moved to the end; proposed "
             "rule): %s\n",
             r->id, info.error, r->tactics);
    Ranked moved = *r;
    memmove(r, r + 1, (size_t)(numRanked - k - 1) * sizeof *ranked);
    ranked[numRanked - 1] = moved;
    ++demoted;
  }
  if (append)
    fclose(append);
  if (!unavailable)
    printf("  ptxas on the best ranked: %ld compiled, %ld like a compiled "
           "neighbour, %ld spill (re-predicted with their spills), %ld "
           "moved to the end (no cubin)\n",
           tried, inferred, spilling, demoted);
}
