// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Agent.c - The agent protocol's drop folder -------------------------===*\
|*                                                                            *|
|* An agent that does not link the C API writes NAME.cake.mlir files into a   *|
|* folder; each gets NAME.feedback.json with cake-verify's verdict and, if    *|
|* legal, the cost model's report (docs/agents.md).                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Evolve.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The agent protocol (docs/agents.md): every NAME.cake.mlir in `dir` that
 * has no NAME.feedback.json newer than itself is verified and, if legal,
 * predicted; the verdict goes to NAME.feedback.json. A first line
 * "// cake-shapes: 8192x8192,..." gives the problem (else `shapes`). */
int agentDir(const char *dir, const char *shapes) {
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
      MlirLogicalResult cr = predict(ctx, &verified, problem, "", &report, &ns);
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
