// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- runtime.c - Load, check, launch and time Cake bundles -------------===*\
|*                                                                            *|
|* Implements cake-rt/cake_runtime.h over the CUDA driver API. The bundle's   *|
|* JSON is read with cJSON; the cubin inside is base64.                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "cake-rt/cake_runtime.h"
#include "cake/Version.h"

#include <cjson/cJSON.h>
#include <cuda.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Every driver call is checked: a failure returns with its name and text. */
#define CAKE_RT_CHECK_CU(call)                                                 \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS)                                                    \
      return cakeRtCudaFail(r_, #call);                                        \
  } while (0)

#define CAKE_RT_MAX_PARAMS 64
#define CAKE_RT_MAX_TMA 16
#define CAKE_RT_MAX_ARGS 16

typedef enum { PARAM_PTR, PARAM_DIM, PARAM_I64, PARAM_TMA } ParamKind;

typedef struct {
  ParamKind kind;
  int arg, dim;
} Param;

typedef struct {
  int arg, rank, swizzle;
  int64_t box[5]; /* outermost first, as in the ring tile */
} TmaSpec;

typedef struct {
  char element[16];
  int isScalar, rank, elementBytes;
  int64_t staticShape[5]; /* the kernel's static extents; -1 where dynamic */
  CUtensorMapDataType dtype;
  int dtypeOk;
} ArgSpec;

struct CakeRtBundle {
  char entry[256];
  int block[3];
  int64_t smemBytes;
  int64_t cluster;        /* CTAs per cluster along x (hw.cluster) */
  int clusterNonPortable; /* past the portable size (the bundle says): the
                           * function must allow it */
  int persistent;
  int rank; /* tile rank */
  int64_t tile[3];
  int extentArg[3], extentDim[3];
  int numArgs;
  ArgSpec args[CAKE_RT_MAX_ARGS];
  int numParams;
  Param params[CAKE_RT_MAX_PARAMS];
  int numTma;
  TmaSpec tma[CAKE_RT_MAX_TMA];
  CUmodule module;
  CUfunction function;
  CUdeviceptr descriptors; /* numTma x 128 bytes, 64-byte aligned */
  CUtensorMap uploaded[CAKE_RT_MAX_TMA];
  int haveUploaded;
  int numSMs;
  /* The CTAs a persistent grid may hold: the SMs, or for a cluster the
   * clusters that fit on the GPU at once (a GPC's SMs come in clusters;
   * a grid past them would run its last clusters as a second wave while
   * the first hold every SM). */
  int64_t mostResident;
};

/*===--- Errors -----------------------------------------------------------===*/

static _Thread_local char lastError[1024];

const char *cakeRtLastError(void) { return lastError; }

const char *cakeRtVersion(void) { return CAKE_VERSION_STRING; }

static CakeRtStatus fail(CakeRtStatus status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(lastError, sizeof lastError, fmt, ap);
  va_end(ap);
  return status;
}

CakeRtStatus cakeRtFailWith(CakeRtStatus status, const char *message) {
  return fail(status, "%s", message);
}

CakeRtStatus cakeRtCudaFail(int result, const char *what) {
  CUresult r = (CUresult)result;
  const char *name = NULL, *msg = NULL;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &msg);
  return fail(CAKE_RT_ERROR_CUDA, "%s failed: %s (%s)", what, name ? name : "?",
              msg ? msg : "?");
}

/*===--- Bundle parsing ---------------------------------------------------===*/

static int b64value(char c) {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+')
    return 62;
  if (c == '/')
    return 63;
  return -1;
}

/* Decodes base64 `in` into a malloc'd buffer; returns NULL on bad input. */
static unsigned char *b64decode(const char *in, size_t *outLen) {
  size_t n = strlen(in);
  if (n % 4 != 0)
    return NULL;
  unsigned char *out = malloc(n / 4 * 3 + 1);
  if (!out)
    return NULL;
  size_t o = 0;
  for (size_t i = 0; i < n; i += 4) {
    int v[4];
    for (int k = 0; k < 4; ++k) {
      v[k] = in[i + k] == '=' ? 0 : b64value(in[i + k]);
      if (v[k] < 0) {
        free(out);
        return NULL;
      }
    }
    uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 |
                 (uint32_t)v[2] << 6 | (uint32_t)v[3];
    out[o++] = (unsigned char)(w >> 16);
    if (in[i + 2] != '=')
      out[o++] = (unsigned char)(w >> 8);
    if (in[i + 3] != '=')
      out[o++] = (unsigned char)w;
  }
  *outLen = o;
  return out;
}

