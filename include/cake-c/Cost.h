// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/*===- cake-c/Cost.h - The cost model from C ---------------------*- C -*-===*\
|*                                                                            *|
|* Predicted time, bottleneck and the terms behind them for Cake kernels      *|
|* (the cake-cost analysis; docs/cost-model.md).                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CAKE_C_COST_H
#define CAKE_C_COST_H

/// @file
/// The cost model from C (docs/cost-model.md).

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Runs the cost model on every cake.kernel under `op` (a kernel or a
/// module) for the problem `shapes` (one shape per kernel argument, in
/// order: "8192x8192,8192x8192,8192x8192") with the calibration file
/// `calibrationPath` (empty: the target's reference GPU, from
/// $CAKE_CALIBRATION_DIR, the installed share/cake/calibration/ or the
/// source tree's calibration/; a name without a '/' and a ".json", such as
/// "h100", is that GPU's file, looked up the same way), assuming the lowering's
/// `mmaInFlight`. Writes the reports as one JSON array (the same as
/// --cake-cost-json) through `callback`, and the predicted time of the last
/// kernel in nanoseconds to `*predictedNs` (may be null). On failure emits
/// located errors on the op's context and returns failure.
MLIR_CAPI_EXPORTED MlirLogicalResult mlirCakeEstimateCost(
    MlirOperation op, MlirStringRef shapes, MlirStringRef calibrationPath,
    unsigned mmaInFlight, MlirStringCallback callback, void *userData,
    double *predictedNs);

/// The calibration file the cost model reads for `calibration` (as
/// mlirCakeEstimateCost's `calibrationPath`: a file, which must exist; a
/// GPU's name such as "h100"; or empty, the reference GPU of `target`, an
/// arch such as "sm_90a"), written through `callback`; failure, writing
/// nothing, when there is none: a tool can refuse a bad option before it
/// predicts anything.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirCakeFindCalibration(MlirStringRef calibration, MlirStringRef target,
                        MlirStringCallback callback, void *userData);

/// Why one candidate is predicted faster than another: predicts the first
/// cake.kernel under `a` and under `b` for the same `shapes` (calibration
/// and `mmaInFlight` as mlirCakeEstimateCost) and writes through `callback`
/// one JSON object: each side's prediction and bottleneck, which is faster
/// ("a", "b" or "tie") and by what ratio, the time terms that moved
/// (resources, roles' per-tile times, pipes' bounds; the largest change
/// first), the decisions that differ (stages, CTAs per SM, tiles per CTA,
/// bytes moved), and `decided_by`, the bottleneck resource term that moved
/// most. On failure emits located errors and returns failure.
MLIR_CAPI_EXPORTED MlirLogicalResult
mlirCakeEstimateCostDiff(MlirOperation a, MlirOperation b, MlirStringRef shapes,
                         MlirStringRef calibrationPath, unsigned mmaInFlight,
                         MlirStringCallback callback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // CAKE_C_COST_H
