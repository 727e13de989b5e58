// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Calibration.cpp - The cost model's per-GPU figures -----------------===//
//
// Reads calibration/<gpu>.json (measured on the GPU by bench/calibrate, or
// datasheet figures where no GPU was at hand), finds the file for a target,
// parses the problem shapes cake-cost is given, and reads what ptxas
// reported on a kernel (cake.ptxas).
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/CostModel.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cjson/cJSON.h>
#include <cmath>
#include <cstdlib>
#include <dlfcn.h>

using namespace mlir;
using namespace mlir::cake;

#ifndef CAKE_CALIBRATION_DIR
#define CAKE_CALIBRATION_DIR ""
#endif

namespace {
double number(const cJSON *obj, const char *key, double fallback = 0) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}
std::string string(const cJSON *obj, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

/// "128x64_sw128" -> rows 128, inner bytes 128 (calibration boxes are bf16),
/// swizzle 128.
bool parseBoxKey(llvm::StringRef key, int64_t &rows, int64_t &innerBytes,
                 int64_t &swizzle) {
  auto [shape, sw] = key.split("_sw");
  auto [r, c] = shape.split('x');
  int64_t cols;
  if (r.getAsInteger(10, rows) || c.getAsInteger(10, cols) ||
      sw.getAsInteger(10, swizzle))
    return false;
  innerBytes = cols * 2;
  return true;
}
} // namespace

bool mlir::cake::loadCalibration(llvm::StringRef path, Calibration &out,
                                 std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = "cannot read calibration file '" + path.str() +
            "': " + buffer.getError().message();
    return false;
  }
  cJSON *doc = cJSON_ParseWithLength((*buffer)->getBufferStart(),
                                     (*buffer)->getBufferSize());
  if (!doc) {
    error = "calibration file '" + path.str() + "' is not valid JSON";
    return false;
  }
  out = Calibration();
  out.path = path.str();
  out.gpu = string(doc, "gpu");
  out.target = string(doc, "target");
  out.date = string(doc, "date");
  out.calibrated = cJSON_IsTrue(cJSON_GetObjectItem(doc, "calibrated"));
  out.smCount = (int64_t)number(doc, "sm_count");
  out.l2Bytes = (int64_t)number(doc, "l2_bytes");
  out.hbmGBps = number(doc, "hbm_gbps");
  out.l2GBps = number(doc, "l2_gbps");
  out.storeGBps = number(doc, "store_gbps");
  out.launchNs = number(doc, "launch_ns");
  out.pipeRoundTripNs = number(doc, "pipe_round_trip_ns");
  out.mmaHandoffNs = number(doc, "mma_handoff_ns");
  out.aluOpsPerNsPerSm = number(doc, "alu_ops_per_ns_per_sm");
  out.argminOpsPerElement = number(doc, "argmin_ops_per_element", 3.0);
  out.mufuOpsPerNsPerSm = number(doc, "mufu_ops_per_ns_per_sm");
  if (out.mufuOpsPerNsPerSm <= 0)
    out.mufuOpsPerNsPerSm = out.aluOpsPerNsPerSm / 8;
  out.exp2IeeeExtraAluOps = number(doc, "exp2_ieee_extra_alu_ops", 3.0);
  out.loadNs = number(doc, "load_ns");
  out.smemGBpsPerSm = number(doc, "smem_gbps_per_sm");
  if (const cJSON *e = cJSON_GetObjectItem(doc, "prediction_error")) {
    out.errorP10 = number(e, "measured_over_predicted_p10");
    out.errorP90 = number(e, "measured_over_predicted_p90");
    out.errorSamples = (int64_t)number(e, "samples");
  }
  const cJSON *entry;
  cJSON_ArrayForEach(entry, cJSON_GetObjectItem(doc, "tma")) {
    double rate = number(entry, "l2_gbps_per_sm");
    int64_t rows, inner, sw;
    if (rate > 0 && parseBoxKey(entry->string, rows, inner, sw))
      out.tmaGBpsPerSm[entry->string] = rate;
  }
  const cJSON *dtype;
  cJSON_ArrayForEach(dtype, cJSON_GetObjectItem(doc, "mma_tflops_per_sm")) {
    auto &points = out.mmaTflopsPerSm[dtype->string];
    const cJSON *point;
    cJSON_ArrayForEach(point, dtype) {
      int64_t n;
      if (cJSON_IsNumber(point) &&
          !llvm::StringRef(point->string).getAsInteger(10, n))
        points.push_back({n, point->valuedouble});
    }
    llvm::sort(points);
  }
  cJSON_Delete(doc);
  std::string missing;
  auto need = [&](bool ok, const char *key) {
    if (!ok)
      missing += std::string(missing.empty() ? "" : ", ") + key;
  };
  need(out.smCount > 0, "sm_count");
  need(out.hbmGBps > 0, "hbm_gbps");
  need(out.storeGBps > 0, "store_gbps");
  need(out.pipeRoundTripNs > 0, "pipe_round_trip_ns");
  need(out.aluOpsPerNsPerSm > 0, "alu_ops_per_ns_per_sm");
  need(out.smemGBpsPerSm > 0, "smem_gbps_per_sm");
  need(!out.tmaGBpsPerSm.empty(), "tma");
  need(!out.mmaTflopsPerSm.empty(), "mma_tflops_per_sm");
  if (!missing.empty()) {
    error = "calibration file '" + path.str() + "' lacks " + missing;
    return false;
  }
  if (out.errorP10 || out.errorP90) {
    if (!(out.errorP10 > 0 && out.errorP10 <= 1 && out.errorP90 >= 1)) {
      error = "calibration file '" + path.str() +
              "': prediction_error wants 0 < measured_over_predicted_p10 "
              "<= 1 <= measured_over_predicted_p90";
      return false;
    }
  }
  return true;
}