/* `v` as an integer in [lo, hi]: a JSON number that is whole and in range
 * (casting a double out of int64's range is undefined behaviour, so the
 * range is checked on the double first). */
static int intIn(const cJSON *v, int64_t lo, int64_t hi, int64_t *out) {
  if (!cJSON_IsNumber(v))
    return 0;
  double d = v->valuedouble;
  if (!(d >= (double)lo && d <= (double)hi) || d != (double)(int64_t)d)
    return 0;
  *out = (int64_t)d;
  return 1;
}

/* obj[key] as an integer in [lo, hi]. */
static int getIntIn(const cJSON *obj, const char *key, int64_t lo, int64_t hi,
                    int64_t *out) {
  return intIn(cJSON_GetObjectItemCaseSensitive(obj, key), lo, hi, out);
}

static int dtypeOf(const char *name, CUtensorMapDataType *out) {
  static const struct {
    const char *name;
    CUtensorMapDataType type;
  } table[] = {
      {"bf16", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16},
      {"f16", CU_TENSOR_MAP_DATA_TYPE_FLOAT16},
      {"f32", CU_TENSOR_MAP_DATA_TYPE_FLOAT32},
      {"tf32", CU_TENSOR_MAP_DATA_TYPE_TFLOAT32},
      {"f64", CU_TENSOR_MAP_DATA_TYPE_FLOAT64},
      {"i8", CU_TENSOR_MAP_DATA_TYPE_UINT8},
      {"ui8", CU_TENSOR_MAP_DATA_TYPE_UINT8},
      {"f8E4M3FN", CU_TENSOR_MAP_DATA_TYPE_UINT8},
      {"f8E5M2", CU_TENSOR_MAP_DATA_TYPE_UINT8},
      {"i16", CU_TENSOR_MAP_DATA_TYPE_UINT16},
      {"i32", CU_TENSOR_MAP_DATA_TYPE_INT32},
      {"ui32", CU_TENSOR_MAP_DATA_TYPE_UINT32},
      {"i64", CU_TENSOR_MAP_DATA_TYPE_INT64},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
    if (strcmp(name, table[i].name) == 0) {
      *out = table[i].type;
      return 1;
    }
  return 0;
}

static CakeRtStatus parseBundle(CakeRtBundle *b, const cJSON *doc,
                                unsigned char **cubin, size_t *cubinLen) {
  const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(doc, "format");
  if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "cake-bundle-1") != 0)
    return fail(CAKE_RT_ERROR_FORMAT, "not a cake-bundle-1 document");
  const cJSON *entry = cJSON_GetObjectItemCaseSensitive(doc, "entry");
  if (!cJSON_IsString(entry) || strlen(entry->valuestring) >= sizeof b->entry)
    return fail(CAKE_RT_ERROR_FORMAT, "bundle: missing or bad 'entry'");
  strcpy(b->entry, entry->valuestring);

  const cJSON *block = cJSON_GetObjectItemCaseSensitive(doc, "block");
  if (!cJSON_IsArray(block) || cJSON_GetArraySize(block) != 3)
    return fail(CAKE_RT_ERROR_FORMAT, "bundle: 'block' must have 3 sizes");
  for (int i = 0; i < 3; ++i) {
    int64_t v;
    if (!intIn(cJSON_GetArrayItem(block, i), 1, 1024, &v))
      return fail(CAKE_RT_ERROR_FORMAT,
                  "bundle: 'block' sizes must be integers from 1 to 1024");
    b->block[i] = (int)v;
  }
  if (!getIntIn(doc, "smem_bytes", 0, INT32_MAX, &b->smemBytes))
    return fail(CAKE_RT_ERROR_FORMAT,
                "bundle: 'smem_bytes' must be an integer from 0 to 2^31-1");
  /* The cluster, [n, 1, 1]: Cake's grids are one-dimensional. 16 bounds
   * the format only; the target's limit was checked by hw.cluster and
   * ptxas holds the cubin to it. */
  const cJSON *cluster = cJSON_GetObjectItemCaseSensitive(doc, "cluster");
  b->cluster = 1;
  if (cluster) {
    int64_t y = 0, z = 0;
    if (!cJSON_IsArray(cluster) || cJSON_GetArraySize(cluster) != 3 ||
        !intIn(cJSON_GetArrayItem(cluster, 0), 1, 16, &b->cluster) ||
        !intIn(cJSON_GetArrayItem(cluster, 1), 1, 1, &y) ||
        !intIn(cJSON_GetArrayItem(cluster, 2), 1, 1, &z))
      return fail(CAKE_RT_ERROR_FORMAT,
                  "bundle: 'cluster' must be [n, 1, 1] with n from 1 to 16");
  }
  b->clusterNonPortable = cJSON_IsTrue(
      cJSON_GetObjectItemCaseSensitive(doc, "cluster_non_portable"));

  const cJSON *args = cJSON_GetObjectItemCaseSensitive(doc, "args");
  b->numArgs = cJSON_GetArraySize(args);
  if (!cJSON_IsArray(args) || b->numArgs > CAKE_RT_MAX_ARGS)
    return fail(CAKE_RT_ERROR_FORMAT, "bundle: bad 'args'");
  for (int i = 0; i < b->numArgs; ++i) {
    const cJSON *a = cJSON_GetArrayItem(args, i);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(a, "kind");
    const cJSON *elt = cJSON_GetObjectItemCaseSensitive(a, "element");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(a, "shape");
    int64_t eb = 0;
    if (!cJSON_IsString(kind) || !cJSON_IsString(elt) ||
        !getIntIn(a, "element_bytes", 1, 16, &eb))
      return fail(CAKE_RT_ERROR_FORMAT, "bundle: bad argument #%d", i);
    if (cJSON_IsArray(shape) && cJSON_GetArraySize(shape) > 5)
      return fail(CAKE_RT_ERROR_FORMAT,
                  "bundle: argument #%d has rank %d; at most 5", i,
                  cJSON_GetArraySize(shape));
    if (strlen(elt->valuestring) >= sizeof b->args[i].element)
      return fail(CAKE_RT_ERROR_FORMAT,
                  "bundle: bad element type of "
                  "argument #%d",
                  i);
    strcpy(b->args[i].element, elt->valuestring);
    b->args[i].isScalar = strcmp(kind->valuestring, "scalar") == 0;
    b->args[i].rank = cJSON_IsArray(shape) ? cJSON_GetArraySize(shape) : 0;
    /* null: a dynamic extent; a number: the extent the kernel was built
       for (its lowering may fold it), checked at launch. */
    for (int d = 0; d < b->args[i].rank; ++d) {
      const cJSON *x = cJSON_GetArrayItem(shape, d);
      b->args[i].staticShape[d] = -1;
      if (cJSON_IsNull(x))
        continue;
      if (!cJSON_IsNumber(x) || !(x->valuedouble >= 1.0) ||
          x->valuedouble > 9.0e15 ||
          x->valuedouble != (double)(int64_t)x->valuedouble)
        return fail(CAKE_RT_ERROR_FORMAT,
                    "bundle: argument #%d: bad extent of dimension %d", i, d);
      b->args[i].staticShape[d] = (int64_t)x->valuedouble;
    }
    b->args[i].elementBytes = (int)eb;
    b->args[i].dtypeOk = dtypeOf(elt->valuestring, &b->args[i].dtype);
  }

  const cJSON *params = cJSON_GetObjectItemCaseSensitive(doc, "params");
  b->numParams = cJSON_GetArraySize(params);
  if (!cJSON_IsArray(params) || b->numParams > CAKE_RT_MAX_PARAMS)
    return fail(CAKE_RT_ERROR_FORMAT, "bundle: bad 'params'");
  for (int i = 0; i < b->numParams; ++i) {
    const cJSON *p = cJSON_GetArrayItem(params, i);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(p, "kind");
    int64_t arg = -1, dim = -1;
    if (!cJSON_IsString(kind))
      return fail(CAKE_RT_ERROR_FORMAT, "bundle: bad parameter #%d", i);
    const char *k = kind->valuestring;
    Param *q = &b->params[i];
    int64_t maxArg = b->numArgs - 1;
    if (strcmp(k, "ptr") == 0 && getIntIn(p, "arg", 0, maxArg, &arg)) {
      q->kind = PARAM_PTR;
    } else if (strcmp(k, "dim") == 0 && getIntIn(p, "arg", 0, maxArg, &arg) &&
               getIntIn(p, "dim", 0, b->args[arg].rank - 1, &dim)) {
      q->kind = PARAM_DIM;
    } else if (strcmp(k, "i64") == 0 && getIntIn(p, "arg", 0, maxArg, &arg)) {
      q->kind = PARAM_I64;
    } else if (strcmp(k, "tma") == 0 &&
               getIntIn(p, "index", 0, CAKE_RT_MAX_TMA - 1, &arg)) {
      q->kind = PARAM_TMA;
    } else {
      return fail(CAKE_RT_ERROR_FORMAT, "bundle: bad parameter #%d", i);
    }
    q->arg = (int)arg;
    q->dim = (int)dim;
    if (q->kind != PARAM_TMA && (arg < 0 || arg >= b->numArgs))
      return fail(CAKE_RT_ERROR_FORMAT,
                  "bundle: parameter #%d names argument "
                  "%d of %d",
                  i, (int)arg, b->numArgs);
  }

  const cJSON *grid = cJSON_GetObjectItemCaseSensitive(doc, "grid");
  const cJSON *gkind = cJSON_GetObjectItemCaseSensitive(grid, "kind");
  const cJSON *tile = cJSON_GetObjectItemCaseSensitive(grid, "tile");
  const cJSON *extents = cJSON_GetObjectItemCaseSensitive(grid, "extents");
  if (!cJSON_IsString(gkind) || !cJSON_IsArray(tile) ||
      !cJSON_IsArray(extents) ||
      cJSON_GetArraySize(tile) != cJSON_GetArraySize(extents) ||
      cJSON_GetArraySize(tile) < 1 || cJSON_GetArraySize(tile) > 3)
    return fail(CAKE_RT_ERROR_FORMAT, "bundle: bad 'grid'");
  b->persistent = strcmp(gkind->valuestring, "persistent") == 0;
  b->rank = cJSON_GetArraySize(tile);
  for (int i = 0; i < b->rank; ++i) {
    int64_t a = -1, d = -1;
    const cJSON *e = cJSON_GetArrayItem(extents, i);
    if (!intIn(cJSON_GetArrayItem(tile, i), 1, INT32_MAX, &b->tile[i]))
      return fail(CAKE_RT_ERROR_FORMAT,
                  "bundle: grid tile #%d must be an integer from 1 to 2^31-1",
                  i);
    if (!getIntIn(e, "arg", 0, b->numArgs - 1, &a) ||
        !getIntIn(e, "dim", -1, 4, &d) ||
        (d >= 0 && d >= b->args[a].rank))
      return fail(CAKE_RT_ERROR_FORMAT, "bundle: bad grid extent #%d", i);
    b->extentArg[i] = (int)a;
    b->extentDim[i] = (int)d;
  }

  const cJSON *tma = cJSON_GetObjectItemCaseSensitive(doc, "tma");
  b->numTma = cJSON_GetArraySize(tma);
  if (!cJSON_IsArray(tma) || b->numTma > CAKE_RT_MAX_TMA)
    return fail(CAKE_RT_ERROR_FORMAT, "bundle: bad 'tma'");
  for (int i = 0; i < b->numTma; ++i) {
    const cJSON *t = cJSON_GetArrayItem(tma, i);
    const cJSON *box = cJSON_GetObjectItemCaseSensitive(t, "box");
    int64_t arg = -1, swz = -1;
    if (!getIntIn(t, "arg", 0, b->numArgs - 1, &arg) ||
        !getIntIn(t, "swizzle", 0, 128, &swz) ||
        (swz != 0 && swz != 32 && swz != 64 && swz != 128) ||
        !cJSON_IsArray(box) || b->args[arg].rank < 1 ||
        cJSON_GetArraySize(box) != b->args[arg].rank || !b->args[arg].dtypeOk)
      return fail(CAKE_RT_ERROR_FORMAT, "bundle: bad TMA spec #%d", i);
    b->tma[i].arg = (int)arg;
    b->tma[i].swizzle = (int)swz;
    b->tma[i].rank = cJSON_GetArraySize(box);
    for (int k = 0; k < b->tma[i].rank; ++k)
      if (!intIn(cJSON_GetArrayItem(box, k), 1, 256, &b->tma[i].box[k]))
        return fail(CAKE_RT_ERROR_FORMAT,
                    "bundle: TMA spec #%d: box sizes are integers from 1 "
                    "to 256",
                    i);
  }

  /* The image: a cubin (base64), or PTX text that the driver compiles for
   * the GPU at hand (a bundle lowered with format=ptx: an sm_80 kernel runs
   * on an H100 or H200 this way). */
  const cJSON *cub = cJSON_GetObjectItemCaseSensitive(doc, "cubin");
  const cJSON *ptx = cJSON_GetObjectItemCaseSensitive(doc, "ptx");
  if (cub && ptx)
    return fail(CAKE_RT_ERROR_FORMAT,
                "bundle: has both 'cubin' and 'ptx'; it holds one image");
  if (cJSON_IsString(ptx)) {
    size_t len = strlen(ptx->valuestring);
    if (len == 0)
      return fail(CAKE_RT_ERROR_FORMAT, "bundle: 'ptx' is empty");
    *cubin = malloc(len + 1);
    if (!*cubin)
      return fail(CAKE_RT_ERROR_IO, "out of memory");
    memcpy(*cubin, ptx->valuestring, len + 1);
    *cubinLen = len + 1;
    return CAKE_RT_SUCCESS;
  }
  if (!cJSON_IsString(cub))
    return fail(CAKE_RT_ERROR_FORMAT, "bundle: missing 'cubin' (or 'ptx')");
  *cubin = b64decode(cub->valuestring, cubinLen);
  if (!*cubin)
    return fail(CAKE_RT_ERROR_FORMAT, "bundle: 'cubin' is not valid base64");
  return CAKE_RT_SUCCESS;
}

