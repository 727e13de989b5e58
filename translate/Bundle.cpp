//===- Bundle.cpp - Kernel bundles and PTX out of lowered Cake modules ----===//
//
// Translations of a module produced by `cake-opt --cake-lower`:
//
//   --cake-to-bundle  one JSON document (cJSON) per module: the launch
//                     metadata the runtime needs (entry, parameter order,
//                     arguments, grid rule, block, cluster, dynamic shared
//                     memory, TMA descriptor specs, launch-time checks) and
//                     the cubin, base64-encoded;
//   --cake-to-ptx     the PTX text (lower with format=ptx).
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"
#include "cake/InitAll.h"
#include "cake/Translate/Translate.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include <cjson/cJSON.h>
#include <memory>

using namespace mlir;
using namespace mlir::cake;

namespace {
struct JsonDeleter {
  void operator()(cJSON *j) const { cJSON_Delete(j); }
};
using JsonPtr = std::unique_ptr<cJSON, JsonDeleter>;

std::string base64(StringRef bytes) {
  static const char *tbl =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t v = (uint8_t)bytes[i] << 16 | (uint8_t)bytes[i + 1] << 8 |
                 (uint8_t)bytes[i + 2];
    out += tbl[v >> 18];
    out += tbl[(v >> 12) & 63];
    out += tbl[(v >> 6) & 63];
    out += tbl[v & 63];
  }
  if (i < bytes.size()) {
    uint32_t v = (uint8_t)bytes[i] << 16;
    if (i + 1 < bytes.size())
      v |= (uint8_t)bytes[i + 1] << 8;
    out += tbl[v >> 18];
    out += tbl[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? tbl[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

cJSON *intArray(ArrayRef<int64_t> v) {
  cJSON *a = cJSON_CreateArray();
  for (int64_t x : v)
    cJSON_AddItemToArray(a, cJSON_CreateNumber(double(x)));
  return a;
}

int64_t intOf(DictionaryAttr d, StringRef name) {
  auto a = d.getAs<IntegerAttr>(name);
  return a ? a.getInt() : -1;
}

/// The object of `binary` for the launch, or failure with a diagnostic.
FailureOr<gpu::ObjectAttr> findObject(gpu::BinaryOp binary) {
  for (Attribute a : binary.getObjects())
    if (auto obj = dyn_cast<gpu::ObjectAttr>(a))
      return obj;
  return binary.emitError("gpu.binary has no object");
}

/// Builds the bundle document of one lowered kernel.
FailureOr<JsonPtr> buildBundle(ModuleOp top, DictionaryAttr launch) {
  auto moduleName = launch.getAs<StringAttr>("module");
  auto binary = top.lookupSymbol<gpu::BinaryOp>(moduleName);
  if (!binary)
    return top.emitError("no gpu.binary @")
           << moduleName.getValue()
           << ": lower with `cake-opt --cake-lower` (format=cubin) first";
  FailureOr<gpu::ObjectAttr> obj = findObject(binary);
  if (failed(obj))
    return failure();
  if (obj->getFormat() != gpu::CompilationTarget::Binary)
    return binary.emitError("a bundle needs a cubin; this module was lowered "
                            "with format=ptx (use --cake-to-ptx for it)");

  JsonPtr doc(cJSON_CreateObject());
  cJSON *d = doc.get();
  cJSON_AddStringToObject(d, "format", "cake-bundle-1");
  cJSON_AddStringToObject(
      d, "entry", launch.getAs<StringAttr>("entry").getValue().str().c_str());
  auto target = launch.getAs<TargetAttr>("target");
  cJSON_AddStringToObject(d, "target", target.getArch().str().c_str());
  cJSON_AddItemToObject(
      d, "block", intArray(launch.getAs<DenseI64ArrayAttr>("block").asArrayRef()));
  cJSON_AddItemToObject(d, "cluster", intArray({1, 1, 1}));
  cJSON_AddNumberToObject(d, "smem_bytes", double(intOf(launch, "smem_bytes")));

  cJSON *args = cJSON_AddArrayToObject(d, "args");
  for (Attribute a : launch.getAs<ArrayAttr>("args")) {
    auto ad = cast<DictionaryAttr>(a);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(
        j, "kind", ad.getAs<StringAttr>("kind").getValue().str().c_str());
    Type elt = ad.getAs<TypeAttr>("element").getValue();
    cJSON_AddStringToObject(j, "element", typeStr(elt).c_str());
    cJSON_AddNumberToObject(j, "element_bytes", double(getElementBytes(elt)));
    if (auto shape = ad.getAs<DenseI64ArrayAttr>("shape")) {
      cJSON *s = cJSON_AddArrayToObject(j, "shape");
      for (int64_t x : shape.asArrayRef())
        cJSON_AddItemToArray(s, ShapedType::isDynamic(x)
                                    ? cJSON_CreateNull()
                                    : cJSON_CreateNumber(double(x)));
    }
    cJSON_AddItemToArray(args, j);
  }

  cJSON *params = cJSON_AddArrayToObject(d, "params");
  for (Attribute a : launch.getAs<ArrayAttr>("params")) {
    auto pd = cast<DictionaryAttr>(a);
    cJSON *j = cJSON_CreateObject();
    StringRef kind = pd.getAs<StringAttr>("kind").getValue();
    cJSON_AddStringToObject(j, "kind", kind.str().c_str());
    cJSON_AddNumberToObject(j, kind == "tma" ? "index" : "arg",
                            double(intOf(pd, "arg")));
    if (kind == "dim")
      cJSON_AddNumberToObject(j, "dim", double(intOf(pd, "dim")));
    cJSON_AddItemToArray(params, j);
  }

  cJSON *grid = cJSON_AddObjectToObject(d, "grid");
  Attribute sched = launch.get("schedule");
  ArrayRef<int64_t> tile;
  if (auto p = dyn_cast<PersistentAttr>(sched)) {
    cJSON_AddStringToObject(grid, "kind", "persistent");
    cJSON_AddNumberToObject(grid, "group_m", double(p.getGroupM()));
    tile = p.getTile();
  } else {
    cJSON_AddStringToObject(grid, "kind", "grid");
    tile = cast<GridAttr>(sched).getTile();
  }
  cJSON_AddItemToObject(grid, "tile", intArray(tile));
  cJSON *extents = cJSON_AddArrayToObject(grid, "extents");
  for (Attribute e : launch.getAs<ArrayAttr>("extents")) {
    auto ed = cast<DenseI64ArrayAttr>(e);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "arg", double(ed[0]));
    cJSON_AddNumberToObject(j, "dim", double(ed[1]));
    cJSON_AddItemToArray(extents, j);
  }

  cJSON *tma = cJSON_AddArrayToObject(d, "tma");
  for (Attribute a : launch.getAs<ArrayAttr>("tma")) {
    auto td = cast<DictionaryAttr>(a);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "arg", double(intOf(td, "arg")));
    cJSON_AddItemToObject(
        j, "box", intArray(td.getAs<DenseI64ArrayAttr>("box").asArrayRef()));
    cJSON_AddNumberToObject(j, "swizzle", double(intOf(td, "swizzle")));
    cJSON_AddItemToArray(tma, j);
  }

  // What only the launch can know: the runtime applies these and refuses the
  // launch with the rule id instead of faulting.
  cJSON *checks = cJSON_AddArrayToObject(d, "checks");
  for (Attribute a : launch.getAs<ArrayAttr>("tma")) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "rule", "hw.tma-alignment");
    cJSON_AddNumberToObject(j, "arg",
                            double(intOf(cast<DictionaryAttr>(a), "arg")));
    cJSON_AddStringToObject(j, "require",
                            "base address 16-byte aligned; every stride but "
                            "the innermost a multiple of 16 bytes");
    cJSON_AddItemToArray(checks, j);
  }