double Calibration::tmaRate(int64_t rows, int64_t innerBytes,
                            int64_t swizzle) const {
  double best = 0, bestScore = 1e30;
  for (const auto &e : tmaGBpsPerSm) {
    int64_t r, inner, sw;
    if (!parseBoxKey(e.getKey(), r, inner, sw))
      continue;
    // Same inner bytes first, then the nearest row count (log scale).
    double score = std::fabs(std::log2(double(r) / double(std::max<int64_t>(
                                                       rows, 1)))) +
                   (inner == innerBytes ? 0 : 100) + (sw == swizzle ? 0 : 1);
    if (score < bestScore) {
      bestScore = score;
      best = e.getValue();
    }
  }
  return best;
}

double Calibration::mmaRate(llvm::StringRef dtype, int64_t n,
                            int64_t elementBits, bool &extrapolated) const {
  extrapolated = false;
  auto it = mmaTflopsPerSm.find(dtype);
  double scale = 1;
  if (it == mmaTflopsPerSm.end()) {
    // A type not measured: the nearest 16-bit rate, scaled by how many
    // operand elements one instruction's K bytes hold.
    extrapolated = true;
    it = mmaTflopsPerSm.find("bf16");
    if (it == mmaTflopsPerSm.end())
      it = mmaTflopsPerSm.begin();
    scale = 16.0 / double(std::max<int64_t>(elementBits, 1));
  }
  const auto &pts = it->getValue();
  if (pts.empty())
    return 0;
  if (n <= pts.front().first)
    return pts.front().second * scale;
  for (size_t i = 1; i < pts.size(); ++i)
    if (n <= pts[i].first) {
      double t = double(n - pts[i - 1].first) /
                 double(pts[i].first - pts[i - 1].first);
      return (pts[i - 1].second * (1 - t) + pts[i].second * t) * scale;
    }
  return pts.back().second * scale;
}

/// The calibration files installed beside this library: P/lib/
/// libCakeAnalysis.so -> P/share/cake/calibration (cmake/CakeInstall.cmake).
static std::string installedCalibrationDir() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&installedCalibrationDir), &info) ||
      !info.dli_fname)
    return "";
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(info.dli_fname));
  llvm::sys::path::append(dir, "..", "share", "cake", "calibration");
  return std::string(dir);
}

std::string mlir::cake::defaultCalibrationPath(llvm::StringRef target,
                                               llvm::StringRef gpu) {
  std::string name = gpu.str();
  if (name.empty()) {
    if (target == "sm_80")
      name = "a100"; // datasheet figures, marked uncalibrated
    else if (target == "sm_90a")
      name = "h200";
    else if (target == "sm_100a")
      name = "b200";
    else
      return "";
  }
  std::string installed = installedCalibrationDir();
  const char *dirs[] = {std::getenv("CAKE_CALIBRATION_DIR"), installed.c_str(),
                        CAKE_CALIBRATION_DIR};
  for (const char *dir : dirs) {
    if (!dir || !*dir)
      continue;
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, name + ".json");
    if (llvm::sys::fs::exists(p))
      return std::string(p);
  }
  return "";
}

bool mlir::cake::parseProblemShapes(llvm::StringRef text,
                                    std::vector<std::vector<int64_t>> &shapes,
                                    std::string &error) {
  shapes.clear();
  if (text.trim().empty())
    return true;
  llvm::SmallVector<llvm::StringRef> args;
  text.split(args, ',');
  for (llvm::StringRef a : args) {
    a = a.trim();
    std::vector<int64_t> shape;
    if (!a.empty()) {
      llvm::SmallVector<llvm::StringRef> dims;
      a.split(dims, 'x');
      for (llvm::StringRef d : dims) {
        int64_t v;
        if (d.trim().getAsInteger(10, v) || v < 0) {
          error = "expected a shape like 8192x8192, got '" + a.str() + "'";
          return false;
        }
        shape.push_back(v);
      }
    }
    shapes.push_back(std::move(shape));
  }
  return true;
}

/// Local memory a thread may have (512 KiB): no spill count is larger.
constexpr int64_t kMaxLocalBytes = 512 * 1024;

LogicalResult mlir::cake::readPtxasFacts(KernelOp kernel, PtxasFacts &facts) {
  Attribute attr = kernel->getAttr(kPtxasAttrName);
  if (!attr)
    return success();
  auto dict = dyn_cast<DictionaryAttr>(attr);
  auto get = [&](StringRef name, int64_t &out) {
    auto i = dict ? dict.getAs<IntegerAttr>(name) : IntegerAttr();
    out = i ? i.getInt() : -1;
    return i && out >= 0;
  };
  if (!dict || dict.size() != 3 || !get("registers", facts.registers) ||
      !get("spill_stores", facts.spillStores) ||
      !get("spill_loads", facts.spillLoads) || facts.registers < 1 ||
      facts.registers > 255 || facts.spillStores > kMaxLocalBytes ||
      facts.spillLoads > kMaxLocalBytes)
    return kernel.emitError("cake-cost: ")
           << kPtxasAttrName
           << " must be {registers = N, spill_stores = S, spill_loads = L} "
              "as ptxas -v reports them (N in 1..255, S and L in 0.."
           << kMaxLocalBytes << ")";
  facts.present = true;
  return success();
}
