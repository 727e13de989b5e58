// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/* Built with `pkg-config --cflags --libs cake-kmeans` against an installed
 * Cake (test/Install/install.test): the k-means header and the runtime's,
 * linked through the .pc files' flags alone. */
#include "cake-kmeans/cake_kmeans.h"
#include "cake-rt/cake_runtime.h"

#include <stdio.h>

int main(void) {
  /* Taken, not called: opening a table needs a GPU. */
  void *open = (void *)&cakeKmeansOpen;
  printf("runtime %s, k-means %s\n", cakeRtVersion(),
         open ? "linked" : "missing");
  return 0;
}
