// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeOps.cpp - Cake operations: formats and op-local verifiers ------===//
//
// Custom assembly for the kernel and tile loop, and the verifiers of every
// op: the contracts that follow from an op's own operands and attributes.
// Rules that need the whole kernel (pairing of pipes across roles, resource
// totals) live in the cake-verify pass, not here.
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"
#include "cake/Dialect/TmaMulticast.h"
#include "cake/Target/TargetInfo.h"
#include "cake/Verify/Rules.h"

#include "ShapeStr.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::cake;

#define GET_OP_CLASSES
#include "cake/Dialect/CakeOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::string mlir::cake::shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << '[';
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << '?';
    else
      os << d;
  });
  os << ']';
  return s;
}

/// Drops unit dimensions of a fragment shape, innermost first among leading
/// ones, until it has `rank` dimensions. Fails if too many non-unit
/// dimensions remain.
static FailureOr<SmallVector<int64_t>> squeezeToRank(ArrayRef<int64_t> shape,
                                                     int64_t rank) {
  SmallVector<int64_t> out(shape);
  while ((int64_t)out.size() > rank) {
    auto it = llvm::find(out, 1);
    if (it == out.end())
      return failure();
    out.erase(it);
  }
  if ((int64_t)out.size() != rank)
    return failure();
  return out;
}

/// Shared checks of a TMA copy between a global tensor and a ring.
static LogicalResult verifyTmaCopy(Operation *op, GlobalType global,
                                   RingType ring, size_t numCoords) {
  if ((int64_t)numCoords != global.getRank())
    return emitRuleError(op, RuleId::HwTmaRank)
           << "expected " << global.getRank() << " coordinates for a rank-"
           << global.getRank() << " tensor, got " << numCoords;
  // A ring tile of lower rank is the box's innermost dimensions; the
  // leading box dimensions are 1 (e.g. one batch of a [B, N, D] tensor).
  if (ring.getRank() > global.getRank())
    return emitRuleError(op, RuleId::HwTmaRank)
           << "expected the ring tile rank to be at most the tensor rank "
           << global.getRank() << ", got " << ring.getRank();
  if (ring.getElementType() != global.getElementType())
    return emitRuleError(op, RuleId::DataflowElementType)
           << "expected ring and tensor element types to match, "
              "got "
           << ring.getElementType() << " and " << global.getElementType();
  for (int64_t d : ring.getShape())
    if (d > 256)
      return emitRuleError(op, RuleId::HwTmaBox)
             << "box dimension " << d
             << " exceeds the copy engine's limit of 256 (box "
             << shapeStr(ring.getShape()) << ")";
  int64_t innerBytes =
      ring.getShape().back() * getElementBytes(ring.getElementType());
  if (innerBytes % 16 != 0)
    return emitRuleError(op, RuleId::HwTmaBox)
           << "the box's inner dimension spans " << innerBytes
           << " bytes, expected a multiple of 16";
  return success();
}

/// Checks a fragment moved to or from a global tensor box.
static LogicalResult verifyFragBox(Operation *op, FragType frag,
                                   GlobalType global, size_t numCoords) {
  if ((int64_t)numCoords != global.getRank())
    return emitRuleError(op, RuleId::DataflowBoxShape)
           << "expected " << global.getRank() << " coordinates for a rank-"
           << global.getRank() << " tensor, got " << numCoords;
  // A fragment of lower rank is a box of the tensor's innermost
  // dimensions (the outer coordinates pick one, as for TMA copies).
  if (frag.getRank() > global.getRank() &&
      failed(squeezeToRank(frag.getShape(), global.getRank())))
    return emitRuleError(op, RuleId::DataflowBoxShape)
           << "expected a fragment whose non-unit dimensions fit "
              "a rank-"
           << global.getRank() << " box, got " << shapeStr(frag.getShape());
  if (frag.getElementType() != global.getElementType())
    return emitRuleError(op, RuleId::DataflowElementType)
           << "expected fragment and tensor element types to "
              "match, got "
           << frag.getElementType() << " and " << global.getElementType();
  return success();
}

/// `rows %n` bounds a tile's rows: the fragment must be one (two non-unit
/// dimensions over a tensor of rank 2 or more).
static LogicalResult verifyRowBound(Operation *op, FragType frag,
                                    GlobalType global, Value rows) {
  if (!rows)
    return success();
  ArrayRef<int64_t> shape = frag.getShape();
  if (shape.size() != 2 || shape[0] == 1 || shape[1] == 1 ||
      global.getRank() < 2)
    return emitRuleError(op, RuleId::DataflowBoxShape)
           << "`rows` bounds the rows of a tile (a fragment of two non-unit "
              "dimensions in a tensor of rank 2 or more), got "
           << shapeStr(shape) << " in a rank-" << global.getRank() << " tensor";
  return success();
}

