// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- LaunchInfo.cpp - Reading and checking cake.launch ------------------===//
//
// Every field of a `cake.launch` entry, checked before a writer uses it
// (translate/LaunchInfo.h).
//
//===----------------------------------------------------------------------===//

#include "LaunchInfo.h"
#include "cake/Target/TargetInfo.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::cake;

namespace {

/// Reads one entry, reporting the first field it refuses at `top`.
class LaunchReader {
public:
  explicit LaunchReader(ModuleOp top) : top(top) {}

  FailureOr<LaunchInfo> read(Attribute entryAttr);

private:
  InFlightDiagnostic refuse(StringRef field) {
    return top.emitError("cake.launch: '") << field << "' ";
  }
  /// An integer attribute `key` of `dict` in [lo, hi].
  bool intIn(DictionaryAttr dict, StringRef key, int64_t lo, int64_t hi,
             int64_t &out) {
    auto a = dict.getAs<IntegerAttr>(key);
    if (!a || a.getValue().getSignificantBits() > 64)
      return false;
    out = a.getInt();
    return out >= lo && out <= hi;
  }

  ModuleOp top;
};

} // namespace

FailureOr<LaunchInfo> LaunchReader::read(Attribute entryAttr) {
  LaunchInfo info;
  auto launch = dyn_cast<DictionaryAttr>(entryAttr);
  if (!launch)
    return top.emitError("cake.launch: expected a dictionary per kernel");

  auto module = launch.getAs<StringAttr>("module");
  if (!module || module.getValue().empty())
    return refuse("module") << "must name the kernel's gpu.binary";
  info.module = module.getValue().str();
  auto entry = launch.getAs<StringAttr>("entry");
  if (!entry || entry.getValue().empty())
    return refuse("entry") << "must be the kernel's name";
  info.entry = entry.getValue().str();
  info.target = launch.getAs<TargetAttr>("target");
  if (!info.target)
    return refuse("target") << "must be a #cake.target";

  auto block = launch.getAs<DenseI64ArrayAttr>("block");
  if (!block || block.size() != 3 ||
      llvm::any_of(block.asArrayRef(),
                   [](int64_t d) { return d < 1 || d > 1024; }))
    return refuse("block") << "must be 3 sizes from 1 to 1024";
  llvm::copy(block.asArrayRef(), info.block.begin());
  if (!intIn(launch, "smem_bytes", 0, INT32_MAX, info.smemBytes))
    return refuse("smem_bytes") << "must be an integer from 0 to 2^31-1";
  // Absent in modules lowered before clusters: one CTA. The bound is the
  // target's (hw.cluster), from the target table.
  const TargetInfo *target = lookupTarget(info.target.getArch());
  int64_t mostCluster = target ? target->maxClusterSizeNonPortable : 1;
  if (launch.get("cluster") &&
      !intIn(launch, "cluster", 1, mostCluster, info.cluster))
    return refuse("cluster") << "must be an integer from 1 to " << mostCluster
                             << " for " << info.target.getArch();

  auto args = launch.getAs<ArrayAttr>("args");
  if (!args)
    return refuse("args") << "must be an array";
  for (auto [i, a] : llvm::enumerate(args)) {
    auto ad = dyn_cast<DictionaryAttr>(a);
    auto kind = ad ? ad.getAs<StringAttr>("kind") : StringAttr();
    auto element = ad ? ad.getAs<TypeAttr>("element") : TypeAttr();
    if (!kind || !element ||
        (kind.getValue() != "global" && kind.getValue() != "scalar"))
      return refuse("args") << "#" << i
                            << " needs a kind (global or scalar) and an "
                               "element type";
    LaunchArg arg;
    arg.global = kind.getValue() == "global";
    arg.element = element.getValue();
    if (arg.global) {
      auto shape = ad.getAs<DenseI64ArrayAttr>("shape");
      if (!shape || shape.empty() || shape.size() > 5)
        return refuse("args") << "#" << i
                              << " is a tensor and needs a shape of rank 1 "
                                 "to 5";
      llvm::append_range(arg.shape, shape.asArrayRef());
    }
    info.args.push_back(std::move(arg));
  }
  int64_t numArgs = info.args.size();
  auto rankOf = [&](int64_t arg) {
    return info.args[arg].global ? int64_t(info.args[arg].shape.size()) : 0;
  };

  auto tma = launch.getAs<ArrayAttr>("tma");
  if (!tma)
    return refuse("tma") << "must be an array";
  for (auto [i, t] : llvm::enumerate(tma)) {
    auto td = dyn_cast<DictionaryAttr>(t);
    LaunchTma desc;
    auto box = td ? td.getAs<DenseI64ArrayAttr>("box") : DenseI64ArrayAttr();
    if (!td || !intIn(td, "arg", 0, numArgs - 1, desc.arg) ||
        !info.args[desc.arg].global)
      return refuse("tma") << "#" << i << " must name a tensor argument";
    if (!intIn(td, "swizzle", 0, 128, desc.swizzle) ||
        !llvm::is_contained({0, 32, 64, 128}, desc.swizzle))
      return refuse("tma") << "#" << i << " needs a swizzle of 0, 32, 64 "
                              "or 128";
    if (!box || int64_t(box.size()) != rankOf(desc.arg) ||
        llvm::any_of(box.asArrayRef(),
                     [](int64_t b) { return b < 1 || b > 256; }))
      return refuse("tma") << "#" << i
                           << " needs a box of the tensor's rank, sizes "
                              "from 1 to 256";
    llvm::append_range(desc.box, box.asArrayRef());
    info.tma.push_back(std::move(desc));
  }

  auto params = launch.getAs<ArrayAttr>("params");
  if (!params)
    return refuse("params") << "must be an array";
  for (auto [i, p] : llvm::enumerate(params)) {
    auto pd = dyn_cast<DictionaryAttr>(p);
    auto kind = pd ? pd.getAs<StringAttr>("kind") : StringAttr();
    if (!kind)
      return refuse("params") << "#" << i << " needs a kind";
    LaunchParam param;
    StringRef k = kind.getValue();
    if (k == "tma") {
      param.kind = LaunchParam::Tma;
      if (!intIn(pd, "arg", 0, int64_t(info.tma.size()) - 1, param.arg))
        return refuse("params") << "#" << i << " names no TMA descriptor";
    } else if (k == "ptr" || k == "dim" || k == "i64") {
      param.kind = k == "ptr"   ? LaunchParam::Ptr
                   : k == "dim" ? LaunchParam::Dim
                                : LaunchParam::I64;
      if (!intIn(pd, "arg", 0, numArgs - 1, param.arg))
        return refuse("params") << "#" << i << " names no argument";
      bool global = info.args[param.arg].global;
      if ((param.kind == LaunchParam::I64) == global)
        return refuse("params") << "#" << i << " is a " << k
                                << " of a " << (global ? "tensor" : "scalar");
      if (param.kind == LaunchParam::Dim &&
          !intIn(pd, "dim", 0, rankOf(param.arg) - 1, param.dim))
        return refuse("params") << "#" << i << " names no dimension of "
                                << "argument " << param.arg;
    } else {
      return refuse("params") << "#" << i << " has an unknown kind '" << k
                              << "'";
    }
    info.params.push_back(param);
  }

  Attribute schedule = launch.get("schedule");
  if (auto p = dyn_cast_or_null<PersistentAttr>(schedule)) {
    info.persistent = true;
    info.groupM = p.getGroupM();
    llvm::append_range(info.tile, p.getTile());
  } else if (auto g = dyn_cast_or_null<GridAttr>(schedule)) {
    llvm::append_range(info.tile, g.getTile());
  } else {
    return refuse("schedule") << "must be a #cake.persistent or #cake.grid";
  }
  auto extents = launch.getAs<ArrayAttr>("extents");
  if (!extents || extents.size() != info.tile.size())
    return refuse("extents") << "must give one extent per tile dimension ("
                             << info.tile.size() << ")";
  for (auto [i, e] : llvm::enumerate(extents)) {
    auto ed = dyn_cast<DenseI64ArrayAttr>(e);
    LaunchExtent extent;
    if (ed && ed.size() == 2) {
      extent.arg = ed[0];
      extent.dim = ed[1];
    }
    bool ok = ed && ed.size() == 2 && extent.arg >= 0 &&
              extent.arg < numArgs &&
              (extent.dim == -1 ? !info.args[extent.arg].global
                                : extent.dim >= 0 &&
                                      extent.dim < rankOf(extent.arg));
    if (!ok)
      return refuse("extents") << "#" << i
                               << " must be (argument, dimension) of an "
                                  "argument, or (index argument, -1)";
    info.extents.push_back(extent);
  }
  return info;
}

FailureOr<LaunchInfo> mlir::cake::readLaunch(ModuleOp top, Attribute entry) {
  return LaunchReader(top).read(entry);
}
