// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- cake-evolve.c - Generate, filter and rank kernel candidates --------===*\
|*                                                                            *|
|* The search loop's stages 1, 2 and 4 on the C API (docs/agents.md):         *|
|*   1. generate: tactic sequences from a search space (JSON) applied to a    *|
|*      seed kernel, over the whole grid or a seeded random sample;           *|
|*      duplicates (same printed IR) are recorded and skipped;                *|
|*   2. filter: cake-verify (rejections counted per rule id), then the cost   *|
|*      model ranks the legal candidates; ptxas compiles the top ones         *|
|*      (--ptxas-check K), which the model predicts again with their          *|
|*      registers and spills;                                                 *|
|*   4. route: a ledger of JSON lines (one per candidate) and a summary.      *|
|*   3. benchmark: --export DIR lowers the top candidates and the seed to     *|
|*      bundles with a manifest; a measurement command (bench/cost/           *|
|*      measure.py --manifest by default) screens each in a child cake-run    *|
|*      with a timeout, times the rest beside the peer and writes results;    *|
|*      importing them adds the measurements to the ledger and reports the    *|
|*      cost model's rank quality, the failures (proposed rules) and large    *|
|*      mispredictions (proposed calibrations).                               *|
|* On one GPU machine, or a node of several, that is one command: without     *|
|* --no-gpu, cake-evolve exports and measures each candidate in a child       *|
|* process group with a time limit, one worker per GPU (Workers.c), or        *|
|* submits a Slurm job array (--measure-with slurm, Slurm.c), importing       *|
|* results as they arrive. On a GPU host without MLIR, run the three steps    *|
|* apart: --export here, measure.py there, --import.                          *|
|*                                                                            *|
|* cake-evolve --help lists every option. This file parses them and runs      *|
|* the stages in order; each stage has its own file: Search.c (1, 2),         *|
|* Ptxas.c (2, spills), Stage3.c, Workers.c and Slurm.c (3), Import.c (4),    *|
|* Agent.c (the agent's drop folder), over Common.c and Space.c (Evolve.h     *|
|* declares them).                                                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Evolve.h"
#include "Options.h"
#include "cake/Version.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void printHelp(FILE *out) {
  fprintf(
      out,
      "usage: cake-evolve --seed K.cake.mlir --space S.json --shapes SHAPES\n"
      "                   --ledger L.jsonl [options]     search (stages 1-4)\n"
      "       cake-evolve --import RESULTS.json --ledger L.jsonl\n"
      "                                                  stage 4 for results\n"
      "                                                  measured elsewhere\n"
      "       cake-evolve --agent-dir DIR [--shapes SHAPES]\n"
      "                                                  answer an agent's "
      "folder\n"
      "\n"
      "Search (stages 1 and 2: generate, cake-verify, rank by the cost "
      "model):\n"
      "  --seed FILE             the kernel the tactics rewrite (Cake IR)\n"
      "  --space FILE            the tactics and the values each takes (JSON)\n"
      "  --shapes SHAPES         the problem, one shape per kernel argument\n"
      "                          (8192x8192,8192x8192,8192x8192)\n"
      "  --ledger FILE           one JSON line per candidate (JSON Lines)\n"
      "  --calibration F|GPU     the cost model's calibration: a file, or a\n"
      "                          GPU's name (h100; default: the target's\n"
      "                          reference GPU, h200 for sm_90a)\n"
      "  --top K                 how many of the ranking to print (10)\n"
      "  --sample N              a seeded random sample of N grid points\n"
      "                          instead of the whole grid\n"
      "  --rng-seed S            the sample's seed\n"
      "  --resume                skip candidates already in the ledger, "
      "append\n"
      "  --mutate ROUNDS         after the grid, ROUNDS rounds of the best %d\n"
      "                          candidates' neighbours\n"
      "  --ptxas-check K         ptxas on the best ranked until the top K "
      "are\n"
      "                          compiled, each re-predicted with its "
      "registers\n"
      "                          and spills (default: --export-top with an "
      "export)\n"
      "Stage 3 (benchmark on this machine's GPU, unless --no-gpu):\n"
      "  --no-gpu                stop after stage 2 (no export, no "
      "measurement)\n"
      "  --export DIR            bundles and manifest.json of the top "
      "candidates\n"
      "                          and the seed (default: LEDGER.bundles)\n"
      "  --export-top K          how many candidates to export (8)\n"
      "  --check gemm|none       the numerical check the measurement runs "
      "(none)\n"
      "  --measure CMD           the measurement command; {manifest} and\n"
      "                          {results} are replaced by the paths\n"
      "                          (default: bench/cost/measure.py)\n"
      "  --measure-timeout SECONDS\n"
      "                          kill a candidate's measurement after "
      "SECONDS (600)\n"
      "  --gpus N|LIST           measurement workers: one per GPU (N of "
      "them, or\n"
      "                          these CUDA_VISIBLE_DEVICES values; default: "
      "every\n"
      "                          GPU nvidia-smi lists)\n"
      "  --measure-with local|slurm\n"
      "                          this host's GPUs (local), or a Slurm job "
      "array\n"
      "  --shards N              Slurm array tasks (16, at most one per "
      "candidate)\n"
      "  --slurm-gpus N          GPUs each task asks for (1; 0 for a CPU "
      "stand-in)\n"
      "  --slurm-partition P     the partition to submit to\n"
      "  --slurm-print           write and print the job script, do not "
      "submit it\n"
      "  --measure-export DIR    stage 3 and 4 over an existing export "
      "(with\n"
      "                          --resume: what is not measured yet)\n"
      "Stage 4 and agents:\n"
      "  --import FILE           add measure.py's results to the ledger\n"
      "  --agent-dir DIR         verify and predict every NAME.cake.mlir in "
      "DIR\n"
      "                          without a newer NAME.feedback.json\n"
      "  -h, --help              this help\n"
      "  --version               the Cake version\n",
      MUTATE_TOP);
}

