// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Import.c - Stage 4: measurements back into the ledger --------------===*\
|*                                                                            *|
|* Joins bench/cost/measure.py's results with the ledger's predictions:       *|
|* every measurement becomes a ledger line, and the report gives the cost     *|
|* model's rank quality on the run, the failures (proposed rules) and the     *|
|* large mispredictions (proposed calibrations).                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Evolve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Stage 4 for measurements made elsewhere: bench/cost/measure.py's
 * results ({"rows": [{candidate, ms, ok}], "findings": [{candidate,
 * result}]}) joined with the ledger's predictions. */
int importResults(const char *resultsPath, const char *ledgerPath) {
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
