// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- cake-mcp.c - Cake as a Model Context Protocol server -------------===*\
|*                                                                            *|
|* JSON-RPC 2.0 over stdio, one message a line (MCP's stdio transport), in C  *|
|* over Cake's C API and cJSON. Tools (docs/agents.md): cake_verify (the      *|
|* structured diagnostics), cake_lower (PTX or a bundle), cake_summarize (the *|
|* kernel summary), cake_cost (the cost model's report), cake_apply_tactic   *|
|* (one of Cake's tactics, the kernel rewritten), cake_evolve (a search over *|
|* tactic sequences, ranked by the cost model; Evolve.c).                     *|
|*                                                                            *|
|* Safety: the IR comes inline in the arguments and the server opens no      *|
|* file. A message longer than --max-message bytes is refused unread. Each    *|
|* tool call runs in a child process with --time-limit seconds: a call that   *|
|* hangs is killed and one that crashes is reported, and the server goes on.  *|
|* Malformed JSON, an invalid request, an unknown method or tool and bad      *|
|* arguments get JSON-RPC errors.                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Mcp.h"
#include "Options.h"
#include "ToolSupport.h"
#include "cake-c/Cost.h"
#include "cake-c/Dialect.h"
#include "cake-c/Pipeline.h"
#include "cake/Version.h"
#include "mlir-c/IR.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_MAX_MESSAGE (4u << 20)
#define DEFAULT_TIME_LIMIT 60
/* The most a tool's answer may be (a bundle holds a cubin in base64). */
#define MAX_ANSWER (64u << 20)
#define PROTOCOL_VERSION "2025-06-18"

/* JSON-RPC 2.0 error codes. */
enum {
  PARSE_ERROR = -32700,
  INVALID_REQUEST = -32600,
  METHOD_NOT_FOUND = -32601,
  INVALID_PARAMS = -32602,
};

static size_t maxMessage = DEFAULT_MAX_MESSAGE;
static int timeLimit = DEFAULT_TIME_LIMIT;

static cJSON *stringOf(MlirStringRef s) {
  char *copy = malloc(s.length + 1);
  if (!copy)
    return cJSON_CreateString("");
  memcpy(copy, s.data, s.length);
  copy[s.length] = 0;
  cJSON *v = cJSON_CreateString(copy);
  free(copy);
  return v;
}

/*===--- The tools (run in a child process) -------------------------------===*/

static const char *severityName(MlirDiagnosticSeverity s) {
  switch (s) {
  case MlirDiagnosticError:
    return "error";
  case MlirDiagnosticWarning:
    return "warning";
  case MlirDiagnosticNote:
    return "note";
  case MlirDiagnosticRemark:
    return "remark";
  }
  return "unknown";
}

static void collectDiagnostic(const MlirCakeDiagnostic *d, void *userData) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "severity", severityName(d->severity));
  cJSON_AddItemToObject(o, "location", stringOf(d->location));
  cJSON_AddItemToObject(o, "message", stringOf(d->message));
  const struct {
    const char *key;
    MlirStringRef value;
  } fields[] = {{"rule", d->rule},
                {"role", d->role},
                {"resource", d->resource},
                {"stage", d->stage},
                {"hint", d->hint}};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i)
    if (fields[i].value.length)
      cJSON_AddItemToObject(o, fields[i].key, stringOf(fields[i].value));
  if (d->numNotes) {
    cJSON *notes = cJSON_AddArrayToObject(o, "notes");
    for (intptr_t i = 0; i < d->numNotes; ++i) {
      cJSON *n = cJSON_CreateObject();
      cJSON_AddItemToObject(n, "location", stringOf(d->notes[i].location));
      cJSON_AddItemToObject(n, "message", stringOf(d->notes[i].message));
      cJSON_AddItemToArray(notes, n);
    }
  }
  cJSON_AddItemToArray((cJSON *)userData, o);
}

/* Diagnostics the context reports itself (parsing the lowered module, the
 * translations, the cost model): as plain errors. */