CakeRtStatus cakeRtEnsureContext(void) {
  CAKE_RT_CHECK_CU(cuInit(0));
  CUcontext ctx = NULL;
  CAKE_RT_CHECK_CU(cuCtxGetCurrent(&ctx));
  if (ctx)
    return CAKE_RT_SUCCESS;
  CUdevice dev;
  CAKE_RT_CHECK_CU(cuDeviceGet(&dev, 0));
  CAKE_RT_CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CAKE_RT_CHECK_CU(cuCtxSetCurrent(ctx));
  return CAKE_RT_SUCCESS;
}

CakeRtStatus cakeRtBundleLoadFromMemory(const char *json, size_t length,
                                        CakeRtBundle **out) {
  *out = NULL;
  cJSON *doc = cJSON_ParseWithLength(json, length);
  if (!doc) {
    /* Quote at most 20 bytes of what is left: `json` need not end in a
     * NUL. */
    const char *at = cJSON_GetErrorPtr();
    size_t left = at && at >= json && at <= json + length
                      ? length - (size_t)(at - json)
                      : 0;
    return fail(CAKE_RT_ERROR_FORMAT, "bundle is not valid JSON (near '%.*s')",
                (int)(left < 20 ? left : 20), left ? at : "");
  }
  CakeRtBundle *b = calloc(1, sizeof *b);
  if (!b) {
    cJSON_Delete(doc);
    return fail(CAKE_RT_ERROR_IO, "out of memory");
  }
  unsigned char *cubin = NULL;
  size_t cubinLen = 0;
  CakeRtStatus s = parseBundle(b, doc, &cubin, &cubinLen);
  cJSON_Delete(doc);
  if (s == CAKE_RT_SUCCESS)
    s = cakeRtEnsureContext();
  if (s == CAKE_RT_SUCCESS) {
    CUresult r = cuModuleLoadData(&b->module, cubin);
    if (r != CUDA_SUCCESS)
      s = cakeRtCudaFail(r, "cuModuleLoadData");
  }
  free(cubin);
  if (s == CAKE_RT_SUCCESS) {
    CUresult r = cuModuleGetFunction(&b->function, b->module, b->entry);
    if (r != CUDA_SUCCESS)
      s = cakeRtCudaFail(r, "cuModuleGetFunction");
  }
  if (s == CAKE_RT_SUCCESS) {
    CUresult r = cuFuncSetAttribute(
        b->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        (int)b->smemBytes);
    if (r != CUDA_SUCCESS)
      s = cakeRtCudaFail(r,
                         "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
  }
  if (s == CAKE_RT_SUCCESS && b->clusterNonPortable) {
    CUresult r = cuFuncSetAttribute(
        b->function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
    if (r != CUDA_SUCCESS)
      s = cakeRtCudaFail(r, "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_"
                            "ALLOWED)");
  }
  if (s == CAKE_RT_SUCCESS && b->numTma > 0) {
    CUresult r = cuMemAlloc(&b->descriptors, (size_t)b->numTma * 128);
    if (r != CUDA_SUCCESS)
      s = cakeRtCudaFail(r, "cuMemAlloc(descriptors)");
  }
  if (s == CAKE_RT_SUCCESS) {
    CUdevice dev;
    CUresult r = cuCtxGetDevice(&dev);
    if (r == CUDA_SUCCESS)
      r = cuDeviceGetAttribute(&b->numSMs,
                               CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    if (r != CUDA_SUCCESS)
      s = cakeRtCudaFail(r, "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)");
    b->mostResident = b->numSMs;
  }
  if (s == CAKE_RT_SUCCESS && b->cluster > 1) {
    CUlaunchConfig config;
    memset(&config, 0, sizeof config);
    config.gridDimX = (unsigned)b->cluster;
    config.gridDimY = config.gridDimZ = 1;
    config.blockDimX = (unsigned)b->block[0];
    config.blockDimY = (unsigned)b->block[1];
    config.blockDimZ = (unsigned)b->block[2];
    config.sharedMemBytes = (unsigned)b->smemBytes;
    int clusters = 0;
    CUresult r = cuOccupancyMaxActiveClusters(&clusters, b->function, &config);
    if (r != CUDA_SUCCESS)
      s = cakeRtCudaFail(r, "cuOccupancyMaxActiveClusters");
    else if (clusters < 1)
      s = fail(CAKE_RT_ERROR_REFUSED,
               "[hw.cluster] no cluster of %lld CTAs of kernel %s fits on the "
               "GPU (%lld bytes of shared memory, %d threads a CTA)",
               (long long)b->cluster, b->entry, (long long)b->smemBytes,
               b->block[0]);
    else if ((int64_t)clusters * b->cluster < b->mostResident)
      b->mostResident = (int64_t)clusters * b->cluster;
  }
  if (s != CAKE_RT_SUCCESS) {
    cakeRtBundleDestroy(b);
    return s;
  }
  *out = b;
  return CAKE_RT_SUCCESS;
}

CakeRtStatus cakeRtBundleLoad(const char *path, CakeRtBundle **out) {
  *out = NULL;
  FILE *f = fopen(path, "rb");
  if (!f)
    return fail(CAKE_RT_ERROR_IO, "cannot open bundle '%s'", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n > 0 ? malloc((size_t)n) : NULL;
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    fclose(f);
    return fail(CAKE_RT_ERROR_IO, "cannot read bundle '%s'", path);
  }
  fclose(f);
  CakeRtStatus s = cakeRtBundleLoadFromMemory(buf, (size_t)n, out);
  free(buf);
  return s;
}

void cakeRtBundleDestroy(CakeRtBundle *b) {
  if (!b)
    return;
  if (b->descriptors)
    cuMemFree(b->descriptors);
  if (b->module)
    cuModuleUnload(b->module);
  free(b);
}

const char *cakeRtBundleGetEntry(const CakeRtBundle *b) { return b->entry; }
int cakeRtBundleGetNumArgs(const CakeRtBundle *b) { return b->numArgs; }

const char *cakeRtBundleGetArgElement(const CakeRtBundle *b, int i) {
  return i >= 0 && i < b->numArgs ? b->args[i].element : "";
}

int cakeRtBundleGetArgRank(const CakeRtBundle *b, int i) {
  return i >= 0 && i < b->numArgs && !b->args[i].isScalar ? b->args[i].rank : 0;
}

/*===--- Launch -----------------------------------------------------------===*/

static CakeRtStatus checkArgs(const CakeRtBundle *b, const CakeRtArg *args,
                              int n) {
  if (n != b->numArgs)
    return fail(CAKE_RT_ERROR_ARGUMENT, "kernel %s takes %d arguments, got %d",
                b->entry, b->numArgs, n);
  for (int i = 0; i < n; ++i) {
    if (args[i].isScalar != b->args[i].isScalar)
      return fail(CAKE_RT_ERROR_ARGUMENT, "argument #%d: expected a %s", i,
                  b->args[i].isScalar ? "scalar" : "tensor");
    if (!args[i].isScalar && args[i].rank != b->args[i].rank)
      return fail(CAKE_RT_ERROR_ARGUMENT,
                  "argument #%d: expected rank %d, got %d", i, b->args[i].rank,
                  args[i].rank);
    for (int d = 0; !args[i].isScalar && d < args[i].rank; ++d)
      if (b->args[i].staticShape[d] >= 0 &&
          args[i].shape[d] != b->args[i].staticShape[d])
        return fail(CAKE_RT_ERROR_ARGUMENT,
                    "argument #%d: dimension %d is %lld; the kernel was built "
                    "for %lld",
                    i, d, (long long)args[i].shape[d],
                    (long long)b->args[i].staticShape[d]);
  }
  return CAKE_RT_SUCCESS;
}

static int64_t extentOf(const CakeRtBundle *b, const CakeRtArg *args, int i) {
  const CakeRtArg *a = &args[b->extentArg[i]];
  return b->extentDim[i] < 0 ? a->scalar : a->shape[b->extentDim[i]];
}

CakeRtStatus cakeRtGridSize(CakeRtBundle *b, const CakeRtArg *args, int n,
                            int64_t *gridX) {
  CakeRtStatus s = checkArgs(b, args, n);
  if (s != CAKE_RT_SUCCESS)
    return s;
  /* The tile rows rounded up to whole clusters: the lowering gives the n
   * CTAs of a cluster n neighbouring rows of one column (hw.cluster). */
  int64_t size = b->cluster;
  int64_t tiles = 1;
  for (int i = 0; i < b->rank; ++i) {
    int64_t count = (extentOf(b, args, i) + b->tile[i] - 1) / b->tile[i];
    if (i == 0)
      count = (count + size - 1) / size * size;
    tiles *= count;
  }
  if (b->persistent && tiles > 0) {
    /* Whole clusters: at most those resident at once, the CTAs past the
     * tiles finding none. */
    int64_t most = b->mostResident / size * size;
    if (tiles > most)
      tiles = most > 0 ? most : size;
  }
  *gridX = tiles;
  return CAKE_RT_SUCCESS;
}

/* Encodes descriptor `i` for the launch's tensors, after the launch-time
 * hw.tma-alignment check. */
static CakeRtStatus encodeTma(const CakeRtBundle *b, int i,
                              const CakeRtArg *args, CUtensorMap *out) {
  const TmaSpec *t = &b->tma[i];
  const CakeRtArg *a = &args[t->arg];
  const ArgSpec *spec = &b->args[t->arg];
  int rank = t->rank;
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], estrides[5];
  uint64_t eb = (uint64_t)spec->elementBytes;
  /* TMA lists dimensions innermost first. */
  uint64_t stride = eb;
  for (int k = 0; k < rank; ++k) {
    int src = rank - 1 - k;
    if (a->shape[src] <= 0)
      return fail(CAKE_RT_ERROR_ARGUMENT,
                  "argument #%d: dimension %d is %lld, expected positive",
                  t->arg, src, (long long)a->shape[src]);
    dims[k] = (cuuint64_t)a->shape[src];
    box[k] = (cuuint32_t)t->box[src];
    estrides[k] = 1;
    if (k > 0)
      strides[k - 1] = stride;
    stride *= dims[k];
  }
  if (a->data % 16 != 0)
    return fail(CAKE_RT_ERROR_REFUSED,
                "[hw.tma-alignment] argument #%d: base address 0x%llx is not "
                "16-byte aligned",
                t->arg, (unsigned long long)a->data);
  for (int k = 0; k + 1 < rank; ++k)
    if (strides[k] % 16 != 0)
      return fail(CAKE_RT_ERROR_REFUSED,
                  "[hw.tma-alignment] argument #%d: the stride of dimension %d "
                  "is %llu bytes, not a multiple of 16 (pad the rows)",
                  t->arg, rank - 2 - k, (unsigned long long)strides[k]);
  CUtensorMapSwizzle swz = CU_TENSOR_MAP_SWIZZLE_NONE;
  if (t->swizzle == 128)
    swz = CU_TENSOR_MAP_SWIZZLE_128B;
  else if (t->swizzle == 64)
    swz = CU_TENSOR_MAP_SWIZZLE_64B;
  else if (t->swizzle == 32)
    swz = CU_TENSOR_MAP_SWIZZLE_32B;
  CAKE_RT_CHECK_CU(cuTensorMapEncodeTiled(
      out, spec->dtype, (cuuint32_t)rank, (void *)(uintptr_t)a->data, dims,
      strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swz,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return CAKE_RT_SUCCESS;
}

CakeRtStatus cakeRtLaunch(CakeRtBundle *b, const CakeRtArg *args, int n,
                          void *stream) {
  int64_t grid = 0;
  CakeRtStatus s = cakeRtGridSize(b, args, n, &grid);
  if (s != CAKE_RT_SUCCESS)
    return s;
  if (grid == 0)
    return CAKE_RT_SUCCESS; /* empty problem: nothing to do */
  if (grid > 0x7fffffff)
    return fail(CAKE_RT_ERROR_ARGUMENT, "grid of %lld CTAs is too large",
                (long long)grid);

  CUtensorMap maps[CAKE_RT_MAX_TMA];
  memset(maps, 0, sizeof maps);
  for (int i = 0; i < b->numTma; ++i)
    if ((s = encodeTma(b, i, args, &maps[i])) != CAKE_RT_SUCCESS)
      return s;
  if (b->numTma > 0 &&
      (!b->haveUploaded ||
       memcmp(maps, b->uploaded, sizeof(CUtensorMap) * b->numTma) != 0)) {
    /* A launch still in flight may read the old descriptors. */
    CAKE_RT_CHECK_CU(cuStreamSynchronize((CUstream)stream));
    CAKE_RT_CHECK_CU(cuMemcpyHtoD(b->descriptors, maps,
                          sizeof(CUtensorMap) * (size_t)b->numTma));
    memcpy(b->uploaded, maps, sizeof(CUtensorMap) * (size_t)b->numTma);
    b->haveUploaded = 1;
  }

  uint64_t values[CAKE_RT_MAX_PARAMS];
  void *ptrs[CAKE_RT_MAX_PARAMS];
  for (int i = 0; i < b->numParams; ++i) {
    const Param *p = &b->params[i];
    switch (p->kind) {
    case PARAM_PTR:
      values[i] = args[p->arg].data;
      break;
    case PARAM_DIM:
      values[i] = (uint64_t)args[p->arg].shape[p->dim];
      break;
    case PARAM_I64:
      values[i] = (uint64_t)args[p->arg].scalar;
      break;
    case PARAM_TMA:
      if (p->arg < 0 || p->arg >= b->numTma)
        return fail(CAKE_RT_ERROR_FORMAT,
                    "bundle: parameter #%d names TMA "
                    "descriptor %d of %d",
                    i, p->arg, b->numTma);
      values[i] = (uint64_t)b->descriptors + 128ull * (uint64_t)p->arg;
      break;
    }
    ptrs[i] = &values[i];
  }
  CAKE_RT_CHECK_CU(cuLaunchKernel(b->function, (unsigned)grid, 1, 1,
                          (unsigned)b->block[0], (unsigned)b->block[1],
                          (unsigned)b->block[2], (unsigned)b->smemBytes,
                          (CUstream)stream, ptrs, NULL));
  return CAKE_RT_SUCCESS;
}

CakeRtStatus cakeRtSynchronize(void *stream, int64_t timeoutMs) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    CUresult r = cuStreamQuery((CUstream)stream);
    if (r == CUDA_SUCCESS)
      return CAKE_RT_SUCCESS;
    if (r != CUDA_ERROR_NOT_READY)
      return cakeRtCudaFail(r, "kernel execution (cuStreamQuery)");
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t ms = (now.tv_sec - start.tv_sec) * 1000 +
                 (now.tv_nsec - start.tv_nsec) / 1000000;
    if (ms > timeoutMs)
      return fail(CAKE_RT_ERROR_TIMEOUT,
                  "the kernel did not finish within %lld ms (hang?)",
                  (long long)timeoutMs);
    struct timespec nap = {0, 200000};
    nanosleep(&nap, NULL);
  }
}

static int cmpFloat(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

CakeRtStatus cakeRtTime(CakeRtBundle *b, const CakeRtArg *args, int n,
                        void *stream, int warmup, int iterations,
                        float *medianMs) {
  if (iterations < 1)
    return fail(CAKE_RT_ERROR_ARGUMENT, "need at least one timed iteration");
  CakeRtStatus s;
  for (int i = 0; i < warmup; ++i)
    if ((s = cakeRtLaunch(b, args, n, stream)) != CAKE_RT_SUCCESS)
      return s;
  float *times = malloc(sizeof(float) * (size_t)iterations);
  CUevent *ev = malloc(sizeof(CUevent) * (size_t)(iterations + 1));
  if (!times || !ev) {
    free(times);
    free(ev);
    return fail(CAKE_RT_ERROR_IO, "out of memory");
  }
  s = CAKE_RT_SUCCESS;
  int made = 0;
  for (; made <= iterations; ++made) {
    CUresult r = cuEventCreate(&ev[made], CU_EVENT_DEFAULT);
    if (r != CUDA_SUCCESS) {
      s = cakeRtCudaFail(r, "cuEventCreate");
      break;
    }
  }
  for (int i = 0; s == CAKE_RT_SUCCESS && i < iterations; ++i) {
    CUresult r = cuEventRecord(ev[i], (CUstream)stream);
    if (r != CUDA_SUCCESS)
      s = cakeRtCudaFail(r, "cuEventRecord");
    else
      s = cakeRtLaunch(b, args, n, stream);
  }
  if (s == CAKE_RT_SUCCESS) {
    CUresult r = cuEventRecord(ev[iterations], (CUstream)stream);
    if (r == CUDA_SUCCESS)
      r = cuEventSynchronize(ev[iterations]);
    if (r != CUDA_SUCCESS)
      s = cakeRtCudaFail(r, "cuEventSynchronize");
  }
  for (int i = 0; s == CAKE_RT_SUCCESS && i < iterations; ++i) {
    CUresult r = cuEventElapsedTime(&times[i], ev[i], ev[i + 1]);
    if (r != CUDA_SUCCESS)
      s = cakeRtCudaFail(r, "cuEventElapsedTime");
  }
  for (int i = 0; i < made; ++i)
    cuEventDestroy(ev[i]);
  if (s == CAKE_RT_SUCCESS) {
    qsort(times, (size_t)iterations, sizeof(float), cmpFloat);
    *medianMs = times[iterations / 2];
  }
  free(times);
  free(ev);
  return s;
}
