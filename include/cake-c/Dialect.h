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

/// @file
/// Cake IR types and attributes from C: registration, constructors, predicates,
/// accessors.

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

/// Whether `type` is a !cake.global (a tensor argument in global memory).
MLIR_CAPI_EXPORTED bool mlirTypeIsACakeGlobalType(MlirType type);
/// Dynamic dimensions are mlirShapedTypeGetDynamicSize().
MLIR_CAPI_EXPORTED MlirType mlirCakeGlobalTypeGet(MlirContext ctx,
                                                  intptr_t rank,
                                                  const int64_t *shape,
                                                  MlirType elementType);
/// The rank of a !cake.global.
MLIR_CAPI_EXPORTED intptr_t mlirCakeGlobalTypeGetRank(MlirType type);
/// Size `dim` of a !cake.global (mlirShapedTypeGetDynamicSize() where dynamic).
MLIR_CAPI_EXPORTED int64_t mlirCakeGlobalTypeGetDimSize(MlirType type,
                                                        intptr_t dim);
/// The element type of a !cake.global.
MLIR_CAPI_EXPORTED MlirType mlirCakeGlobalTypeGetElementType(MlirType type);

/*===--- !cake.ring<stages x tile x element, swizzle = s> ---------------===*/

/// Whether `type` is a !cake.ring (a multi-stage shared-memory buffer).
MLIR_CAPI_EXPORTED bool mlirTypeIsACakeRingType(MlirType type);
/// A !cake.ring of `stages` tiles of `shape` x `elementType`, swizzled by
/// `swizzle` bytes (0, 32, 64, 128); null (with a diagnostic) if invalid.
MLIR_CAPI_EXPORTED MlirType mlirCakeRingTypeGet(MlirContext ctx, int64_t stages,
                                                intptr_t rank,
                                                const int64_t *shape,
                                                MlirType elementType,
                                                int64_t swizzle);
/// The number of stages of a !cake.ring.
MLIR_CAPI_EXPORTED int64_t mlirCakeRingTypeGetStages(MlirType type);
/// The rank of a !cake.ring's tile.
MLIR_CAPI_EXPORTED intptr_t mlirCakeRingTypeGetRank(MlirType type);
/// Size `dim` of a !cake.ring's tile.
MLIR_CAPI_EXPORTED int64_t mlirCakeRingTypeGetDimSize(MlirType type,
                                                      intptr_t dim);
/// The element type of a !cake.ring.
MLIR_CAPI_EXPORTED MlirType mlirCakeRingTypeGetElementType(MlirType type);
/// The swizzle of a !cake.ring, in bytes (0: none).
MLIR_CAPI_EXPORTED int64_t mlirCakeRingTypeGetSwizzle(MlirType type);
/// Bytes of one stage's tile.
MLIR_CAPI_EXPORTED int64_t mlirCakeRingTypeGetTileBytes(MlirType type);

/*===--- !cake.pipe<stages>, !cake.stage --------------------------------===*/

/// Whether `type` is a !cake.pipe (the full/empty barriers of a ring's stages).
MLIR_CAPI_EXPORTED bool mlirTypeIsACakePipeType(MlirType type);
/// A !cake.pipe of `stages` stages; null (with a diagnostic) if `stages` < 1.
MLIR_CAPI_EXPORTED MlirType mlirCakePipeTypeGet(MlirContext ctx,
                                                int64_t stages);
/// The number of stages of a !cake.pipe.
MLIR_CAPI_EXPORTED int64_t mlirCakePipeTypeGetStages(MlirType type);

/// Whether `type` is a !cake.stage (a stage acquired from a pipe).
MLIR_CAPI_EXPORTED bool mlirTypeIsACakeStageType(MlirType type);
/// The !cake.stage type.
MLIR_CAPI_EXPORTED MlirType mlirCakeStageTypeGet(MlirContext ctx);

/*===--- !cake.frag<shape x element> ------------------------------------===*/

/// Whether `type` is a !cake.frag (a register fragment).
MLIR_CAPI_EXPORTED bool mlirTypeIsACakeFragType(MlirType type);
/// A !cake.frag of `shape` x `elementType`; null (with a diagnostic) if
/// invalid.
MLIR_CAPI_EXPORTED MlirType mlirCakeFragTypeGet(MlirContext ctx, intptr_t rank,
                                                const int64_t *shape,
                                                MlirType elementType);
/// The rank of a !cake.frag.
MLIR_CAPI_EXPORTED intptr_t mlirCakeFragTypeGetRank(MlirType type);
/// Size `dim` of a !cake.frag.
MLIR_CAPI_EXPORTED int64_t mlirCakeFragTypeGetDimSize(MlirType type,
                                                      intptr_t dim);
/// The element type of a !cake.frag.
MLIR_CAPI_EXPORTED MlirType mlirCakeFragTypeGetElementType(MlirType type);

/*===--- !cake.topk<rows x k x f32> -------------------------------------===*/

/// Whether `type` is a !cake.topk (per-row top-k lists in registers).
MLIR_CAPI_EXPORTED bool mlirTypeIsACakeTopKType(MlirType type);
/// Null (with a diagnostic) unless rows, k > 0 and the element type is f32.
MLIR_CAPI_EXPORTED MlirType mlirCakeTopKTypeGet(MlirContext ctx, int64_t rows,
                                                int64_t k,
                                                MlirType elementType);
