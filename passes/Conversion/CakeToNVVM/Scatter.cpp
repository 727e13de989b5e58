// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Scatter.cpp - Stores keyed by a fragment ---------------------------===//
//
// cake.scatter: every element a thread holds goes to row keys[r] of the
// destination, stored (st.global) or combined with what is there by the
// memory system (red.global.add, or .min / .max on i32), one predicated
// instruction an element: a row whose key is outside the tensor, a column
// past its end and the quad's copies of an M x 1 value write nothing.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

std::optional<LogicalResult> KernelEmitter::emitScatterOp(Operation &op) {
  if (auto s = dyn_cast<ScatterOp>(op))
    return emitScatter(s);
  return std::nullopt;
}

LogicalResult KernelEmitter::emitScatter(ScatterOp op) {
  FragType ft = op.getValue().getType();
  FailureOr<FragInfo> info = fragInfo(ft, op);
  FailureOr<FragInfo> keyInfo = fragInfo(op.getKeys().getType(), op);
  if (failed(info) || failed(keyInfo))
    return failure();
  bool rowValue = info->layout == FragLayout::Row;
  if ((info->layout != FragLayout::Acc && !rowValue) ||
      keyInfo->layout != FragLayout::Row)
    return op.emitError("cake.scatter is lowered for fragments in the wgmma "
                        "accumulator layout (M x N or M x 1 values, M x 1 "
                        "keys), not a row a thread");
  Type elt = ft.getElementType();
  int64_t bits = elt.getIntOrFloatBitWidth();
  bool reduce = op.getReduce().has_value();
  if (bits != 16 && bits != 32)
    return op.emitError("cake.scatter stores 16- or 32-bit elements, got ")
           << elt;
  const TensorParams &tp = tensors[op.getDst()];
  Value rows = tp.dims[0], cols = tp.dims[1];

  // Thread (warp w of warpgroup g, lane l) holds rows 64 g + 16 w + l / 4
  // + 8 h, h in {0, 1} (key h), and of an M x N value the columns 8 j +
  // 2 (l % 4) + e, e in {0, 1} (element 4 j + 2 h + e). The four threads of
  // a quad all hold an M x 1 value: the first writes it.
  Value quad = arith::RemUIOp::create(b, loc(), role->lane, i32c(4));
  Value start = map.lookupOrDefault(op.getColumn());
  Value col0 = rowValue
                   ? start
                   : arith::AddIOp::create(
                         b, loc(), start,
                         arith::IndexCastOp::create(
                             b, loc(), b.getIndexType(),
                             arith::MulIOp::create(b, loc(), quad, i32c(2))))
                         .getResult();
  Value writer = rowValue
                     ? arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                             quad, i32c(0))
                           .getResult()
                     : arith::ConstantIntOp::create(b, loc(), b.getI1Type(), 1)
                           .getResult();
  Value keys = map.lookup(op.getKeys());
  Value val = map.lookup(op.getValue());

  // sum adds f32 or i32; min and max compare i32 (the op's verifier).
  std::string instr =
      !reduce ? "st.global.b" + std::to_string(bits)
      : *op.getReduce() == ReduceKind::sum
          ? std::string("red.global.add.") + (elt.isF32() ? "f32" : "s32")
          : "red.global." + stringifyReduceKind(*op.getReduce()).str() + ".s32";
  std::string text =
      "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p " + instr + " [$1], $2; }";
  std::string constraints = reduce && elt.isF32() ? "r,l,f"
                            : bits == 16          ? "r,l,h"
                                                  : "r,l,r";
  for (int64_t h = 0; h < 2; ++h) {
    // A key outside [0, rows) (as unsigned: -1 is past every tensor) writes
    // nothing; its row's base is then never formed into an address used.
    Value key = LLVM::ExtractValueOp::create(b, loc(), keys, h);
    Value row = arith::IndexCastUIOp::create(b, loc(), b.getIndexType(), key);
    Value rowOk = arith::AndIOp::create(
        b, loc(), writer,
        arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, row, rows));
    Value rowBase = arith::MulIOp::create(b, loc(), row, cols);
    int64_t perRow = rowValue ? 1 : info->count / 2;
    for (int64_t k = 0; k < perRow; ++k) {
      // Element index and column of this row's k-th value.
      int64_t slot = rowValue ? h : 4 * (k / 2) + 2 * h + k % 2;
      int64_t step = rowValue ? 0 : 8 * (k / 2) + k % 2;
      Value col = arith::AddIOp::create(b, loc(), col0, idxc(step));
      Value ok = arith::AndIOp::create(
          b, loc(), rowOk,
          arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::ult, col,
                                cols));
      Value lin = arith::AddIOp::create(b, loc(), rowBase, col);
      Value ptr = LLVM::GEPOp::create(b, loc(), globalPtrTy(), elt, tp.ptr,
                                      ValueRange{arith::IndexCastOp::create(
                                          b, loc(), b.getI64Type(), lin)});
      Value v = LLVM::ExtractValueOp::create(b, loc(), val, slot);
      if (isa<FloatType>(elt) && !(reduce && elt.isF32()))
        v = LLVM::BitcastOp::create(b, loc(), b.getIntegerType(bits), v);
      Value pred = arith::ExtUIOp::create(b, loc(), b.getI32Type(), ok);
      sideEffectAsm(Type(), ValueRange{pred, ptr, v}, text, constraints);
    }
  }
  return success();
}
