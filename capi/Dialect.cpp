// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Dialect.cpp - C API for Cake IR types and attributes ---------------===//
//
// Implements cake-c/Dialect.h. Constructors use getChecked so invalid
// parameters become a diagnostic on the context and a null handle.
//
//===----------------------------------------------------------------------===//

#include "cake-c/Dialect.h"
#include "cake/Dialect/CakeDialect.h"
#include "cake/InitAll.h"
#include "cake/Version.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"

#include <mutex>

using namespace mlir;
using namespace mlir::cake;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Cake, cake, CakeDialect)

void mlirCakeRegisterAllDialects(MlirDialectRegistry registry) {
  cake::registerAllDialects(*unwrap(registry));
}

const char *mlirCakeGetVersion(void) { return CAKE_VERSION_STRING; }

void mlirCakeRegisterAllPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] { cake::registerAllPasses(); });
}

static auto emitterFor(MlirContext ctx) {
  return [ctx]() { return emitError(UnknownLoc::get(unwrap(ctx))); };
}

//===--- GlobalType -------------------------------------------------------===//

bool mlirTypeIsACakeGlobalType(MlirType type) {
  return isa<GlobalType>(unwrap(type));
}

MlirType mlirCakeGlobalTypeGet(MlirContext ctx, intptr_t rank,
                               const int64_t *shape, MlirType elementType) {
  return wrap(GlobalType::getChecked(emitterFor(ctx), unwrap(ctx),
                                     ArrayRef<int64_t>(shape, rank),
                                     unwrap(elementType)));
}

intptr_t mlirCakeGlobalTypeGetRank(MlirType type) {
  return cast<GlobalType>(unwrap(type)).getRank();
}

int64_t mlirCakeGlobalTypeGetDimSize(MlirType type, intptr_t dim) {
  return cast<GlobalType>(unwrap(type)).getShape()[dim];
}

MlirType mlirCakeGlobalTypeGetElementType(MlirType type) {
  return wrap(cast<GlobalType>(unwrap(type)).getElementType());
}

//===--- RingType ---------------------------------------------------------===//

bool mlirTypeIsACakeRingType(MlirType type) {
  return isa<RingType>(unwrap(type));
}

MlirType mlirCakeRingTypeGet(MlirContext ctx, int64_t stages, intptr_t rank,
                             const int64_t *shape, MlirType elementType,
                             int64_t swizzle) {
  return wrap(RingType::getChecked(emitterFor(ctx), unwrap(ctx), stages,
                                   ArrayRef<int64_t>(shape, rank),
                                   unwrap(elementType), swizzle));
}

int64_t mlirCakeRingTypeGetStages(MlirType type) {
  return cast<RingType>(unwrap(type)).getStages();
}

intptr_t mlirCakeRingTypeGetRank(MlirType type) {
  return cast<RingType>(unwrap(type)).getRank();
}

int64_t mlirCakeRingTypeGetDimSize(MlirType type, intptr_t dim) {
  return cast<RingType>(unwrap(type)).getShape()[dim];
}

MlirType mlirCakeRingTypeGetElementType(MlirType type) {
  return wrap(cast<RingType>(unwrap(type)).getElementType());
}

int64_t mlirCakeRingTypeGetSwizzle(MlirType type) {
  return cast<RingType>(unwrap(type)).getSwizzle();
}

int64_t mlirCakeRingTypeGetTileBytes(MlirType type) {
  return cast<RingType>(unwrap(type)).getTileBytes();
}

//===--- PipeType, StageType ----------------------------------------------===//

bool mlirTypeIsACakePipeType(MlirType type) {
  return isa<PipeType>(unwrap(type));
}

MlirType mlirCakePipeTypeGet(MlirContext ctx, int64_t stages) {
  return wrap(PipeType::getChecked(emitterFor(ctx), unwrap(ctx), stages));
}

int64_t mlirCakePipeTypeGetStages(MlirType type) {
  return cast<PipeType>(unwrap(type)).getStages();
}

bool mlirTypeIsACakeStageType(MlirType type) {
  return isa<StageType>(unwrap(type));
}

MlirType mlirCakeStageTypeGet(MlirContext ctx) {
  return wrap(StageType::get(unwrap(ctx)));
}

//===--- FragType ---------------------------------------------------------===//

bool mlirTypeIsACakeFragType(MlirType type) {
  return isa<FragType>(unwrap(type));
}

MlirType mlirCakeFragTypeGet(MlirContext ctx, intptr_t rank,
                             const int64_t *shape, MlirType elementType) {
  return wrap(FragType::getChecked(emitterFor(ctx), unwrap(ctx),
                                   ArrayRef<int64_t>(shape, rank),
                                   unwrap(elementType)));
}

intptr_t mlirCakeFragTypeGetRank(MlirType type) {
  return cast<FragType>(unwrap(type)).getRank();
}

int64_t mlirCakeFragTypeGetDimSize(MlirType type, intptr_t dim) {
  return cast<FragType>(unwrap(type)).getShape()[dim];
}