/// The shape `shape` with its innermost dimension reduced to 1.
static SmallVector<int64_t> rowReduced(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> out(shape);
  out.back() = 1;
  return out;
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

ArrayRef<int64_t> KernelOp::getTileShape() {
  if (auto p = dyn_cast<PersistentAttr>(getSchedule()))
    return p.getTile();
  return cast<GridAttr>(getSchedule()).getTile();
}

LogicalResult KernelOp::verify() {
  if (!getFunctionType().getResults().empty())
    return emitRuleError(*this, RuleId::DataflowKernelSignature)
           << "expected no results, kernels write through their "
              "global tensor arguments";
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (!isa<GlobalType, IndexType, IntegerType, FloatType>(type))
      return emitRuleError(*this, RuleId::DataflowKernelSignature)
             << "expected argument #" << i
             << " to be a !cake.global tensor or a scalar, got " << type;
  if (getBody().empty())
    return emitRuleError(*this, RuleId::DataflowKernelSignature)
           << "expected a body";
  if (getBody().getNumArguments() != getArgumentTypes().size())
    return emitRuleError(*this, RuleId::DataflowKernelSignature)
           << "expected the body to take the " << getArgumentTypes().size()
           << " kernel arguments";

  if (std::optional<int64_t> cluster = getCluster()) {
    const TargetInfo *t = lookupTarget(getTarget().getArch());
    int64_t most = t ? t->maxClusterSizeNonPortable : 1;
    if (t && most <= 1)
      return emitRuleError(*this, RuleId::HwCluster)
             << "target " << t->arch
             << " has no thread-block clusters; drop `cluster`";
    if (*cluster < 1 || *cluster > most)
      return emitRuleError(*this, RuleId::HwCluster)
             << "a cluster holds 1 to " << (t ? t->maxClusterSize : 8)
             << " CTAs (" << most
             << " as a non-portable size), got cluster = " << *cluster;
  }

  llvm::SmallSet<StringRef, 8> names;
  int64_t numRoles = 0;
  for (auto role : getBody().getOps<RoleOp>()) {
    ++numRoles;
    if (!names.insert(role.getName()).second)
      return emitRuleError(role, RuleId::SyncRoleNames)
             << "duplicate role name \"" << role.getName() << "\" in kernel @"
             << getSymName();
  }
  if (numRoles == 0)
    return emitRuleError(*this, RuleId::ResourceRoleWarps)
           << "expected at least one cake.role";
  return success();
}

//===----------------------------------------------------------------------===//
// RoleOp
//===----------------------------------------------------------------------===//

int64_t RoleOp::getNumWarps() {
  if (auto wg = getWarpgroups())
    return int64_t(*wg) * 4;
  return getWarps() ? int64_t(*getWarps()) : 0;
}

LogicalResult BarrierSyncOp::verify() {
  // Named barrier 0 is the CTA-wide barrier of the prologue; bar.sync
  // counts whole warps. (An unknown target is the kernel verifier's to
  // report.)
  auto kernel = (*this)->getParentOfType<KernelOp>();
  const TargetInfo *target =
      kernel ? lookupTarget(kernel.getTarget().getArch()) : nullptr;
  if (getId() < 1 || (target && getId() >= target->namedBarriers)) {
    InFlightDiagnostic d = emitRuleError(*this, RuleId::SyncNamedBarrier)
                           << "named barrier id " << getId()
                           << " is out of range: ";
    if (target)
      d << "ids 1 to " << target->namedBarriers - 1 << " are free ";
    return d << "(0 is the CTA-wide barrier)";
  }
  if (getThreads() <= 0 || getThreads() % 32 != 0)
    return emitRuleError(*this, RuleId::SyncNamedBarrier)
           << "named barrier " << getId() << " counts " << getThreads()
           << " threads, not a positive multiple of 32 (bar.sync counts "
              "whole warps)";
  return success();
}

LogicalResult RoleOp::verify() {
  if (getName().empty())
    return emitRuleError(*this, RuleId::SyncRoleNames)
           << "expected a non-empty role name";
  if (getWarpgroups().has_value() == getWarps().has_value())
    return emitRuleError(*this, RuleId::ResourceRoleWarps)
           << DiagRole{getName()}
           << " must give exactly one of warpgroups(n) or "
           << "warps(n)";
  int64_t count = getWarpgroups() ? *getWarpgroups() : *getWarps();
  if (count < 1)
    return emitRuleError(*this, RuleId::ResourceRoleWarps)
           << DiagRole{getName()} << " expected a positive warp count, got "
           << count;
  if (auto regs = getRegs()) {
    int64_t r = *regs;
    if (r < 24 || r > 256 || r % 8 != 0)
      return emitRuleError(*this, RuleId::ResourceRegisterBudget)
             << DiagRole{getName()}
             << " expected a register budget that is a multiple of 8 in "
                "[24, 256] (setmaxnreg), got "
             << r;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TilesOp
//===----------------------------------------------------------------------===//

ParseResult TilesOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> extents;
  Builder &builder = parser.getBuilder();
  Type indexType = builder.getIndexType();
  if (parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren))
    return failure();
  for (OpAsmParser::Argument &iv : args)
    iv.type = indexType;
  if (parser.parseKeyword("in") ||
      parser.parseOperandList(extents, OpAsmParser::Delimiter::Paren) ||
      parser.resolveOperands(extents, indexType, result.operands))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("slice"))) {
    int64_t k = 0, n = 0;
    if (parser.parseInteger(k) || parser.parseKeyword("of") ||
        parser.parseInteger(n))
      return failure();
    result.addAttribute("slice", builder.getDenseI64ArrayAttr({k, n}));
  }
  // iter_args(%a = %init, ...) -> (types): the values carried tile to tile.
  SmallVector<OpAsmParser::Argument> carried;
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  if (succeeded(parser.parseOptionalKeyword("iter_args"))) {
    if (parser.parseAssignmentList(carried, inits) ||
        parser.parseArrowTypeList(result.types))
      return failure();
    if (carried.size() != result.types.size())
      return parser.emitError(parser.getNameLoc())
             << "expected one type per carried value (" << carried.size()
             << "), got " << result.types.size();
    for (auto [arg, type] : llvm::zip(carried, result.types))
      arg.type = type;
    if (parser.resolveOperands(inits, result.types, parser.getNameLoc(),
                               result.operands))
      return failure();
  }
  result.addAttribute("operandSegmentSizes",
                      builder.getDenseI32ArrayAttr(
                          {int32_t(extents.size()), int32_t(inits.size())}));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  args.append(carried.begin(), carried.end());
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  TilesOp::ensureTerminator(*body, builder, result.location);
  return success();
}

