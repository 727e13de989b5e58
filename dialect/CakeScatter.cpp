// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeScatter.cpp - Stores keyed by a fragment: op verifier ----------===//
//
// The contracts of cake.scatter that its operands decide: one i32 key a
// row of the value, a rank-2 destination of the value's element type, and
// a reduction the memory system performs on that type (hw.scatter-reduce,
// dataflow.element-type). That the fragments have a register layout in
// their role is dataflow.fragment-layout's, in cake-verify.
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"
#include "cake/Verify/Rules.h"

using namespace mlir;
using namespace mlir::cake;

LogicalResult ScatterOp::verify() {
  FragType value = getValue().getType();
  FragType keys = getKeys().getType();
  GlobalType dst = getDst().getType();
  if (value.getRank() != 2)
    return emitRuleError(*this, RuleId::HwScatterReduce)
           << "scatters the rows of a rank-2 fragment, got rank "
           << value.getRank();
  if (dst.getRank() != 2)
    return emitRuleError(*this, RuleId::HwScatterReduce)
           << "writes rows of a rank-2 tensor, got rank " << dst.getRank();
  if (keys.getRank() != 2 || keys.getShape()[1] != 1 ||
      keys.getShape()[0] != value.getShape()[0] ||
      !keys.getElementType().isSignlessInteger(32))
    return emitRuleError(*this, RuleId::HwScatterReduce)
           << "expected the keys to be a " << value.getShape()[0]
           << "x1 i32 fragment (one key a row of the value), got " << keys;
  Type elt = value.getElementType();
  // One st.global.b16 / .b32 or red.global an element (the lowering's).
  if (!elt.isIntOrFloat() ||
      (elt.getIntOrFloatBitWidth() != 16 && elt.getIntOrFloatBitWidth() != 32))
    return emitRuleError(*this, RuleId::HwScatterReduce)
           << "scatters 16- or 32-bit elements, got " << elt;
  if (elt != dst.getElementType())
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "expected fragment and tensor element types to match, got " << elt
           << " and " << dst.getElementType();
  if (std::optional<ReduceKind> kind = getReduce()) {
    if (*kind == ReduceKind::sum && !elt.isF32() && !elt.isSignlessInteger(32))
      return emitRuleError(*this, RuleId::HwScatterReduce)
             << "reduce sum adds f32 or i32 elements (red.global.add), got "
             << elt;
    // red.global.min / max order integers only (f32 from sm_90 on; not
    // lowered): a non-negative f32 orders as its bits, bitcast to i32.
    if (*kind != ReduceKind::sum && !elt.isSignlessInteger(32))
      return emitRuleError(*this, RuleId::HwScatterReduce)
             << "reduce " << stringifyReduceKind(*kind)
             << " compares i32 elements (red.global."
             << stringifyReduceKind(*kind) << ".s32), got " << elt;
  }
  return success();
}