/// The number of rows of a !cake.topk.
MLIR_CAPI_EXPORTED int64_t mlirCakeTopKTypeGetRows(MlirType type);
/// The list length k of a !cake.topk.
MLIR_CAPI_EXPORTED int64_t mlirCakeTopKTypeGetK(MlirType type);
/// The element type (f32) of a !cake.topk.
MLIR_CAPI_EXPORTED MlirType mlirCakeTopKTypeGetElementType(MlirType type);
/// A !cake.topk<rows x k x f32, shared>: each row's list in shared memory
/// (k up to 256). Null (with a diagnostic) as mlirCakeTopKTypeGet.
MLIR_CAPI_EXPORTED MlirType mlirCakeTopKTypeGetShared(MlirContext ctx,
                                                      int64_t rows, int64_t k,
                                                      MlirType elementType);
/// Whether the lists of a !cake.topk live in shared memory.
MLIR_CAPI_EXPORTED bool mlirCakeTopKTypeIsShared(MlirType type);

/*===--- !cake.tmem<stages x rows x cols x element> --------------------===*/

/// Whether `type` is a !cake.tmem (accumulator stages in Blackwell tensor
/// memory).
MLIR_CAPI_EXPORTED bool mlirTypeIsACakeTmemType(MlirType type);
/// A !cake.tmem of `stages` tiles of `rows` (128) x `cols` x `elementType`
/// (f32, i32, f16, bf16); null (with a diagnostic) if invalid
/// ([hw.tmem-shape]).
MLIR_CAPI_EXPORTED MlirType mlirCakeTmemTypeGet(MlirContext ctx, int64_t stages,
                                                int64_t rows, int64_t cols,
                                                MlirType elementType);
/// The number of stages of a !cake.tmem.
MLIR_CAPI_EXPORTED int64_t mlirCakeTmemTypeGetStages(MlirType type);
/// The rows (lanes) of a !cake.tmem's tile.
MLIR_CAPI_EXPORTED int64_t mlirCakeTmemTypeGetRows(MlirType type);
/// The columns (elements) of a !cake.tmem's tile.
MLIR_CAPI_EXPORTED int64_t mlirCakeTmemTypeGetCols(MlirType type);
/// The element type of a !cake.tmem.
MLIR_CAPI_EXPORTED MlirType mlirCakeTmemTypeGetElementType(MlirType type);
/// The 32-bit tensor-memory columns all stages of a !cake.tmem take.
MLIR_CAPI_EXPORTED int64_t mlirCakeTmemTypeGetColumns(MlirType type);

/*===--- #cake.target<"arch"> -------------------------------------------===*/

/// Whether `attr` is a \#cake.target.
MLIR_CAPI_EXPORTED bool mlirAttributeIsACakeTargetAttr(MlirAttribute attr);
/// A \#cake.target for `arch` (e.g. "sm_90a"); null (with a diagnostic) for a
/// target Cake does not know.
MLIR_CAPI_EXPORTED MlirAttribute mlirCakeTargetAttrGet(MlirContext ctx,
                                                       MlirStringRef arch);
/// The architecture of a \#cake.target.
MLIR_CAPI_EXPORTED MlirStringRef mlirCakeTargetAttrGetArch(MlirAttribute attr);

/*===--- #cake.persistent<tile = [...], group_m = g>, #cake.grid<...> ---===*/

/// Whether `attr` is a \#cake.persistent schedule.
MLIR_CAPI_EXPORTED bool mlirAttributeIsACakePersistentAttr(MlirAttribute attr);
/// A \#cake.persistent schedule over tiles of `rank` sizes, rastered in groups
/// of `groupM` tile rows; null (with a diagnostic) if invalid.
MLIR_CAPI_EXPORTED MlirAttribute mlirCakePersistentAttrGet(MlirContext ctx,
                                                           intptr_t rank,
                                                           const int64_t *tile,
                                                           int64_t groupM);
/// The raster group of a \#cake.persistent schedule.
MLIR_CAPI_EXPORTED int64_t mlirCakePersistentAttrGetGroupM(MlirAttribute attr);

/// Whether `attr` is a \#cake.grid schedule (one CTA a tile).
MLIR_CAPI_EXPORTED bool mlirAttributeIsACakeGridAttr(MlirAttribute attr);
/// A \#cake.grid schedule over tiles of `rank` sizes; null (with a diagnostic)
/// if invalid.
MLIR_CAPI_EXPORTED MlirAttribute mlirCakeGridAttrGet(MlirContext ctx,
                                                     intptr_t rank,
                                                     const int64_t *tile);

/// Tile rank of either schedule attribute (\#cake.persistent, \#cake.grid).
MLIR_CAPI_EXPORTED intptr_t mlirCakeScheduleAttrGetTileRank(MlirAttribute attr);
/// Tile size `dim` of either schedule attribute.
MLIR_CAPI_EXPORTED int64_t mlirCakeScheduleAttrGetTileSize(MlirAttribute attr,
                                                           intptr_t dim);

#ifdef __cplusplus
}
#endif

#endif /* CAKE_C_DIALECT_H */
