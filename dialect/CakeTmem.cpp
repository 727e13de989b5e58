// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeTmem.cpp - Tensor memory: type and op verifiers ----------------===//
//
// The assembly of !cake.tmem and the contracts of tmem.mma, tmem.load and
// tmem.store that their own operands decide (hw.tmem-shape). Which target
// has tensor memory and how much of it a kernel may allocate are
// cake-verify's (hw.arch-feature, resource.tmem-capacity); which role may
// read or write it is hw.warpgroup-alignment's.
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"
#include "cake/Target/TargetInfo.h"
#include "cake/Verify/Rules.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::cake;

/// Lanes of tensor memory: the rows of a one-CTA tcgen05 tile.
static constexpr int64_t kTmemLanes = 128;

/// Columns of 32-bit cells of the largest tensor memory of any target (the
/// target table's); a type knows no target, and resource.tmem-capacity
/// holds a kernel's allocation to its own.
static int64_t maxTmemColumns() {
  int64_t most = 0;
  for (const TargetInfo &t : getAllTargets())
    most = std::max(most, t.tmemColumns);
  return most;
}

//===----------------------------------------------------------------------===//
// TmemType: `<` stages `x` rows `x` cols `x` elementType `>`
//===----------------------------------------------------------------------===//

Type TmemType::parse(AsmParser &parser) {
  int64_t stages = 0;
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc at = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseInteger(stages) ||
      parser.parseKeyword("x") ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  if (shape.size() != 2) {
    parser.emitError(at) << DiagRule{RuleId::DataflowTypeShape}
                         << "expected `stages x rows x columns x type`, got "
                         << shape.size() << " tile dimensions";
    return {};
  }
  return parser.getChecked<TmemType>(parser.getContext(), stages, shape[0],
                                     shape[1], elementType);
}

void TmemType::print(AsmPrinter &printer) const {
  printer << '<' << getStages() << " x " << getRows() << 'x' << getCols() << 'x'
          << getElementType() << '>';
}

/// Element types a tensor-memory accumulator holds: f32 and i32 fill a
/// 32-bit cell, f16 and bf16 share one in pairs.
static bool isTmemElementType(Type type) {
  return type.isF32() || type.isInteger(32) || type.isF16() || type.isBF16();
}

int64_t TmemType::getStageColumns() const {
  return getCols() * getElementType().getIntOrFloatBitWidth() / 32;
}

LogicalResult TmemType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t stages, int64_t rows, int64_t cols,
                               Type elementType) {
  if (stages < 1)
    return emitError() << DiagRule{RuleId::ResourceStageCount}
                       << "expected a stage count >= 1, got " << stages;
  if (cols < 1)
    return emitError() << DiagRule{RuleId::DataflowTypeShape}
                       << "expected at least one column, got " << cols;
  if (rows != kTmemLanes)
    return emitError() << DiagRule{RuleId::HwTmemShape} << "expected "
                       << kTmemLanes
                       << " rows, one a lane of tensor memory; got " << rows;
  if (!isTmemElementType(elementType))
    return emitError() << DiagRule{RuleId::HwTmemShape}
                       << "expected f32, i32, f16 or bf16 elements, got "
                       << elementType;
  // Bounded before multiplying: a fuzzed type must not overflow.
  int64_t maxColumns = maxTmemColumns();
  int64_t eltBits = elementType.getIntOrFloatBitWidth();
  if (cols > maxColumns * 32 / eltBits)
    return emitError() << DiagRule{RuleId::HwTmemShape} << "a row of " << cols
                       << " x " << elementType << " is more than the "
                       << maxColumns << " columns of tensor memory";
  int64_t bits = cols * eltBits;
  if (bits % 32 != 0)
    return emitError() << DiagRule{RuleId::HwTmemShape} << "a row of " << cols
                       << " x " << elementType
                       << " does not fill whole 32-bit columns";
  int64_t stageColumns = bits / 32;
  if (stages > maxColumns / stageColumns)
    return emitError() << DiagRule{RuleId::HwTmemShape} << stages
                       << " stages of " << stageColumns
                       << " columns are more than the " << maxColumns
                       << " columns of tensor memory";
  return success();
}

//===----------------------------------------------------------------------===//
// TmemMmaOp
//===----------------------------------------------------------------------===//