static MlirLogicalResult collectContextDiagnostic(MlirDiagnostic d,
                                                  void *userData) {
  Buffer text = {0};
  mlirDiagnosticPrint(d, appendCallback, &text);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "severity",
                          severityName(mlirDiagnosticGetSeverity(d)));
  cJSON_AddStringToObject(o, "message", text.data ? text.data : "");
  cJSON_AddItemToArray((cJSON *)userData, o);
  free(text.data);
  return mlirLogicalResultSuccess();
}

static MlirContext createContext(cJSON *diagnostics) {
  return createCakeContext(collectContextDiagnostic, diagnostics);
}

/* Runs `pipeline` on `ir`; on success the resulting module's text is in
 * `out`. */
static int runPipeline(MlirContext ctx, const char *ir, const char *name,
                       const char *pipeline, cJSON *diagnostics, Buffer *out) {
  return mlirLogicalResultIsSuccess(mlirCakeRunPipelineOnSource(
      ctx, mlirStringRefCreateFromCString(ir),
      mlirStringRefCreateFromCString(name),
      mlirStringRefCreateFromCString(pipeline), collectDiagnostic, diagnostics,
      appendCallback, out));
}

typedef MlirLogicalResult (*Writer)(MlirOperation, MlirStringCallback, void *);

/* Parses the module text `ir` and writes it through `writer`. */
static int translate(MlirContext ctx, const Buffer *ir, Writer writer,
                     Buffer *out) {
  MlirModule m =
      mlirModuleCreateParse(ctx, mlirStringRefCreate(ir->data, ir->length));
  if (mlirModuleIsNull(m))
    return 0;
  int ok = mlirLogicalResultIsSuccess(
      writer(mlirModuleGetOperation(m), appendCallback, out));
  mlirModuleDestroy(m);
  return ok;
}

static const char *stringArg(const cJSON *args, const char *key,
                             const char *fallback) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, key);
  return cJSON_IsString(v) ? v->valuestring : fallback;
}

static MlirLogicalResult estimate(MlirOperation op, MlirStringCallback cb,
                                  void *userData, const char *shapes,
                                  const char *gpu) {
  return mlirCakeEstimateCost(op, mlirStringRefCreateFromCString(shapes),
                              mlirStringRefCreateFromCString(gpu), 1, cb,
                              userData, NULL);
}

/* Why arguments.gpu is refused, or null: a GPU's name only (letters and
 * digits, so no path reaches the cost model's file lookup), with a
 * calibration file. */
static const char *checkGpu(const cJSON *args) {
  const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(args, "gpu");
  if (!gpu)
    return NULL;
  static const char *bad = "arguments.gpu: a GPU's name with a calibration "
                           "file (h200, the default; h100; b200; a100)";
  if (!cJSON_IsString(gpu) || !*gpu->valuestring ||
      strlen(gpu->valuestring) > 16)
    return bad;
  for (const char *c = gpu->valuestring; *c; ++c)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')))
      return bad;
  if (!haveCalibration(gpu->valuestring))
    return bad;
  return NULL;
}