void TilesOp::print(OpAsmPrinter &p) {
  p << " (";
  llvm::interleaveComma(getCoordinates(), p,
                        [&](BlockArgument a) { p.printOperand(a); });
  p << ") in (" << getExtents() << ")";
  if (getSliceAttr())
    p << " slice " << getSliceOrWhole().first << " of "
      << getSliceOrWhole().second;
  if (!getInits().empty()) {
    p << " iter_args(";
    llvm::interleaveComma(
        llvm::zip(getRegionIterArgs(), getInits()), p, [&](auto pair) {
          p << std::get<0>(pair) << " = " << std::get<1>(pair);
        });
    p << ") -> (" << getResultTypes() << ")";
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {"slice", "operandSegmentSizes"});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/!getInits().empty());
}

bool TilesOp::isCoordinate(BlockArgument arg) {
  auto tiles = dyn_cast_or_null<TilesOp>(arg.getOwner()->getParentOp());
  return tiles && arg.getArgNumber() < tiles.getExtents().size();
}

LogicalResult TilesOp::verify() {
  size_t n = getExtents().size();
  if (n < 1 || n > 3)
    return emitRuleError(*this, RuleId::SyncTilesSchedule)
           << "expected 1 to 3 tile dimensions, got " << n;
  if (getBody().getNumArguments() != n + getInits().size())
    return emitRuleError(*this, RuleId::SyncTilesSchedule)
           << "expected one tile coordinate per extent (" << n
           << ") and one argument per carried value (" << getInits().size()
           << "), got " << getBody().getNumArguments() << " block arguments";
  for (BlockArgument a : getCoordinates())
    if (!a.getType().isIndex())
      return emitRuleError(*this, RuleId::SyncTilesSchedule)
             << "expected index tile coordinates, got " << a.getType();
  // What is carried: fragments and scalars (what registers can hold).
  auto yield = cast<TilesYieldOp>(getBody().front().getTerminator());
  if (yield.getValues().size() != getInits().size())
    return emitRuleError(yield, RuleId::DataflowTypeShape)
           << "expected " << getInits().size()
           << " values carried to the next tile, got "
           << yield.getValues().size();
  for (auto [i, init, arg, next, res] : llvm::enumerate(
           getInits(), getRegionIterArgs(), yield.getValues(), getResults())) {
    Type t = init.getType();
    if (!isa<FragType>(t) && !t.isIntOrIndexOrFloat())
      return emitRuleError(*this, RuleId::DataflowTypeShape)
             << "carried value #" << i << " is a " << t
             << ": a tile loop carries fragments, integers, indices and "
                "floats";
    if (arg.getType() != t || next.getType() != t || res.getType() != t)
      return emitRuleError(*this, RuleId::DataflowTypeShape)
             << "carried value #" << i << " is a " << t
             << " at the start, but its block argument, yield and result are "
             << arg.getType() << ", " << next.getType() << " and "
             << res.getType();
  }
  auto role = (*this)->getParentOfType<RoleOp>();
  if (!role)
    return emitRuleError(*this, RuleId::SyncTilesSchedule)
           << "expected to be nested in a cake.role";
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (auto slice = getSliceAttr()) {
    if (slice.size() != 2 || slice[1] < 1 || slice[0] < 0 ||
        slice[0] >= slice[1])
      return emitRuleError(*this, RuleId::SyncTilesSchedule)
             << "expected a slice k of n with 0 <= k < n";
    if (kernel && !isa<PersistentAttr>(kernel.getSchedule()))
      return emitRuleError(*this, RuleId::SyncTilesSchedule)
             << "a slice of the CTA's tiles needs a persistent schedule (a "
                "grid gives each CTA one tile)";
  }
  if (kernel && kernel.getTileShape().size() != n)
    return emitRuleError(*this, RuleId::SyncTilesSchedule)
           << "expected " << kernel.getTileShape().size()
           << " extents to match the schedule's tile "
           << shapeStr(kernel.getTileShape()) << ", got " << n;
  // The launcher sizes the grid from the arguments alone: an extent
  // computed in the kernel (a quotient, a sum) has no value on the host.
  if (kernel)
    for (auto [i, e] : llvm::enumerate(getExtents())) {
      auto arg = dyn_cast<BlockArgument>(e);
      bool isArg = arg && arg.getOwner() == &kernel.getBody().front();
      if (!isArg && !e.getDefiningOp<DimOp>())
        return emitRuleError(*this, RuleId::SyncTilesSchedule)
               << "expected extent #" << i
               << " to be a kernel argument or a cake.dim of one, so the "
                  "launcher can size the grid";
    }
  return success();
}

