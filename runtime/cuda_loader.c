// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- cuda_loader.c - The CUDA driver API, loaded at first use -----------===//
//
// Cake's runtime, cake-run and the libraries call the CUDA driver API but do
// not link libcuda: each binary gets this file, which defines (hidden: each
// binary its own copy) the driver functions it calls and forwards them to
// libcuda.so.1, opened with dlopen at the first call. So the tools start,
// answer --help and parse bundles on machines without a driver, and a call
// that needs one fails with CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, which
// cuGetErrorString explains (the library's name and dlerror()).
//
// cuda.h renames versioned entry points (cuMemAlloc is cuMemAlloc_v2): the
// definitions below take those names through cuda.h's macros, and the
// symbols looked up are the same macro-expanded names.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define CAKE_CUDA_LIBRARY "libcuda.so.1"

// Every driver function the project calls: name, parameters, arguments.
#define CAKE_CUDA_FUNCTIONS(X)                                                 \
  X(cuCtxGetCurrent, (CUcontext * pctx), (pctx))                               \
  X(cuCtxGetDevice, (CUdevice * device), (device))                             \
  X(cuCtxSetCurrent, (CUcontext ctx), (ctx))                                   \
  X(cuCtxSynchronize, (void), ())                                              \
  X(cuDeviceGet, (CUdevice * device, int ordinal), (device, ordinal))          \
  X(cuDeviceGetAttribute, (int *pi, CUdevice_attribute attrib, CUdevice dev),  \
    (pi, attrib, dev))                                                         \
  X(cuDevicePrimaryCtxRetain, (CUcontext * pctx, CUdevice dev), (pctx, dev))   \
  X(cuEventCreate, (CUevent * phEvent, unsigned int Flags), (phEvent, Flags))  \
  X(cuEventDestroy, (CUevent hEvent), (hEvent))                                \
  X(cuEventElapsedTime, (float *pMilliseconds, CUevent hStart, CUevent hEnd),  \
    (pMilliseconds, hStart, hEnd))                                             \
  X(cuEventRecord, (CUevent hEvent, CUstream hStream), (hEvent, hStream))      \
  X(cuEventSynchronize, (CUevent hEvent), (hEvent))                            \
  X(cuFuncSetAttribute,                                                        \
    (CUfunction hfunc, CUfunction_attribute attrib, int value),                \
    (hfunc, attrib, value))                                                    \
  X(cuInit, (unsigned int Flags), (Flags))                                     \
  X(cuLaunchKernel,                                                            \
    (CUfunction f, unsigned int gridDimX, unsigned int gridDimY,               \
     unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,    \
     unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,    \
     void **kernelParams, void **extra),                                       \
    (f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,         \
     sharedMemBytes, hStream, kernelParams, extra))                            \
  X(cuMemAlloc, (CUdeviceptr * dptr, size_t bytesize), (dptr, bytesize))       \
  X(cuMemFree, (CUdeviceptr dptr), (dptr))                                     \
  X(cuMemcpy2DAsync, (const CUDA_MEMCPY2D *pCopy, CUstream hStream),           \
    (pCopy, hStream))                                                          \
  X(cuMemcpyDtoD,                                                              \
    (CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount),          \
    (dstDevice, srcDevice, ByteCount))                                         \
  X(cuMemcpyDtoDAsync,                                                         \
    (CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,           \
     CUstream hStream),                                                        \
    (dstDevice, srcDevice, ByteCount, hStream))                                \
  X(cuMemcpyDtoH, (void *dstHost, CUdeviceptr srcDevice, size_t ByteCount),    \
    (dstHost, srcDevice, ByteCount))                                           \
  X(cuMemcpyDtoHAsync,                                                         \
    (void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,                   \
     CUstream hStream),                                                        \
    (dstHost, srcDevice, ByteCount, hStream))                                  \
  X(cuMemcpyHtoD,                                                              \
    (CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount),            \
    (dstDevice, srcHost, ByteCount))                                           \
  X(cuMemsetD32Async,                                                          \
    (CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream),      \
    (dstDevice, ui, N, hStream))                                               \
  X(cuMemsetD2D16Async,                                                        \
    (CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,  \
     size_t Height, CUstream hStream),                                         \
    (dstDevice, dstPitch, us, Width, Height, hStream))                         \
  X(cuMemsetD8, (CUdeviceptr dstDevice, unsigned char uc, size_t N),           \
    (dstDevice, uc, N))                                                        \
  X(cuModuleGetFunction,                                                       \
    (CUfunction * hfunc, CUmodule hmod, const char *name),                     \
    (hfunc, hmod, name))                                                       \
  X(cuModuleLoadData, (CUmodule * module, const void *image), (module, image)) \
  X(cuModuleUnload, (CUmodule hmod), (hmod))                                   \
  X(cuOccupancyMaxActiveClusters,                                              \
    (int *numClusters, CUfunction func, const CUlaunchConfig *config),         \
    (numClusters, func, config))                                               \
  X(cuStreamQuery, (CUstream hStream), (hStream))                              \
  X(cuStreamSynchronize, (CUstream hStream), (hStream))                        \
  X(cuTensorMapEncodeTiled,                                                    \
    (CUtensorMap * tensorMap, CUtensorMapDataType tensorDataType,              \
     cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,  \
     const cuuint64_t *globalStrides, const cuuint32_t *boxDim,                \
     const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,       \
     CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,           \
     CUtensorMapFloatOOBfill oobFill),                                         \
    (tensorMap, tensorDataType, tensorRank, globalAddress, globalDim,          \
     globalStrides, boxDim, elementStrides, interleave, swizzle, l2Promotion,  \
     oobFill))

