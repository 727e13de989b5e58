// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Bundle.cpp - Kernel bundles and PTX out of lowered Cake modules ----===//
//
// Translations of a module produced by `cake-opt --cake-lower`:
//
//   --cake-to-bundle  one JSON document (cJSON) per module: the launch
//                     metadata the runtime needs (entry, parameter order,
//                     arguments, grid rule, block, cluster, dynamic shared
//                     memory, TMA descriptor specs, launch-time checks) and
//                     the cubin, base64-encoded, or, for a module lowered
//                     with format=ptx, the PTX text, which the driver
//                     compiles for the GPU it runs on (an sm_80 kernel on
//                     an H200);
//   --cake-to-ptx     the PTX text (lower with format=ptx).
//
//===----------------------------------------------------------------------===//

#include "JsonSupport.h"
#include "LaunchInfo.h"
#include "cake/Dialect/CakeDialect.h"
#include "cake/InitAll.h"
#include "cake/Target/TargetInfo.h"
#include "cake/Translate/Translate.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"


using namespace mlir;
using namespace mlir::cake;

namespace {
/// Past the target's portable cluster size the launch must allow the size
/// on the function (CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED).
bool nonPortableCluster(const LaunchInfo &launch) {
  const TargetInfo *t = lookupTarget(launch.target.getArch());
  return t && launch.cluster > t->maxClusterSize;
}

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

cJSON *intArray(ArrayRef<int64_t> v) {
  cJSON *a = cJSON_CreateArray();
  for (int64_t x : v)
    cJSON_AddItemToArray(a, cJSON_CreateNumber(double(x)));
  return a;
}

/// The object of `binary` for the launch, or failure with a diagnostic.
FailureOr<gpu::ObjectAttr> findObject(gpu::BinaryOp binary) {
  for (Attribute a : binary.getObjects())
    if (auto obj = dyn_cast<gpu::ObjectAttr>(a))
      return obj;
  return binary.emitError("gpu.binary has no object");
}

/// Builds the bundle document of one lowered kernel.
FailureOr<JsonPtr> buildBundle(ModuleOp top, const LaunchInfo &launch) {
  auto binary = top.lookupSymbol<gpu::BinaryOp>(launch.module);
  if (!binary)
    return top.emitError("no gpu.binary @")
           << launch.module
           << ": lower with `cake-opt --cake-lower` (format=cubin or ptx) "
              "first";
  FailureOr<gpu::ObjectAttr> obj = findObject(binary);
  if (failed(obj))
    return failure();
  bool ptx = obj->getFormat() == gpu::CompilationTarget::Assembly;
  if (!ptx && obj->getFormat() != gpu::CompilationTarget::Binary)
    return binary.emitError("a bundle needs a cubin or PTX; lower with "
                            "format=cubin or format=ptx");

  JsonPtr doc(cJSON_CreateObject());
  cJSON *d = doc.get();
  cJSON_AddStringToObject(d, "format", "cake-bundle-1");
  cJSON_AddStringToObject(d, "entry", launch.entry.c_str());
  cJSON_AddStringToObject(d, "target",
                          launch.target.getArch().str().c_str());
  cJSON_AddItemToObject(d, "block", intArray(launch.block));
  cJSON_AddItemToObject(d, "cluster", intArray({launch.cluster, 1, 1}));
  cJSON_AddBoolToObject(d, "cluster_non_portable", nonPortableCluster(launch));
  cJSON_AddNumberToObject(d, "smem_bytes", double(launch.smemBytes));

  cJSON *args = cJSON_AddArrayToObject(d, "args");
  for (const LaunchArg &a : launch.args) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "kind", a.global ? "global" : "scalar");
    cJSON_AddStringToObject(j, "element", typeStr(a.element).c_str());
    cJSON_AddNumberToObject(j, "element_bytes",
                            double(getElementBytes(a.element)));
    if (a.global) {
      cJSON *s = cJSON_AddArrayToObject(j, "shape");
      for (int64_t x : a.shape)
        cJSON_AddItemToArray(s, ShapedType::isDynamic(x)
                                    ? cJSON_CreateNull()
                                    : cJSON_CreateNumber(double(x)));
    }
    cJSON_AddItemToArray(args, j);
  }

  cJSON *params = cJSON_AddArrayToObject(d, "params");
  for (const LaunchParam &p : launch.params) {
    static const char *kinds[] = {"ptr", "dim", "i64", "tma"};
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "kind", kinds[p.kind]);
    cJSON_AddNumberToObject(j, p.kind == LaunchParam::Tma ? "index" : "arg",
                            double(p.arg));
    if (p.kind == LaunchParam::Dim)
      cJSON_AddNumberToObject(j, "dim", double(p.dim));
    cJSON_AddItemToArray(params, j);
  }

  cJSON *grid = cJSON_AddObjectToObject(d, "grid");
  cJSON_AddStringToObject(grid, "kind",
                          launch.persistent ? "persistent" : "grid");
  if (launch.persistent)
    cJSON_AddNumberToObject(grid, "group_m", double(launch.groupM));
  cJSON_AddItemToObject(grid, "tile", intArray(launch.tile));
  cJSON *extents = cJSON_AddArrayToObject(grid, "extents");
  for (const LaunchExtent &e : launch.extents) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "arg", double(e.arg));
    cJSON_AddNumberToObject(j, "dim", double(e.dim));
    cJSON_AddItemToArray(extents, j);
  }

  cJSON *tma = cJSON_AddArrayToObject(d, "tma");
  for (const LaunchTma &t : launch.tma) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "arg", double(t.arg));
    cJSON_AddItemToObject(j, "box", intArray(t.box));
    cJSON_AddNumberToObject(j, "swizzle", double(t.swizzle));
    cJSON_AddItemToArray(tma, j);
  }

  // What only the launch can know: the runtime applies these and refuses the
  // launch with the rule id instead of faulting.
  cJSON *checks = cJSON_AddArrayToObject(d, "checks");
  for (const LaunchTma &t : launch.tma) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "rule", "hw.tma-alignment");
    cJSON_AddNumberToObject(j, "arg", double(t.arg));
    cJSON_AddStringToObject(j, "require",
                            "base address 16-byte aligned; every stride but "
                            "the innermost a multiple of 16 bytes");
    cJSON_AddItemToArray(checks, j);
  }

  StringRef image = obj->getObject().getValue();
  if (ptx) {
    // Text, NUL-terminated when loaded: cuModuleLoadData JIT-compiles it.
    cJSON_AddNumberToObject(d, "ptx_bytes", double(image.size()));
    cJSON_AddStringToObject(d, "ptx", image.str().c_str());
    return doc;
  }
  cJSON_AddNumberToObject(d, "cubin_bytes", double(image.size()));
  cJSON_AddStringToObject(d, "cubin", base64(image).c_str());
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
  FailureOr<LaunchInfo> launch = readLaunch(top, launches[0]);
  if (failed(launch))
    return failure();
  FailureOr<JsonPtr> doc = buildBundle(top, *launch);
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