//===----------------------------------------------------------------------===//
// DimOp
//===----------------------------------------------------------------------===//

LogicalResult DimOp::verify() {
  int64_t rank = getTensor().getType().getRank();
  int64_t dim = static_cast<int64_t>(getDim());
  if (dim < 0 || dim >= rank)
    return emitRuleError(*this, RuleId::DataflowTensorDim)
           << "expected a dimension in [0, " << rank << "), got " << dim;
  return success();
}

//===----------------------------------------------------------------------===//
// PipeOp
//===----------------------------------------------------------------------===//

LogicalResult
PipeOp::inferReturnTypes(MLIRContext *context, std::optional<Location> location,
                         ValueRange operands, DictionaryAttr, OpaqueProperties,
                         RegionRange,
                         SmallVectorImpl<Type> &inferredReturnTypes) {
  if (operands.empty())
    return emitOptionalError(location, "'cake.pipe' op expected at least one "
                                       "ring");
  Type first = operands.front().getType();
  // A failure here must say why: the parser reports nothing else (a
  // silent failure the cost fuzz target found, `cake.pipe %x : index`).
  int64_t stages = 0;
  if (auto ring = dyn_cast<RingType>(first))
    stages = ring.getStages();
  else if (auto tmem = dyn_cast<TmemType>(first))
    stages = tmem.getStages();
  else
    return emitOptionalError(location,
                             "'cake.pipe' op expected rings or tensor "
                             "memory, got ",
                             first);
  inferredReturnTypes.push_back(PipeType::get(context, stages));
  return success();
}

SmallVector<Value> PipeOp::getRings() {
  SmallVector<Value> rings;
  for (Value v : getBuffers())
    if (isa<RingType>(v.getType()))
      rings.push_back(v);
  return rings;
}

Value PipeOp::getTmem() {
  for (Value v : getBuffers())
    if (isa<TmemType>(v.getType()))
      return v;
  return {};
}