MlirType mlirCakeFragTypeGetElementType(MlirType type) {
  return wrap(cast<FragType>(unwrap(type)).getElementType());
}

//===--- TopKType ---------------------------------------------------------===//

bool mlirTypeIsACakeTopKType(MlirType type) {
  return isa<TopKType>(unwrap(type));
}

MlirType mlirCakeTopKTypeGet(MlirContext ctx, int64_t rows, int64_t k,
                             MlirType elementType) {
  return wrap(TopKType::getChecked(emitterFor(ctx), unwrap(ctx), rows, k,
                                   unwrap(elementType), /*shared=*/false));
}

int64_t mlirCakeTopKTypeGetRows(MlirType type) {
  return cast<TopKType>(unwrap(type)).getRows();
}

int64_t mlirCakeTopKTypeGetK(MlirType type) {
  return cast<TopKType>(unwrap(type)).getK();
}

MlirType mlirCakeTopKTypeGetElementType(MlirType type) {
  return wrap(cast<TopKType>(unwrap(type)).getElementType());
}

MlirType mlirCakeTopKTypeGetShared(MlirContext ctx, int64_t rows, int64_t k,
                                   MlirType elementType) {
  return wrap(TopKType::getChecked(emitterFor(ctx), unwrap(ctx), rows, k,
                                   unwrap(elementType), /*shared=*/true));
}

bool mlirCakeTopKTypeIsShared(MlirType type) {
  return cast<TopKType>(unwrap(type)).getShared();
}

//===--- TmemType ---------------------------------------------------------===//

bool mlirTypeIsACakeTmemType(MlirType type) {
  return isa<TmemType>(unwrap(type));
}

MlirType mlirCakeTmemTypeGet(MlirContext ctx, int64_t stages, int64_t rows,
                             int64_t cols, MlirType elementType) {
  return wrap(TmemType::getChecked(emitterFor(ctx), unwrap(ctx), stages, rows,
                                   cols, unwrap(elementType)));
}

int64_t mlirCakeTmemTypeGetStages(MlirType type) {
  return cast<TmemType>(unwrap(type)).getStages();
}

int64_t mlirCakeTmemTypeGetRows(MlirType type) {
  return cast<TmemType>(unwrap(type)).getRows();
}

int64_t mlirCakeTmemTypeGetCols(MlirType type) {
  return cast<TmemType>(unwrap(type)).getCols();
}

MlirType mlirCakeTmemTypeGetElementType(MlirType type) {
  return wrap(cast<TmemType>(unwrap(type)).getElementType());
}

int64_t mlirCakeTmemTypeGetColumns(MlirType type) {
  return cast<TmemType>(unwrap(type)).getColumns();
}

//===--- Attributes -------------------------------------------------------===//

bool mlirAttributeIsACakeTargetAttr(MlirAttribute attr) {
  return isa<TargetAttr>(unwrap(attr));
}

MlirAttribute mlirCakeTargetAttrGet(MlirContext ctx, MlirStringRef arch) {
  return wrap(
      TargetAttr::getChecked(emitterFor(ctx), unwrap(ctx), unwrap(arch)));
}

MlirStringRef mlirCakeTargetAttrGetArch(MlirAttribute attr) {
  return wrap(cast<TargetAttr>(unwrap(attr)).getArch());
}

bool mlirAttributeIsACakePersistentAttr(MlirAttribute attr) {
  return isa<PersistentAttr>(unwrap(attr));
}

MlirAttribute mlirCakePersistentAttrGet(MlirContext ctx, intptr_t rank,
                                        const int64_t *tile, int64_t groupM) {
  return wrap(PersistentAttr::getChecked(
      emitterFor(ctx), unwrap(ctx), ArrayRef<int64_t>(tile, rank), groupM));
}

int64_t mlirCakePersistentAttrGetGroupM(MlirAttribute attr) {
  return cast<PersistentAttr>(unwrap(attr)).getGroupM();
}

bool mlirAttributeIsACakeGridAttr(MlirAttribute attr) {
  return isa<GridAttr>(unwrap(attr));
}

MlirAttribute mlirCakeGridAttrGet(MlirContext ctx, intptr_t rank,
                                  const int64_t *tile) {
  return wrap(GridAttr::getChecked(emitterFor(ctx), unwrap(ctx),
                                   ArrayRef<int64_t>(tile, rank)));
}

static ArrayRef<int64_t> scheduleTile(MlirAttribute attr) {
  Attribute a = unwrap(attr);
  if (auto p = dyn_cast<PersistentAttr>(a))
    return p.getTile();
  if (auto g = dyn_cast<GridAttr>(a))
    return g.getTile();
  return {};
}

intptr_t mlirCakeScheduleAttrGetTileRank(MlirAttribute attr) {
  return scheduleTile(attr).size();
}

int64_t mlirCakeScheduleAttrGetTileSize(MlirAttribute attr, intptr_t dim) {
  return scheduleTile(attr)[dim];
}
