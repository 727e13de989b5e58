// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- KernelSummary.cpp - Cake kernel summary as JSON --------------------===//
//
// The `cake-to-summary-json` translation: what a kernel decided (target,
// schedule, rings, pipes, roles) and the totals that follow, written with
// cJSON for agents and launchers that do not parse MLIR.
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"
#include "cake/InitAll.h"
#include "cake/Translate/Translate.h"
#include "JsonSupport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/DenseMap.h"


using namespace mlir;
using namespace mlir::cake;

namespace {
cJSON *summarize(KernelOp kernel) {
  cJSON *k = cJSON_CreateObject();
  cJSON_AddStringToObject(k, "name", kernel.getSymName().str().c_str());
  cJSON_AddStringToObject(k, "target",
                          kernel.getTarget().getArch().str().c_str());

  cJSON *sched = cJSON_AddObjectToObject(k, "schedule");
  if (auto p = dyn_cast<PersistentAttr>(kernel.getSchedule())) {
    cJSON_AddStringToObject(sched, "kind", "persistent");
    cJSON_AddItemToObject(sched, "tile", shapeArray(p.getTile()));
    cJSON_AddNumberToObject(sched, "group_m", double(p.getGroupM()));
  } else {
    auto g = cast<GridAttr>(kernel.getSchedule());
    cJSON_AddStringToObject(sched, "kind", "grid");
    cJSON_AddItemToObject(sched, "tile", shapeArray(g.getTile()));
  }
  cJSON_AddNumberToObject(sched, "cluster",
                          double(kernel.getCluster().value_or(1)));

  cJSON *args = cJSON_AddArrayToObject(k, "arguments");
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "index", double(i));
    if (auto g = dyn_cast<GlobalType>(type)) {
      cJSON_AddStringToObject(a, "kind", "global");
      cJSON_AddItemToObject(a, "shape", shapeArray(g.getShape()));
      cJSON_AddStringToObject(a, "element",
                              typeStr(g.getElementType()).c_str());
    } else {
      cJSON_AddStringToObject(a, "kind", "scalar");
      cJSON_AddStringToObject(a, "element", typeStr(type).c_str());
    }
    cJSON_AddItemToArray(args, a);
  }

  llvm::DenseMap<Value, int> ringIndex;
  int64_t ringBytes = 0;
  cJSON *rings = cJSON_AddArrayToObject(k, "rings");
  for (auto ring : kernel.getBody().getOps<RingOp>()) {
    RingType t = ring.getType();
    int idx = ringIndex.size();
    ringIndex[ring.getResult()] = idx;
    ringBytes += t.getRingBytes();
    cJSON *r = cJSON_CreateObject();
    cJSON_AddNumberToObject(r, "index", idx);
    cJSON_AddNumberToObject(r, "stages", double(t.getStages()));
    cJSON_AddItemToObject(r, "tile", shapeArray(t.getShape()));
    cJSON_AddStringToObject(r, "element", typeStr(t.getElementType()).c_str());
    cJSON_AddNumberToObject(r, "swizzle", double(t.getSwizzle()));
    cJSON_AddNumberToObject(r, "stage_bytes", double(t.getTileBytes()));
    cJSON_AddNumberToObject(r, "bytes", double(t.getRingBytes()));
    cJSON_AddItemToArray(rings, r);
  }

  // Tensor memory (sm_100a): accumulator stages, in 32-bit columns.
  llvm::DenseMap<Value, int> tmemIndex;
  cJSON *tmems = cJSON_AddArrayToObject(k, "tmem");
  for (auto tmem : kernel.getBody().getOps<TmemOp>()) {
    TmemType t = tmem.getType();
    int idx = tmemIndex.size();
    tmemIndex[tmem.getResult()] = idx;
    cJSON *r = cJSON_CreateObject();
    cJSON_AddNumberToObject(r, "index", idx);
    cJSON_AddNumberToObject(r, "stages", double(t.getStages()));
    cJSON_AddItemToObject(r, "tile", shapeArray({t.getRows(), t.getCols()}));
    cJSON_AddStringToObject(r, "element", typeStr(t.getElementType()).c_str());
    cJSON_AddNumberToObject(r, "columns", double(t.getColumns()));
    cJSON_AddItemToArray(tmems, r);
  }

  cJSON *pipes = cJSON_AddArrayToObject(k, "pipes");
  int pipeIdx = 0;
  for (auto pipe : kernel.getBody().getOps<PipeOp>()) {
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "index", pipeIdx++);
    cJSON_AddNumberToObject(p, "stages", double(pipe.getType().getStages()));
    cJSON *members = cJSON_AddArrayToObject(p, "rings");
    for (Value r : pipe.getRings())
      cJSON_AddItemToArray(members, cJSON_CreateNumber(ringIndex.lookup(r)));
    if (Value t = pipe.getTmem())
      cJSON_AddNumberToObject(p, "tmem", tmemIndex.lookup(t));
    cJSON_AddItemToArray(pipes, p);
  }

  int64_t threads = 0;
  cJSON *roles = cJSON_AddArrayToObject(k, "roles");
  for (auto role : kernel.getBody().getOps<RoleOp>()) {
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "name", role.getName().str().c_str());
    cJSON_AddNumberToObject(r, "warps", double(role.getNumWarps()));
    if (auto regs = role.getRegs())
      cJSON_AddNumberToObject(r, "regs", double(*regs));
    else
      cJSON_AddNullToObject(r, "regs");
    threads += role.getNumWarps() * 32;
    cJSON_AddItemToArray(roles, r);
  }
  cJSON_AddNumberToObject(k, "threads", double(threads));
  cJSON_AddNumberToObject(k, "ring_bytes", double(ringBytes));
  return k;
}
} // namespace

