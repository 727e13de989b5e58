// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Evolve.h - cake-evolve's shared declarations ---------------*- C -*-===*\
|*                                                                            *|
|* What the files of cake-evolve share: its options, a growable string, the   *|
|* diagnostics a pipeline reports, the search space and its candidates, and   *|
|* one entry point per stage (cake-evolve.c runs them in order).              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_EVOLVE_EVOLVE_H
#define CAKE_EVOLVE_EVOLVE_H

#include "ToolSupport.h"
#include "cake-c/Dialect.h"
#include "cake-c/Pipeline.h"
#include "mlir-c/IR.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_TACTICS 16
#define MAX_RULES 64
#define MUTATE_TOP 8 /* candidates whose neighbours each round tries */
#define MAX_GRID 100000000L

/* What the command line asked for (cake-evolve --help lists it). */
typedef struct {
  const char *seedPath, *spacePath, *shapes, *ledgerPath;
  const char *calibration; /* a file, a GPU's name, or "" (the default) */
  int noGpu, top, resume, exportTop, mutateRounds;
  const char *exportDir, *importPath, *check, *agentPath, *measure;
  int measureTimeout, ptxasTop; /* ptxasTop < 0: the export's top */
  long sample;
  /* Stage 3: where the measurements run. */
  const char *measureExport; /* stage 3 and 4 over this existing export */
  const char *gpus;          /* the workers' devices; null: every GPU */
  const char *measureWith;   /* "local" (workers here) or "slurm" */
  const char *slurmPartition;
  int shards, slurmGpus, slurmPrint;
} EvolveOptions;

/*===----------------------------------------------------------------------===*
 * Common.c: strings, files, diagnostics, the context and the cost model
 *===----------------------------------------------------------------------===*/

/* Buffer, bufferAppend and appendCallback: tools/common/ToolSupport.h. */
/* An MlirStringCallback that writes to the FILE in `userData`. */
void writeCallback(MlirStringRef s, void *userData);
/* The whole file, NUL-terminated; null if it cannot be read. */
char *readFile(const char *path);
uint64_t fnv1a(const char *s, size_t n);

/* The errors a pipeline reported, as JSON, and the first rule id. */
typedef struct {
  cJSON *diagnostics; /* array */
  char firstRule[64];
} DiagnosticSink;

/* An MlirCakeDiagnosticCallback that adds errors to a DiagnosticSink. */
void onDiagnostic(const MlirCakeDiagnostic *d, void *userData);

/* A context with Cake's dialects whose own diagnostics (the cost model's)
 * collect in `diagnostics`. */
MlirContext createContext(Buffer *diagnostics);

/* Predicts the verified module printed in `ir` for `shapes` with
 * `calibration` (a file, a GPU's name such as "h100", or "" for the
 * target's reference GPU): the JSON report into `report` and the time into
 * `*ns`. */
MlirLogicalResult predict(MlirContext ctx, const Buffer *ir, const char *shapes,
                          const char *calibration, Buffer *report, double *ns);
/* The same with what ptxas reported on the kernel (`ptxasFacts`, the
 * attribute `{registers = R, spill_stores = S, spill_loads = L}`) set as
 * its cake.ptxas, from which the model takes occupancy and spills; null
 * predicts as `predict` does. */
MlirLogicalResult predictWithPtxas(MlirContext ctx, const Buffer *ir,
                                   const char *shapes, const char *calibration,
                                   const char *ptxasFacts, Buffer *report,
                                   double *ns);

/* Applies `pipeline` and then `lower` (a cake-lower pass with its options)
 * to the seed and parses the result; a null module if either fails, the
 * diagnostics in `sink`. */
MlirModule lowerCandidate(MlirContext ctx, const char *seed,
                          const char *seedPath, const char *pipeline,
                          const char *lower, DiagnosticSink *sink);

/*===----------------------------------------------------------------------===*
 * Space.c: the search space, sampling and ranking order
 *===----------------------------------------------------------------------===*/

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

/* Reads the space: {"tactics": [{"pass", "fixed"?, "option", "values"}]};
 * a value is a number, a string, or null (the tactic is not applied). */
