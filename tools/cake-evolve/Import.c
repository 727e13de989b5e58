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

/* Measured times closer than this (relative) are not told apart: two
 * builds of one kernel timed in one run differ by 1-3 % (attention runs
 * 27-29), so a pair within it says nothing about the model's order. */
static const double kMeasuredNoise = 0.02;

/* Kendall tau-b between predictions a and measurements b, over the pairs
 * whose measurements differ by at least `noise` of the smaller (all pairs
 * with noise 0); *counted, if given, gets how many pairs that is. */
static double kendall(const double *a, const double *b, int n, double noise,
                      int *counted) {
  long conc = 0, disc = 0, ta = 0, tb = 0;
  int kept = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double da = a[i] - a[j], db = b[i] - b[j];
      if (noise > 0 && fabs(db) < noise * fmin(b[i], b[j]))
        continue;
      ++kept;
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
  if (counted)
    *counted = kept;
  double den = (double)(conc + disc + ta) * (double)(conc + disc + tb);
  return den > 0 ? (double)(conc - disc) / sqrt(den) : 0;
}

/* One ledger line. */
static void writeLine(FILE *ledger, cJSON *line) {
  char *s = cJSON_PrintUnformatted(line);
  fprintf(ledger, "%s\n", s);
  cJSON_free(s);
  cJSON_Delete(line);
}

/* The candidate's predicted time from its ledger line of stages 1 and 2
 * (the first with its id); 0 if it was not ranked. */
static double predictionOf(const char *ledgerText, const char *id) {
  /* The last of its lines with a prediction: the ptxas check's
   * re-prediction comes after stage 2's. */
  char key[96];
  snprintf(key, sizeof key, "{\"id\":\"%.64s\"", id);
  double predicted = 0;
  for (const char *line = ledgerText ? strstr(ledgerText, key) : NULL; line;
       line = strstr(line + 1, key)) {
    const char *p = strstr(line, "\"predicted_ns\":");
    const char *eol = strchr(line, '\n');
    if (p && (!eol || p < eol))
      predicted = strtod(p + strlen("\"predicted_ns\":"), NULL);
  }
  return predicted;
}

static int byDouble(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void appendMeasurements(const cJSON *doc, const char *ledgerText,
                        FILE *ledger) {
  const cJSON *r;
  cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "rows")) {
    const cJSON *cand = cJSON_GetObjectItemCaseSensitive(r, "candidate");
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(r, "ms");
    if (!cJSON_IsString(cand) || !cJSON_IsNumber(ms))
      continue;
    int ok = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "ok"));
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "id", cand->valuestring);
    cJSON_AddStringToObject(out, "stage", "measured");
    cJSON_AddNumberToObject(out, "measured_ns", ms->valuedouble * 1e6);
    cJSON_AddBoolToObject(out, "ok", ok);
    double predicted = predictionOf(ledgerText, cand->valuestring);
    if (ok && predicted > 0)
      cJSON_AddNumberToObject(out, "predicted_ns", predicted);
    writeLine(ledger, out);
  }
  cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "findings")) {
    const cJSON *cand = cJSON_GetObjectItemCaseSensitive(r, "candidate");
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(r, "result");
    if (!cJSON_IsString(cand))
      continue;
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "id", cand->valuestring);
    cJSON_AddStringToObject(out, "stage", "failed-on-gpu");
    cJSON_AddStringToObject(out, "result",
                            cJSON_IsString(res) ? res->valuestring : "?");
    writeLine(ledger, out);
  }
  cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "failed")) {
    const cJSON *cand = cJSON_GetObjectItemCaseSensitive(r, "candidate");
    if (!cJSON_IsString(cand))
      continue;
    /* {"id", "stage", "reason", ...}: the id first, as on every line. */
    cJSON *line = cJSON_CreateObject();
    cJSON_AddStringToObject(line, "id", cand->valuestring);
    cJSON_AddStringToObject(line, "stage", "not-measured");
    const cJSON *field;
    cJSON_ArrayForEach(field, r) {
      if (strcmp(field->string, "candidate"))
        cJSON_AddItemToObject(line, field->string, cJSON_Duplicate(field, 1));
    }
    writeLine(ledger, line);
  }
}

