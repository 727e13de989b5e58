// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Ptxas.c - ptxas on the best ranked candidates ----------------------===*\
|*                                                                            *|
|* The cost model does not see register spills (it has no register            *|
|* allocator): ptxas compiles the best ranked candidates until K compile      *|
|* without spilling, and those that spill, or do not compile, move to the     *|
|* end of the ranking.                                                        *|
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

/* ptxas on the best ranked, until `ptxasTop` compile without spilling (at
 * most 8 times as many tries: grid neighbours that differ only in stages or
 * schedule spill alike): a candidate that spills, or does not compile,
 * moves to the end of the ranking. */
void ptxasRank(Search *s, int ptxasTop) {
  const char *ledgerPath = s->options->ledgerPath;
  Ranked *ranked = s->ranked;
  long numRanked = s->numRanked;
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
      ptxasCheck(s->ctx, s->seed, s->options->seedPath, ranked[k].pipeline,
                 &info);
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