/* One tool call (arguments already checked): the structured result. */
static cJSON *runTool(const char *tool, const cJSON *args) {
  if (!strcmp(tool, "cake_evolve"))
    return mcpEvolve(args);
  const char *ir = stringArg(args, "ir", "");
  const char *name = stringArg(args, "name", "input.cake.mlir");
  cJSON *result = cJSON_CreateObject();
  cJSON *diagnostics = cJSON_CreateArray();
  MlirContext ctx = createContext(diagnostics);
  Buffer module = {0}, out = {0};
  int ok;
  if (!strcmp(tool, "cake_verify")) {
    ok = runPipeline(ctx, ir, name, "cake-verify", diagnostics, &module);
  } else if (!strcmp(tool, "cake_lower")) {
    int ptx = !strcmp(stringArg(args, "format", "ptx"), "ptx");
    ok = runPipeline(ctx, ir, name,
                     ptx ? "cake-verify,cake-lower{format=ptx}"
                         : "cake-verify,cake-lower",
                     diagnostics, &module) &&
         translate(ctx, &module,
                   ptx ? mlirCakeWritePtx : mlirCakeWriteBundleJson, &out);
    if (ok)
      cJSON_AddStringToObject(result, ptx ? "ptx" : "bundle", out.data);
  } else if (!strcmp(tool, "cake_summarize")) {
    ok = runPipeline(ctx, ir, name, "cake-verify", diagnostics, &module) &&
         translate(ctx, &module, mlirCakeWriteKernelSummaryJson, &out);
    if (ok)
      cJSON_AddItemToObject(result, "summary", cJSON_Parse(out.data));
  } else if (!strcmp(tool, "cake_apply_tactic")) {
    /* Checked by callTool: a known tactic, options of plain characters. */
    const char *options = stringArg(args, "options", "");
    char pipeline[1024];
    snprintf(pipeline, sizeof pipeline, "cake-verify,%s%s%s%s,cake-verify",
             stringArg(args, "tactic", ""), *options ? "{" : "", options,
             *options ? "}" : "");
    ok = runPipeline(ctx, ir, name, pipeline, diagnostics, &module);
    if (ok)
      cJSON_AddStringToObject(result, "ir", module.data ? module.data : "");
  } else if (!strcmp(tool, "cake_cost_diff")) {
    /* Both kernels verified, then compared (the first kernel of each). */
    Buffer other = {0};
    ok = runPipeline(ctx, ir, name, "cake-verify", diagnostics, &module) &&
         runPipeline(ctx, stringArg(args, "ir_b", ""),
                     stringArg(args, "name_b", "b.cake.mlir"), "cake-verify",
                     diagnostics, &other);
    if (ok) {
      MlirModule a = mlirModuleCreateParse(
          ctx, mlirStringRefCreate(module.data, module.length));
      MlirModule b = mlirModuleCreateParse(
          ctx, mlirStringRefCreate(other.data, other.length));
      ok = !mlirModuleIsNull(a) && !mlirModuleIsNull(b) &&
           mlirLogicalResultIsSuccess(mlirCakeEstimateCostDiff(
               mlirModuleGetOperation(a), mlirModuleGetOperation(b),
               mlirStringRefCreateFromCString(stringArg(args, "shapes", "")),
               mlirStringRefCreateFromCString(stringArg(args, "gpu", "")), 1,
               appendCallback, &out));
      if (!mlirModuleIsNull(a))
        mlirModuleDestroy(a);
      if (!mlirModuleIsNull(b))
        mlirModuleDestroy(b);
    }
    free(other.data);
    if (ok)
      cJSON_AddItemToObject(result, "diff", cJSON_Parse(out.data));
  } else { /* cake_cost */
    ok = runPipeline(ctx, ir, name, "cake-verify", diagnostics, &module);
    if (ok) {
      MlirModule m = mlirModuleCreateParse(
          ctx, mlirStringRefCreate(module.data, module.length));
      ok = !mlirModuleIsNull(m) &&
           mlirLogicalResultIsSuccess(estimate(
               mlirModuleGetOperation(m), appendCallback, &out,
               stringArg(args, "shapes", ""), stringArg(args, "gpu", "")));
      if (!mlirModuleIsNull(m))
        mlirModuleDestroy(m);
    }
    if (ok)
      cJSON_AddItemToObject(result, "report", cJSON_Parse(out.data));
  }
  mlirContextDestroy(ctx);
  free(module.data);
  free(out.data);
  cJSON_AddBoolToObject(result, "ok", ok);
  cJSON_AddItemToObject(result, "diagnostics", diagnostics);
  return result;
}

/*===--- Tool calls in a child process, with a time limit -----------------===*/

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Runs the tool in a child; returns its result, or NULL with `why` set
 * (time limit, crash, answer too large). */
