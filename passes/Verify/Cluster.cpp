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
#include "cake/Analysis/ClusterRow.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

bool verify::checkMulticastUniform(KernelFacts &f) {
  if (f.kernel.getCluster().value_or(1) < 2)
    return true;
  bool ok = true;
  llvm::DenseSet<Value> multicastPipes;
  f.kernel.walk([&](TmaLoadOp load) {
    if (!load.getMulticast())
      return;
    if (PipeOp pipe = pipeOfRing(load.getDst()))
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
    Operation *control = clusterRowDependentControl(op);
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
