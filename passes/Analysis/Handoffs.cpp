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

llvm::SmallVector<RoleOp> mlir::cake::pipeConsumers(PipeOp pipe) {
  llvm::SmallVector<RoleOp> consumers;
  auto kernel = pipe->getParentOfType<KernelOp>();
  if (!kernel)
    return consumers;
  for (RoleOp role : kernel.getBody().getOps<RoleOp>()) {
    bool waits = false;
    role.walk([&](PipeWaitOp w) { waits |= w.getPipe() == pipe.getResult(); });
    if (waits)
      consumers.push_back(role);
  }
  return consumers;
}

TilesOp mlir::cake::roleTileLoop(RoleOp role) {
  TilesOp loop;
  int count = 0;
  role.walk([&](TilesOp t) {
    loop = t;
    ++count;
  });
  return count == 1 ? loop : TilesOp();
}

std::optional<DealtPipe> mlir::cake::dealtPipe(PipeOp pipe) {
  llvm::SmallVector<RoleOp> consumers = pipeConsumers(pipe);
  if (consumers.size() < 2)
    return std::nullopt;
  DealtPipe dealt;
  dealt.producer = pipeRoles(pipe).first;
  dealt.consumers.assign(consumers.size(), RoleOp());
  for (RoleOp role : consumers) {
    TilesOp tiles = roleTileLoop(role);
    if (!tiles)
      return std::nullopt;
    auto [k, n] = tiles.getSliceOrWhole();
    if (n != int64_t(consumers.size()) || k < 0 || k >= n || dealt.consumers[k])
      return std::nullopt;
    dealt.consumers[k] = role;
  }
  return dealt;
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