static cJSON *runIsolated(const char *tool, const cJSON *args, char *why,
                          size_t whySize) {
  int fds[2];
  if (pipe(fds) != 0) {
    snprintf(why, whySize, "cannot create a pipe: %s", strerror(errno));
    return NULL;
  }
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(why, whySize, "cannot fork: %s", strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return NULL;
  }
  if (pid == 0) {
    close(fds[0]);
    cJSON *r = runTool(tool, args);
    char *text = cJSON_PrintUnformatted(r);
    size_t n = text ? strlen(text) : 0, done = 0;
    while (done < n) {
      ssize_t w = write(fds[1], text + done, n - done);
      if (w <= 0)
        _exit(3);
      done += (size_t)w;
    }
    free(text);
    cJSON_Delete(r);
    _exit(0);
  }
  close(fds[1]);
  Buffer answer = {0};
  double deadline = now() + timeLimit;
  int timedOut = 0, tooLarge = 0;
  for (;;) {
    int left = (int)((deadline - now()) * 1000);
    if (left <= 0) {
      timedOut = 1;
      break;
    }
    struct pollfd p = {fds[0], POLLIN, 0};
    int r = poll(&p, 1, left);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0) {
      timedOut = r == 0;
      break;
    }
    char chunk[65536];
    ssize_t n = read(fds[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    if (answer.length + (size_t)n > MAX_ANSWER) {
      tooLarge = 1;
      break;
    }
    bufferAppend(&answer, chunk, (size_t)n);
  }
  close(fds[0]);
  if (timedOut || tooLarge)
    kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  /* A whole answer counts whatever the exit status (a tool run under a
   * leak checker exits non-zero after writing it). */
  cJSON *result = NULL;
  if (!timedOut && !tooLarge && answer.data)
    result = cJSON_Parse(answer.data);
  if (!result) {
    if (timedOut)
      snprintf(why, whySize,
               "the tool ran past the time limit (%d s) and was stopped",
               timeLimit);
    else if (tooLarge)
      snprintf(why, whySize, "the tool's answer is larger than %u bytes",
               MAX_ANSWER);
    else if (WIFSIGNALED(status))
      snprintf(why, whySize,
               "the tool crashed (signal %d): a defect in Cake, please "
               "report the input",
               WTERMSIG(status));
    else
      snprintf(why, whySize,
               "the tool failed without an answer (exit status %d)",
               WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  free(answer.data);
  return result;
}

/*===--- The protocol
 * ------------------------------------------------------===*/

static void sendMessage(cJSON *message) {
  char *text = cJSON_PrintUnformatted(message);
  if (text) {
    fputs(text, stdout);
    fputc('\n', stdout);
    fflush(stdout);
    free(text);
  }
  cJSON_Delete(message);
}

static cJSON *envelope(const cJSON *id) {
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, "jsonrpc", "2.0");
  cJSON_AddItemToObject(m, "id",
                        id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
  return m;
}

static void sendError(const cJSON *id, int code, const char *message) {
  cJSON *m = envelope(id);
  cJSON *e = cJSON_AddObjectToObject(m, "error");
  cJSON_AddNumberToObject(e, "code", code);
  cJSON_AddStringToObject(e, "message", message);
  sendMessage(m);
}

static void sendResult(const cJSON *id, cJSON *result) {
  cJSON *m = envelope(id);
  cJSON_AddItemToObject(m, "result", result);
  sendMessage(m);
}

typedef struct {
  const char *name, *description, *schema;
} Tool;

static const Tool tools[] = {
    {"cake_verify",
     "Verify a Cake IR kernel (cake-verify). Returns ok and every diagnostic "
     "with its rule id, role, resource, stage and a hint.",
     "{\"type\":\"object\",\"properties\":{\"ir\":{\"type\":\"string\","
     "\"description\":\"Cake IR text (one or more cake.kernel ops)\"},"
     "\"name\":{\"type\":\"string\",\"description\":\"file name used in "
     "diagnostic locations\"}},\"required\":[\"ir\"]}"},
    {"cake_lower",
     "Verify and lower a Cake IR kernel to PTX (format ptx) or to a bundle "
     "(format bundle: cubin and launch metadata as JSON; needs ptxas).",
     "{\"type\":\"object\",\"properties\":{\"ir\":{\"type\":\"string\"},"
     "\"name\":{\"type\":\"string\"},\"format\":{\"type\":\"string\","
     "\"enum\":[\"ptx\",\"bundle\"]}},\"required\":[\"ir\"]}"},
    {"cake_summarize",
     "Verify a Cake IR kernel and return its summary: roles, rings, pipes, "
     "shared memory and the derived facts.",
     "{\"type\":\"object\",\"properties\":{\"ir\":{\"type\":\"string\"},"
     "\"name\":{\"type\":\"string\"}},\"required\":[\"ir\"]}"},
    {"cake_apply_tactic",
     /* listTools appends the tactics (mcpTactics, Tactics.c). */
     "Apply one of Cake's tactics to a verified kernel and return the "
     "rewritten IR, verified again; options as in docs/reference/Passes.md, "
     "e.g. \"pipe=0 stages=3\". Tactics: ",
     "{\"type\":\"object\",\"properties\":{\"ir\":{\"type\":\"string\"},"
     "\"name\":{\"type\":\"string\"},\"tactic\":{\"type\":\"string\"},"
     "\"options\":{\"type\":\"string\"}},\"required\":[\"ir\",\"tactic\"]}"},
    {"cake_cost",
     "Verify a Cake IR kernel and predict its time on the H200 (or the GPU "
     "named by gpu) for problem shapes (one per tensor argument, e.g. "
     "8192x8192,8192x8192,8192x8192): the bottleneck and the terms behind "
     "it.",
     "{\"type\":\"object\",\"properties\":{\"ir\":{\"type\":\"string\"},"
     "\"name\":{\"type\":\"string\"},\"shapes\":{\"type\":\"string\"},"
     "\"gpu\":{\"type\":\"string\",\"description\":\"whose calibration: "
     "h200 (default), h100, b200, a100\"}},"
     "\"required\":[\"ir\",\"shapes\"]}"},
    {"cake_cost_diff",
     "Why one kernel is predicted faster than another: both verified and "
     "predicted for the same shapes; returns which is faster and by what "
     "ratio, the time terms that moved (largest first), the decisions that "
     "differ (stages, CTAs per SM, bytes) and the bottleneck term that "
     "decided.",
     "{\"type\":\"object\",\"properties\":{\"ir\":{\"type\":\"string\","
     "\"description\":\"kernel a\"},\"ir_b\":{\"type\":\"string\","
     "\"description\":\"kernel b\"},\"name\":{\"type\":\"string\"},"
     "\"name_b\":{\"type\":\"string\"},\"shapes\":{\"type\":\"string\"},"
     "\"gpu\":{\"type\":\"string\",\"description\":\"whose calibration: "
     "h200 (default), h100, b200, a100\"}},"
     "\"required\":[\"ir\",\"ir_b\",\"shapes\"]}"},
    {"cake_evolve",
     "Search a kernel's tactic sequences (cake-evolve's stages 1 and 2): "
     "every point of the space (or a sample of it, then mutation rounds "
     "around the best) applied to the seed kernel, verified, and ranked by "
     "the cost model for the shapes. Returns the counts (rejections per "
     "rule), the best candidates with their pipelines and predicted times, "
     "and the whole ledger. The space names tactics of cake_apply_tactic: "
     "{\"tactics\":[{\"pass\":\"cake-set-stages\",\"fixed\":\"pipe=0\","
     "\"option\":\"stages\",\"values\":[2,3,4]}]}; a null value leaves the "
     "tactic out. At most 512 candidates before mutation.",
     "{\"type\":\"object\",\"properties\":{\"ir\":{\"type\":\"string\","
     "\"description\":\"the seed kernel\"},\"name\":{\"type\":\"string\"},"
     "\"shapes\":{\"type\":\"string\"},\"space\":{\"type\":\"object\"},"
     "\"sample\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":512},"
     "\"mutate_rounds\":{\"type\":\"integer\",\"minimum\":0,"
     "\"maximum\":4},\"top\":{\"type\":\"integer\",\"minimum\":1,"
     "\"maximum\":32},\"rng_seed\":{\"type\":\"integer\",\"minimum\":1}},"
     "\"required\":[\"ir\",\"shapes\",\"space\"]}"},
};
#define NUM_TOOLS (sizeof tools / sizeof tools[0])

/* cake_apply_tactic's arguments: a tactic of the list, and options that
 * cannot close the pass's braces or start another pass. */
static const char *checkTactic(const cJSON *args) {
  const char *tactic = stringArg(args, "tactic", NULL);
  if (!tactic)
    return "cake_apply_tactic needs arguments.tactic (e.g. cake-set-stages)";
  if (!mcpIsTactic(tactic))
    return "cake_apply_tactic: unknown tactic (the tool's description lists "
           "them)";
  if (!mcpIsPlainOptions(stringArg(args, "options", "")))
    return "cake_apply_tactic: arguments.options are the tactic's options "
           "(name=value separated by spaces, at most 512 characters)";
  return NULL;
}

/* A tool's description; cake_apply_tactic's ends with the list that
 * checkTactic accepts, written from it. The caller frees it. */
static char *toolDescription(const Tool *tool) {
  int tactics = !strcmp(tool->name, "cake_apply_tactic");
  size_t n = strlen(tool->description) + 1;
  for (size_t i = 0; tactics && i < mcpNumTactics; ++i)
    n += strlen(mcpTactics[i]) + 2;
  char *text = malloc(n);
  if (!text)
    return NULL;
  strcpy(text, tool->description);
  for (size_t i = 0; tactics && i < mcpNumTactics; ++i) {
    strcat(text, mcpTactics[i]);
    strcat(text, i + 1 < mcpNumTactics ? ", " : ".");
  }
  return text;
}

static void listTools(const cJSON *id) {
  cJSON *result = cJSON_CreateObject();
  cJSON *list = cJSON_AddArrayToObject(result, "tools");
  for (size_t i = 0; i < NUM_TOOLS; ++i) {
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "name", tools[i].name);
    char *description = toolDescription(&tools[i]);
    cJSON_AddStringToObject(t, "description",
                            description ? description : tools[i].description);
    free(description);
    cJSON_AddItemToObject(t, "inputSchema", cJSON_Parse(tools[i].schema));
    cJSON_AddItemToArray(list, t);
  }
  sendResult(id, result);
}

static void callTool(const cJSON *id, const cJSON *params) {
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(params, "name");
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
  if (!cJSON_IsString(name))
    return sendError(id, INVALID_PARAMS, "tools/call needs params.name");
  const Tool *tool = NULL;
  for (size_t i = 0; i < NUM_TOOLS; ++i)
    if (!strcmp(tools[i].name, name->valuestring))
      tool = &tools[i];
  if (!tool) {
    char msg[256];
    snprintf(msg, sizeof msg, "unknown tool '%.100s' (tools/list names them)",
             name->valuestring);
    return sendError(id, INVALID_PARAMS, msg);
  }
  if (!cJSON_IsObject(args) ||
      !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(args, "ir")))
    return sendError(id, INVALID_PARAMS,
                     "arguments.ir must be a string of Cake IR");
  if (!strcmp(tool->name, "cake_cost_diff") &&
      !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(args, "ir_b")))
    return sendError(id, INVALID_PARAMS,
                     "cake_cost_diff needs arguments.ir_b, the kernel to "
                     "compare with arguments.ir");
  if ((!strcmp(tool->name, "cake_cost") ||
       !strcmp(tool->name, "cake_cost_diff")) &&
      !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(args, "shapes")))
    return sendError(id, INVALID_PARAMS,
                     "cake_cost and cake_cost_diff need arguments.shapes (e.g. "
                     "8192x8192,8192x8192,8192x8192)");
  if (!strcmp(tool->name, "cake_cost") ||
      !strcmp(tool->name, "cake_cost_diff")) {
    const char *bad = checkGpu(args);
    if (bad)
      return sendError(id, INVALID_PARAMS, bad);
  }
  if (!strcmp(tool->name, "cake_apply_tactic") ||
      !strcmp(tool->name, "cake_evolve")) {
    const char *bad = strcmp(tool->name, "cake_evolve") ? checkTactic(args)
                                                        : mcpCheckEvolve(args);
    if (bad)
      return sendError(id, INVALID_PARAMS, bad);
  }
  const char *format = stringArg(args, "format", "ptx");
  if (!strcmp(tool->name, "cake_lower") && strcmp(format, "ptx") &&
      strcmp(format, "bundle"))
    return sendError(id, INVALID_PARAMS,
                     "cake_lower: arguments.format is ptx or bundle");

  char why[256] = "";
  cJSON *structured = runIsolated(tool->name, args, why, sizeof why);
  cJSON *result = cJSON_CreateObject();
  cJSON *content = cJSON_AddArrayToObject(result, "content");
  cJSON *text = cJSON_CreateObject();
  cJSON_AddStringToObject(text, "type", "text");
  int isError = 1;
  if (structured) {
    char *printed = cJSON_PrintUnformatted(structured);
    cJSON_AddStringToObject(text, "text", printed ? printed : "");
    free(printed);
    isError = !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(structured, "ok"));
    cJSON_AddItemToObject(result, "structuredContent", structured);
  } else {
    cJSON_AddStringToObject(text, "text", why);
  }
  cJSON_AddItemToArray(content, text);
  cJSON_AddBoolToObject(result, "isError", isError);
  sendResult(id, result);
}

