// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- ClusterRow.cpp - What differs between the CTAs of a cluster --------===//

#include "cake/Analysis/ClusterRow.h"
#include "cake/Dialect/TmaMulticast.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::cake;

bool mlir::cake::dependsOnClusterRow(Value root) {
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
          continue; // the other tile indices: the cluster's column
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

Operation *mlir::cake::clusterRowDependentControl(Operation *op) {
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

PipeOp mlir::cake::pipeOfRing(Value ring) {
  auto kernel = ring.getParentRegion()->getParentOfType<KernelOp>();
  if (!kernel)
    return nullptr;
  for (auto pipe : kernel.getBody().getOps<PipeOp>())
    if (llvm::is_contained(pipe.getRings(), ring))
      return pipe;
  return nullptr;
}

bool mlir::cake::canMulticast(TmaLoadOp load, int64_t ctas) {
  if (!splitsIntoMulticastSlices(load.getDst().getType(), ctas))
    return false;
  for (Value c : load.getCoords())
    if (dependsOnClusterRow(c))
      return false;
  PipeOp pipe = pipeOfRing(load.getDst());
  if (!pipe)
    return false;
  for (Operation *user : pipe->getUsers())
    if (isa<PipeAcquireOp, PipeWaitOp, PipeCommitOp, PipeReleaseOp>(user) &&
        clusterRowDependentControl(user))
      return false;
  return true;
}