static void usage(void) {
  fprintf(stderr, "usage: cake-evolve --seed K.cake.mlir --space S.json "
                  "--shapes SHAPES --ledger L.jsonl [options]\n"
                  "       cake-evolve --import RESULTS.json --ledger L.jsonl\n"
                  "       cake-evolve --agent-dir DIR [--shapes SHAPES]\n"
                  "Try 'cake-evolve --help' for every option.\n");
}

/* A number option of cake-evolve (tools/common/Options.h). */
static int parseInteger(const char *name, const char *text, long long min,
                        long long max, long long *out) {
  return cakeParseIntegerOption("cake-evolve", name, text, min, max, NULL, out);
}

enum {
  OPT_SEED = 256,
  OPT_SPACE,
  OPT_SHAPES,
  OPT_CALIBRATION,
  OPT_LEDGER,
  OPT_NO_GPU,
  OPT_TOP,
  OPT_SAMPLE,
  OPT_RNG_SEED,
  OPT_RESUME,
  OPT_MUTATE,
  OPT_PTXAS_CHECK,
  OPT_EXPORT,
  OPT_EXPORT_TOP,
  OPT_CHECK,
  OPT_MEASURE,
  OPT_MEASURE_TIMEOUT,
  OPT_IMPORT,
  OPT_AGENT_DIR,
  OPT_GPUS,
  OPT_MEASURE_WITH,
  OPT_SHARDS,
  OPT_SLURM_GPUS,
  OPT_SLURM_PARTITION,
  OPT_SLURM_PRINT,
  OPT_MEASURE_EXPORT
};

/* Fills `o` from the command line. Returns -1 to go on, else the exit
 * status (0 after --help, 2 after a usage error). */