  StringRef cubin = obj->getObject().getValue();
  cJSON_AddNumberToObject(d, "cubin_bytes", double(cubin.size()));
  cJSON_AddStringToObject(d, "cubin", base64(cubin).c_str());
  return doc;
}

LogicalResult writeJson(cJSON *doc, Operation *op, llvm::raw_ostream &os) {
  char *text = cJSON_Print(doc);
  if (!text)
    return op->emitError("cJSON could not print the bundle");
  os << text << "\n";
  cJSON_free(text);
  return success();
}
} // namespace

LogicalResult mlir::cake::writeKernelBundleJson(Operation *op,
                                                llvm::raw_ostream &os) {
  auto top = dyn_cast<ModuleOp>(op);
  auto launches = top ? top->getAttrOfType<ArrayAttr>("cake.launch") : nullptr;
  if (!launches || launches.empty())
    return op->emitError("no lowered Cake kernel (missing cake.launch): run "
                         "`cake-opt --cake-lower` first");
  if (launches.size() != 1)
    return op->emitError("a bundle holds one kernel; this module has ")
           << launches.size();
  FailureOr<JsonPtr> doc =
      buildBundle(top, cast<DictionaryAttr>(launches[0]));
  if (failed(doc))
    return failure();
  return writeJson(doc->get(), op, os);
}

LogicalResult mlir::cake::writeKernelPtx(Operation *op, llvm::raw_ostream &os) {
  bool found = false;
  WalkResult r = op->walk([&](gpu::BinaryOp binary) {
    FailureOr<gpu::ObjectAttr> obj = findObject(binary);
    if (failed(obj))
      return WalkResult::interrupt();
    if (obj->getFormat() != gpu::CompilationTarget::Assembly) {
      binary.emitError("no PTX in this module: lower with "
                       "`--cake-lower=\"format=ptx\"`");
      return WalkResult::interrupt();
    }
    os << obj->getObject().getValue();
    found = true;
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return failure();
  if (!found)
    return op->emitError("no gpu.binary: run `cake-opt --cake-lower` first");
  return success();
}