int readSpace(const char *path, Tactic *tactics, int *numTactics);
/* The same from a parsed document; errors (naming `name`) go to `err`. */
int parseSpace(const cJSON *doc, const char *name, Tactic *tactics,
               int *numTactics, FILE *err);

long gcd(long a, long b);
/* The sampler's xorshift64 generator; --rng-seed sets its state. */
void rngSeed(uint64_t state);
uint64_t rngNext(void);

/* A ranked candidate for the summary. */
typedef struct {
  char id[24];
  long point; /* in the grid */
  char tactics[1024];
  char pipeline[1024];
  double predictedNs;
  double pipeBoundNs; /* the pipes' stage cycles per tile, summed */
  double busyNs;      /* the resources' busy times, summed */
  char bottleneck[32];
  int compiled; /* 1: ptxas compiled it */
  int checked;  /* 1: registers and spills known (compiled or inferred) */
  int registers, spillStores, spillLoads;
  char signature[1024]; /* registerSignature(tactics), once checked */
} Ranked;

/* The tactics of a candidate that may change what a thread keeps in
 * registers (all but stages, schedule, raster and swizzle). */
void registerSignature(const char *tactics, char *out, size_t size);
/* qsort order: by predicted time, then by the pipes' stage cycles, then
 * by the resources' busy time summed, then by id. */
int byPredicted(const void *a, const void *b);
/* Which of those keys ordered two candidates predicted equal (null when
 * their predictions differ). */
const char *tieBrokenBy(const Ranked *x, const Ranked *y);

/*===----------------------------------------------------------------------===*
 * Search.c: stages 1 and 2 (generate, verify, rank) and the summary
 *===----------------------------------------------------------------------===*/

/* Rejections per rule id. */
typedef struct {
  char rule[64];
  int count;
} RuleCount;

/* One search: the seed, the grid, the queue of grid points (the grid or a
 * sample, then each mutation round's neighbours), the ledger and what was
 * ranked. */
typedef struct {
  const EvolveOptions *options;
  MlirContext ctx;
  Buffer costDiagnostics;
  char *seed;
  Tactic tactics[MAX_TACTICS];
  int numTactics;
  long total;              /* grid points */
  long radix[MAX_TACTICS]; /* grid point = sum of digit[t] * radix[t] */
  long count;              /* initial candidates: the grid or a sample */
  long *queue, qlen, capacity;
  char (*parents)[24];
  unsigned char *visited;
  uint64_t *hashes;
  char (*hashIds)[24];
  long numHashes;
  Ranked *ranked;
  long numRanked;
  RuleCount rules[MAX_RULES];
  int numRules;
  long numRejected, numDuplicates, numSkipped, numCostFailed, mutated;
  int round;
  char *previous; /* the ledger's earlier text (--resume) */
  FILE *ledger;
  FILE *log; /* progress and errors; null: none (cake-mcp) */
} Search;

/* Reads the seed and the space, opens the ledger and queues the grid (or
 * a sample of it). Returns 0, or the exit status after saying why. */
int searchOpen(Search *s, const EvolveOptions *options);
/* For a search set up without files (cake-mcp's cake_evolve): `s` zeroed,
 * then options, seed (malloc'ed; searchClose frees it), tactics, ledger
 * (any FILE, closed by searchRun) and log (null for none) filled in;
 * queues the grid or a sample as searchOpen does. Returns 0, or 1 after
 * writing why to the log. */
int searchQueue(Search *s);
/* Stages 1 and 2 over the queue, mutation rounds included; every candidate
 * becomes a ledger line. Closes the ledger. */
void searchRun(Search *s);
/* A ranked candidate's prediction `ns` and its tie-break keys (pipes'
 * bound, busy time) and bottleneck, from its cost report (one kernel's
 * object of the JSON). */
void rankedFromReport(Ranked *x, const cJSON *report, double ns);
/* What stages 1 and 2 found (before the ptxas check). */
void searchPrintSummary(const Search *s);
/* The ranking as it stands, the best first, and the ledger's path. */
void searchPrintTop(const Search *s);
void searchClose(Search *s);

/*===----------------------------------------------------------------------===*
 * Ptxas.c: ptxas on the best ranked; their registers and spills re-rank them
 *===----------------------------------------------------------------------===*/

void ptxasRank(Search *s, int ptxasTop);

