// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeDialect.h - Cake dialect, types, attributes, ops -----*- C++ -*-===//
//
// The single header users include for Cake IR: the dialect class, its types,
// attributes, enums and operations, all generated from the .td files beside
// this one.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_DIALECT_CAKEDIALECT_H
#define CAKE_DIALECT_CAKEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "cake/Dialect/CakeDialect.h.inc"
#include "cake/Dialect/CakeEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "cake/Dialect/CakeTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "cake/Dialect/CakeAttrs.h.inc"

#define GET_OP_CLASSES
#include "cake/Dialect/CakeOps.h.inc"

namespace mlir {
namespace cake {

/// Bytes of one element of `type` (sub-byte types round up to 1).
int64_t getElementBytes(Type type);

/// True if the tensor cores can accumulate products of `in` into `acc`
/// (any mma family: wgmma, tcgen05, mma.sync).
bool isValidAccumulator(Type in, Type acc);

/// True if `type` is an element type the copy engine (TMA) can move.
bool isTmaElementType(Type type);

} // namespace cake
} // namespace mlir

#endif // CAKE_DIALECT_CAKEDIALECT_H