//===----------------------------------------------------------------------===//
// --cake-to-c-header
//===----------------------------------------------------------------------===//

namespace {
/// A C identifier from a kernel name.
std::string cIdent(StringRef s) {
  std::string out;
  for (char c : s)
    out += (isalnum((unsigned char)c) || c == '_') ? c : '_';
  return out;
}

const char *cuDataType(StringRef element) {
  if (element == "bf16")
    return "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16";
  if (element == "f16")
    return "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
  if (element == "f32")
    return "CU_TENSOR_MAP_DATA_TYPE_FLOAT32";
  if (element == "i32")
    return "CU_TENSOR_MAP_DATA_TYPE_INT32";
  if (element == "i8" || element == "f8E4M3FN" || element == "f8E5M2")
    return "CU_TENSOR_MAP_DATA_TYPE_UINT8";
  return nullptr;
}
} // namespace

LogicalResult mlir::cake::writeKernelCHeader(Operation *op,
                                             llvm::raw_ostream &os) {
  auto top = dyn_cast<ModuleOp>(op);
  auto launches = top ? top->getAttrOfType<ArrayAttr>("cake.launch") : nullptr;
  if (!launches || launches.size() != 1)
    return op->emitError("expected one lowered Cake kernel (cake.launch): run "
                         "`cake-opt --cake-lower` first");
  FailureOr<LaunchInfo> launch = readLaunch(top, launches[0]);
  if (failed(launch))
    return failure();
  auto binary = top.lookupSymbol<gpu::BinaryOp>(launch->module);
  if (!binary)
    return op->emitError("no gpu.binary for the kernel");
  FailureOr<gpu::ObjectAttr> obj = findObject(binary);
  if (failed(obj))
    return failure();
  if (obj->getFormat() != gpu::CompilationTarget::Binary)
    return binary.emitError("a C header embeds a cubin; lower with "
                            "format=cubin");
  StringRef entry = launch->entry;
  std::string id = cIdent(entry);
  std::string guard = "CAKE_KERNEL_" + StringRef(id).upper() + "_H";
  ArrayRef<LaunchArg> args = launch->args;
  ArrayRef<LaunchParam> params = launch->params;
  ArrayRef<LaunchTma> tma = launch->tma;
  ArrayRef<int64_t> block = launch->block;
  ArrayRef<LaunchExtent> extents = launch->extents;
  bool persistent = launch->persistent;
  ArrayRef<int64_t> tile = launch->tile;

  os << "/* " << id << ".h - Cake kernel '" << entry
     << "' for sm_90a, generated by cake-translate --cake-to-c-header.\n"
     << " *\n"
     << " * Self-contained: the cubin is embedded and the launcher uses only\n"
     << " * the CUDA driver API (link -lcuda). Tensors are row-major and\n"
     << " * contiguous; shapes are outermost first. The launcher refuses\n"
     << " * tensors the copy engine cannot address ([hw.tma-alignment]) and\n"
     << " * extents other than the static ones of the kernel's types with\n"
     << " * CUDA_ERROR_INVALID_VALUE. It is not thread-safe on first use. */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <cuda.h>\n#include <stdint.h>\n\n";
  StringRef cubin = obj->getObject().getValue();
  os << "static const unsigned char " << id << "_cubin[" << cubin.size()
     << "] __attribute__((aligned(16))) = {";
  for (size_t i = 0; i < cubin.size(); ++i) {
    if (i % 16 == 0)
      os << "\n ";
    os << " " << (unsigned)(uint8_t)cubin[i] << ",";
  }
  os << "\n};\n\n";

  // Signature: one (pointer, shape) pair per tensor, one value per scalar.
  os << "/* Launches " << entry << " on `stream`. `scratch` is device memory "
     << "of at least " << 128 * tma.size() << " bytes\n * for the TMA "
     << "descriptors, reserved for this kernel's launches on this stream. */\n"
     << "static CUresult " << id
     << "_launch(CUstream stream, CUdeviceptr "
        "scratch";
  for (auto [i, a] : llvm::enumerate(args)) {
    if (a.global)
      os << ",\n    CUdeviceptr arg" << i << ", const int64_t arg" << i
         << "_shape[" << a.shape.size() << "]";
    else
      os << ",\n    int64_t arg" << i;
  }
  os << ") {\n"
     << "  static CUmodule module;\n  static CUfunction fn;\n"
     << "  static int num_sms;\n  CUresult r;\n"
     << "  if (!fn) {\n"
     << "    CUdevice dev;\n"
     << "    if ((r = cuModuleLoadData(&module, " << id
     << "_cubin)) != CUDA_SUCCESS) return r;\n"
     << "    if ((r = cuModuleGetFunction(&fn, module, \"" << entry
     << "\")) != CUDA_SUCCESS) return r;\n"
     << "    if ((r = cuFuncSetAttribute(fn, "
        "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "
     << launch->smemBytes << ")) != CUDA_SUCCESS) return r;\n"
     << (nonPortableCluster(*launch)
             ? "    if ((r = cuFuncSetAttribute(fn, "
               "CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)) != "
               "CUDA_SUCCESS) return r;\n"
             : "")
     << "    if ((r = cuCtxGetDevice(&dev)) != CUDA_SUCCESS) return r;\n"
     << "    if ((r = cuDeviceGetAttribute(&num_sms, "
        "CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev)) != CUDA_SUCCESS) "
        "return r;\n";
  // A persistent grid in clusters holds at most the clusters resident at
  // once (a GPC's SMs come in whole clusters): more would run as a second
  // wave behind the first.
  if (persistent && launch->cluster > 1)
    os << "    {\n      CUlaunchConfig cfg = {0};\n      int clusters = 0;\n"
       << "      cfg.gridDimX = " << launch->cluster
       << "; cfg.gridDimY = 1; cfg.gridDimZ = 1;\n"
       << "      cfg.blockDimX = " << block[0]
       << "; cfg.blockDimY = " << block[1] << "; cfg.blockDimZ = " << block[2]
       << ";\n"
       << "      cfg.sharedMemBytes = " << launch->smemBytes << ";\n"
       << "      if ((r = cuOccupancyMaxActiveClusters(&clusters, fn, &cfg)) "
          "!= CUDA_SUCCESS) return r;\n"
       << "      if (clusters < 1) return CUDA_ERROR_INVALID_VALUE;\n"
       << "      if (clusters * " << launch->cluster
       << " < num_sms) num_sms = clusters * " << launch->cluster << ";\n"
       << "    }\n";
  os << "  }\n";

  // The extents the kernel was built for (its lowering may fold them).
  for (auto [i, a] : llvm::enumerate(args))
    for (auto [d, x] : llvm::enumerate(a.shape))
      if (a.global && !ShapedType::isDynamic(x))
        os << "  if (arg" << i << "_shape[" << d << "] != " << x
           << ") return CUDA_ERROR_INVALID_VALUE;\n";

  // Grid: the tile rows rounded up to whole clusters (hw.cluster).
  int64_t n = launch->cluster;
  os << "  int64_t tiles = 1;\n";
  for (auto [i, e] : llvm::enumerate(extents)) {
    std::string ext = e.dim < 0 ? "arg" + std::to_string(e.arg)
                                : "arg" + std::to_string(e.arg) + "_shape[" +
                                      std::to_string(e.dim) + "]";
    if (i == 0 && n > 1)
      os << "  tiles *= (((" << ext << " + " << tile[i] - 1 << ") / " << tile[i]
         << " + " << n - 1 << ") / " << n << ") * " << n << ";\n";
    else
      os << "  tiles *= (" << ext << " + " << tile[i] - 1 << ") / " << tile[i]
         << ";\n";
  }
  os << "  if (tiles == 0) return CUDA_SUCCESS;\n";
  if (persistent && n > 1)
    // Whole clusters: the CTAs past the tiles find none.
    os << "  if (tiles > num_sms / " << n << " * " << n
       << ") tiles = num_sms / " << n << " * " << n << ";\n"
       << "  if (tiles < " << n << ") tiles = " << n << ";\n";
  else if (persistent)
    os << "  if (tiles > num_sms) tiles = num_sms;\n";

  // TMA descriptors.
  if (!tma.empty()) {
    os << "  CUtensorMap maps[" << tma.size() << "];\n";
    for (auto [i, t] : llvm::enumerate(tma)) {
      int64_t arg = t.arg;
      std::string element = typeStr(args[arg].element);
      const char *dt = cuDataType(element);
      if (!dt)
        return op->emitError("no TMA data type for ") << element;
      int64_t eb = getElementBytes(args[arg].element);
      ArrayRef<int64_t> box = t.box;
      int64_t rank = box.size();
      int64_t swz = t.swizzle;
      std::string a = "arg" + std::to_string(arg);
      os << "  {\n    cuuint64_t dims[" << rank << "], strides["
         << std::max<int64_t>(rank - 1, 1) << "];\n    cuuint32_t box[" << rank
         << "] = {";
      for (int64_t k = rank - 1; k >= 0; --k)
        os << box[k] << (k ? ", " : "");
      os << "}, es[" << rank << "] = {";
      for (int64_t k = 0; k < rank; ++k)
        os << "1" << (k + 1 < rank ? ", " : "");
      os << "};\n    uint64_t stride = " << eb << ";\n"
         << "    for (int k = 0; k < " << rank << "; ++k) {\n"
         << "      dims[k] = (cuuint64_t)" << a << "_shape[" << rank - 1
         << " - k];\n"
         << "      if (k) { strides[k - 1] = stride; if (stride % 16) return "
            "CUDA_ERROR_INVALID_VALUE; }\n"
         << "      stride *= dims[k];\n    }\n"
         << "    if (" << a << " % 16) return CUDA_ERROR_INVALID_VALUE;\n"
         << "    if ((r = cuTensorMapEncodeTiled(&maps[" << i << "], " << dt
         << ", " << rank << ", (void *)(uintptr_t)" << a
         << ", dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, "
         << (swz == 128  ? "CU_TENSOR_MAP_SWIZZLE_128B"
             : swz == 64 ? "CU_TENSOR_MAP_SWIZZLE_64B"
             : swz == 32 ? "CU_TENSOR_MAP_SWIZZLE_32B"
                         : "CU_TENSOR_MAP_SWIZZLE_NONE")
         << ", CU_TENSOR_MAP_L2_PROMOTION_L2_256B, "
            "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)) != CUDA_SUCCESS) return r;\n"
         << "  }\n";
    }
    os << "  if ((r = cuMemcpyHtoDAsync(scratch, maps, sizeof maps, stream)) "
          "!= CUDA_SUCCESS) return r;\n";
  } else {
    os << "  (void)scratch;\n";
  }

  // Parameters in the kernel's order.
  os << "  uint64_t values[" << params.size() << "];\n  void *ptrs["
     << params.size() << "];\n";
  for (auto [i, p] : llvm::enumerate(params)) {
    int64_t arg = p.arg;
    os << "  values[" << i << "] = ";
    if (p.kind == LaunchParam::Ptr)
      os << "(uint64_t)arg" << arg;
    else if (p.kind == LaunchParam::Dim)
      os << "(uint64_t)arg" << arg << "_shape[" << p.dim << "]";
    else if (p.kind == LaunchParam::I64)
      os << "(uint64_t)arg" << arg;
    else
      os << "(uint64_t)scratch + " << 128 * arg;
    os << ";\n  ptrs[" << i << "] = &values[" << i << "];\n";
  }
  os << "  return cuLaunchKernel(fn, (unsigned)tiles, 1, 1, " << block[0]
     << ", " << block[1] << ", " << block[2] << ", "
     << launch->smemBytes << ", stream, ptrs, NULL);\n}\n\n#endif /* "
     << guard << " */\n";
  return success();
}