/*===----------------------------------------------------------------------===*
 * Stage3.c: the export and stage 3's bookkeeping
 *===----------------------------------------------------------------------===*/

/* The top candidates and the seed as bundles with a manifest in
 * options->exportDir. Returns 0, or the exit status. */
int exportCandidates(Search *s);
/* The measurement command stage 3 runs by default. */
void defaultMeasureCommand(char *out, size_t size);
/* `command` with {manifest} and {results} replaced by the two values,
 * each between `quote` characters (malloc'ed). */
char *substituteCommand(const char *command, const char *manifest,
                        const char *results, char quote);

/* One stage 3 over an export: its candidates, which of them are settled
 * (measured, failed on the GPU, or given up), the ledger lines written as
 * results arrive and every result merged into DIR/results.json. */
typedef struct {
  const EvolveOptions *options;
  char dir[4096];
  cJSON *manifest;
  int numCandidates;
  const cJSON **candidates; /* the manifest's entries */
  unsigned char *settled;
  cJSON *merged; /* {"rows", "findings", "peers", "failed"} */
  FILE *ledger;
  char *ledgerText; /* as it was when stage 3 began */
} Stage3;

/* Reads DIR/manifest.json and opens the ledger for appending. With
 * --resume, candidates whose results a previous stage 3 left in
 * DIR/stage3/ count as settled (their ledger lines are written if the
 * ledger lacks them). Returns 0, or 1 after saying why. */
int stage3Open(Stage3 *st, const EvolveOptions *o, const char *dir);
/* A manifest of the candidates `items` (indices into the manifest) at
 * `path`, one folder below the export; the peer is timed only by the
 * manifest that holds the seed. Returns 1 when written. */
int stage3WriteShard(const Stage3 *st, const int *items, int n,
                     const char *path);
/* Merges the results file a measurement wrote for `items` and appends
 * their ledger lines. Returns how many of `items` it settled; `missing`
 * (may be null) marks those it did not. */
int stage3Collect(Stage3 *st, const int *items, int n, const char *resultsPath,
                  unsigned char *missing);
/* Records candidate `item` as not measured, with the reason. */
void stage3GiveUp(Stage3 *st, int item, const char *reason, int attempts);
/* With `report`, writes DIR/results.json and prints stage 4's report;
 * closes. Returns 0 when every candidate was measured or found failing,
 * else 1. */
int stage3Close(Stage3 *st, int report);

/* Stage 3 and 4 after the export: the measurement on this host's GPUs
 * (Workers.c) or through Slurm (Slurm.c), then the report. */
int measureAndImport(const EvolveOptions *o, const char *exportDir);

/*===----------------------------------------------------------------------===*
 * Workers.c, Slurm.c: where stage 3 runs
 *===----------------------------------------------------------------------===*/

/* One worker per GPU of this host, each pinned to its device
 * (CUDA_VISIBLE_DEVICES), each candidate measured in a child process
 * group with --measure-timeout; a failed candidate is retried once on
 * another worker, a worker that fails twice in a row is retired. */
int measureOnWorkers(Stage3 *st);
/* Shards and an sbatch job-array script in DIR/slurm/; submitted and
 * imported as the tasks finish, or printed (--slurm-print). */
int measureWithSlurm(Stage3 *st);
/* measureWithSlurm's status when it wrote the script and submitted
 * nothing (--slurm-print). */
#define MEASURE_LATER 3

/*===----------------------------------------------------------------------===*
 * Import.c, Agent.c
 *===----------------------------------------------------------------------===*/

/* The ledger lines of a results document: "measured", "failed-on-gpu"
 * and "not-measured" (its "failed" list), with the predictions from
 * `ledgerText`. */
void appendMeasurements(const cJSON *doc, const char *ledgerText, FILE *ledger);
/* Stage 4's report on a results document: proposed rules, the cost
 * model's rank quality, the speedups, proposed calibrations. */
void reportMeasurements(const cJSON *doc, const char *ledgerText);
/* Stage 4 for measurements made elsewhere: adds them to the ledger. */
int importResults(const char *resultsPath, const char *ledgerPath);
/* The agent protocol's drop folder (docs/agents.md). */
int agentDir(const char *dir, const char *shapes);

#endif /* CAKE_EVOLVE_EVOLVE_H */
