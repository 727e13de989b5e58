// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeTypes.cpp - Cake types: parsing, printing, verification --------===//
//
// Custom assembly for the shaped Cake types and the contracts their own
// parameters force (stage counts, swizzle spans, element types).
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"
#include "cake/Target/TargetInfo.h"
#include "cake/Verify/Rules.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::cake;

#define GET_TYPEDEF_CLASSES
#include "cake/Dialect/CakeTypes.cpp.inc"

void CakeDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "cake/Dialect/CakeTypes.cpp.inc"
      >();
}

int64_t mlir::cake::getElementBytes(Type type) {
  if (type.isIndex())
    return 8;
  unsigned bits = type.getIntOrFloatBitWidth();
  return std::max<int64_t>(1, (bits + 7) / 8);
}

bool mlir::cake::isTmaElementType(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return isTmaElementTypeName(name);
}

static bool isScalarElement(Type type) {
  return isa<IntegerType, FloatType>(type);
}

//===----------------------------------------------------------------------===//
// Shared helpers: `<` dims `x` elementType `>`
//===----------------------------------------------------------------------===//

static void printShape(AsmPrinter &printer, ArrayRef<int64_t> shape) {
  for (int64_t d : shape) {
    if (ShapedType::isDynamic(d))
      printer << '?';
    else
      printer << d;
    printer << 'x';
  }
}

static ParseResult parseShapeAndElement(AsmParser &parser,
                                        SmallVectorImpl<int64_t> &shape,
                                        Type &elementType, bool allowDynamic) {
  if (parser.parseDimensionList(shape, allowDynamic, /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// GlobalType
//===----------------------------------------------------------------------===//

Type GlobalType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parseShapeAndElement(parser, shape, elementType, /*allowDynamic=*/true) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<GlobalType>(parser.getContext(), shape, elementType);
}

void GlobalType::print(AsmPrinter &printer) const {
  printer << '<';
  printShape(printer, getShape());
  printer << getElementType() << '>';
}

LogicalResult GlobalType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty() || shape.size() > 5)
    return emitError() << DiagRule{RuleId::DataflowTypeShape}
                       << "expected a global tensor of rank 1 to 5, got rank "
                       << shape.size();
  for (int64_t d : shape)
    if (!ShapedType::isDynamic(d) && d <= 0)
      return emitError() << DiagRule{RuleId::DataflowTypeShape}
                         << "expected positive or dynamic dimensions, got "
                         << d;
  if (!isScalarElement(elementType))
    return emitError() << DiagRule{RuleId::DataflowElementType}
                       << "expected an integer or float element type, got "
                       << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// RingType
//===----------------------------------------------------------------------===//

int64_t RingType::getTileElements() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n;
}

int64_t RingType::getTileBytes() const {
  return getTileElements() * getElementBytes(getElementType());
}

Type RingType::parse(AsmParser &parser) {
  int64_t stages = 0, swizzle = 0;
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() || parser.parseInteger(stages) ||
      parser.parseKeyword("x") ||
      parseShapeAndElement(parser, shape, elementType, /*allowDynamic=*/false))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("swizzle") || parser.parseEqual() ||
        parser.parseInteger(swizzle))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<RingType>(parser.getContext(), stages, shape,
                                     elementType, swizzle);
}

void RingType::print(AsmPrinter &printer) const {
  printer << '<' << getStages() << " x ";
  printShape(printer, getShape());
  printer << getElementType() << ", swizzle = " << getSwizzle() << '>';
}

LogicalResult RingType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t stages, ArrayRef<int64_t> shape,
                               Type elementType, int64_t swizzle) {
  if (stages < 1)
    return emitError() << DiagRule{RuleId::ResourceStageCount}
                       << "expected a stage count >= 1, got " << stages;
  if (shape.empty() || shape.size() > 5)
    return emitError() << DiagRule{RuleId::DataflowTypeShape}
                       << "expected a ring tile of rank 1 to 5, got rank "
                       << shape.size();
  for (int64_t d : shape)
    if (d <= 0)
      return emitError() << DiagRule{RuleId::DataflowTypeShape}
                         << "expected positive static tile dimensions, got "
                         << d;
  if (!isScalarElement(elementType) || !isTmaElementType(elementType))
    return emitError() << DiagRule{RuleId::HwTmaElementType}
                       << "expected an element type the copy engine can move "
                          "(i8, i16, i32, i64, f8E4M3FN, f8E5M2, f16, bf16, "
                          "tf32, f32, f64), got "
                       << elementType;
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << DiagRule{RuleId::HwSwizzleMode}
                       << "expected a swizzle of 0, 32, 64 or 128 bytes, got "
                       << swizzle;
  int64_t innerBytes = shape.back() * getElementBytes(elementType);
  if (swizzle != 0 && innerBytes > swizzle)
    return emitError() << DiagRule{RuleId::HwTmaBox}
                       << "the tile's inner dimension spans " << innerBytes
                       << " bytes, more than the " << swizzle
                       << "-byte swizzle span";
  return success();
}

//===----------------------------------------------------------------------===//
// PipeType
//===----------------------------------------------------------------------===//

LogicalResult PipeType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t stages) {
  if (stages < 1)
    return emitError() << DiagRule{RuleId::ResourceStageCount}
                       << "expected a stage count >= 1, got " << stages;
  return success();
}

//===----------------------------------------------------------------------===//
// FragType
//===----------------------------------------------------------------------===//

int64_t FragType::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : getShape())
    n *= d;
  return n;
}

Type FragType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parseShapeAndElement(parser, shape, elementType,
                           /*allowDynamic=*/false) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<FragType>(parser.getContext(), shape, elementType);
}

void FragType::print(AsmPrinter &printer) const {
  printer << '<';
  printShape(printer, getShape());
  printer << getElementType() << '>';
}

LogicalResult FragType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty() || shape.size() > 3)
    return emitError() << DiagRule{RuleId::DataflowTypeShape}
                       << "expected a fragment of rank 1 to 3, got rank "
                       << shape.size();
  for (int64_t d : shape)
    if (d <= 0)
      return emitError() << DiagRule{RuleId::DataflowTypeShape}
                         << "expected positive static fragment dimensions, got "
                         << d;
  if (!isScalarElement(elementType))
    return emitError() << DiagRule{RuleId::DataflowElementType}
                       << "expected an integer or float element type, got "
                       << elementType;
  return success();
}