static void handle(const char *line) {
  cJSON *msg = cJSON_Parse(line);
  if (!msg)
    return sendError(NULL, PARSE_ERROR, "parse error: not JSON");
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
  const cJSON *method = cJSON_GetObjectItemCaseSensitive(msg, "method");
  const cJSON *version = cJSON_GetObjectItemCaseSensitive(msg, "jsonrpc");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
  int validId = !id || cJSON_IsString(id) || cJSON_IsNumber(id);
  if (!cJSON_IsObject(msg) || !cJSON_IsString(version) ||
      strcmp(version->valuestring, "2.0") || !validId) {
    sendError(validId ? id : NULL, INVALID_REQUEST,
              "invalid request: a JSON-RPC 2.0 object is expected (batches "
              "are not taken)");
  } else if (!cJSON_IsString(method)) {
    /* A response from the client (to nothing this server asked): ignored. */
    if (!cJSON_GetObjectItemCaseSensitive(msg, "result") &&
        !cJSON_GetObjectItemCaseSensitive(msg, "error"))
      sendError(id, INVALID_REQUEST, "invalid request: no method");
  } else if (!id) {
    /* A notification (notifications/initialized, .../cancelled): no answer. */
  } else if (!strcmp(method->valuestring, "initialize")) {
    cJSON *r = cJSON_CreateObject();
    const cJSON *asked =
        cJSON_GetObjectItemCaseSensitive(params, "protocolVersion");
    cJSON_AddStringToObject(r, "protocolVersion",
                            cJSON_IsString(asked) ? asked->valuestring
                                                  : PROTOCOL_VERSION);
    cJSON *caps = cJSON_AddObjectToObject(r, "capabilities");
    cJSON_AddBoolToObject(cJSON_AddObjectToObject(caps, "tools"), "listChanged",
                          0);
    cJSON *info = cJSON_AddObjectToObject(r, "serverInfo");
    cJSON_AddStringToObject(info, "name", "cake-mcp");
    cJSON_AddStringToObject(info, "version", CAKE_VERSION_STRING);
    cJSON_AddStringToObject(
        r, "instructions",
        "Cake IR kernels for NVIDIA GPUs: verify them (rule-level "
        "diagnostics), summarize, predict their time, lower them to PTX or "
        "bundles, apply tactics and search tactic sequences. Pass the IR "
        "text as arguments.ir.");
    sendResult(id, r);
  } else if (!strcmp(method->valuestring, "ping")) {
    sendResult(id, cJSON_CreateObject());
  } else if (!strcmp(method->valuestring, "tools/list")) {
    listTools(id);
  } else if (!strcmp(method->valuestring, "tools/call")) {
    callTool(id, params);
  } else {
    char m[256];
    snprintf(m, sizeof m, "method not found: %.100s", method->valuestring);
    sendError(id, METHOD_NOT_FOUND, m);
  }
  cJSON_Delete(msg);
}

