// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- RoleTurns.cpp - Roles that take turns over their main loops --------===//
//
// The derived facts of cake.role_turns (cake/Analysis/RoleTurns.h).
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/RoleTurns.h"
#include "cake/Analysis/KernelLayout.h"

using namespace mlir;
using namespace mlir::cake;

int RoleTurns::indexOf(RoleOp role) const {
  for (auto [i, r] : llvm::enumerate(roles))
    if (r == role)
      return int(i);
  return -1;
}

int64_t RoleTurns::barrierThreads(unsigned i) const {
  unsigned before = (i + roles.size() - 1) % roles.size();
  RoleOp waiter = roles[i], passer = roles[before];
  return (waiter.getNumWarps() + passer.getNumWarps()) * 32;
}

FailureOr<RoleTurns> mlir::cake::getRoleTurns(KernelOp kernel,
                                              std::string &error) {
  RoleTurns turns;
  Attribute attr = kernel->getAttr(kRoleTurnsAttrName);
  if (!attr)
    return turns;
  auto names = dyn_cast<ArrayAttr>(attr);
  if (!names || names.size() < 2) {
    error = "cake.role_turns must name two or more roles, in turn order "
            "(an array of strings)";
    return failure();
  }
  for (Attribute a : names) {
    auto name = dyn_cast<StringAttr>(a);
    if (!name) {
      error = "cake.role_turns must be an array of role names (strings)";
      return failure();
    }
    RoleOp found;
    for (RoleOp r : kernel.getBody().getOps<RoleOp>())
      if (r.getName() == name.getValue())
        found = r;
    if (!found) {
      error = "cake.role_turns names \"" + name.getValue().str() +
              "\", which is not a role of the kernel";
      return failure();
    }
    if (turns.indexOf(found) >= 0) {
      error = "cake.role_turns names \"" + name.getValue().str() + "\" twice";
      return failure();
    }
    turns.roles.push_back(found);
  }
  // After the barriers derived for the kernel's ops and the range that
  // wg-order takes for a role of several warpgroups (it may be switched on
  // by the lowering's option, so the range is kept whether or not the
  // kernel records it).
  int64_t orderRange = 0;
  for (RoleOp r : kernel.getBody().getOps<RoleOp>())
    if (r.getWarpgroups() && r.getNumWarps() / 4 >= 2)
      orderRange = std::max<int64_t>(orderRange, r.getNumWarps() / 4);
  turns.barrierBase = computeDerivedBarriers(kernel).last + 1 + orderRange;
  return turns;
}

std::pair<Operation *, Operation *> mlir::cake::roleTurnSpan(TilesOp tiles) {
  Operation *first = nullptr, *last = nullptr;
  for (Operation &op : tiles.getBody().front()) {
    bool hasMma = false;
    op.walk([&](MmaOp) { hasMma = true; });
    if (!hasMma)
      continue;
    if (!first)
      first = &op;
    last = &op;
  }
  return {first, last};
}