static int parseOptions(int argc, char **argv, EvolveOptions *o) {
  static const struct option longOptions[] = {
      {"seed", required_argument, NULL, OPT_SEED},
      {"space", required_argument, NULL, OPT_SPACE},
      {"shapes", required_argument, NULL, OPT_SHAPES},
      {"calibration", required_argument, NULL, OPT_CALIBRATION},
      {"ledger", required_argument, NULL, OPT_LEDGER},
      {"no-gpu", no_argument, NULL, OPT_NO_GPU},
      {"top", required_argument, NULL, OPT_TOP},
      {"sample", required_argument, NULL, OPT_SAMPLE},
      {"rng-seed", required_argument, NULL, OPT_RNG_SEED},
      {"resume", no_argument, NULL, OPT_RESUME},
      {"mutate", required_argument, NULL, OPT_MUTATE},
      {"ptxas-check", required_argument, NULL, OPT_PTXAS_CHECK},
      {"export", required_argument, NULL, OPT_EXPORT},
      {"export-top", required_argument, NULL, OPT_EXPORT_TOP},
      {"check", required_argument, NULL, OPT_CHECK},
      {"measure", required_argument, NULL, OPT_MEASURE},
      {"measure-timeout", required_argument, NULL, OPT_MEASURE_TIMEOUT},
      {"import", required_argument, NULL, OPT_IMPORT},
      {"agent-dir", required_argument, NULL, OPT_AGENT_DIR},
      {"gpus", required_argument, NULL, OPT_GPUS},
      {"measure-with", required_argument, NULL, OPT_MEASURE_WITH},
      {"shards", required_argument, NULL, OPT_SHARDS},
      {"slurm-gpus", required_argument, NULL, OPT_SLURM_GPUS},
      {"slurm-partition", required_argument, NULL, OPT_SLURM_PARTITION},
      {"slurm-print", no_argument, NULL, OPT_SLURM_PRINT},
      {"measure-export", required_argument, NULL, OPT_MEASURE_EXPORT},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, 'V'},
      {NULL, 0, NULL, 0}};
  *o = (EvolveOptions){.shapes = "",
                       .calibration = "",
                       .top = 10,
                       .exportTop = 8,
                       .check = "none",
                       .measureTimeout = 600,
                       .ptxasTop = -1,
                       .measureWith = "local",
                       .slurmGpus = 1};
  opterr = 0; /* the messages below name the option */
  int c, index;
  long long v;
  while ((c = getopt_long(argc, argv, ":h", longOptions, &index)) != -1) {
    const char *name = c >= OPT_SEED ? longOptions[index].name : "";
    switch (c) {
    case OPT_SEED: o->seedPath = optarg; break;
    case OPT_SPACE: o->spacePath = optarg; break;
    case OPT_SHAPES: o->shapes = optarg; break;
    case OPT_CALIBRATION:
      o->calibration = optarg;
      break;
    case OPT_LEDGER: o->ledgerPath = optarg; break;
    case OPT_NO_GPU: o->noGpu = 1; break;
    case OPT_RESUME: o->resume = 1; break;
    case OPT_EXPORT: o->exportDir = optarg; break;
    case OPT_CHECK: o->check = optarg; break;
    case OPT_MEASURE: o->measure = optarg; break;
    case OPT_IMPORT: o->importPath = optarg; break;
    case OPT_AGENT_DIR: o->agentPath = optarg; break;
    case OPT_GPUS:
      o->gpus = optarg;
      break;
    case OPT_SLURM_PARTITION:
      o->slurmPartition = optarg;
      break;
    case OPT_SLURM_PRINT:
      o->slurmPrint = 1;
      break;
    case OPT_MEASURE_EXPORT:
      o->measureExport = optarg;
      break;
    case OPT_MEASURE_WITH:
      if (strcmp(optarg, "local") && strcmp(optarg, "slurm")) {
        fprintf(stderr,
                "cake-evolve: --measure-with expects 'local' or "
                "'slurm', got '%s'\n",
                optarg);
        return 2;
      }
      o->measureWith = optarg;
      break;
    case OPT_SHARDS:
    case OPT_SLURM_GPUS:
      if (!parseInteger(name, optarg, c == OPT_SHARDS ? 1 : 0,
                        c == OPT_SHARDS ? 1000 : 64, &v))
        return 2;
      *(c == OPT_SHARDS ? &o->shards : &o->slurmGpus) = (int)v;
      break;
    case OPT_TOP:
    case OPT_EXPORT_TOP:
    case OPT_MUTATE:
    case OPT_PTXAS_CHECK:
    case OPT_MEASURE_TIMEOUT:
      if (!parseInteger(name, optarg, c == OPT_MEASURE_TIMEOUT ? 1 : 0,
                        c == OPT_MUTATE ? 1000 : INT_MAX, &v))
        return 2;
      *(c == OPT_TOP          ? &o->top
        : c == OPT_EXPORT_TOP ? &o->exportTop
        : c == OPT_MUTATE     ? &o->mutateRounds
        : c == OPT_PTXAS_CHECK ? &o->ptxasTop
                               : &o->measureTimeout) = (int)v;
      break;
    case OPT_SAMPLE:
      if (!parseInteger(name, optarg, 0, MAX_GRID, &v))
        return 2;
      o->sample = (long)v;
      break;
    case OPT_RNG_SEED:
      if (!parseInteger(name, optarg, 0, LLONG_MAX, &v))
        return 2;
      rngSeed((uint64_t)v | 1);
      break;
    case 'h':
      printHelp(stdout);
      return 0;
    case 'V':
      printf("cake-evolve (Cake) %s\n", CAKE_VERSION_STRING);
      return 0;
    case ':':
      fprintf(stderr, "cake-evolve: option '%s' needs a value\n",
              argv[optind - 1]);
      usage();
      return 2;
    default:
      fprintf(stderr, "cake-evolve: unknown option '%s'\n",
              argv[optind - 1]);
      usage();
      return 2;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "cake-evolve: unexpected argument '%s'\n", argv[optind]);
    usage();
    return 2;
  }
  return -1;
}

