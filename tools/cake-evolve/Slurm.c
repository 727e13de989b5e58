// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Slurm.c - Stage 3 through a Slurm job array ------------------------===*\
|*                                                                            *|
|* Slurm schedules; cake-evolve only shards and merges. The export's          *|
|* candidates are dealt round-robin into --shards manifests (task i takes     *|
|* candidates i, i + n, ...; the seed and the peer's timing go to task 0),    *|
|* and DIR/slurm/stage3.sbatch runs the measurement command on shard          *|
|* $SLURM_ARRAY_TASK_ID with the GPUs and time limit it asks for. The         *|
|* script is submitted with sbatch and the tasks' states are read back with   *|
|* scontrol as they finish: a completed task's results go to the ledger at    *|
|* once; a task that ends otherwise (FAILED, TIMEOUT, CANCELLED, NODE_FAIL,   *|
|* OUT_OF_MEMORY, ...) leaves its candidates not measured, with that state.   *|
|* With --slurm-print the script is written and printed, not submitted.       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#define _XOPEN_SOURCE 700 /* popen, nanosleep, realpath */

#include "Evolve.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define MAX_SHARDS 1000
#define DEFAULT_SHARDS 16
#define POLL_SECONDS 1

/* A Slurm task state that will not change any more. */
static int isFinal(const char *state) {
  static const char *const running[] = {
      "PENDING",      "RUNNING",      "CONFIGURING",   "COMPLETING",
      "REQUEUED",     "RESIZING",     "SUSPENDED",     "STOPPED",
      "SIGNALING",    "STAGE_OUT",    "RESV_DEL_HOLD", "REQUEUE_FED",
      "REQUEUE_HOLD", "SPECIAL_EXIT", "POWER_UP_NODE"};
  for (size_t k = 0; k < sizeof running / sizeof *running; ++k)
    if (!strcmp(state, running[k]))
      return 0;
  return 1;
}

/* The value of `key=` in one line of `scontrol -o show job` (up to the
 * next space); not for its first field. */
static void field(const char *line, const char *key, char *out, size_t size) {
  out[0] = 0;
  char pattern[64];
  snprintf(pattern, sizeof pattern, " %s=", key);
  const char *p = strstr(line, pattern);
  if (!p)
    return;
  p += strlen(pattern);
  size_t n = strcspn(p, " \n");
  snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), p);
}

/* A folder name the script can hold between double quotes. */
static int safeForScript(const char *path) {
  return !strpbrk(path, "\"$`\\\n");
}

/* The job array script: one task per shard. */
static int writeScript(const Stage3 *st, const char *slurmDir, int shards,
                       int perShard, const char *path) {
  const EvolveOptions *o = st->options;
  char manifest[4400], results[4400];
  snprintf(manifest, sizeof manifest, "%s/shard-${SLURM_ARRAY_TASK_ID}.json",
           slurmDir);
  snprintf(results, sizeof results, "%s/results-${SLURM_ARRAY_TASK_ID}.json",
           slurmDir);
  char *command = substituteCommand(o->measure, manifest, results, '"');
  /* Each candidate may take --measure-timeout; Slurm counts minutes. */
  long minutes = ((long)o->measureTimeout * perShard + 59) / 60 + 1;
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "cake-evolve: cannot write '%s'\n", path);
    free(command);
    return 0;
  }
  fprintf(f, "#!/bin/sh\n");
  fprintf(f, "# cake-evolve stage 3: task i measures %s/shard-i.json\n",
          slurmDir);
  fprintf(f, "#SBATCH --job-name=cake-stage3\n");
  fprintf(f, "#SBATCH --array=0-%d\n", shards - 1);
  fprintf(f, "#SBATCH --ntasks=1\n");
  fprintf(f, "#SBATCH --time=%ld\n", minutes);
  if (o->slurmGpus > 0)
    fprintf(f, "#SBATCH --gres=gpu:%d\n", o->slurmGpus);
  if (o->slurmPartition)
    fprintf(f, "#SBATCH --partition=%s\n", o->slurmPartition);
  fprintf(f, "#SBATCH --output=%s/task-%%a.log\n", slurmDir);
  /* The task starts where cake-evolve ran (sbatch's default), so the
   * command's relative paths hold; the shards' are absolute. */
  fprintf(f, "set -eu\n");
  fprintf(f, "%s\n", command);
  free(command);
  return fclose(f) == 0;
}

