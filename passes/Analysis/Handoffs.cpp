// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Handoffs.cpp - Who produces and consumes each pipe -----------------===//
//
// The sides of a pipe's hand-offs (cake/Analysis/Handoffs.h).
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/Handoffs.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::cake;

std::pair<RoleOp, RoleOp> mlir::cake::pipeRoles(PipeOp pipe) {
  RoleOp producer, consumer;
  for (Operation *user : pipe->getUsers()) {
    if (isa<PipeAcquireOp>(user))
      producer = user->getParentOfType<RoleOp>();
    if (isa<PipeWaitOp>(user))
      consumer = user->getParentOfType<RoleOp>();
  }
  return {producer, consumer};
}

RoleOp mlir::cake::selfFillingRole(PipeOp pipe) {
  auto [producer, consumer] = pipeRoles(pipe);
  return producer && producer == consumer ? producer : RoleOp();
}

bool mlir::cake::isFilledByTma(PipeAcquireOp acquire) {
  return llvm::any_of(acquire.getStage().getUsers(),
                      [](Operation *u) { return isa<TmaLoadOp>(u); });
}

bool mlir::cake::isFilledByThreadCopies(PipeAcquireOp acquire) {
  return llvm::any_of(acquire.getStage().getUsers(), [](Operation *u) {
    return isa<GatherOp, CpAsyncLoadOp>(u);
  });
}

bool mlir::cake::isThreadHandoff(PipeOp pipe) {
  // A stage the copy engine fills completes on its bytes (sync.fill-kind
  // keeps stores out of it).
  for (Operation *u : pipe->getUsers())
    if (auto acquire = dyn_cast<PipeAcquireOp>(u);
        acquire && isFilledByTma(acquire))
      return false;
  bool stored = false, loaded = false;
  for (Value ring : pipe.getRings())
    for (Operation *u : ring.getUsers()) {
      stored |= isa<SmemWriteOp>(u);
      loaded |= isa<SmemReadOp, SmemReduceOp>(u);
    }
  return stored && loaded && !isFilledByThreadCopies(pipe);
}

bool mlir::cake::isFilledByThreadCopies(PipeOp pipe) {
  return llvm::any_of(pipe->getUsers(), [](Operation *u) {
    auto acquire = dyn_cast<PipeAcquireOp>(u);
    return acquire && isFilledByThreadCopies(acquire);
  });
}
