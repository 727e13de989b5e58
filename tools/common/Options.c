// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- Options.c - Number options of Cake's C tools -----------------------===*\
|*                                                                            *|
|* See Options.h.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int cakeParseIntegerOption(const char *tool, const char *option,
                           const char *text, long long min, long long max,
                           const char *unit, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (errno || end == text || *end || v < min || v > max) {
    fprintf(stderr,
            "%s: --%s expects an integer from %lld to %lld%s%s%s, "
            "got '%s'\n",
            tool, option, min, max, unit ? " (" : "", unit ? unit : "",
            unit ? ")" : "", text);
    return 0;
  }
  *out = v;
  return 1;
}
