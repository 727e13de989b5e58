// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Translate.h - Cake translations --------------------------*- C++ -*-===//
//
// Translations out of Cake IR, used by cake-translate and the C API.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TRANSLATE_TRANSLATE_H
#define CAKE_TRANSLATE_TRANSLATE_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
class Operation;
namespace cake {

/// Writes a JSON summary of every kernel under `op` (signature, target,
/// schedule, rings, pipes, roles, shared-memory and thread totals): the
/// interface an agent or a launcher reads without parsing MLIR.
LogicalResult writeKernelSummaryJson(Operation *op, llvm::raw_ostream &os);

/// Writes the kernel bundle of a module lowered by `cake-lower` (cubin): the
/// launch metadata and the base64 cubin as one JSON document.
LogicalResult writeKernelBundleJson(Operation *op, llvm::raw_ostream &os);

/// Writes a self-contained C header: the cubin as bytes and a launcher over
/// the CUDA driver API (module load, TMA descriptors, grid, launch).
LogicalResult writeKernelCHeader(Operation *op, llvm::raw_ostream &os);

/// Writes the PTX of a module lowered with `cake-lower{format=ptx}`.
LogicalResult writeKernelPtx(Operation *op, llvm::raw_ostream &os);

} // namespace cake
} // namespace mlir

#endif // CAKE_TRANSLATE_TRANSLATE_H
