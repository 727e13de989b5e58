// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- fuzz/fuzz_bundle.c - The runtime's bundle loader from memory -------===*\
|*                                                                            *|
|* cakeRtBundleLoadFromMemory on arbitrary bytes (not NUL-terminated): every *|
|* field it reads is validated before any driver call. Without a GPU (CI,   *|
|* the toolkit's libcuda stub) a valid bundle fails at cuInit; on a GPU it   *|
|* loads. Either way: a status and a message, never a crash.                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "cake-rt/cake_runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 20)
    return 0;
  CakeRtBundle *bundle = NULL;
  CakeRtStatus s =
      cakeRtBundleLoadFromMemory((const char *)data, size, &bundle);
  if (s == CAKE_RT_SUCCESS) {
    if (!bundle || cakeRtBundleGetNumArgs(bundle) < 0) {
      fprintf(stderr, "a loaded bundle without a handle or arguments\n");
      abort();
    }
    cakeRtBundleDestroy(bundle);
  } else if (bundle || cakeRtLastError()[0] == '\0') {
    fprintf(stderr, "a failed load left a handle or no message\n");
    abort();
  }
  return 0;
}
