// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeFragRows.cpp - frag.scan and frag.row: op verifiers ------------===//
//
// The ops that work along an accumulator fragment's rows or down its
// columns (a prefix sum, segmented or reversed; one row for every row):
// the shapes and element types their lowerings take.
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"
#include "cake/Verify/Rules.h"

#include "ShapeStr.h"

using namespace mlir;
using namespace mlir::cake;

LogicalResult FragScanOp::verify() {
  Type elt = getInput().getType().getElementType();
  if (!isa<FloatType>(elt))
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "frag.scan takes float fragments, not " << elt;
  // Lowered on accumulator-shaped fragments (64 W x N): a row (1 x N) or a
  // column (M x 1) fragment has no lanes to scan across.
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  if (shape.size() != 2 || shape[0] == 1 || shape[1] == 1)
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "frag.scan takes an accumulator-shaped fragment (M x N, both "
              "above 1), not "
           << shapeStr(shape);
  if (getReverse() && !getDown())
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "frag.scan reverse is lowered up the rows only: add `down`";
  if (getSegment()) {
    if (!getDown())
      return emitRuleError(*this, RuleId::DataflowFragmentShape)
             << "frag.scan segment(" << *getSegment()
             << ") restarts a scan down the rows: add `down`";
    // A warp holds 16 rows of the accumulator layout; segments are whole
    // warps so that a restart never falls inside a warp's shuffles.
    int64_t seg = *getSegment();
    if (seg <= 0 || seg % 16 != 0 || shape[0] % seg != 0)
      return emitRuleError(*this, RuleId::DataflowFragmentShape)
             << "frag.scan segment(" << seg
             << ") must be a multiple of 16 rows (one warp's) that divides "
                "the fragment's "
             << shape[0] << " rows";
  }
  if (getDown() && getElementBytes(elt) != 4)
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "frag.scan down shuffles and moves 32-bit values (f32), not "
           << elt;
  return success();
}

LogicalResult FragRowOp::verify() {
  FragType in = getInput().getType(), out = getResult().getType();
  if (in.getRank() != 2 || out.getRank() != 2)
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "frag.row takes an M x N fragment and gives a 1 x N one";
  int64_t m = in.getShape()[0], n = in.getShape()[1];
  if (m == 1 || n == 1)
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "frag.row takes an accumulator-shaped fragment (M x N, both "
              "above 1), not "
           << shapeStr(in.getShape());
  if (out.getShape()[0] != 1 || out.getShape()[1] != n)
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected a result of shape " << shapeStr({1, n}) << ", got "
           << shapeStr(out.getShape());
  if (getRow() < 0 || getRow() >= m)
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "row " << getRow() << " is not a row of a fragment of " << m
           << " rows";
  if (out.getElementType() != in.getElementType())
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "frag.row keeps the element type: expected "
           << in.getElementType() << ", got " << out.getElementType();
  if (getElementBytes(in.getElementType()) != 4)
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "frag.row moves 32-bit values (f32, i32), not "
           << in.getElementType();
  return success();
}
