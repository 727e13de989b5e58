// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeGather.cpp - Copies issued by threads: op verifiers ------------===//
//
// The contracts of cake.gather, cake.gather.indices and cake.cp_async.load
// that their operands decide: the pieces (16 bytes for a gather, 16, 8 or
// 4 for a box copy), index lists of i32 whose length matches the tile
// (hw.gather-copy, hw.cp-async-copy) and matching element types. That the
// stage comes from an acquire of a pipe holding the ring is dataflow's, in
// cake-verify.
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"
#include "cake/Verify/Rules.h"

using namespace mlir;
using namespace mlir::cake;

/// The size of one copy: cp.async.cg moves 16 bytes.
static constexpr int64_t kPieceBytes = 16;

/// A loaded list costs rows / 32 registers a thread in every warp.
static constexpr int64_t kMaxIndicesRows = 256;

LogicalResult IndicesType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t rows) {
  if (rows < 1 || rows > kMaxIndicesRows)
    return emitError() << DiagRule{RuleId::HwGatherCopy}
                       << "a loaded index list holds 1 to " << kMaxIndicesRows
                       << " entries (" << rows
                       << " given): every warp keeps the whole list, "
                       << "rows / 32 registers a thread";
  return success();
}

static LogicalResult verifyIndexList(Operation *op, GlobalType index) {
  if (index.getRank() != 1 || !index.getElementType().isInteger(32))
    return emitRuleError(op, RuleId::HwGatherCopy)
           << "expected the index list to be a rank-1 tensor of i32, got "
           << index;
  return success();
}

LogicalResult GatherIndicesOp::verify() {
  return verifyIndexList(*this, getIndex().getType());
}

LogicalResult GatherOp::verify() {
  GlobalType src = getSrc().getType();
  RingType dst = getDst().getType();
  if (src.getRank() != 2)
    return emitRuleError(*this, RuleId::HwGatherCopy)
           << "gathers rows of a rank-2 tensor, got rank " << src.getRank();
  if (dst.getRank() != 2)
    return emitRuleError(*this, RuleId::HwGatherCopy)
           << "fills a rank-2 ring tile (rows x columns), got rank "
           << dst.getRank();
  if (auto index = dyn_cast<GlobalType>(getIndex().getType())) {
    if (!getPosition())
      return emitRuleError(*this, RuleId::HwGatherCopy)
             << "an index list in global memory needs the position of the "
                "tile's first row in it ([%position])";
    if (failed(verifyIndexList(*this, index)))
      return failure();
  } else {
    auto list = cast<IndicesType>(getIndex().getType());
    if (getPosition())
      return emitRuleError(*this, RuleId::HwGatherCopy)
             << "a loaded index list already holds its position; drop "
                "[%position]";
    if (list.getRows() != dst.getShape()[0])
      return emitRuleError(*this, RuleId::HwGatherCopy)
             << "the loaded list holds " << list.getRows()
             << " entries, the ring's tile " << dst.getShape()[0]
             << " rows: a list covers exactly the rows it fills";
  }
  if (src.getElementType() != dst.getElementType())
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "expected the source and ring element types to match, got "
           << src.getElementType() << " and " << dst.getElementType();
  int64_t eltBytes = getElementBytes(dst.getElementType());
  int64_t rowBytes = dst.getShape()[1] * eltBytes;
  // A row's pieces go to the lanes of one warp, a whole number of rows a
  // step: 1 to 32 pieces, a power of two.
  int64_t pieces = rowBytes / kPieceBytes;
  if (rowBytes % kPieceBytes != 0 || pieces > 32 || (pieces & (pieces - 1)))
    return emitRuleError(*this, RuleId::HwGatherCopy)
           << "the ring's rows are " << rowBytes
           << " bytes; a gather copies rows of 16, 32, 64, 128, 256 or 512 "
              "bytes (16-byte pieces, a row's pieces on one warp)";
  if (!src.isDynamicDim(1) && (src.getShape()[1] * eltBytes) % kPieceBytes)
    return emitRuleError(*this, RuleId::HwGatherCopy)
           << "the source's rows are "
           << src.getShape()[src.getRank() - 1] * eltBytes
           << " bytes, not a multiple of 16: its rows could not be copied "
              "in 16-byte pieces (pad them)";
  return success();
}

int64_t CpAsyncLoadOp::getPieceBytes() {
  GlobalType src = getSrc().getType();
  if (src.getRank() != 2 && src.getRank() != 3)
    return 0;
  // A pitch known only at launch takes the widest piece; the kernel traps
  // where the pitch is not a whole number of them.
  int64_t inner = src.getRank() - 1;
  if (src.isDynamicDim(inner))
    return 16;
  int64_t pitch = src.getShape()[inner] * getElementBytes(src.getElementType());
  for (int64_t piece : {16, 8, 4})
    if (pitch % piece == 0)
      return piece;
  return 0;
}

LogicalResult CpAsyncLoadOp::verify() {
  GlobalType src = getSrc().getType();
  RingType dst = getDst().getType();
  if (src.getRank() != 2 && src.getRank() != 3)
    return emitRuleError(*this, RuleId::HwCpAsyncCopy)
           << "copies a box of a rank-2 tensor, or of a plane of a rank-3 "
              "one, got rank "
           << src.getRank();
  if ((int64_t)getCoords().size() != src.getRank())
    return emitRuleError(*this, RuleId::DataflowBoxShape)
           << "expected " << src.getRank() << " coordinates for a rank-"
           << src.getRank() << " tensor, got " << getCoords().size();
  if (dst.getRank() != 2)
    return emitRuleError(*this, RuleId::HwCpAsyncCopy)
           << "fills a rank-2 ring tile (rows x columns), got rank "
           << dst.getRank();
  if (src.getElementType() != dst.getElementType())
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "expected the source and ring element types to match, got "
           << src.getElementType() << " and " << dst.getElementType();
  int64_t eltBytes = getElementBytes(dst.getElementType());
  int64_t piece = getPieceBytes();
  if (!piece)
    return emitRuleError(*this, RuleId::HwCpAsyncCopy)
           << "the source's rows are "
           << src.getShape()[src.getRank() - 1] * eltBytes
           << " bytes, not a multiple of 4: no cp.async piece (16, 8 or 4 "
              "bytes) divides them (pad them)";
  int64_t rowBytes = dst.getShape()[1] * eltBytes;
  int64_t pieces = rowBytes / piece;
  if (rowBytes < 16 || rowBytes > 512 || (rowBytes & (rowBytes - 1)) ||
      pieces > 32)
    return emitRuleError(*this, RuleId::HwCpAsyncCopy)
           << "the ring's rows are " << rowBytes << " bytes in " << piece
           << "-byte pieces; a cp.async box copy fills rows of 16 to 512 "
              "bytes, a power of two, in at most 32 pieces (a row's pieces "
              "on one warp)";
  return success();
}