LogicalResult PipeOp::verify() {
  int64_t stages = getType().getStages();
  // A tensor-memory stage is filled by the tensor cores and completes with
  // tcgen05.commit: its full barrier cannot also count copies.
  if (Value tmem = getTmem()) {
    if (getBuffers().size() != 1)
      return emitRuleError(*this, RuleId::SyncFillKind)
             << "a pipe over tensor memory holds that one buffer; its stages "
                "complete with tcgen05.commit, a ring's with its copies";
    if (cast<TmemType>(tmem.getType()).getStages() != stages)
      return emitRuleError(*this, RuleId::SyncPipeDepth)
             << "expected the buffer to have the pipe's " << stages
             << " stages";
  }
  for (auto [i, ring] : llvm::enumerate(getRings())) {
    auto type = cast<RingType>(ring.getType());
    if (type.getStages() != stages)
      return emitRuleError(*this, RuleId::SyncPipeDepth)
             << "expected every ring to have the pipe's " << stages
             << " stages, " << DiagRing{int64_t(i)} << " has "
             << type.getStages();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Memory movement
//===----------------------------------------------------------------------===//

int64_t mlir::cake::multicastSlicePeriod(RingType ring) {
  return std::max<int64_t>(128, 8 * ring.getSwizzle());
}

bool mlir::cake::splitsIntoMulticastSlices(RingType ring, int64_t ctas) {
  return ctas >= 2 && ring.getRank() >= 2 && ring.getShape()[0] % ctas == 0 &&
         (ring.getTileBytes() / ctas) % multicastSlicePeriod(ring) == 0;
}

LogicalResult TmaLoadOp::verify() {
  if (failed(verifyTmaCopy(*this, getSrc().getType(), getDst().getType(),
                           getCoords().size())))
    return failure();
  if (!getMulticast())
    return success();
  // Each CTA of the cluster loads one n-th of the rows into every CTA's
  // stage: the slices must tile the box, and each must start where the
  // swizzle pattern (8 rows of the swizzle span) and the copy's 128-byte
  // destination alignment start again.
  auto kernel = (*this)->getParentOfType<KernelOp>();
  int64_t n = kernel ? kernel.getCluster().value_or(1) : 1;
  if (n < 2)
    return emitRuleError(*this, RuleId::HwTmaMulticast)
           << "a multicast copy needs a cluster of 2 or more CTAs to write "
              "into; the kernel has "
           << (kernel && kernel.getCluster() ? "cluster = 1" : "no cluster");
  RingType ring = getDst().getType();
  if (ring.getRank() < 2)
    return emitRuleError(*this, RuleId::HwTmaMulticast)
           << "a multicast copy splits the box's rows among the cluster's "
              "CTAs; the ring tile "
           << shapeStr(ring.getShape()) << " has no rows";
  int64_t rows = ring.getShape()[0];
  if (rows % n != 0)
    return emitRuleError(*this, RuleId::HwTmaMulticast)
           << "the box's " << rows << " rows do not split into " << n
           << " equal slices, one per CTA of the cluster";
  int64_t sliceBytes = ring.getTileBytes() / n;
  int64_t atom = multicastSlicePeriod(ring);
  if (!splitsIntoMulticastSlices(ring, n))
    return emitRuleError(*this, RuleId::HwTmaMulticast)
           << "each CTA's slice of " << rows / n << " rows is " << sliceBytes
           << " bytes, not a multiple of " << atom
           << " (the swizzle pattern's period and the copy's destination "
              "alignment): use fewer CTAs or a larger box";
  return success();
}

LogicalResult TmaStoreOp::verify() {
  if (failed(verifyTmaCopy(*this, getDst().getType(), getSrc().getType(),
                           getCoords().size())))
    return failure();
  std::optional<ReduceKind> kind = getReduce();
  if (!kind)
    return success();
  Type elt = getSrc().getType().getElementType();
  bool halfOrInt = elt.isF16() || elt.isBF16() || elt.isInteger(32);
  if (*kind == ReduceKind::sum ? halfOrInt || elt.isF32() : halfOrInt)
    return success();
  return emitRuleError(*this, RuleId::HwTmaReduce)
         << "the copy engine cannot reduce " << elt << " elements by "
         << stringifyReduceKind(*kind)
         << (*kind == ReduceKind::sum
                 ? " (sum takes f32, f16, bf16 or i32)"
                 : " (min and max take f16, bf16 or i32)");
}

/// A fragment moved to or from a ring stage (smem.write, smem.read) has the
/// ring tile's shape and element type.
static LogicalResult verifyStageBox(Operation *op, FragType frag,
                                    RingType ring) {
  if (frag.getShape() != ring.getShape())
    return emitRuleError(op, RuleId::DataflowBoxShape)
           << "expected the fragment shape " << shapeStr(frag.getShape())
           << " to equal the ring tile " << shapeStr(ring.getShape());
  if (frag.getElementType() != ring.getElementType())
    return emitRuleError(op, RuleId::DataflowElementType)
           << "expected fragment and ring element types to match, "
              "got "
           << frag.getElementType() << " and " << ring.getElementType();
  return success();
}

LogicalResult SmemWriteOp::verify() {
  return verifyStageBox(*this, getValue().getType(), getDst().getType());
}

LogicalResult SmemReadOp::verify() {
  return verifyStageBox(*this, getResult().getType(), getSrc().getType());
}

LogicalResult LoadOp::verify() {
  if (failed(verifyFragBox(*this, getResult().getType(), getSrc().getType(),
                           getCoords().size())))
    return failure();
  if (getPad() && getPad().getType() != getResult().getType().getElementType())
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "expected the pad value to have the element type "
           << getResult().getType().getElementType() << ", got "
           << getPad().getType();
  return verifyRowBound(*this, getResult().getType(), getSrc().getType(),
                        getRows());
}

LogicalResult StoreOp::verify() {
  if (failed(verifyFragBox(*this, getValue().getType(), getDst().getType(),
                           getCoords().size())))
    return failure();
  if (getTransposed()) {
    FragType ft = getValue().getType();
    ArrayRef<int64_t> shape = ft.getShape();
    if (shape.size() != 2 || shape[0] == 1 || shape[1] == 1 ||
        getDst().getType().getRank() < 2)
      return emitRuleError(*this, RuleId::DataflowBoxShape)
             << "a transposed store writes a tile (a fragment of two non-unit "
                "dimensions in a tensor of rank 2 or more), got "
             << shapeStr(shape) << " in a rank-" << getDst().getType().getRank()
             << " tensor";
    int64_t bytes = getElementBytes(ft.getElementType());
    if (bytes != 2 && bytes != 4)
      return emitRuleError(*this, RuleId::DataflowElementType)
             << "a transposed store writes 16- or 32-bit elements, not "
             << ft.getElementType();
  }
  if (std::optional<int64_t> every = getEvery()) {
    ArrayRef<int64_t> shape = getValue().getType().getShape();
    if (getTransposed() || shape.size() != 2 || shape[0] % 64 != 0 ||
        shape[1] % 8 != 0)
      return emitRuleError(*this, RuleId::DataflowBoxShape)
             << "every(" << *every
             << ") keeps rows of an accumulator-shaped tile (64·W rows, a "
                "multiple of 8 columns, not transposed), got "
             << shapeStr(shape) << (getTransposed() ? " transposed" : "");
    if (*every <= 0 || *every % 16 != 0 || shape[0] % *every != 0)
      return emitRuleError(*this, RuleId::DataflowBoxShape)
             << "every(" << *every
             << ") must be a multiple of 16 (a warp's rows) dividing the "
             << shape[0] << " rows of the tile";
    int64_t bytes = getElementBytes(getValue().getType().getElementType());
    if (bytes != 2 && bytes != 4)
      return emitRuleError(*this, RuleId::DataflowElementType)
             << "an every(S) store writes 16- or 32-bit elements, not "
             << getValue().getType().getElementType();
  }
  return verifyRowBound(*this, getValue().getType(), getDst().getType(),
                        getRows());
}

/// An index from an integer tensor, the element itself from an f32 one.
LogicalResult ScalarLoadOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location,
    ValueRange operands, DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  auto src = operands.empty() ? GlobalType()
                              : dyn_cast<GlobalType>(operands[0].getType());
  if (!src)
    return emitOptionalError(location, "'cake.scalar.load' op expected a "
                                       "global tensor");
  Type elt = src.getElementType();
  inferredReturnTypes.push_back(elt.isF32() ? elt
                                            : IndexType::get(context));
  return success();
}

LogicalResult ScalarLoadOp::verify() {
  GlobalType src = getSrc().getType();
  if ((int64_t)getCoords().size() != src.getRank())
    return emitRuleError(*this, RuleId::DataflowBoxShape)
           << "expected " << src.getRank() << " coordinates for a rank-"
           << src.getRank() << " tensor, got " << getCoords().size();
  if (!src.getElementType().isSignlessInteger(32) &&
      !src.getElementType().isSignlessInteger(64) &&
      !src.getElementType().isF32())
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "expected an i32 or i64 tensor (for an index) or an f32 one, "
              "got "
           << src.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// MmaOp
//===----------------------------------------------------------------------===//

bool mlir::cake::isValidAccumulator(Type in, Type acc) {
  if (in.isBF16())
    return acc.isF32();
  if (in.isF16())
    return acc.isF32() || acc.isF16();
  if (isa<Float8E4M3FNType, Float8E5M2Type>(in))
    return acc.isF32() || acc.isF16();
  if (in.isTF32() || in.isF32())
    return acc.isF32();
  if (in.isInteger(8))
    return acc.isInteger(32);
  return false;
}

Type MmaOp::getAElementType() {
  if (RingType ring = getARing())
    return ring.getElementType();
  return getAFragment().getElementType();
}

SmallVector<int64_t, 2> MmaOp::getAShape() {
  ArrayRef<int64_t> shape =
      getARing() ? getARing().getShape() : getAFragment().getShape();
  if (getAMnMajor() && shape.size() == 2)
    return {shape[1], shape[0]}; // a K x M tile
  return SmallVector<int64_t, 2>(shape);
}

LogicalResult MmaOp::verify() {
  RingType b = getB().getType();
  FragType acc = getAcc().getType();
  SmallVector<int64_t, 2> aShape = getAShape();
  if (aShape.size() != 2 || b.getRank() != 2 || acc.getRank() != 2)
    return emitRuleError(*this, RuleId::DataflowMmaOperands)
           << "expected rank-2 operands (A: MxK, B: NxK, acc: MxN)";
  // A from registers has no stage; A from a ring is read through one.
  if (isAFromRegisters() == static_cast<bool>(getAStage()))
    return emitRuleError(*this, RuleId::DataflowMmaOperands)
           << (isAFromRegisters()
                   ? "A from registers (a fragment) takes no stage"
                   : "A from a ring needs the stage it is read through");
  int64_t m = aShape[0], k = aShape[1];
  int64_t n = getN();
  if (getAMnMajor() && isAFromRegisters())
    return emitRuleError(*this, RuleId::HwWgmmaTranspose)
           << "mn_major describes how A is laid out in shared memory; a "
              "register fragment A has no such choice";
  if (getK() != k)
    return emitRuleError(*this, RuleId::DataflowMmaOperands)
           << "expected A and B to share K, got A "
           << shapeStr(getARing() ? getARing().getShape() : ArrayRef(aShape))
           << (getAMnMajor() ? " (mn_major: K x M)" : "") << " and B "
           << shapeStr(b.getShape())
           << (getMnMajor() ? " (mn_major: K x N)" : "");
  if (acc.getShape()[0] != m || acc.getShape()[1] != n)
    return emitRuleError(*this, RuleId::DataflowMmaOperands)
           << "expected an accumulator of shape " << shapeStr({m, n})
           << ", got " << shapeStr(acc.getShape());
  Type in = getAElementType();
  bool sixteenBit = in.isF16() || in.isBF16();
  // wgmma's RS form and mma.sync (whose A is always registers) read a
  // 16-bit fragment; mma.sync reads an mn_major operand with ldmatrix.trans.
  bool registerForms = getKind() != MmaKind::tcgen05;
  if (isAFromRegisters() && (!registerForms || !sixteenBit))
    return emitRuleError(*this, RuleId::HwWgmmaRegisterA)
           << "A from registers needs wgmma or mma_sync on f16 or bf16, got "
           << stringifyMmaKind(getKind()) << " on " << in;
  if ((getMnMajor() || getAMnMajor()) && (!registerForms || !sixteenBit))
    return emitRuleError(*this, RuleId::HwWgmmaTranspose)
           << "an mn_major " << (getAMnMajor() ? "A" : "B")
           << " needs wgmma or mma_sync on f16 or bf16 (the transpose bit "
              "and ldmatrix.trans exist for 16-bit types only), got "
           << stringifyMmaKind(getKind()) << " on " << in;
  if (b.getElementType() != in)
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "expected A and B element types to match, got " << in << " and "
           << b.getElementType();
  if (!isValidAccumulator(in, acc.getElementType()))
    return emitRuleError(*this, RuleId::HwWgmmaShape)
           << in << " operands cannot accumulate into " << acc.getElementType();
  // wgmma's immediate operand scale (-1) exists for f16 and bf16 only;
  // mma.sync's A is negated by its sign bits, in the same types.
  if (getNegate() && (!registerForms || !sixteenBit))
    return emitRuleError(*this, RuleId::HwWgmmaShape)
           << "negate needs wgmma or mma_sync on f16 or bf16 operands, got "
           << stringifyMmaKind(getKind()) << " on " << in;

  // The tile must be a whole number of hardware instructions. Every family
  // takes 32 bytes of K per instruction (k16 for 16-bit types, k32 for 8-bit,
  // k8 for tf32); M is 64 per warpgroup (wgmma, tcgen05) or 16 (mma.sync).
  int64_t kStep = kMmaInstructionKBytes / getElementBytes(in);
  int64_t mStep = 64, nStep = 8;
  RuleId rule = RuleId::HwWgmmaShape;
  switch (getKind()) {
  case MmaKind::wgmma:
    break;
  case MmaKind::mma_sync:
    mStep = 16;
    rule = RuleId::HwMmaShape;
    break;
  case MmaKind::tcgen05:
    mStep = 64;
    nStep = 16;
    rule = RuleId::HwTcgen05Shape;
    break;
  }
  if (m % mStep != 0 || n % nStep != 0 || k % kStep != 0)
    return emitRuleError(*this, rule)
           << "tile M=" << m << " N=" << n << " K=" << k << " of " << in
           << " is not a whole number of " << stringifyMmaKind(getKind())
           << " instructions (M a multiple of " << mStep << ", N a multiple of "
           << nStep << ", K a multiple of " << kStep << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Fragment ops
//===----------------------------------------------------------------------===//

LogicalResult FragConvertOp::verify() {
  if (getInput().getType().getShape() != getResult().getType().getShape())
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected the same shape, got "
           << shapeStr(getInput().getType().getShape()) << " and "
           << shapeStr(getResult().getType().getShape());
  return success();
}

LogicalResult FragMapOp::verify() {
  if (getInputs().empty() || getResults().empty())
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected at least one input and one result";
  auto resultType = cast<FragType>(getResults().front().getType());
  ArrayRef<int64_t> shape = resultType.getShape();
  for (Value r : getResults())
    if (cast<FragType>(r.getType()).getShape() != shape)
      return emitRuleError(*this, RuleId::DataflowFragmentShape)
             << "expected every result to have the shape " << shapeStr(shape);
  for (auto [i, in] : llvm::enumerate(getInputs())) {
    ArrayRef<int64_t> s = cast<FragType>(in.getType()).getShape();
    if (s.size() != shape.size())
      return emitRuleError(*this, RuleId::DataflowFragmentShape)
             << "expected input #" << i << " to have rank " << shape.size()
             << ", got " << s.size();
    for (auto [d, r] : llvm::zip(s, shape))
      if (d != r && d != 1)
        return emitRuleError(*this, RuleId::DataflowFragmentShape)
               << "input #" << i << " of shape " << shapeStr(s)
               << " does not broadcast to the result shape " << shapeStr(shape);
  }
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected the body to take " << getInputs().size()
           << " scalars, got " << body.getNumArguments();
  for (auto [arg, in] : llvm::zip(body.getArguments(), getInputs()))
    if (arg.getType() != cast<FragType>(in.getType()).getElementType())
      return emitRuleError(*this, RuleId::DataflowFragmentShape)
             << "expected body argument of type "
             << cast<FragType>(in.getType()).getElementType() << ", got "
             << arg.getType();
  // The lowering clones the body once per element of the thread's share:
  // it must be scalar code without effects (arith and math, no regions).
  for (Operation &inner : body.without_terminator()) {
    Dialect *d = inner.getDialect();
    StringRef ns = d ? d->getNamespace() : StringRef();
    if ((ns != "arith" && ns != "math") || inner.getNumRegions() != 0)
      return emitRuleError(&inner, RuleId::DataflowFragmentShape)
             << "frag.map's body computes one element from scalars: arith "
                "and math ops only, not "
             << inner.getName();
  }
  auto yield = cast<FragYieldOp>(body.getTerminator());
  if (yield.getValues().size() != getResults().size())
    return emitRuleError(yield, RuleId::DataflowFragmentShape)
           << "expected to yield " << getResults().size() << " values, got "
           << yield.getValues().size();
  for (auto [v, r] : llvm::zip(yield.getValues(), getResults()))
    if (v.getType() != cast<FragType>(r.getType()).getElementType())
      return emitRuleError(yield, RuleId::DataflowFragmentShape)
             << "expected a value of type "
             << cast<FragType>(r.getType()).getElementType() << ", got "
             << v.getType();
  return success();
}

LogicalResult FragReduceOp::verify() {
  FragType in = getInput().getType(), out = getResult().getType();
  if (out.getShape() != ArrayRef<int64_t>(rowReduced(in.getShape())))
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected the result shape "
           << shapeStr(rowReduced(in.getShape())) << ", got "
           << shapeStr(out.getShape());
  if (out.getElementType() != in.getElementType())
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected the element type " << in.getElementType() << ", got "
           << out.getElementType();
  return success();
}

LogicalResult FragTrilInverseOp::verify() {
  FragType in = getInput().getType();
  // One warpgroup's 64-row slab, square: the lowering solves each column
  // of T in the registers of two threads.
  if (in.getRank() != 2 || in.getShape()[0] != 64 || in.getShape()[1] != 64)
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "frag.tril_inverse takes a 64 x 64 fragment (one warpgroup's "
              "rows, square), not "
           << shapeStr(in.getShape());
  if (!in.getElementType().isF32())
    return emitRuleError(*this, RuleId::DataflowElementType)
           << "frag.tril_inverse solves in f32, not " << in.getElementType();
  return success();
}

LogicalResult FragIotaOp::verify() {
  FragType type = getResult().getType();
  if (!type.getElementType().isInteger(32))
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "frag.iota makes i32 indices, not " << type.getElementType();
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() != 2 || (shape[0] != 1 && shape[1] != 1))
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "frag.iota makes one row or one column, not "
           << shapeStr(shape);
  return success();
}

LogicalResult FragArgminOp::verify() {
  FragType in = getInput().getType();
  SmallVector<int64_t> want = rowReduced(in.getShape());
  FragType vals = getValues().getType(), idx = getIndices().getType();
  if (vals.getShape() != ArrayRef<int64_t>(want) ||
      idx.getShape() != ArrayRef<int64_t>(want))
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected results of shape " << shapeStr(want);
  if (vals.getElementType() != in.getElementType())
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected the values' element type " << in.getElementType()
           << ", got " << vals.getElementType();
  if (!isa<IntegerType>(idx.getElementType()))
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected integer indices, got " << idx.getElementType();
  if (!isa<FloatType>(in.getElementType()))
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "expected a float input, got " << in.getElementType();
  // A packed argmin keeps a column position in an f32's low mantissa bits:
  // at most 256 positions per thread (1024 columns), so at least 15 bits of
  // the mantissa still order the values.
  if (getPacked() && !in.getElementType().isF32())
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "a packed argmin needs f32 values, got " << in.getElementType();
  if (getPacked() && in.getShape().back() > 1024)
    return emitRuleError(*this, RuleId::DataflowFragmentShape)
           << "a packed argmin covers at most 1024 columns, got "
           << in.getShape().back();
  return success();
}
