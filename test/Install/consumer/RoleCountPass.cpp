// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- RoleCountPass.cpp - An out-of-tree pass over Cake IR
//----------------===//
//
// Built against an installed Cake (Cake::Dialect) and loaded into the
// installed cake-opt with --load-pass-plugin: `cake-count-roles` remarks,
// on every cake.kernel, its roles and their warps, read through Cake's C++
// op classes.
//
//===----------------------------------------------------------------------===//

#include "cake/Dialect/CakeDialect.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

namespace {
struct RoleCountPass : mlir::PassWrapper<RoleCountPass, mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RoleCountPass)
  llvm::StringRef getArgument() const final { return "cake-count-roles"; }
  llvm::StringRef getDescription() const final {
    return "Remarks the roles of every cake.kernel";
  }
  void runOnOperation() override {
    getOperation()->walk([](mlir::cake::KernelOp kernel) {
      int roles = 0, warps = 0;
      kernel.walk([&](mlir::cake::RoleOp role) {
        ++roles;
        warps += role.getNumWarps();
      });
      kernel.emitRemark() << "cake-count-roles: " << roles << " roles, "
                          << warps << " warps";
    });
  }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "RoleCountPass", "0.1",
          [] { mlir::PassRegistration<RoleCountPass>(); }};
}
