// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Cost.cpp - The cost model from C -----------------------------------===//

#include "cake-c/Cost.h"

#include "cake/Analysis/CostModel.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"

using namespace mlir;

MlirLogicalResult mlirCakeEstimateCost(MlirOperation op, MlirStringRef shapes,
                                       MlirStringRef calibrationPath,
                                       unsigned mmaInFlight,
                                       MlirStringCallback callback,
                                       void *userData, double *predictedNs) {
  Operation *root = unwrap(op);
  std::vector<std::vector<int64_t>> problem;
  std::string error;
  if (!cake::parseProblemShapes(unwrap(shapes), problem, error)) {
    root->emitError("cake-cost: ") << error;
    return mlirLogicalResultFailure();
  }
  std::vector<cake::CostReport> reports;
  bool ok = true;
  root->walk([&](cake::KernelOp kernel) {
    std::string path = unwrap(calibrationPath).str();
    if (path.empty())
      path = cake::defaultCalibrationPath(kernel.getTarget().getArch(), "");
    cake::Calibration cal;
    if (path.empty()) {
      kernel.emitError("cake-cost: no calibration file for ")
          << kernel.getTarget().getArch();
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
    if (predictedNs)
      *predictedNs = report.predictedNs;
    reports.push_back(std::move(report));
  });
  if (!ok)
    return mlirLogicalResultFailure();
  std::string json = cake::costReportToJson(reports);
  callback(mlirStringRefCreate(json.data(), json.size()), userData);
  return mlirLogicalResultSuccess();
}
