// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- JsonSupport.h - cJSON helpers shared by the translations -*- C++ -*-===//
//
// Ownership and small builders for the cJSON documents the translations
// write (kernel summaries, bundles).
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TRANSLATE_JSONSUPPORT_H
#define CAKE_TRANSLATE_JSONSUPPORT_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

#include <cjson/cJSON.h>
#include <memory>
#include <string>

namespace mlir {
namespace cake {

struct JsonDeleter {
  void operator()(cJSON *j) const { cJSON_Delete(j); }
};
using JsonPtr = std::unique_ptr<cJSON, JsonDeleter>;

/// A type as MLIR prints it ("bf16", "i32").
inline std::string typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// A JSON array of sizes; dynamic sizes become null.
inline cJSON *shapeArray(ArrayRef<int64_t> shape) {
  cJSON *arr = cJSON_CreateArray();
  for (int64_t d : shape)
    cJSON_AddItemToArray(arr, ShapedType::isDynamic(d)
                                  ? cJSON_CreateNull()
                                  : cJSON_CreateNumber(double(d)));
  return arr;
}

} // namespace cake
} // namespace mlir

#endif // CAKE_TRANSLATE_JSONSUPPORT_H