int measureWithSlurm(Stage3 *st) {
  const EvolveOptions *o = st->options;
  char slurmDir[4200], path[4400], *absolute = realpath(st->dir, NULL);
  snprintf(slurmDir, sizeof slurmDir, "%s/slurm",
           absolute ? absolute : st->dir);
  free(absolute);
  if (!safeForScript(slurmDir)) {
    fprintf(stderr,
            "cake-evolve: --measure-with slurm: the export folder "
            "'%s' holds a character the job script cannot quote "
            "(\" $ ` \\ or a newline)\n",
            st->dir);
    return 1;
  }
  mkdir(slurmDir, 0777);
  int *pending = calloc((size_t)st->numCandidates + 1, sizeof *pending);
  int numPending = 0;
  for (int i = 0; i < st->numCandidates; ++i)
    if (!st->settled[i])
      pending[numPending++] = i;
  int shards = o->shards > 0 ? o->shards : DEFAULT_SHARDS;
  if (shards > numPending)
    shards = numPending;
  if (shards > MAX_SHARDS)
    shards = MAX_SHARDS;
  if (shards == 0) {
    printf("stage 3: every candidate was measured before\n");
    free(pending);
    return 0;
  }
  /* Task i: candidates i, i + shards, ... (the seed, first, in task 0). */
  int perShard = (numPending + shards - 1) / shards;
  int *items = calloc((size_t)perShard + 1, sizeof *items);
  unsigned char *missing = calloc((size_t)perShard + 1, 1);
  for (int t = 0; t < shards; ++t) {
    int n = 0;
    for (int i = t; i < numPending; i += shards)
      items[n++] = pending[i];
    snprintf(path, sizeof path, "%s/shard-%d.json", slurmDir, t);
    if (!stage3WriteShard(st, items, n, path)) {
      free(items);
      free(missing);
      free(pending);
      return 1;
    }
    snprintf(path, sizeof path, "%s/results-%d.json", slurmDir, t);
    remove(path);
  }
  char script[4400];
  snprintf(script, sizeof script, "%s/stage3.sbatch", slurmDir);
  if (!writeScript(st, slurmDir, shards, perShard, script)) {
    free(items);
    free(missing);
    free(pending);
    return 1;
  }
  printf("stage 3: %d candidates in %d Slurm array tasks: %s\n", numPending,
         shards, script);
  if (o->slurmPrint) {
    char *text = readFile(script);
    printf("%s", text ? text : "");
    free(text);
    printf("stage 3: submit it with `sbatch %s`; then, for each task i,\n"
           "  cake-evolve --import %s/results-i.json --ledger %s\n",
           script, slurmDir, o->ledgerPath);
    free(items);
    free(missing);
    free(pending);
    return MEASURE_LATER;
  }

  char command[4600], line[8192];
  snprintf(command, sizeof command, "sbatch --parsable '%s' 2>&1", script);
  FILE *p = popen(command, "r");
  char jobId[64] = "";
  Buffer out = {0};
  while (p && fgets(line, sizeof line, p)) {
    bufferAppend(&out, line, strlen(line));
    if (!jobId[0] && line[0] >= '0' && line[0] <= '9')
      snprintf(jobId, sizeof jobId, "%.*s", (int)strspn(line, "0123456789"),
               line);
  }
  int rc = p ? pclose(p) : -1;
  if (rc != 0 || !jobId[0]) {
    fprintf(stderr, "cake-evolve: sbatch did not take %s: %s", script,
            out.data ? out.data : "(no output; is Slurm installed?)\n");
    free(out.data);
    free(items);
    free(missing);
    free(pending);
    return 1;
  }
  free(out.data);
  printf("stage 3: Slurm job %s\n", jobId);
  fflush(stdout);

  /* The tasks' states until each is final; each task's results go to the
   * ledger when it completes. */
  unsigned char *done = calloc((size_t)shards, 1);
  int remaining = shards, status = 0;
  struct timespec nap = {POLL_SECONDS, 0};
  while (remaining > 0) {
    snprintf(command, sizeof command, "scontrol -o show job %s 2>&1", jobId);
    p = popen(command, "r");
    int known = 0;
    while (p && fgets(line, sizeof line, p)) {
      char task[32], state[64], exitCode[32];
      field(line, "ArrayTaskId", task, sizeof task);
      field(line, "JobState", state, sizeof state);
      field(line, "ExitCode", exitCode, sizeof exitCode);
      if (!state[0])
        continue;
      ++known;
      char *end;
      long t = strtol(task, &end, 10);
      if (!task[0] || *end || t < 0 || t >= shards || done[t] ||
          !isFinal(state))
        continue; /* pending ranges ("1-3") and tasks still running */
      done[t] = 1;
      --remaining;
      int n = 0;
      for (int i = (int)t; i < numPending; i += shards)
        items[n++] = pending[i];
      snprintf(path, sizeof path, "%s/results-%ld.json", slurmDir, t);
      int settled = !strcmp(state, "COMPLETED")
                        ? stage3Collect(st, items, n, path, missing)
                        : 0;
      printf("stage 3: task %ld %s (exit %s): %d of %d candidates measured\n",
             t, state, exitCode, settled, n);
      for (int i = 0; i < n; ++i) {
        if (settled && !missing[i])
          continue;
        char why[4800];
        snprintf(why, sizeof why,
                 "Slurm task %ld of job %s ended %s (exit "
                 "%s); see %s/task-%ld.log",
                 t, jobId, state, exitCode, slurmDir, t);
        stage3GiveUp(st, items[i], why, 1);
      }
      fflush(stdout);
    }
    if (p)
      pclose(p);
    if (!known) {
      /* The job left scontrol's view (MinJobAge): what is on disk is all
       * there is. */
      for (int t = 0; t < shards; ++t) {
        if (done[t])
          continue;
        int n = 0;
        for (int i = t; i < numPending; i += shards)
          items[n++] = pending[i];
        snprintf(path, sizeof path, "%s/results-%d.json", slurmDir, t);
        int settled = stage3Collect(st, items, n, path, missing);
        for (int i = 0; i < n; ++i)
          if (!settled || missing[i])
            stage3GiveUp(st, items[i],
                         "Slurm no longer knows the job and its task left "
                         "no result",
                         1);
      }
      fprintf(stderr, "cake-evolve: scontrol no longer knows job %s\n", jobId);
      status = 1;
      break;
    }
    if (remaining > 0)
      nanosleep(&nap, NULL);
  }
  free(done);
  free(items);
  free(missing);
  free(pending);
  return status;
}
