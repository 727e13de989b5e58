// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- cake-rt/cake_runtime.h - Load and launch Cake bundles ------*- C -*-===*\
|*                                                                            *|
|* A small C11 library over the CUDA driver API (and cJSON), with no MLIR:    *|
|* load a bundle written by `cake-translate --cake-to-bundle`, encode its TMA *|
|* descriptors for the tensors of a launch, set the shared-memory attribute,  *|
|* launch, and time launches with events. Every CUDA call is checked; errors  *|
|* come back as a status, with a message from cakeRtLastError().              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_RT_CAKE_RUNTIME_H
#define CAKE_RT_CAKE_RUNTIME_H

/// @file
/// Load and launch Cake bundles over the CUDA driver API (C11, no MLIR).

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What a runtime call returns; on failure cakeRtLastError() says why. */
typedef enum CakeRtStatus {
  CAKE_RT_SUCCESS = 0,    /**< done */
  CAKE_RT_ERROR_IO,       /**< the bundle file could not be read */
  CAKE_RT_ERROR_FORMAT,   /**< the bundle is malformed */
  CAKE_RT_ERROR_CUDA,     /**< a CUDA driver call failed */
  CAKE_RT_ERROR_ARGUMENT, /**< the launch arguments do not fit the kernel */
  CAKE_RT_ERROR_REFUSED,  /**< a launch-time rule check failed (rule id in the
                             message) */
  CAKE_RT_ERROR_TIMEOUT   /**< the kernel did not finish in time */
} CakeRtStatus;

/** A loaded bundle: the cubin's module and function, the launch metadata. */
typedef struct CakeRtBundle CakeRtBundle;

/** One kernel argument: a row-major contiguous device tensor, or a scalar. */
typedef struct CakeRtArg {
  int isScalar;     /**< 0: tensor, 1: index scalar */
  uint64_t data;    /**< device pointer (CUdeviceptr) of a tensor */
  int32_t rank;     /**< tensor rank, 1..5 */
  int64_t shape[5]; /**< tensor sizes, outermost first */
  int64_t scalar;   /**< the scalar's value */
} CakeRtArg;

/** Message of the last failure on this thread ("" if none). */
const char *cakeRtLastError(void);

/** Cake's version, "MAJOR.MINOR.PATCH", of the runtime library loaded. */
const char *cakeRtVersion(void);

/** Loads the bundle at `path` (cake-translate --cake-to-bundle's JSON) into
 * `*bundle`. Needs a CUDA device; uses the current context or retains
 * device 0's primary one. */
CakeRtStatus cakeRtBundleLoad(const char *path, CakeRtBundle **bundle);
/** Loads a bundle from `length` bytes of JSON text at `json`, as
 * cakeRtBundleLoad does from a file. */
CakeRtStatus cakeRtBundleLoadFromMemory(const char *json, size_t length,
                                        CakeRtBundle **bundle);
/** Unloads a bundle (null is allowed). */
void cakeRtBundleDestroy(CakeRtBundle *bundle);

/** The kernel's entry name. */
const char *cakeRtBundleGetEntry(const CakeRtBundle *bundle);
/** The number of arguments the kernel takes. */
int cakeRtBundleGetNumArgs(const CakeRtBundle *bundle);
/** Element type of argument `i` as MLIR spells it ("bf16", "f32", "i32"). */
const char *cakeRtBundleGetArgElement(const CakeRtBundle *bundle, int i);
/** Rank of tensor argument `i`; 0 for a scalar (and for no such argument). */
int cakeRtBundleGetArgRank(const CakeRtBundle *bundle, int i);

/** Launches the kernel on `stream` (a CUstream; 0 for the default stream)
 * after applying the bundle's launch-time checks. Asynchronous. */
CakeRtStatus cakeRtLaunch(CakeRtBundle *bundle, const CakeRtArg *args,
                          int numArgs, void *stream);

/** Grid size the launch of `args` would use (0 for an empty problem). */
CakeRtStatus cakeRtGridSize(CakeRtBundle *bundle, const CakeRtArg *args,
                            int numArgs, int64_t *gridX);

/** Waits for `stream` for at most `timeoutMs` milliseconds. */
CakeRtStatus cakeRtSynchronize(void *stream, int64_t timeoutMs);

/** Times `iterations` launches (after `warmup` untimed ones) with events
 * around each launch and returns the median in milliseconds. */
CakeRtStatus cakeRtTime(CakeRtBundle *bundle, const CakeRtArg *args,
                        int numArgs, void *stream, int warmup, int iterations,
                        float *medianMs);

/* For libraries built on the runtime (libs/kmeans): report failures the
 * way the runtime does, and make a context current before driver calls of
 * their own. */

/** Sets cakeRtLastError() to `message` and returns `status`. */
CakeRtStatus cakeRtFailWith(CakeRtStatus status, const char *message);
/** Sets it to "<what> failed: <CUDA error name> (<text>)" for the driver's
 * CUresult `result` and returns CAKE_RT_ERROR_CUDA. */
CakeRtStatus cakeRtCudaFail(int result, const char *what);
/** Makes a context current: the caller's, or device 0's primary one. */
CakeRtStatus cakeRtEnsureContext(void);

#ifdef __cplusplus
}
#endif

#endif /* CAKE_RT_CAKE_RUNTIME_H */