/* A search: stages 1 and 2, the ptxas check, the summary, then stage 3
 * (export, and with a GPU the measurement and stage 4's import). */
static int runSearch(EvolveOptions *o) {
  /* Stage 3 here: bundles into --export DIR, or beside the ledger. */
  char defaultExport[4096], defaultMeasure[8192];
  if (!o->noGpu) {
    if (!o->exportDir) {
      snprintf(defaultExport, sizeof defaultExport, "%s.bundles",
               o->ledgerPath);
      mkdir(defaultExport, 0777);
      o->exportDir = defaultExport;
    }
    if (!o->measure) {
      defaultMeasureCommand(defaultMeasure, sizeof defaultMeasure);
      o->measure = defaultMeasure;
    }
  } else if (o->measure) {
    fprintf(stderr, "cake-evolve: --measure runs stage 3, which --no-gpu "
                    "leaves out\n");
    return 2;
  }
  Search s;
  int status = searchOpen(&s, o);
  if (status) {
    searchClose(&s);
    return status;
  }
  searchRun(&s);
  searchPrintSummary(&s);
  int ptxasTop = o->ptxasTop < 0 ? (o->exportDir ? o->exportTop : 0)
                                 : o->ptxasTop;
  if (ptxasTop > 0)
    ptxasRank(&s, ptxasTop);
  searchPrintTop(&s);
  if (o->exportDir)
    status = exportCandidates(&s);
  searchClose(&s);
  if (!status && o->measure)
    status = measureAndImport(o, o->exportDir);
  return status;
}

int main(int argc, char **argv) {
  EvolveOptions o;
  int status = parseOptions(argc, argv, &o);
  if (status >= 0)
    return status;
  if (o.importPath && o.ledgerPath)
    return importResults(o.importPath, o.ledgerPath);
  if (o.agentPath)
    return agentDir(o.agentPath, o.shapes);
  if (o.measureExport) {
    char defaultMeasure[8192];
    if (!o.ledgerPath) {
      fprintf(stderr, "cake-evolve: --measure-export needs the search's "
                      "--ledger\n");
      return 2;
    }
    if (!o.measure) {
      defaultMeasureCommand(defaultMeasure, sizeof defaultMeasure);
      o.measure = defaultMeasure;
    }
    return measureAndImport(&o, o.measureExport);
  }
  if (!o.seedPath || !o.spacePath || !o.ledgerPath) {
    fprintf(stderr, "cake-evolve: a search needs --seed, --space and "
                    "--ledger\n");
    usage();
    return 2;
  }
  /* A calibration that names no file would leave every candidate
   * unranked: refuse it before the search. */
  if (*o.calibration && !haveCalibration(o.calibration)) {
    fprintf(stderr,
            "cake-evolve: --calibration %s: no such file, and no "
            "calibration/%s.json where the cost model looks\n",
            o.calibration, o.calibration);
    return 2;
  }
  return runSearch(&o);
}
