// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeDerived.cpp - Verifiers of the derived attributes --------------===//
//
// The attributes cake-derive attaches (include/cake/Dialect/CakeDerived.td)
// are checked for their own consistency when they are built or parsed, so
// that a hand-edited or truncated derived kernel fails with a diagnostic
// rather than in the lowering.
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"

using namespace mlir;
using namespace mlir::cake;

LogicalResult
KernelLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> block, int64_t baselineRegs,
                         int64_t smemBytes, ArrayAttr tma) {
  if (block.size() != 3 || llvm::any_of(block, [](int64_t d) { return d < 1; }))
    return emitError() << "expected a block of 3 positive sizes";
  if (baselineRegs < 0 || smemBytes < 0)
    return emitError() << "expected non-negative baseline_regs and "
                          "smem_bytes, got "
                       << baselineRegs << " and " << smemBytes;
  if (!tma)
    return emitError() << "expected an array of #cake.tma_descriptor";
  for (Attribute a : tma)
    if (!isa<TmaDescriptorAttr>(a))
      return emitError() << "expected #cake.tma_descriptor in tma, got " << a;
  return success();
}

LogicalResult
TileExtentsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        ArrayRef<int64_t> args, ArrayRef<int64_t> dims) {
  if (args.size() != dims.size())
    return emitError() << "expected one dim per extent, got " << args.size()
                       << " args and " << dims.size() << " dims";
  for (auto [arg, dim] : llvm::zip(args, dims))
    if (arg < 0 || dim < -1)
      return emitError() << "expected an argument index >= 0 and a dim >= -1, "
                            "got "
                         << arg << " and " << dim;
  return success();
}
