// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Workers.c - Stage 3 on every GPU of this host ----------------------===*\
|*                                                                            *|
|* One measurement worker per GPU, fed from one queue of candidates. A        *|
|* worker runs the measurement command on one candidate at a time, in a       *|
|* child process group pinned to its device (CUDA_VISIBLE_DEVICES) and        *|
|* killed after --measure-timeout; each result goes to the ledger as it       *|
|* arrives. A candidate whose child crashes, hangs or writes no result is     *|
|* retried once on another worker, then recorded as not measured with the     *|
|* reason; a worker that fails twice in a row (a lost GPU) is retired, so a   *|
|* fault costs only the candidates it was running.                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L /* fork, setpgid, nanosleep, sigaction */

#include "Evolve.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_WORKERS 64
#define MAX_ATTEMPTS 2          /* the first and one retry elsewhere */
#define RETIRE_AFTER_FAILURES 2 /* in a row: the worker's GPU is lost */

typedef struct {
  char gpu[128]; /* CUDA_VISIBLE_DEVICES for its children */
  pid_t pid;     /* 0: idle */
  int item;
  struct timespec start;
  int failuresInARow, retired, measured;
} Worker;

static volatile sig_atomic_t interrupted;
static void onInterrupt(int sig) { interrupted = sig; }

/* The devices to run workers on: --gpus (a count or a list), else
 * CUDA_VISIBLE_DEVICES, else one per line of `nvidia-smi -L`, else "0". */
static int listGpus(const char *spec, Worker *w) {
  char buf[4096] = "";
  int n = 0;
  if (spec && *spec) {
    char *end;
    long count = strtol(spec, &end, 10);
    if (!*end && !strchr(spec, ',') && count >= 1 && count <= MAX_WORKERS) {
      for (n = 0; n < count; ++n)
        snprintf(w[n].gpu, sizeof w[n].gpu, "%d", n);
      return n;
    }
    snprintf(buf, sizeof buf, "%s", spec);
  } else if (getenv("CUDA_VISIBLE_DEVICES") &&
             *getenv("CUDA_VISIBLE_DEVICES")) {
    snprintf(buf, sizeof buf, "%s", getenv("CUDA_VISIBLE_DEVICES"));
  } else {
    FILE *p = popen("nvidia-smi -L 2>/dev/null", "r");
    char line[512];
    while (p && fgets(line, sizeof line, p) && n < MAX_WORKERS)
      if (!strncmp(line, "GPU ", 4)) {
        snprintf(w[n].gpu, sizeof w[n].gpu, "%d", n);
        ++n;
      }
    if (p)
      pclose(p);
    if (n == 0)
      snprintf(w[n++].gpu, sizeof w[0].gpu, "0");
    return n;
  }
  for (char *tok = strtok(buf, ","); tok && n < MAX_WORKERS;
       tok = strtok(NULL, ","))
    if (*tok)
      snprintf(w[n++].gpu, sizeof w[0].gpu, "%s", tok);
  return n;
}

/* The last non-empty line of a file, for a failure's reason. */
static void lastLine(const char *path, char *out, size_t size) {
  out[0] = 0;
  char *text = readFile(path);
  if (!text)
    return;
  size_t n = strlen(text);
  while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
    text[--n] = 0;
  char *line = strrchr(text, '\n');
  snprintf(out, size, "%.200s", line ? line + 1 : text);
  free(text);
}

/* Starts candidate `item` on worker `w`: its manifest, then the command in
 * a child process group with the worker's device and a log. */
static int startCandidate(Stage3 *st, Worker *w, int item, const char *id) {
  char manifest[4300], results[4300], log[4300];
  snprintf(manifest, sizeof manifest, "%s/stage3/%s.json", st->dir, id);
  snprintf(results, sizeof results, "%s/stage3/%s.results.json", st->dir, id);
  snprintf(log, sizeof log, "%s/stage3/%s.log", st->dir, id);
  if (!stage3WriteShard(st, &item, 1, manifest))
    return 0;
  remove(results);
  char *command =
      substituteCommand(st->options->measure, manifest, results, '\'');
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    perror("cake-evolve: fork");
    free(command);
    return 0;
  }
  if (pid == 0) {
    setpgid(0, 0);
    setenv("CUDA_VISIBLE_DEVICES", w->gpu, 1);
    int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0666);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
  }
  setpgid(pid, pid);
  free(command);
  w->pid = pid;
  w->item = item;
  clock_gettime(CLOCK_MONOTONIC, &w->start);
  printf("stage 3: %s on GPU %s\n", id, w->gpu);
  return 1;
}

