// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeSmemReduce.cpp - Rows of ring stages reduced: op verifier ------===//
//
// The contracts of cake.smem.reduce that its operands decide: a result of
// one value per tile row (1 x R or R x 1, fp32), at least one stage, an
// element type the lowering reads. That each stage comes from a wait on a
// pipe holding the ring is dataflow's, in cake-verify; that the result has
// a register layout in its role is dataflow.fragment-layout's.
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"
#include "cake/Verify/Rules.h"

using namespace mlir;
using namespace mlir::cake;

/// Rows in whole 16-row slabs (a 1 x R result's columns come in groups of
/// eight, an R x 1 one's rows in warps of 16); at most 256 keep the
/// scratch and the per-thread work small.
static constexpr int64_t kRowMultiple = 16, kMaxRows = 256;

LogicalResult SmemReduceOp::verify() {
  RingType ring = getSrc().getType();
  FragType result = getResult().getType();
  if (getStages().empty())
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected at least one stage (the tile's column blocks)";
  if (ring.getShape().size() != 2)
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected a rank-2 ring tile, got rank "
           << ring.getShape().size();
  int64_t rows = ring.getShape()[0];
  if (rows < kRowMultiple || rows > kMaxRows || rows % kRowMultiple)
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected the tile's rows to be a multiple of " << kRowMultiple
           << " up to " << kMaxRows << ", got " << rows;
  Type elt = ring.getElementType();
  if (!elt.isBF16() && !elt.isF16() && !elt.isF32())
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "expected bf16, f16 or f32 ring elements, got " << elt;
  // The lowering reads a row in 16-byte pieces.
  int64_t rowBytes = ring.getShape()[1] * elt.getIntOrFloatBitWidth() / 8;
  if (rowBytes % 16)
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected the tile's rows to be a multiple of 16 bytes (read "
              "in 16-byte pieces), got "
           << rowBytes;
  if (!result.getElementType().isF32())
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "expected an f32 result (rows are reduced in fp32), got "
           << result.getElementType();
  ArrayRef<int64_t> shape = result.getShape();
  bool asColumns = shape.size() == 2 && shape[0] == 1 && shape[1] == rows;
  bool asRows = shape.size() == 2 && shape[0] == rows && shape[1] == 1;
  if (!asColumns && !asRows)
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected a 1x" << rows << " or " << rows
           << "x1 result (one value per tile row), got " << result;
  return success();
}