/* Reads one line into `b` (without the newline). Returns 0 at the end of
 * input, -1 for a line longer than maxMessage (consumed and dropped). */
static int readLine(Buffer *b) {
  b->length = 0;
  int c, tooLong = 0, any = 0;
  char chunk[4096];
  size_t n = 0;
  while ((c = getchar()) != EOF) {
    any = 1;
    if (c == '\n')
      break;
    if (tooLong)
      continue;
    chunk[n++] = (char)c;
    if (n == sizeof chunk) {
      bufferAppend(b, chunk, n);
      n = 0;
    }
    if (b->length + n > maxMessage)
      tooLong = 1;
  }
  if (!tooLong && n)
    bufferAppend(b, chunk, n);
  if (!any)
    return 0;
  return tooLong ? -1 : 1;
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: cake-mcp [--max-message BYTES] [--time-limit SECONDS]\n"
          "A Model Context Protocol server on stdin/stdout (JSON-RPC 2.0, one "
          "message a line)\nwith the tools cake_verify, cake_lower, "
          "cake_summarize, cake_cost, cake_cost_diff, cake_apply_tactic and\n"
          "cake_evolve "
          "(docs/agents.md).\n"
          "  --max-message BYTES  longest message taken (default %u)\n"
          "  --time-limit S       seconds a tool call may run (default %d)\n"
          "  -h, --help           this help\n"
          "  --version            the Cake version\n",
          DEFAULT_MAX_MESSAGE, DEFAULT_TIME_LIMIT);
}

