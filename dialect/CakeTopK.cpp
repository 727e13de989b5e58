// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeTopK.cpp - Per-row top-k lists: type and op verifiers ----------===//
//
// The assembly of !cake.topk and the contracts of topk.insert and
// topk.store that their own operands decide. Where a list may live (the
// rows of a warpgroups role) is dataflow.fragment-layout's, and whether it
// fits the registers resource.fragment-registers', both in cake-verify.
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"
#include "cake/Verify/Rules.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::cake;

//===----------------------------------------------------------------------===//
// TopKType: `<` rows `x` k `x` elementType `>`
//===----------------------------------------------------------------------===//

Type TopKType::parse(AsmParser &parser) {
  SmallVector<int64_t> dims;
  Type elementType;
  SMLoc at = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(dims, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return {};
  bool shared = false;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("shared"))
      return {};
    shared = true;
  }
  if (parser.parseGreater())
    return {};
  if (dims.size() != 2) {
    parser.emitError(at) << "expected `rows x k x type`, got " << dims.size()
                         << " dimensions";
    return {};
  }
  return parser.getChecked<TopKType>(parser.getContext(), dims[0], dims[1],
                                     elementType, shared);
}

void TopKType::print(AsmPrinter &printer) const {
  printer << '<' << getRows() << 'x' << getK() << 'x' << getElementType();
  if (getShared())
    printer << ", shared";
  printer << '>';
}

/// A shared list's entries are ranked by every thread of its row at the
/// store (k loads an entry): past 256 that no longer pays.
static constexpr int64_t kMaxSharedK = 256;

LogicalResult TopKType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t rows, int64_t k, Type elementType,
                               bool shared) {
  if (rows <= 0 || k <= 0)
    return emitError() << DiagRule{RuleId::DataflowTypeShape}
                       << "expected positive rows and k, got " << rows << "x"
                       << k;
  if (shared && k > kMaxSharedK)
    return emitError() << DiagRule{RuleId::DataflowTypeShape}
                       << "a shared top-k list holds at most " << kMaxSharedK
                       << " entries a row, got k = " << k;
  if (!elementType.isF32())
    return emitError() << DiagRule{RuleId::DataflowElementType}
                       << "top-k lists hold f32 values, got " << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

/// The candidates of a topk.insert or topk.admits: the list's rows in the
/// accumulator layout, the list's element type, and their indices as
/// exactly one of `base` and `indices`.
static LogicalResult verifyCandidates(Operation *op, TopKType list,
                                      FragType cand, Value base,
                                      TypedValue<FragType> indices) {
  if (cand.getRank() != 2 || cand.getShape()[0] != list.getRows())
    return emitRuleError(op, RuleId::DataflowFragmentShape)
           << "expected candidates of " << list.getRows()
           << " rows (the list's) by N columns, got a rank-" << cand.getRank()
           << " fragment with " << cand.getShape()[0] << " rows";
  if (cand.getShape()[1] < 8 || cand.getShape()[1] % 8 != 0)
    return emitRuleError(op, RuleId::DataflowFragmentShape)
           << "expected candidates in the accumulator layout (columns a "
              "multiple of 8), got "
           << cand.getShape()[1] << " columns";
  // A thread's candidates of a row are selected by the bits of one 64-bit
  // mask.
  if (cand.getShape()[1] > 256)
    return emitRuleError(op, RuleId::DataflowFragmentShape)
           << "expected at most 256 candidate columns a tile, got "
           << cand.getShape()[1];
  if (cand.getElementType() != list.getElementType())
    return emitRuleError(op, RuleId::DataflowElementType)
           << "expected " << list.getElementType()
           << " candidates (the list's values), got " << cand.getElementType();
  // A candidate's index is base + its column, or read beside it.
  if (bool(base) == bool(indices))
    return emitRuleError(op, RuleId::DataflowTypeShape)
           << "expected the candidates' indices as exactly one of `base` "
              "(base + column) and `indices` (a fragment), got "
           << (base ? "both" : "neither");
  if (TypedValue<FragType> idx = indices) {
    if (idx.getType().getShape() != cand.getShape())
      return emitRuleError(op, RuleId::DataflowFragmentShape)
             << "expected indices of the candidates' shape "
             << cand.getShape()[0] << "x" << cand.getShape()[1] << ", got "
             << Type(idx.getType());
    if (!idx.getType().getElementType().isInteger(32))
      return emitRuleError(op, RuleId::DataflowElementType)
             << "expected i32 indices, got " << idx.getType().getElementType();
  }
  return success();
}

LogicalResult TopKInsertOp::verify() {
  return verifyCandidates(*this, getList().getType(), getCandidates().getType(),
                          getBase(), getIndices());
}

LogicalResult TopKAdmitsOp::verify() {
  TopKType list = getList().getType();
  if (!list.getShared())
    return emitRuleError(*this, RuleId::DataflowTypeShape)
           << "topk.admits reads a shared list's largest entries; "
           << Type(list) << " keeps its rows in registers";
  return verifyCandidates(*this, list, getCandidates().getType(), getBase(),
                          getIndices());
}

LogicalResult TopKStoreOp::verify() {
  TopKType list = getList().getType();
  // [rows, k], or [rows, S, k] with a slot coordinate, [rows, k, S] with
  // rank_major.
  if (getRankMajor() && !getSlot())
    return emitRuleError(*this, RuleId::DataflowBoxShape)
           << "rank_major orders the entries of a row's corpus splits: it "
              "needs a slot coordinate ([row, slot])";
  int64_t rank = getSlot() ? 3 : 2;
  int64_t kDim = getRankMajor() ? 1 : rank - 1;
  auto check = [&](GlobalType g, Type want, StringRef what) -> LogicalResult {
    if (g.getRank() != rank || g.getShape()[kDim] != list.getK())
      return emitRuleError(*this, RuleId::DataflowBoxShape)
             << "expected the " << what << " as a "
             << (getRankMajor() ? "[rows, " + std::to_string(list.getK()) +
                                      ", S] tensor (k static, rank_major)"
                 : getSlot() ? "[rows, S, " + std::to_string(list.getK()) +
                                   "] tensor (k static and innermost)"
                             : "[rows, " + std::to_string(list.getK()) +
                                   "] tensor (k static and innermost)")
             << ", got " << Type(g);
    if (g.getElementType() != want)
      return emitRuleError(*this, RuleId::DataflowElementType)
             << "expected " << want << " " << what << ", got "
             << g.getElementType();
    return success();
  };
  if (failed(check(getValues().getType(), list.getElementType(), "values")))
    return failure();
  return check(getIndices().getType(), IntegerType::get(getContext(), 32),
               "indices");
}
