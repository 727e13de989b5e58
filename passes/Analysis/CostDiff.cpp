// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CostDiff.cpp - Why one candidate is predicted faster ---------------===//

#include "cake/Analysis/CostDiff.h"

#include <cjson/cJSON.h>

#include <algorithm>
#include <cmath>
#include <map>

using namespace mlir;
using namespace mlir::cake;

namespace {
/// A report flattened to named terms, in report order; `time` marks the
/// terms measured in nanoseconds.
struct Terms {
  std::vector<std::string> order;
  std::map<std::string, double> value;
  std::map<std::string, bool> time;
  void add(const std::string &name, double v, bool isTime) {
    if (!value.count(name))
      order.push_back(name);
    value[name] = v;
    time[name] = isTime;
  }
};

Terms flatten(const CostReport &r) {
  Terms t;
  t.add("predicted_ns", r.predictedNs, true);
  for (const CostResource &x : r.resources)
    t.add("resources." + x.name + ".ns", x.ns, true);
  t.add("schedule.tile_ns", r.tileNs, true);
  t.add("schedule.tiles", double(r.tiles), false);
  t.add("schedule.ctas", double(r.ctas), false);
  t.add("schedule.ctas_per_sm", double(r.ctasPerSm), false);
  t.add("schedule.tiles_per_cta", double(r.tilesPerCta), false);
  t.add("schedule.registers", double(r.registers), false);
  for (const RoleCost &x : r.roles) {
    std::string p = "roles." + x.name;
    t.add(p + ".warps", double(x.warps), false);
    t.add(p + ".per_tile_ns.mma", x.mmaNs, true);
    t.add(p + ".per_tile_ns.shared_memory", x.smemNs, true);
    t.add(p + ".per_tile_ns.alu", x.aluNs, true);
    t.add(p + ".per_tile_ns.mufu", x.mufuNs, true);
    t.add(p + ".per_tile_ns.store", x.storeNs, true);
    t.add(p + ".per_tile_ns.handoff", x.syncNs, true);
    t.add(p + ".per_tile_ns.copy", x.copyNs, true);
    t.add(p + ".per_tile_ns.spill", x.spillNs, true);
  }
  for (const PipeCost &x : r.pipes) {
    std::string p = "pipes." + x.name;
    t.add(p + ".stages", double(x.stages), false);
    t.add(p + ".stages_ahead", double(x.stagesInFlight), false);
    t.add(p + ".stage_bytes", x.stageBytes, false);
    t.add(p + ".round_trip_ns", x.roundTripNs, true);
    t.add(p + ".bound_per_tile_ns", x.boundNs, true);
  }
  t.add("work.flops", r.flops, false);
  t.add("work.tma_bytes", r.tmaBytes, false);
  t.add("work.hbm_bytes", r.hbmBytes, false);
  t.add("work.store_bytes", r.storeBytes, false);
  t.add("work.smem_read_bytes", r.smemReadBytes, false);
  return t;
}

/// Equal up to the printing precision of the reports.
bool same(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}
} // namespace

CostDiff mlir::cake::diffCostReports(const CostReport &a, const CostReport &b) {
  CostDiff d;
  d.kernelA = a.kernel;
  d.kernelB = b.kernel;
  d.predictedA = a.predictedNs;
  d.predictedB = b.predictedNs;
  d.bottleneckA = a.bottleneck;
  d.bottleneckB = b.bottleneck;
  Terms ta = flatten(a), tb = flatten(b);
  // Every term of either report; one missing from a report counts as 0
  // (a role or pipe the other candidate does not have).
  std::vector<std::string> names = ta.order;
  for (const std::string &n : tb.order)
    if (!ta.value.count(n))
      names.push_back(n);
  for (const std::string &n : names) {
    double va = ta.value.count(n) ? ta.value[n] : 0;
    double vb = tb.value.count(n) ? tb.value[n] : 0;
    if (same(va, vb))
      continue;
    bool isTime = ta.value.count(n) ? ta.time[n] : tb.time[n];
    (isTime ? d.times : d.decisions).push_back({n, va, vb});
  }
  std::stable_sort(d.times.begin(), d.times.end(),
                   [](const CostTermDelta &x, const CostTermDelta &y) {
                     return std::fabs(x.b - x.a) > std::fabs(y.b - y.a);
                   });
  // What decided: the bottleneck resource (of either) whose time moved
  // most; where neither bottleneck moved, the resource that moved most
  // (a latency or launch term added to the bottleneck's time).
  if (!same(a.predictedNs, b.predictedNs)) {
    for (const CostTermDelta &t : d.times)
      if (t.term == "resources." + a.bottleneck + ".ns" ||
          t.term == "resources." + b.bottleneck + ".ns") {
        d.decidedBy = t.term;
        break;
      }
    for (const CostTermDelta &t : d.times)
      if (d.decidedBy.empty() && t.term.rfind("resources.", 0) == 0)
        d.decidedBy = t.term;
  }
  return d;
}

std::string mlir::cake::costDiffToJson(const CostDiff &d) {
  cJSON *o = cJSON_CreateObject();
  auto side = [&](const char *key, const std::string &kernel, double ns,
                  const std::string &bottleneck) {
    cJSON *s = cJSON_AddObjectToObject(o, key);
    cJSON_AddStringToObject(s, "kernel", kernel.c_str());
    cJSON_AddNumberToObject(s, "predicted_ns", ns);
    cJSON_AddStringToObject(s, "bottleneck", bottleneck.c_str());
  };
  side("a", d.kernelA, d.predictedA, d.bottleneckA);
  side("b", d.kernelB, d.predictedB, d.bottleneckB);
  const char *faster = same(d.predictedA, d.predictedB) ? "tie"
                       : d.predictedA < d.predictedB    ? "a"
                                                        : "b";
  cJSON_AddStringToObject(o, "faster", faster);
  cJSON_AddNumberToObject(o, "ratio_b_over_a",
                          d.predictedA > 0 ? d.predictedB / d.predictedA : 0);
  cJSON_AddStringToObject(o, "decided_by", d.decidedBy.c_str());
  auto list = [&](const char *key, const std::vector<CostTermDelta> &terms) {
    cJSON *arr = cJSON_AddArrayToObject(o, key);
    for (const CostTermDelta &t : terms) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "term", t.term.c_str());
      cJSON_AddNumberToObject(e, "a", t.a);
      cJSON_AddNumberToObject(e, "b", t.b);
      cJSON_AddNumberToObject(e, "delta", t.b - t.a);
      cJSON_AddItemToArray(arr, e);
    }
  };
  list("time_terms", d.times);
  list("decisions", d.decisions);
  char *text = cJSON_PrintUnformatted(o);
  std::string out = text ? text : "{}";
  cJSON_free(text);
  cJSON_Delete(o);
  return out;
}