void reportMeasurements(const cJSON *doc, const char *ledgerText) {
  const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "rows");
  int n = cJSON_GetArraySize(rows);
  double *pred = calloc((size_t)n + 1, sizeof *pred);
  double *meas = calloc((size_t)n + 1, sizeof *meas);
  char(*ids)[64] = calloc((size_t)n + 1, 64);
  int m = 0, wrong = 0;
  double seedNs = 0;
  const cJSON *r;
  cJSON_ArrayForEach(r, rows) {
    const cJSON *cand = cJSON_GetObjectItemCaseSensitive(r, "candidate");
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(r, "ms");
    const cJSON *ok = cJSON_GetObjectItemCaseSensitive(r, "ok");
    if (!cJSON_IsString(cand) || !cJSON_IsNumber(ms))
      continue;
    if (!strcmp(cand->valuestring, "seed") && cJSON_IsTrue(ok))
      seedNs = ms->valuedouble * 1e6;
    double predicted = predictionOf(ledgerText, cand->valuestring);
    if (!cJSON_IsTrue(ok)) {
      ++wrong;
      printf("  proposed rule: %s passed cake-verify but computed a wrong "
             "result (minimize it and add a rule)\n", cand->valuestring);
    } else if (predicted > 0) {
      pred[m] = predicted;
      meas[m] = ms->valuedouble * 1e6;
      snprintf(ids[m], 64, "%.63s", cand->valuestring);
      ++m;
    }
  }
  int failed = 0, notMeasured = 0;
  cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "findings")) {
    const cJSON *cand = cJSON_GetObjectItemCaseSensitive(r, "candidate");
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(r, "result");
    if (!cJSON_IsString(cand))
      continue;
    ++failed;
    printf("  proposed rule: %s passed cake-verify but failed on the GPU "
           "(%s): minimize it and add a rule\n",
           cand->valuestring, cJSON_IsString(res) ? res->valuestring : "?");
  }
  cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(doc, "failed")) {
    const cJSON *cand = cJSON_GetObjectItemCaseSensitive(r, "candidate");
    const cJSON *why = cJSON_GetObjectItemCaseSensitive(r, "reason");
    if (!cJSON_IsString(cand))
      continue;
    ++notMeasured;
    printf("  not measured: %s (%s)\n", cand->valuestring,
           cJSON_IsString(why) ? why->valuestring : "?");
  }
  printf("  measured: %d with a prediction, %d wrong, %d failed on the GPU", m,
         wrong, failed);
  if (notMeasured)
    printf(", %d not measured", notMeasured);
  printf("\n");
  if (m >= 2) {
    int bestM = 0, bestP = 0;
    for (int i = 1; i < m; ++i) {
      if (meas[i] < meas[bestM])
        bestM = i;
      if (pred[i] < pred[bestP])
        bestP = i;
    }
    /* Candidates predicted equal first: the regret is the mean over them
     * (what a pick among them costs on average), not the first's in the
     * file's order. */
    int firsts = 0, tied = 0, pairs = m * (m - 1) / 2;
    double regret = 0;
    for (int i = 0; i < m; ++i) {
      if (pred[i] == pred[bestP]) {
        ++firsts;
        regret += meas[i] / meas[bestM] - 1;
      }
      for (int j = i + 1; j < m; ++j)
        tied += pred[i] == pred[j];
    }
    regret /= firsts;
    /* The best measured among the predicted top 8 (all of a tie at the
     * eighth place count), and the median absolute error. */
    double *sorted = malloc((size_t)m * sizeof *sorted);
    memcpy(sorted, pred, (size_t)m * sizeof *sorted);
    qsort(sorted, (size_t)m, sizeof *sorted, byDouble);
    double eighth = sorted[m < 8 ? m - 1 : 7], bestTop8 = 0;
    for (int i = 0; i < m; ++i) {
      if (pred[i] <= eighth && (!bestTop8 || meas[i] < bestTop8))
        bestTop8 = meas[i];
      sorted[i] = fabs(pred[i] - meas[i]) / meas[i];
    }
    qsort(sorted, (size_t)m, sizeof *sorted, byDouble);
    double medianError =
        m % 2 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;
    free(sorted);
    printf("  cost model on this run: Kendall tau %.3f, top-1 regret %.1f%%",
           kendall(pred, meas, m, 0, NULL), 100 * regret);
    if (firsts > 1)
      printf(" (mean over %d predicted equal first)", firsts);
    printf("\n  predicted equal: %d of %d pairs; best of the predicted top "
           "8: %.3f of the fastest; median absolute error %.1f%%\n",
           tied, pairs, meas[bestM] / bestTop8, 100 * medianError);
    int apart = 0;
    double tauApart = kendall(pred, meas, m, kMeasuredNoise, &apart);
    printf("  measured within %.0f%% of each other: %d of %d pairs (a rerun "
           "can reverse them); Kendall tau over the other %d: %.3f\n",
           100 * kMeasuredNoise, pairs - apart, pairs, apart, tauApart);
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
}

/* Stage 4 for measurements made elsewhere: bench/cost/measure.py's
 * results ({"rows": [{candidate, ms, ok}], "findings": [{candidate,
 * result}]}) joined with the ledger's predictions. */
int importResults(const char *resultsPath, const char *ledgerPath) {
  char *text = readFile(resultsPath);
  char *ledgerText = readFile(ledgerPath);
  cJSON *doc = text ? cJSON_Parse(text) : NULL;
  FILE *ledger = NULL;
  int status = 1;
  if (!text || !ledgerText) {
    fprintf(stderr, "cake-evolve: cannot read '%s'\n",
            text ? ledgerPath : resultsPath);
  } else if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(doc, "rows"))) {
    fprintf(stderr,
            "cake-evolve: %s: expected {\"rows\": [...]} from "
            "bench/cost/measure.py\n",
            resultsPath);
  } else if (!(ledger = fopen(ledgerPath, "a"))) {
    fprintf(stderr, "cake-evolve: cannot append to '%s'\n", ledgerPath);
  } else {
    printf("cake-evolve: importing %s\n", resultsPath);
    appendMeasurements(doc, ledgerText, ledger);
    fclose(ledger);
    reportMeasurements(doc, ledgerText);
    status = 0;
  }
  cJSON_Delete(doc);
  free(text);
  free(ledgerText);
  return status;
}