LogicalResult mlir::cake::writeKernelSummaryJson(Operation *op,
                                                 llvm::raw_ostream &os) {
  JsonPtr root(cJSON_CreateObject());
  cJSON *kernels = cJSON_AddArrayToObject(root.get(), "kernels");
  op->walk([&](KernelOp kernel) {
    cJSON_AddItemToArray(kernels, summarize(kernel));
  });
  char *text = cJSON_Print(root.get());
  if (!text)
    return op->emitError("cJSON could not print the kernel summary");
  os << text << "\n";
  cJSON_free(text);
  return success();
}

void mlir::cake::registerAllTranslations() {
  static bool once = [] {
    TranslateFromMLIRRegistration summary(
        "cake-to-summary-json",
        "Summarize each Cake kernel (signature, schedule, rings, pipes, "
        "roles) as JSON",
        [](Operation *op, llvm::raw_ostream &os) {
          return writeKernelSummaryJson(op, os);
        },
        [](DialectRegistry &registry) { registerAllDialects(registry); });
    TranslateFromMLIRRegistration bundle(
        "cake-to-bundle",
        "Write the kernel bundle (launch metadata + base64 cubin, JSON) of a "
        "module lowered by cake-lower",
        [](Operation *op, llvm::raw_ostream &os) {
          return writeKernelBundleJson(op, os);
        },
        [](DialectRegistry &registry) { registerAllDialects(registry); });
    TranslateFromMLIRRegistration ptx(
        "cake-to-ptx",
        "Write the PTX of a module lowered by cake-lower{format=ptx}",
        [](Operation *op, llvm::raw_ostream &os) {
          return writeKernelPtx(op, os);
        },
        [](DialectRegistry &registry) { registerAllDialects(registry); });
    TranslateFromMLIRRegistration header(
        "cake-to-c-header",
        "Write a C header embedding the cubin and a launcher over the CUDA "
        "driver API, for a module lowered by cake-lower",
        [](Operation *op, llvm::raw_ostream &os) {
          return writeKernelCHeader(op, os);
        },
        [](DialectRegistry &registry) { registerAllDialects(registry); });
    return true;
  }();
  (void)once;
}
