// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Cluster.cpp - The rules of thread-block clusters -------------------===//
//
// sync.multicast-uniform: the CTAs of a cluster take neighbouring tiles
// along the schedule's first dimension (Schedule.cpp), so the tile index
// there is the one value that differs between them. A multicast copy
// writes one slice of every CTA's stage and each stage waits for the
// consumers of every CTA, so neither the box a multicast copy loads nor
// the sequence of hand-offs on its pipe may depend on that index.
//
//===----------------------------------------------------------------------===//

#include "RuleChecks.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

/// Whether `root` may depend on a tile index along the cluster's dimension
/// (the first block argument of a cake.tiles). Conservative: through an op
/// with regions, every value used inside counts.
static bool dependsOnClusterRow(Value root) {
  SmallVector<Value> work{root};
  llvm::DenseSet<Value> seen;
  auto pushOperands = [&](Operation *op) {
    llvm::append_range(work, op->getOperands());
    for (Region &r : op->getRegions())
      r.walk([&](Operation *inner) {
        llvm::append_range(work, inner->getOperands());
      });
  };
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (!owner || isa<KernelOp>(owner))
        continue; // kernel arguments are the same for every CTA
      if (auto tiles = dyn_cast<TilesOp>(owner)) {
        if (arg.getArgNumber() == 0)
          return true;
        if (arg.getArgNumber() < tiles.getExtents().size())
          continue; // the other tile indices are the cluster's column
      }
      if (auto loop = dyn_cast<scf::ForOp>(owner)) {
        work.push_back(loop.getLowerBound());
        work.push_back(loop.getUpperBound());
        work.push_back(loop.getStep());
        if (arg != loop.getInductionVar()) {
          unsigned i = arg.getArgNumber() - 1;
          work.push_back(loop.getInitArgs()[i]);
          work.push_back(loop.getBody()->getTerminator()->getOperand(i));
        }
        continue;
      }
      pushOperands(owner);
      continue;
    }
    pushOperands(v.getDefiningOp());
  }
  return false;
}

/// The first loop bound or condition around `op` (inside its role) that may
/// depend on the tile row, or null.
static Operation *rowDependentControl(Operation *op) {
  for (Operation *p = op->getParentOp(); p && !isa<RoleOp>(p);
       p = p->getParentOp()) {
    if (auto loop = dyn_cast<scf::ForOp>(p)) {
      if (dependsOnClusterRow(loop.getLowerBound()) ||
          dependsOnClusterRow(loop.getUpperBound()) ||
          dependsOnClusterRow(loop.getStep()))
        return p;
    } else if (auto branch = dyn_cast<scf::IfOp>(p)) {
      if (dependsOnClusterRow(branch.getCondition()))
        return p;
    } else if (!isa<TilesOp>(p)) {
      // scf.while and other control flow: any operand may steer it.
      for (Value v : p->getOperands())
        if (dependsOnClusterRow(v))
          return p;
    }
  }
  return nullptr;
}

bool verify::checkMulticastUniform(KernelFacts &f) {
  if (f.kernel.getCluster().value_or(1) < 2)
    return true;
  bool ok = true;
  llvm::DenseSet<Value> multicastPipes;
  f.kernel.walk([&](TmaLoadOp load) {
    if (!load.getMulticast())
      return;
    for (auto pipe : f.kernel.getBody().getOps<PipeOp>())
      if (KernelFacts::pipeHolds(pipe, load.getDst()))
        multicastPipes.insert(pipe);
    for (auto [i, c] : llvm::enumerate(load.getCoords()))
      if (dependsOnClusterRow(c)) {
        auto role = load->getParentOfType<RoleOp>();
        emitRuleError(load, RuleId::SyncMulticastUniform)
            << "coordinate #" << i << " of a multicast copy in "
            << DiagRole{role ? role.getName() : ""}
            << " depends on the tile row, which differs between the CTAs "
               "of the cluster; every CTA must load the same box (multicast "
               "the operand the cluster's tiles share)";
        ok = false;
      }
  });
  f.kernel.walk([&](Operation *op) {
    if (!isa<PipeAcquireOp, PipeWaitOp, PipeCommitOp, PipeReleaseOp>(op) ||
        !multicastPipes.contains(op->getOperand(0)))
      return;
    Operation *control = rowDependentControl(op);
    if (!control)
      return;
    auto role = op->getParentOfType<RoleOp>();
    emitRuleError(op, RuleId::SyncMulticastUniform)
        << "'" << op->getName() << "' on "
        << DiagPipe{f.pipeIndex.lookup(op->getOperand(0))} << " in "
        << DiagRole{role ? role.getName() : ""} << " runs under '"
        << control->getName()
        << "', whose bound or condition depends on the tile row: the CTAs "
           "of the cluster would hand off different stages of a pipe they "
           "fill and release together"
        << where(control);
    ok = false;
  });
  return ok;
}