/* The next pending candidate for worker `wi`: a retry goes to a worker it
 * has not failed on while another one is left. -1 if none. */
static int nextItem(const int *pending, int numPending, const int *lastWorker,
                    int wi, int activeWorkers) {
  for (int i = 0; i < numPending; ++i)
    if (lastWorker[pending[i]] != wi || activeWorkers == 1)
      return i;
  return -1;
}

int measureOnWorkers(Stage3 *st) {
  const EvolveOptions *o = st->options;
  Worker workers[MAX_WORKERS];
  memset(workers, 0, sizeof workers);
  int numWorkers = listGpus(o->gpus, workers);
  int n = st->numCandidates;
  int *pending = calloc((size_t)n + 1, sizeof *pending);
  int *attempts = calloc((size_t)n + 1, sizeof *attempts);
  int *lastWorker = calloc((size_t)n + 1, sizeof *lastWorker);
  char(*reasons)[512] = calloc((size_t)n + 1, 512);
  int numPending = 0;
  for (int i = 0; i < n; ++i) {
    lastWorker[i] = -1;
    if (!st->settled[i])
      pending[numPending++] = i;
  }
  printf("stage 3: %s\n", o->measure);
  printf("stage 3: %d candidates on %d worker%s (GPU", numPending, numWorkers,
         numWorkers == 1 ? "" : "s");
  for (int w = 0; w < numWorkers; ++w)
    printf("%s %s", w ? "," : "", workers[w].gpu);
  printf("), each with a limit of %d s\n", o->measureTimeout);

  struct sigaction sa, oldInt, oldTerm;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = onInterrupt;
  sigemptyset(&sa.sa_mask);
  interrupted = 0;
  sigaction(SIGINT, &sa, &oldInt);
  sigaction(SIGTERM, &sa, &oldTerm);

  int status = 0, running = 0;
  struct timespec nap = {0, 50 * 1000 * 1000};
  while ((numPending > 0 || running > 0) && !interrupted) {
    int active = 0;
    for (int w = 0; w < numWorkers; ++w)
      active += !workers[w].retired;
    /* Idle workers take the next candidates. */
    for (int w = 0; w < numWorkers && numPending > 0; ++w) {
      if (workers[w].retired || workers[w].pid)
        continue;
      int i = nextItem(pending, numPending, lastWorker, w, active);
      if (i < 0)
        continue;
      int item = pending[i];
      memmove(pending + i, pending + i + 1,
              (size_t)(numPending - i - 1) * sizeof *pending);
      --numPending;
      ++attempts[item];
      const cJSON *id =
          cJSON_GetObjectItemCaseSensitive(st->candidates[item], "id");
      if (!startCandidate(st, &workers[w], item, id->valuestring)) {
        status = 1;
        stage3GiveUp(st, item, "could not start its measurement",
                     attempts[item]);
        continue;
      }
      ++running;
    }
    /* Finished or overdue children. */
    for (int w = 0; w < numWorkers; ++w) {
      Worker *wk = &workers[w];
      if (!wk->pid)
        continue;
      int wstatus;
      char why[512] = "";
      pid_t r = waitpid(wk->pid, &wstatus, WNOHANG);
      struct timespec now;
      clock_gettime(CLOCK_MONOTONIC, &now);
      double seconds = (double)(now.tv_sec - wk->start.tv_sec) +
                       (double)(now.tv_nsec - wk->start.tv_nsec) / 1e9;
      if (r == 0 && seconds < o->measureTimeout)
        continue;
      if (r == 0) {
        kill(-wk->pid, SIGKILL);
        waitpid(wk->pid, &wstatus, 0);
        snprintf(why, sizeof why,
                 "did not finish in %d s and was killed (--measure-timeout)",
                 o->measureTimeout);
      } else {
        /* Whatever the command left running in its group goes too. */
        kill(-wk->pid, SIGKILL);
      }
      int item = wk->item;
      const char *id =
          cJSON_GetObjectItemCaseSensitive(st->candidates[item], "id")
              ->valuestring;
      char results[4300], log[4300], tail[256];
      snprintf(results, sizeof results, "%s/stage3/%s.results.json", st->dir,
               id);
      snprintf(log, sizeof log, "%s/stage3/%s.log", st->dir, id);
      if (!why[0] && WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) {
        unsigned char missing = 0;
        if (stage3Collect(st, &item, 1, results, &missing) == 1) {
          printf("stage 3: %s done on GPU %s (%.1f s)\n", id, wk->gpu, seconds);
          wk->failuresInARow = 0;
          ++wk->measured;
        } else {
          snprintf(why, sizeof why,
                   "exited with status 0 but %.300s holds "
                   "no result for it",
                   results);
        }
      } else if (!why[0]) {
        lastLine(log, tail, sizeof tail);
        if (WIFEXITED(wstatus))
          snprintf(why, sizeof why, "exited with status %d%s%s",
                   WEXITSTATUS(wstatus), tail[0] ? ": " : "", tail);
        else
          snprintf(why, sizeof why, "died of signal %d%s%s", WTERMSIG(wstatus),
                   tail[0] ? ": " : "", tail);
      }
      wk->pid = 0;
      --running;
      if (!why[0])
        continue;
      snprintf(reasons[item], 512, "GPU %.64s: %.400s", wk->gpu, why);
      lastWorker[item] = w;
      if (++wk->failuresInARow >= RETIRE_AFTER_FAILURES) {
        wk->retired = 1;
        printf("stage 3: the worker on GPU %s failed %d times in a row and "
               "is retired\n",
               wk->gpu, RETIRE_AFTER_FAILURES);
      }
      if (attempts[item] < MAX_ATTEMPTS) {
        printf("stage 3: %s on GPU %s %s; it is retried once\n", id, wk->gpu,
               why);
        pending[numPending++] = item;
      } else {
        printf("stage 3: %s on GPU %s %s; not measured after %d attempts\n", id,
               wk->gpu, why, attempts[item]);
        stage3GiveUp(st, item, reasons[item], attempts[item]);
      }
    }
    int left = 0;
    for (int w = 0; w < numWorkers; ++w)
      left += !workers[w].retired;
    if (!left) {
      for (int i = 0; i < numPending; ++i) {
        char why[600];
        snprintf(why, sizeof why,
                 "%s%sno worker left: every GPU's worker "
                 "failed twice in a row",
                 reasons[pending[i]], reasons[pending[i]][0] ? "; " : "");
        stage3GiveUp(st, pending[i], why, attempts[pending[i]]);
      }
      numPending = 0;
    }
    if (numPending > 0 || running > 0)
      nanosleep(&nap, NULL);
  }
  if (interrupted) {
    /* The children go with us; --measure-export DIR --resume continues. */
    for (int w = 0; w < numWorkers; ++w)
      if (workers[w].pid) {
        kill(-workers[w].pid, SIGKILL);
        waitpid(workers[w].pid, NULL, 0);
      }
    fprintf(stderr, "cake-evolve: stage 3 interrupted (signal %d)\n",
            (int)interrupted);
    status = 128 + interrupted;
  }
  sigaction(SIGINT, &oldInt, NULL);
  sigaction(SIGTERM, &oldTerm, NULL);
  for (int w = 0; w < numWorkers; ++w)
    printf("stage 3: GPU %s measured %d%s\n", workers[w].gpu,
           workers[w].measured, workers[w].retired ? " (retired)" : "");
  free(pending);
  free(attempts);
  free(lastWorker);
  free(reasons);
  return status;
}
