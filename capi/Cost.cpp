// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Cost.cpp - The cost model from C -----------------------------------===//

#include "cake-c/Cost.h"

#include "cake/Analysis/CostDiff.h"
#include "cake/Analysis/CostModel.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;

/// Whether `calibration` names a file rather than a GPU.
static bool isCalibrationFile(llvm::StringRef calibration) {
  return calibration.contains('/') || calibration.ends_with(".json");
}

/// The file `calibration` names (a path, a GPU's name, or empty: the
/// target's reference GPU), or "" when there is none.
static std::string findCalibration(llvm::StringRef calibration,
                                   llvm::StringRef target) {
  if (isCalibrationFile(calibration))
    return llvm::sys::fs::exists(calibration) ? calibration.str() : "";
  return cake::defaultCalibrationPath(target, calibration);
}

MlirLogicalResult mlirCakeFindCalibration(MlirStringRef calibration,
                                          MlirStringRef target,
                                          MlirStringCallback callback,
                                          void *userData) {
  std::string path = findCalibration(unwrap(calibration), unwrap(target));
  if (path.empty())
    return mlirLogicalResultFailure();
  callback(mlirStringRefCreate(path.data(), path.size()), userData);
  return mlirLogicalResultSuccess();
}

/// The reports of every cake.kernel under `root`; failure after emitting
/// a located error.
static LogicalResult estimateAll(Operation *root, MlirStringRef shapes,
                                 MlirStringRef calibrationPath,
                                 unsigned mmaInFlight,
                                 std::vector<cake::CostReport> &reports) {
  std::vector<std::vector<int64_t>> problem;
  std::string error;
  if (!cake::parseProblemShapes(unwrap(shapes), problem, error))
    return root->emitError("cake-cost: ") << error;
  bool ok = true;
  root->walk([&](cake::KernelOp kernel) {
    llvm::StringRef asked = unwrap(calibrationPath);
    // A file as given (loadCalibration says why it cannot be read); a
    // GPU's name ("h100") or none: found where the default is.
    std::string path =
        isCalibrationFile(asked)
            ? asked.str()
            : findCalibration(asked, kernel.getTarget().getArch());
    cake::Calibration cal;
    if (path.empty()) {
      kernel.emitError("cake-cost: no calibration file for ")
          << (asked.empty() ? kernel.getTarget().getArch() : asked);
      ok = false;
      return;
    }
    if (!cake::loadCalibration(path, cal, error)) {
      kernel.emitError("cake-cost: ") << error;
      ok = false;
      return;
    }
    cake::CostReport report;
    if (failed(cake::estimateCost(kernel, problem, cal, report, mmaInFlight))) {
      ok = false;
      return;
    }
    reports.push_back(std::move(report));
  });
  return success(ok);
}

MlirLogicalResult mlirCakeEstimateCost(MlirOperation op, MlirStringRef shapes,
                                       MlirStringRef calibrationPath,
                                       unsigned mmaInFlight,
                                       MlirStringCallback callback,
                                       void *userData, double *predictedNs) {
  std::vector<cake::CostReport> reports;
  if (failed(estimateAll(unwrap(op), shapes, calibrationPath, mmaInFlight,
                         reports)))
    return mlirLogicalResultFailure();
  if (predictedNs && !reports.empty())
    *predictedNs = reports.back().predictedNs;
  std::string json = cake::costReportToJson(reports);
  callback(mlirStringRefCreate(json.data(), json.size()), userData);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult
mlirCakeEstimateCostDiff(MlirOperation a, MlirOperation b, MlirStringRef shapes,
                         MlirStringRef calibrationPath, unsigned mmaInFlight,
                         MlirStringCallback callback, void *userData) {
  std::vector<cake::CostReport> ra, rb;
  if (failed(
          estimateAll(unwrap(a), shapes, calibrationPath, mmaInFlight, ra)) ||
      failed(estimateAll(unwrap(b), shapes, calibrationPath, mmaInFlight, rb)))
    return mlirLogicalResultFailure();
  if (ra.empty() || rb.empty()) {
    (ra.empty() ? unwrap(a) : unwrap(b))
        ->emitError("cake-cost-diff: no cake.kernel to predict");
    return mlirLogicalResultFailure();
  }
  std::string json =
      cake::costDiffToJson(cake::diffCostReports(ra.front(), rb.front()));
  callback(mlirStringRefCreate(json.data(), json.size()), userData);
  return mlirLogicalResultSuccess();
}
