/*===- runtime_internal.h - Shared by the runtime's files -------*- C -*-===*\
|*                                                                            *|
|* Error reporting and context setup that runtime.c implements and the        *|
|* k-means entry point (kmeans.c, kmeans_update.c) uses. Not installed.       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_RT_RUNTIME_INTERNAL_H
#define CAKE_RT_RUNTIME_INTERNAL_H

#include "cake-rt/cake_runtime.h"

#include <cuda.h>

/* Sets cakeRtLastError() to `message` and returns `status`. */
CakeRtStatus cakeRtFailWith(CakeRtStatus status, const char *message);
/* Sets it to "<what> failed: <CUDA error name> (<text>)". */
CakeRtStatus cakeRtCudaFail(CUresult result, const char *what);
/* Makes a context current: the caller's, or device 0's primary one. */
CakeRtStatus cakeRtEnsureContext(void);

#define CAKE_RT_CHECK_CU(call)                                                 \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS)                                                    \
      return cakeRtCudaFail(r_, #call);                                        \
  } while (0)

#endif /* CAKE_RT_RUNTIME_INTERNAL_H */