int main(int argc, char **argv) {
  enum { OPT_MAX_MESSAGE = 256, OPT_TIME_LIMIT, OPT_VERSION };
  static const struct option longOptions[] = {
      {"max-message", required_argument, NULL, OPT_MAX_MESSAGE},
      {"time-limit", required_argument, NULL, OPT_TIME_LIMIT},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, OPT_VERSION},
      {NULL, 0, NULL, 0}};
  opterr = 0; /* the messages below name the option */
  int c;
  long long v;
  while ((c = getopt_long(argc, argv, ":h", longOptions, NULL)) != -1) {
    switch (c) {
    case 'h':
      usage(stdout);
      return 0;
    case OPT_VERSION:
      printf("cake-mcp (Cake) %s\n", CAKE_VERSION_STRING);
      return 0;
    case OPT_MAX_MESSAGE:
      if (!cakeParseIntegerOption("cake-mcp", "max-message", optarg, 64,
                                  1ll << 30, "bytes", &v))
        return 2;
      maxMessage = (size_t)v;
      break;
    case OPT_TIME_LIMIT:
      if (!cakeParseIntegerOption("cake-mcp", "time-limit", optarg, 1, 86400,
                                  "seconds", &v))
        return 2;
      timeLimit = (int)v;
      break;
    case ':':
      fprintf(stderr, "cake-mcp: option '%s' needs a value\n",
              argv[optind - 1]);
      usage(stderr);
      return 2;
    default:
      fprintf(stderr, "cake-mcp: unknown option '%s'\n", argv[optind - 1]);
      usage(stderr);
      return 2;
    }
  }
  if (optind < argc) {
    fprintf(stderr,
            "cake-mcp: unexpected argument '%s' (the server reads "
            "its requests from stdin)\n",
            argv[optind]);
    usage(stderr);
    return 2;
  }
  /* A client that goes away mid-answer must not kill the server with
   * SIGPIPE before it notices. */
  signal(SIGPIPE, SIG_IGN);
  Buffer line = {0};
  int r;
  while ((r = readLine(&line)) != 0) {
    if (r < 0) {
      char m[128];
      snprintf(m, sizeof m, "message longer than %zu bytes (--max-message)",
               maxMessage);
      sendError(NULL, INVALID_REQUEST, m);
      continue;
    }
    if (line.length == 0)
      continue;
    handle(line.data);
  }
  free(line.data);
  return 0;
}