#define CAKE_STR2(x) #x
#define CAKE_STR(x) CAKE_STR2(x)

static struct {
#define X(name, params, args) CUresult(CUDAAPI *name) params;
  CAKE_CUDA_FUNCTIONS(X)
#undef X
  CUresult(CUDAAPI *cuGetErrorName)(CUresult, const char **);
  CUresult(CUDAAPI *cuGetErrorString)(CUresult, const char **);
} driver;
static int loaded; // 1: every function found
static char loadError[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
  void *lib = dlopen(CAKE_CUDA_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(loadError, sizeof loadError,
             "the CUDA driver (%s) could not be loaded: %s; is an NVIDIA "
             "driver installed?",
             CAKE_CUDA_LIBRARY, dlerror());
    return;
  }
#define FIND(name)                                                             \
  do {                                                                         \
    *(void **)&driver.name = dlsym(lib, CAKE_STR(name));                       \
    if (!driver.name) {                                                        \
      snprintf(loadError, sizeof loadError,                                    \
               "the CUDA driver (%s) lacks %s: too old for Cake",              \
               CAKE_CUDA_LIBRARY, CAKE_STR(name));                             \
      return;                                                                  \
    }                                                                          \
  } while (0);
#define X(name, params, args) FIND(name)
  CAKE_CUDA_FUNCTIONS(X)
#undef X
  FIND(cuGetErrorName)
  FIND(cuGetErrorString)
#undef FIND
  loaded = 1;
}

static int ready(void) {
  pthread_once(&once, load);
  return loaded;
}

#define X(name, params, args)                                                  \
  CUresult CUDAAPI name params {                                               \
    return ready() ? driver.name args : CUDA_ERROR_SHARED_OBJECT_INIT_FAILED;  \
  }
CAKE_CUDA_FUNCTIONS(X)
#undef X

CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr) {
  if (ready())
    return driver.cuGetErrorName(error, pStr);
  *pStr = "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED";
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr) {
  if (ready())
    return driver.cuGetErrorString(error, pStr);
  *pStr = loadError;
  return CUDA_SUCCESS;
}
