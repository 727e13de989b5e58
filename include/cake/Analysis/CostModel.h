// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CostModel.h - Predicted time and bottleneck of a kernel --*- C++ -*-===//
//
// The cost model: for a verified Cake kernel, a problem (the shape of every
// tensor argument) and a calibration file measured on one GPU, the predicted
// time, the bottleneck resource with each resource's share, and the terms
// behind them, per role and per pipe. docs/cost-model.md has the formula.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ANALYSIS_COSTMODEL_H
#define CAKE_ANALYSIS_COSTMODEL_H

#include "cake/Dialect/CakeDialect.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace cake {

/// Figures of one GPU, read from calibration/<gpu>.json.
struct Calibration {
  std::string path;
  std::string gpu;    ///< "NVIDIA H200"
  std::string target; ///< "sm_90a"
  std::string date;
  bool calibrated = false; ///< measured on the GPU, not datasheet figures
  int64_t smCount = 0;
  int64_t l2Bytes = 0;
  double hbmGBps = 0;          ///< read bandwidth, all SMs
  double l2GBps = 0;           ///< L2 -> shared memory (TMA), all SMs
  double storeGBps = 0;        ///< register -> global stores, all SMs
  double launchNs = 0;         ///< per launch of a one-tile kernel
  double pipeRoundTripNs = 0;  ///< TMA issue -> full -> release -> empty
  double mmaHandoffNs = 0;     ///< consumer cost per mma-fed stage hand-off
  double aluOpsPerNsPerSm = 0; ///< f32 ops in an epilogue map
  double argminOpsPerElement = 3; ///< frag.argmin, in ALU ops per element
  /// Special-function unit (MUFU: exp2, log2, rsqrt, ...) results per ns
  /// per SM; without a measurement, the datasheet's 16 per clock against
  /// the FP32 pipe's 128 (aluOpsPerNsPerSm / 8).
  double mufuOpsPerNsPerSm = 0;
  /// ALU instructions ptxas adds around an exp2 in a kernel that keeps
  /// IEEE denormals (ex2.approx.f32: a compare and two multiplies).
  double exp2IeeeExtraAluOps = 3;
  double loadNs = 0;           ///< exposed latency of a cake.load
  double smemGBpsPerSm = 0;    ///< shared-memory reads
  /// How far measured times fell from the model's predictions on this GPU:
  /// the 10th and 90th percentiles of measured / predicted over `samples`
  /// kernels (calibration's "prediction_error"; absent: 0, no interval).
  double errorP10 = 0, errorP90 = 0;
  int64_t errorSamples = 0;
  /// TMA L2 -> shared memory rate per SM by box ("128x64_sw128").
  llvm::StringMap<double> tmaGBpsPerSm;
  /// Tensor-core rate per SM by operand type ("bf16") and instruction N,
  /// sorted by N.
  llvm::StringMap<llvm::SmallVector<std::pair<int64_t, double>>> mmaTflopsPerSm;

  /// The TMA rate for a box of `rows` x `innerBytes`, from the nearest
  /// measured box with the same inner bytes (else the nearest overall).
  double tmaRate(int64_t rows, int64_t innerBytes, int64_t swizzle) const;
  /// The tensor-core rate for operand `dtype` at instruction N, linear in N
  /// between measured points; `extrapolated` is set when dtype was not
  /// measured and a 16-bit rate was scaled by operand width.
  double mmaRate(llvm::StringRef dtype, int64_t n, int64_t elementBits,
                 bool &extrapolated) const;
};

/// Reads a calibration file; on failure returns false with `error` set.
bool loadCalibration(llvm::StringRef path, Calibration &out,
                     std::string &error);

/// The calibration file Cake uses for `gpu` ("h200"), or for a target's
/// reference GPU when `gpu` is empty (sm_90a: h200, sm_100a: b200). Looks in
/// $CAKE_CALIBRATION_DIR, then share/cake/calibration/ of the prefix Cake is
/// installed in (found from this library's place), then the source tree's
/// calibration/. Empty if the target has none.
std::string defaultCalibrationPath(llvm::StringRef target, llvm::StringRef gpu);

/// Parses "8192x8192,8192x8192,8192x8192": one shape per tensor argument,
/// in argument order ("" for a scalar argument).
bool parseProblemShapes(llvm::StringRef text,
                        std::vector<std::vector<int64_t>> &shapes,
                        std::string &error);

/// One resource's busy time on the critical CTA and its share of the
/// predicted time.
struct CostResource {
  std::string name; ///< tensor-core, shared-memory, epilogue-alu, store,
                    ///< handoff, tma, l2, hbm, pipeline-latency, launch
  double ns = 0;
  double share = 0;
  std::string detail;
};

