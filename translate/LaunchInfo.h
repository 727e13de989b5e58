// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- LaunchInfo.h - The launch metadata of a lowered kernel ---*- C++ -*-===//
//
// convert-cake-to-nvvm records how to launch each kernel in the `cake.launch`
// attribute of the top-level module (gpu-module-to-binary drops the
// gpu.module's own attributes). The writers of bundles and C headers read it
// through readLaunch, which checks every field (presence, type, range, and
// the indices between them) and names the field it refuses, so that a
// hand-edited or truncated module is a diagnostic, never a crash or a bad
// bundle. Private to translate/.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TRANSLATE_LAUNCHINFO_H
#define CAKE_TRANSLATE_LAUNCHINFO_H

#include "cake/Dialect/CakeDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <string>

namespace mlir {
namespace cake {

/// One kernel argument: a global tensor (its element type and shape,
/// dynamic sizes as ShapedType::kDynamic) or an index scalar.
struct LaunchArg {
  bool global = false;
  Type element;
  llvm::SmallVector<int64_t> shape;
};

/// One kernel parameter, in the kernel's order.
struct LaunchParam {
  enum Kind { Ptr, Dim, I64, Tma } kind;
  int64_t arg = -1; ///< the argument (Ptr, Dim, I64) or descriptor (Tma)
  int64_t dim = -1; ///< Dim: the dimension of the argument's shape
};

/// One TMA descriptor the launcher encodes.
struct LaunchTma {
  int64_t arg = -1;
  llvm::SmallVector<int64_t> box;
  int64_t swizzle = 0;
};

/// Where a tile loop extent comes from: an argument's dimension (dim >= 0)
/// or an index argument itself (dim = -1).
struct LaunchExtent {
  int64_t arg = -1, dim = -1;
};

struct LaunchInfo {
  std::string module; ///< the gpu.binary's symbol
  std::string entry;
  TargetAttr target;
  std::array<int64_t, 3> block{};
  int64_t smemBytes = 0;
  int64_t cluster = 1; ///< CTAs per cluster along x (hw.cluster)
  llvm::SmallVector<LaunchArg> args;
  llvm::SmallVector<LaunchParam> params;
  bool persistent = false;
  int64_t groupM = 1;
  llvm::SmallVector<int64_t> tile;
  llvm::SmallVector<LaunchExtent> extents;
  llvm::SmallVector<LaunchTma> tma;
};

/// Reads and checks one entry of `cake.launch` (a dictionary) of `top`.
/// Emits an error at `top` naming the field it refuses.
FailureOr<LaunchInfo> readLaunch(ModuleOp top, Attribute entry);

} // namespace cake
} // namespace mlir

#endif // CAKE_TRANSLATE_LAUNCHINFO_H
