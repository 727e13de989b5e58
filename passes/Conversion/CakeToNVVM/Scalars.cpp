// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Scalars.cpp - Scalars from tensors ---------------------------------===//
//
// cake.dim reads a dimension the kernel received as a parameter;
// cake.scalar.load reads one integer of a global tensor in every thread
// (0 past the tensor's end).
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"


using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

std::optional<LogicalResult> KernelEmitter::emitScalarOp(Operation &op) {
  if (auto d = dyn_cast<DimOp>(op)) {
    auto it = tensors.find(d.getTensor());
    if (it == tensors.end())
      return d.emitError("expected a kernel argument");
    map.map(d.getResult(), it->second.dims[d.getDim()]);
    return success();
  }
  if (auto l = dyn_cast<ScalarLoadOp>(op))
    return emitScalarLoad(l);
  return std::nullopt;
}

/// Every thread reads the element itself (one cached line for the warp);
/// coordinates past the tensor read 0.
LogicalResult KernelEmitter::emitScalarLoad(ScalarLoadOp op) {
  auto it = tensors.find(op.getSrc());
  if (it == tensors.end())
    return op.emitError("expected a kernel argument");
  const TensorParams &tp = it->second;
  Type elt = op.getSrc().getType().getElementType();
  Value lin = idxc(0);
  for (auto [i, c] : llvm::enumerate(op.getCoords()))
    lin = arith::AddIOp::create(
        b, loc(), arith::MulIOp::create(b, loc(), lin, tp.dims[i]),
        map.lookupOrDefault(c));
  // Every coordinate is an outer one of a scalar.
  Value inBounds = outerInBounds(tp, op.getCoords(), 0);
  auto ifOp = scf::IfOp::create(b, loc(), TypeRange{elt}, inBounds,
                                /*withElse=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value ptr = LLVM::GEPOp::create(
        b, loc(), globalPtrTy(), elt, tp.ptr,
        ValueRange{arith::IndexCastOp::create(b, loc(), b.getI64Type(), lin)});
    scf::YieldOp::create(
        b, loc(), ValueRange{LLVM::LoadOp::create(b, loc(), elt, ptr)});
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(
        b, loc(),
        ValueRange{arith::ConstantOp::create(b, loc(), elt, b.getZeroAttr(elt))
                       .getResult()});
  }
  if (elt.isF32()) {
    map.map(op.getResult(), ifOp.getResult(0));
    return success();
  }
  map.map(op.getResult(), arith::IndexCastOp::create(
                              b, loc(), b.getIndexType(), ifOp.getResult(0)));
  return success();
}
