// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CostReport.cpp - The cost model's report as text and JSON ----------===//
//
// What cake-cost prints, and the JSON its `json=` option writes (cJSON).
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/CostModel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cjson/cJSON.h>
#include <cmath>

using namespace mlir;
using namespace mlir::cake;

namespace {
std::string shapeString(const std::vector<int64_t> &s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i)
    out += (i ? "x" : "") + std::to_string(s[i]);
  return out;
}

/// 1.234 ms / 56.7 us / 890 ns.
std::string timeString(double ns) {
  char buf[32];
  if (ns >= 1e6)
    snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
  else if (ns >= 1e3)
    snprintf(buf, sizeof buf, "%.2f us", ns / 1e3);
  else
    snprintf(buf, sizeof buf, "%.0f ns", ns);
  return buf;
}

std::string bytesString(double b) {
  char buf[32];
  if (b >= 1e9)
    snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  else if (b >= 1e6)
    snprintf(buf, sizeof buf, "%.1f MB", b / 1e6);
  else
    snprintf(buf, sizeof buf, "%.1f KB", b / 1e3);
  return buf;
}
} // namespace

void mlir::cake::printCostReport(const CostReport &r, llvm::raw_ostream &os) {
  const Calibration &c = r.calibration;
  os << "cake-cost: @" << r.kernel << " on " << c.gpu << " (" << r.target
     << ", " << (c.calibrated ? "calibrated " + c.date : "uncalibrated")
     << ")\n";
  os << "  problem: ";
  for (size_t i = 0; i < r.shapes.size(); ++i)
    os << (i ? ", " : "") << "#" << i << " " << shapeString(r.shapes[i]);
  os << "\n";
  os << "  predicted: " << timeString(r.predictedNs);
  if (r.flops > 0 && r.predictedNs > 0)
    os << llvm::format(" (%.1f TFLOP/s)", r.flops / r.predictedNs / 1e3);
  if (auto [low, high] = r.interval(); high > 0)
    os << ", 80% interval " << timeString(low) << " to " << timeString(high)
       << " (" << r.calibration.errorSamples
       << " kernels measured on this GPU)";
  os << "\n";
  os << "  bottleneck: " << r.bottleneck
     << llvm::format(" (%.0f%% of the time)", 100 * r.bottleneckShare) << "\n";
  os << "  resources (busy time on the critical CTA, share of the time):\n";
  // The name column as wide as the longest name (17 before the role-order
  // terms), so that the times line up.
  int width = 17;
  for (const CostResource &res : r.resources)
    width = std::max(width, int(res.name.size()));
  for (const CostResource &res : r.resources)
    os << llvm::format("    %-*s %11s %6.1f%%  ", width, res.name.c_str(),
                       timeString(res.ns).c_str(), 100 * res.share)
       << res.detail << "\n";
  double eff = r.ctas > 0 && r.tilesPerCta > 0
                   ? double(r.tiles) /
                         double(std::min<int64_t>(r.ctas, c.smCount *
                                                              r.ctasPerSm) *
                                r.tilesPerCta)
                   : 0;
  os << "  schedule: " << r.tiles << " tiles, " << r.ctas << " CTAs ("
     << r.ctasPerSm << " per SM";
  if (r.occupancyCtasPerSm > r.ctasPerSm)
    os << ", " << r.occupancyCtasPerSm << " by occupancy";
  os << "), " << r.tilesPerCta << " tiles on the busiest CTA slot, "
     << llvm::format("wave efficiency %.1f%%", 100 * eff) << ", "
     << timeString(r.tileNs) << " per tile";
  if (r.registers > 0)
    os << ", " << r.registers << " registers per thread ("
       << (r.registersFromPtxas ? "ptxas" : "fragment estimate") << ")";
  os << "\n";
  os << "  memory: HBM " << bytesString(r.hbmBytes) << ", TMA "
     << bytesString(r.tmaBytes);
  if (r.tmaBytes > 0)
    os << llvm::format(" (L2 hit %.1f%%)",
                       100 * std::max(0.0, 1 - (r.hbmBytes - r.storeBytes) /
                                                   r.tmaBytes));
  os << ", stores " << bytesString(r.storeBytes) << ", shared-memory reads "
     << bytesString(r.smemReadBytes) << "\n";
  for (const RoleCost &role : r.roles) {
    os << "  role \"" << role.name << "\" (" << role.warps
       << " warps), per tile:";
    if (role.copyNs > 0)
      os << " copy " << timeString(role.copyNs) << " ("
         << bytesString(role.copyBytes) << ")";
    if (role.mmaNs > 0)
      os << " mma " << timeString(role.mmaNs);
    if (role.aluNs > 0)
      os << " alu " << timeString(role.aluNs);
    if (role.mufuNs > 0)
      os << " mufu " << timeString(role.mufuNs);
    if (role.storeNs > 0)
      os << " store " << timeString(role.storeNs);
    if (role.syncNs > 0)
      os << " handoff " << timeString(role.syncNs);
    if (role.spillNs > 0)
      os << " spill " << timeString(role.spillNs) << " ("
         << bytesString(role.spillBytes) << ")";
    if (role.copyNs <= 0 && role.mmaNs <= 0 && role.aluNs <= 0 &&
        role.storeNs <= 0 && role.syncNs <= 0)
      os << " idle";
    os << "\n";
  }
  for (const PipeCost &p : r.pipes)
    os << "  " << p.name << ": " << p.stages << " stages ("
       << p.stagesInFlight << " filled ahead), "
       << llvm::format("%.0f", p.stepsPerTile) << " steps per tile of "
       << bytesString(p.stageBytes) << ", round trip "
       << timeString(p.roundTripNs) << " per step, bound "
       << timeString(p.boundNs) << " per tile\n";
  for (const std::string &note : r.notes)
    os << "  note: " << note << "\n";
}