static std::string tileStr(int64_t rows, int64_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

LogicalResult TmemMmaOp::verify() {
  RingType b = getB().getType();
  TmemType d = getD().getType();
  auto aRing = dyn_cast<RingType>(getA().getType());
  if ((aRing && aRing.getRank() != 2) || b.getRank() != 2)
    return emitRuleError(*this, RuleId::DataflowMmaOperands)
           << "expected rank-2 ring tiles (A: MxK, B: NxK)";
  // A is a ring's M x K tile or a tensor-memory stage of 128 rows x K.
  auto aTmem = dyn_cast<TmemType>(getA().getType());
  int64_t m = aRing ? aRing.getShape()[0] : aTmem.getRows();
  int64_t k = aRing ? aRing.getShape()[1] : aTmem.getCols();
  Type in = aRing ? aRing.getElementType() : aTmem.getElementType();
  if (aTmem && !in.isF16() && !in.isBF16())
    return emitRuleError(*this, RuleId::HwTmemShape)
           << "an A operand in tensor memory holds f16 or bf16 (two a "
              "column), got "
           << in;
  // B is N x K, or K x N when mn_major.
  int64_t n = b.getShape()[getMnMajor() ? 1 : 0];
  int64_t bK = b.getShape()[getMnMajor() ? 0 : 1];
  if (bK != k)
    return emitRuleError(*this, RuleId::DataflowMmaOperands)
           << "expected A and B to share K, got A " << tileStr(m, k)
           << " and B " << tileStr(b.getShape()[0], b.getShape()[1])
           << (getMnMajor() ? " (mn_major: K x N)" : "");
  if (d.getRows() != m || d.getCols() != n)
    return emitRuleError(*this, RuleId::DataflowMmaOperands)
           << "expected a " << tileStr(m, n) << " tensor-memory tile for A "
           << tileStr(m, k) << " and B " << tileStr(n, k) << ", got "
           << tileStr(d.getRows(), d.getCols());
  if (aTmem && getA() == getD())
    return emitRuleError(*this, RuleId::DataflowMmaOperands)
           << "A and D are the same tensor-memory buffer";
  if (b.getElementType() != in)
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "expected A and B element types to match, got " << in << " and "
           << b.getElementType();
  if (!isValidAccumulator(in, d.getElementType()))
    return emitRuleError(*this, RuleId::HwTmemShape)
           << in << " operands cannot accumulate into " << d.getElementType();
  // One instruction takes 32 bytes of K and at most 256 columns of N in
  // steps of 16 (M = 128, one CTA); a wider tile is several at column
  // offsets.
  int64_t kStep = kMmaInstructionKBytes / getElementBytes(in);
  if (n % 16 != 0 || k % kStep != 0)
    return emitRuleError(*this, RuleId::HwTmemShape)
           << "tile M=" << m << " N=" << n << " K=" << k << " of " << in
           << " is not a whole number of tcgen05.mma instructions (N a "
              "multiple of 16, K a multiple of "
           << kStep << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// TmemLoadOp, TmemStoreOp
//===----------------------------------------------------------------------===//

/// The contract tcgen05.ld and tcgen05.st share: a fragment of the
/// buffer's rows and element type, whole 32-bit columns eight at a time
/// (.32x32b.x8 and its multiples; 16-bit elements in pairs) within one
/// stage, from a constant column that keeps them there.
static LogicalResult verifyTmemAccess(Operation *op, TmemType tmem,
                                      FragType frag, Value columnValue) {
  if (frag.getRank() != 2 || frag.getShape()[0] != tmem.getRows())
    return emitRuleError(op, RuleId::DataflowFragmentShape)
           << "expected a fragment of the buffer's " << tmem.getRows()
           << " rows";
  if (frag.getElementType() != tmem.getElementType())
    return emitRuleError(op, RuleId::DataflowElementType)
           << "expected " << tmem.getElementType() << " elements, got "
           << frag.getElementType();
  int64_t bits = tmem.getElementType().getIntOrFloatBitWidth();
  int64_t piece = 8 * 32 / bits;
  int64_t width = frag.getShape()[1];
  if (width % piece != 0 || width > tmem.getCols())
    return emitRuleError(op, RuleId::HwTmemShape)
           << "expected a width of whole " << piece << "-element pieces up to "
           << tmem.getCols() << ", got " << width;
  APInt column;
  if (columnValue && matchPattern(columnValue, m_ConstantInt(&column))) {
    int64_t c = column.getSExtValue();
    if (c < 0 || c % piece != 0 || c > tmem.getCols() - width)
      return emitRuleError(op, RuleId::HwTmemShape)
             << width << " columns from column " << c << " are not whole "
             << piece << "-element pieces within the " << tmem.getCols()
             << " of a stage";
  }
  return success();
}

LogicalResult TmemLoadOp::verify() {
  return verifyTmemAccess(*this, getSrc().getType(), getResult().getType(),
                          getColumn());
}

LogicalResult TmemStoreOp::verify() {
  return verifyTmemAccess(*this, getDst().getType(), getValue().getType(),
                          getColumn());
}
