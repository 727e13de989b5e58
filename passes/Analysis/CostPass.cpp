// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CostPass.cpp - The cake-cost pass ----------------------------------===//
//
// Runs the cost model (cake/Analysis/CostModel.h) on every kernel of the
// module and prints the reports; `json=` (or the tool option
// `--cake-cost-json=<path|->`) also writes them as JSON (with '-', the
// JSON alone on stdout and the text reports on stderr).
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/CostModel.h"
#include "cake/Passes.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_COST
#include "cake/Passes.h.inc"
} // namespace cake
} // namespace mlir

using namespace mlir;
using namespace mlir::cake;

namespace {
llvm::cl::opt<std::string> costJsonPath(
    "cake-cost-json",
    llvm::cl::desc("Write cake-cost's reports as JSON to <path>, or to "
                   "stdout with '-' (the pass option json= does the same)"),
    llvm::cl::value_desc("path|-"), llvm::cl::init(""));

struct CostPass : public mlir::cake::impl::CostBase<CostPass> {
  using CostBase::CostBase;

  void runOnOperation() override {
    std::vector<std::vector<int64_t>> problem;
    std::string error;
    if (!parseProblemShapes(shapes, problem, error)) {
      getOperation().emitError("cake-cost: ") << error;
      return signalPassFailure();
    }
    std::vector<CostReport> reports;
    bool ok = true;
    // With the JSON on stdout, the text reports go to stderr: stdout is
    // then exactly one JSON document.
    std::string out =
        json.empty() ? std::string(costJsonPath) : json.getValue();
    llvm::raw_ostream &textOut = out == "-" ? llvm::errs() : llvm::outs();
    getOperation().walk([&](KernelOp kernel) {
      std::string path = calibration;
      if (path.empty())
        path = defaultCalibrationPath(kernel.getTarget().getArch(), gpu);
      if (path.empty()) {
        kernel.emitError("cake-cost: no calibration file for ")
            << (gpu.empty() ? kernel.getTarget().getArch().str() : gpu.getValue())
            << " (pass calibration=<file>, or set CAKE_CALIBRATION_DIR)";
        ok = false;
        return;
      }
      Calibration cal;
      if (!loadCalibration(path, cal, error)) {
        kernel.emitError("cake-cost: ") << error;
        ok = false;
        return;
      }
      CostReport report;
      if (failed(estimateCost(kernel, problem, cal, report, mmaInFlight))) {
        ok = false;
        return;
      }
      printCostReport(report, textOut);
      reports.push_back(std::move(report));
    });
    textOut.flush();
    if (!out.empty()) {
      std::string text = costReportToJson(reports);
      if (out == "-") {
        llvm::outs() << text;
        llvm::outs().flush();
      } else {
        std::error_code ec;
        llvm::raw_fd_ostream os(out, ec, llvm::sys::fs::OF_Text);
        if (ec) {
          getOperation().emitError("cake-cost: cannot write '")
              << out << "': " << ec.message();
          return signalPassFailure();
        }
        os << text;
      }
    }
    if (!ok)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
