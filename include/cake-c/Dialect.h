// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- cake-c/Dialect.h - C API for Cake IR types and attributes --*- C -*-===*\
|*                                                                            *|
|* The Cake dialect handle, registration of Cake and the upstream dialects    *|
|* Cake IR uses, and constructors, predicates and accessors for Cake's types  *|
|* and attributes. Constructors verify their parameters: invalid ones yield a *|
|* null handle and a diagnostic on the context, never an abort.               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_C_DIALECT_H
#define CAKE_C_DIALECT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Cake, cake);

/// Cake's version, "MAJOR.MINOR.PATCH" (CAKE_VERSION_STRING of
/// cake/Version.h when this library was built): a program can compare it
/// with the header it was compiled against.
MLIR_CAPI_EXPORTED const char *mlirCakeGetVersion(void);

/// Adds the Cake dialect and the upstream dialects Cake IR uses (arith, math,
/// scf) to `registry`.
MLIR_CAPI_EXPORTED void
mlirCakeRegisterAllDialects(MlirDialectRegistry registry);

/// Registers Cake's passes (and the upstream ones cake-opt exposes) so that
/// textual pipelines can name them. Safe to call more than once.
MLIR_CAPI_EXPORTED void mlirCakeRegisterAllPasses(void);

/*===--- !cake.global<shape x element> ----------------------------------===*/

MLIR_CAPI_EXPORTED bool mlirTypeIsACakeGlobalType(MlirType type);
/// Dynamic dimensions are mlirShapedTypeGetDynamicSize().
MLIR_CAPI_EXPORTED MlirType mlirCakeGlobalTypeGet(MlirContext ctx,
                                                  intptr_t rank,
                                                  const int64_t *shape,
                                                  MlirType elementType);
MLIR_CAPI_EXPORTED intptr_t mlirCakeGlobalTypeGetRank(MlirType type);
MLIR_CAPI_EXPORTED int64_t mlirCakeGlobalTypeGetDimSize(MlirType type,
                                                        intptr_t dim);
MLIR_CAPI_EXPORTED MlirType mlirCakeGlobalTypeGetElementType(MlirType type);

/*===--- !cake.ring<stages x tile x element, swizzle = s> ---------------===*/

MLIR_CAPI_EXPORTED bool mlirTypeIsACakeRingType(MlirType type);
MLIR_CAPI_EXPORTED MlirType mlirCakeRingTypeGet(MlirContext ctx, int64_t stages,
                                                intptr_t rank,
                                                const int64_t *shape,
                                                MlirType elementType,
                                                int64_t swizzle);
MLIR_CAPI_EXPORTED int64_t mlirCakeRingTypeGetStages(MlirType type);
MLIR_CAPI_EXPORTED intptr_t mlirCakeRingTypeGetRank(MlirType type);
MLIR_CAPI_EXPORTED int64_t mlirCakeRingTypeGetDimSize(MlirType type,
                                                      intptr_t dim);
MLIR_CAPI_EXPORTED MlirType mlirCakeRingTypeGetElementType(MlirType type);
MLIR_CAPI_EXPORTED int64_t mlirCakeRingTypeGetSwizzle(MlirType type);
/// Bytes of one stage's tile.
MLIR_CAPI_EXPORTED int64_t mlirCakeRingTypeGetTileBytes(MlirType type);

/*===--- !cake.pipe<stages>, !cake.stage --------------------------------===*/

MLIR_CAPI_EXPORTED bool mlirTypeIsACakePipeType(MlirType type);
MLIR_CAPI_EXPORTED MlirType mlirCakePipeTypeGet(MlirContext ctx,
                                                int64_t stages);
MLIR_CAPI_EXPORTED int64_t mlirCakePipeTypeGetStages(MlirType type);

MLIR_CAPI_EXPORTED bool mlirTypeIsACakeStageType(MlirType type);
MLIR_CAPI_EXPORTED MlirType mlirCakeStageTypeGet(MlirContext ctx);

/*===--- !cake.frag<shape x element> ------------------------------------===*/

MLIR_CAPI_EXPORTED bool mlirTypeIsACakeFragType(MlirType type);
MLIR_CAPI_EXPORTED MlirType mlirCakeFragTypeGet(MlirContext ctx, intptr_t rank,
                                                const int64_t *shape,
                                                MlirType elementType);
MLIR_CAPI_EXPORTED intptr_t mlirCakeFragTypeGetRank(MlirType type);
MLIR_CAPI_EXPORTED int64_t mlirCakeFragTypeGetDimSize(MlirType type,
                                                      intptr_t dim);
MLIR_CAPI_EXPORTED MlirType mlirCakeFragTypeGetElementType(MlirType type);

/*===--- !cake.topk<rows x k x f32> -------------------------------------===*/

MLIR_CAPI_EXPORTED bool mlirTypeIsACakeTopKType(MlirType type);
/* Null (with a diagnostic) unless rows, k > 0 and the element type is f32. */
MLIR_CAPI_EXPORTED MlirType mlirCakeTopKTypeGet(MlirContext ctx, int64_t rows,
                                                int64_t k,
                                                MlirType elementType);
MLIR_CAPI_EXPORTED int64_t mlirCakeTopKTypeGetRows(MlirType type);
MLIR_CAPI_EXPORTED int64_t mlirCakeTopKTypeGetK(MlirType type);
MLIR_CAPI_EXPORTED MlirType mlirCakeTopKTypeGetElementType(MlirType type);

/*===--- #cake.target<"arch"> -------------------------------------------===*/

MLIR_CAPI_EXPORTED bool mlirAttributeIsACakeTargetAttr(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute mlirCakeTargetAttrGet(MlirContext ctx,
                                                       MlirStringRef arch);
MLIR_CAPI_EXPORTED MlirStringRef mlirCakeTargetAttrGetArch(MlirAttribute attr);

/*===--- #cake.persistent<tile = [...], group_m = g>, #cake.grid<...> ---===*/

MLIR_CAPI_EXPORTED bool mlirAttributeIsACakePersistentAttr(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute mlirCakePersistentAttrGet(MlirContext ctx,
                                                           intptr_t rank,
                                                           const int64_t *tile,
                                                           int64_t groupM);
MLIR_CAPI_EXPORTED int64_t mlirCakePersistentAttrGetGroupM(MlirAttribute attr);

MLIR_CAPI_EXPORTED bool mlirAttributeIsACakeGridAttr(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute mlirCakeGridAttrGet(MlirContext ctx,
                                                     intptr_t rank,
                                                     const int64_t *tile);

/// Tile rank and sizes of either schedule attribute.
MLIR_CAPI_EXPORTED intptr_t mlirCakeScheduleAttrGetTileRank(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t mlirCakeScheduleAttrGetTileSize(MlirAttribute attr,
                                                           intptr_t dim);

#ifdef __cplusplus
}
#endif

#endif /* CAKE_C_DIALECT_H */