/// What one role does per tile.
struct RoleCost {
  std::string name;
  int64_t warps = 0;
  double mmaNs = 0, smemNs = 0, aluNs = 0, storeNs = 0, copyNs = 0,
         syncNs = 0;
  /// The special-function unit's busy time (exp2 and kin in frag.map
  /// bodies): its pipe runs beside the ALU's, so the role's ALU work takes
  /// the longer of aluNs and mufuNs.
  double mufuNs = 0;
  /// The part of aluNs inside loops whose epilogue overlaps the wgmmas
  /// (isOverlappedEpilogueLoop): it runs beside mmaNs, not after it.
  double overlapAluNs = 0;
  /// Local-memory traffic of the registers ptxas spilled (cake.ptxas), on
  /// the role's path: stored and reloaded once per step of its loop.
  double spillNs = 0;
  double flops = 0, aluOps = 0, storeBytes = 0, copyBytes = 0, spillBytes = 0;
};

/// The kernel attribute by which ptxas's report on the kernel's code reaches
/// the model: `cake.ptxas = {registers = 96, spill_stores = 220,
/// spill_loads = 204}` (ptxas -v's "Used N registers" and its spill bytes;
/// cake-evolve's ptxas check sets it). The model then takes occupancy from
/// the registers instead of its fragment estimate, and charges the spills.
inline constexpr llvm::StringLiteral kPtxasAttrName = "cake.ptxas";

/// What ptxas reported, as the model uses it.
struct PtxasFacts {
  bool present = false;
  int64_t registers = 0, spillStores = 0, spillLoads = 0;
};

/// Reads `cake.ptxas` from the kernel into `facts` (left absent without
/// one); a malformed one is an error at the kernel.
LogicalResult readPtxasFacts(KernelOp kernel, PtxasFacts &facts);

/// One pipe's stage cycle per tile.
struct PipeCost {
  std::string name; ///< "pipe #0"
  int64_t stages = 0;
  int64_t stagesInFlight = 0; ///< stages the producer can fill ahead
  double stepsPerTile = 0;
  double stageBytes = 0;
  double roundTripNs = 0; ///< per step: latency + copy + consumer's hold
  double boundNs = 0;     ///< per tile: steps x round trip / stages ahead
};

struct CostReport {
  std::string kernel;
  std::string target;
  Calibration calibration;
  std::vector<std::vector<int64_t>> shapes;
  double predictedNs = 0;
  std::string bottleneck;
  double bottleneckShare = 0;
  std::vector<CostResource> resources;
  // Schedule. ctasPerSm is how many CTAs share the busiest SM: what
  // occupancy allows (occupancyCtasPerSm), or fewer where the grid is too
  // small to fill every SM that often.
  int64_t tiles = 0, ctas = 0, ctasPerSm = 0, occupancyCtasPerSm = 0,
          tilesPerCta = 0;
  /// Registers per thread that decided the CTAs per SM: ptxas's
  /// (cake.ptxas) or the fragment estimate's (the CTA's largest role).
  int64_t registers = 0;
  bool registersFromPtxas = false;
  PtxasFacts ptxas;
  double tileNs = 0; ///< one tile on one CTA, steady state
  // Work and traffic over the whole kernel.
  double flops = 0, aluOps = 0, tmaBytes = 0, hbmBytes = 0, storeBytes = 0,
         smemReadBytes = 0;
  std::vector<RoleCost> roles;
  std::vector<PipeCost> pipes;
  std::vector<std::string> notes;

  /// Where 80% of the kernels measured on the GPU fell around such a
  /// prediction: predictedNs times the calibration's error percentiles;
  /// {0, 0} when the calibration records no prediction error.
  std::pair<double, double> interval() const {
    if (calibration.errorSamples <= 0)
      return {0, 0};
    return {predictedNs * calibration.errorP10,
            predictedNs * calibration.errorP90};
  }
};

/// Predicts `kernel` on `shapes` with `calibration`, for the lowering's
/// `mmaInFlight` (convert-cake-to-nvvm's mma-in-flight). On failure (a
/// shape that does not match, a trip count that depends on data) emits an
/// error at the op concerned and returns failure.
LogicalResult estimateCost(KernelOp kernel,
                           const std::vector<std::vector<int64_t>> &shapes,
                           const Calibration &calibration, CostReport &report,
                           unsigned mmaInFlight = 1);

/// The report as text (what --cake-cost prints).
void printCostReport(const CostReport &report, llvm::raw_ostream &os);

/// The report as JSON (cJSON), an object per kernel.
std::string costReportToJson(llvm::ArrayRef<CostReport> reports);

} // namespace cake
} // namespace mlir

#endif // CAKE_ANALYSIS_COSTMODEL_H