std::string mlir::cake::costReportToJson(llvm::ArrayRef<CostReport> reports) {
  cJSON *root = cJSON_CreateArray();
  for (const CostReport &r : reports) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", r.kernel.c_str());
    cJSON_AddStringToObject(o, "target", r.target.c_str());
    cJSON *cal = cJSON_AddObjectToObject(o, "calibration");
    cJSON_AddStringToObject(cal, "gpu", r.calibration.gpu.c_str());
    cJSON_AddStringToObject(cal, "file", r.calibration.path.c_str());
    cJSON_AddBoolToObject(cal, "calibrated", r.calibration.calibrated);
    cJSON_AddStringToObject(cal, "date", r.calibration.date.c_str());
    cJSON *shapes = cJSON_AddArrayToObject(o, "shapes");
    for (const auto &s : r.shapes) {
      cJSON *dims = cJSON_CreateArray();
      for (int64_t d : s)
        cJSON_AddItemToArray(dims, cJSON_CreateNumber(double(d)));
      cJSON_AddItemToArray(shapes, dims);
    }
    cJSON_AddNumberToObject(o, "predicted_ns", r.predictedNs);
    if (auto [low, high] = r.interval(); high > 0) {
      // Where 80% of the kernels measured on this GPU fell around their
      // predictions (the calibration's prediction_error).
      cJSON *iv = cJSON_AddObjectToObject(o, "predicted_interval");
      cJSON_AddNumberToObject(iv, "low_ns", low);
      cJSON_AddNumberToObject(iv, "high_ns", high);
      cJSON_AddNumberToObject(iv, "coverage", 0.8);
      cJSON_AddNumberToObject(iv, "samples",
                              double(r.calibration.errorSamples));
    }
    if (r.flops > 0 && r.predictedNs > 0)
      cJSON_AddNumberToObject(o, "predicted_tflops",
                              r.flops / r.predictedNs / 1e3);
    cJSON *b = cJSON_AddObjectToObject(o, "bottleneck");
    cJSON_AddStringToObject(b, "resource", r.bottleneck.c_str());
    cJSON_AddNumberToObject(b, "share", r.bottleneckShare);
    cJSON *res = cJSON_AddArrayToObject(o, "resources");
    for (const CostResource &x : r.resources) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "name", x.name.c_str());
      cJSON_AddNumberToObject(e, "ns", x.ns);
      cJSON_AddNumberToObject(e, "share", x.share);
      cJSON_AddStringToObject(e, "detail", x.detail.c_str());
      cJSON_AddItemToArray(res, e);
    }
    cJSON *s = cJSON_AddObjectToObject(o, "schedule");
    cJSON_AddNumberToObject(s, "tiles", double(r.tiles));
    cJSON_AddNumberToObject(s, "ctas", double(r.ctas));
    cJSON_AddNumberToObject(s, "ctas_per_sm", double(r.ctasPerSm));
    cJSON_AddNumberToObject(s, "occupancy_ctas_per_sm",
                            double(r.occupancyCtasPerSm));
    cJSON_AddNumberToObject(s, "tiles_per_cta", double(r.tilesPerCta));
    cJSON_AddNumberToObject(s, "tile_ns", r.tileNs);
    if (r.registers > 0) {
      cJSON_AddNumberToObject(s, "registers", double(r.registers));
      cJSON_AddStringToObject(s, "registers_from",
                              r.registersFromPtxas ? "ptxas"
                                                   : "fragment estimate");
    }
    if (r.ptxas.present) {
      cJSON *x = cJSON_AddObjectToObject(o, "ptxas");
      cJSON_AddNumberToObject(x, "registers", double(r.ptxas.registers));
      cJSON_AddNumberToObject(x, "spill_stores", double(r.ptxas.spillStores));
      cJSON_AddNumberToObject(x, "spill_loads", double(r.ptxas.spillLoads));
    }
    cJSON *w = cJSON_AddObjectToObject(o, "work");
    cJSON_AddNumberToObject(w, "flops", r.flops);
    cJSON_AddNumberToObject(w, "alu_ops", r.aluOps);
    cJSON_AddNumberToObject(w, "tma_bytes", r.tmaBytes);
    cJSON_AddNumberToObject(w, "hbm_bytes", r.hbmBytes);
    cJSON_AddNumberToObject(w, "store_bytes", r.storeBytes);
    cJSON_AddNumberToObject(w, "smem_read_bytes", r.smemReadBytes);
    cJSON *roles = cJSON_AddArrayToObject(o, "roles");
    for (const RoleCost &x : r.roles) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "name", x.name.c_str());
      cJSON_AddNumberToObject(e, "warps", double(x.warps));
      cJSON *t = cJSON_AddObjectToObject(e, "per_tile_ns");
      cJSON_AddNumberToObject(t, "mma", x.mmaNs);
      cJSON_AddNumberToObject(t, "shared_memory", x.smemNs);
      cJSON_AddNumberToObject(t, "alu", x.aluNs);
      cJSON_AddNumberToObject(t, "mufu", x.mufuNs);
      cJSON_AddNumberToObject(t, "store", x.storeNs);
      cJSON_AddNumberToObject(t, "handoff", x.syncNs);
      cJSON_AddNumberToObject(t, "copy", x.copyNs);
      if (x.spillNs > 0) {
        cJSON_AddNumberToObject(t, "spill", x.spillNs);
        cJSON_AddNumberToObject(e, "spill_bytes_per_tile", x.spillBytes);
      }
      cJSON_AddItemToArray(roles, e);
    }
    cJSON *pipes = cJSON_AddArrayToObject(o, "pipes");
    for (const PipeCost &x : r.pipes) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "pipe", x.name.c_str());
      cJSON_AddNumberToObject(e, "stages", double(x.stages));
      cJSON_AddNumberToObject(e, "stages_ahead", double(x.stagesInFlight));
      cJSON_AddNumberToObject(e, "steps_per_tile", x.stepsPerTile);
      cJSON_AddNumberToObject(e, "stage_bytes", x.stageBytes);
      cJSON_AddNumberToObject(e, "round_trip_ns", x.roundTripNs);
      cJSON_AddNumberToObject(e, "bound_per_tile_ns", x.boundNs);
      cJSON_AddItemToArray(pipes, e);
    }
    cJSON *notes = cJSON_AddArrayToObject(o, "notes");
    for (const std::string &n : r.notes)
      cJSON_AddItemToArray(notes, cJSON_CreateString(n.c_str()));
    cJSON_AddItemToArray(root, o);
  }
  char *text = cJSON_Print(root);
  std::string out = text ? text : "[]";
  cJSON_free(text);
  cJSON_Delete(root);
  return out + "\n";
}
