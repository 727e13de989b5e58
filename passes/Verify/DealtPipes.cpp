// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- DealtPipes.cpp - sync.dealt-pipe: one ring, several consumers ----===//
//
// A pipe whose stages go, tile by tile, to consumer roles on slices of the
// CTA's tiles (cake/Analysis/Handoffs.h: DealtPipe). The lowering puts each
// consumer's stages in the ring from one tile's hand-off count, so the rule
// asks for the shape that makes that count the same in every tile and every
// role, and for turns that keep the consumers' waits in the ring's order:
// an mbarrier wait tests the phase's parity only, and a consumer running two
// phases ahead of the producer would pass a stage not yet filled.
//
//===----------------------------------------------------------------------===//

#include "RuleChecks.h"
#include "cake/Analysis/Handoffs.h"
#include "cake/Analysis/RoleTurns.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

namespace {
/// The one scf.for directly in `tiles`' body that holds every hand-off of
/// `kind` on `pipe` in `role`, once an iteration and directly in its body,
/// with bounds from outside the tile loop; or the reason there is none.
template <typename HandoffOp>
FailureOr<scf::ForOp> handoffLoop(RoleOp role, TilesOp tiles, Value pipe,
                                  std::string &why, Operation *&at) {
  scf::ForOp loop;
  int count = 0;
  bool misplaced = false;
  role.walk([&](HandoffOp h) {
    if (h.getPipe() != pipe)
      return;
    ++count;
    auto parent = dyn_cast<scf::ForOp>(h->getParentOp());
    if (!parent || parent->getParentOp() != tiles.getOperation() ||
        (loop && parent != loop)) {
      misplaced = true;
      at = h;
      return;
    }
    loop = parent;
  });
  if (misplaced || !loop) {
    why = "its hand-offs on the pipe are not all in one scf.for directly in "
          "its tile loop";
    if (!at)
      at = role;
    return failure();
  }
  int perIteration = 0;
  for (Operation &op : *loop.getBody())
    perIteration += isa<HandoffOp>(op) && op.getOperand(0) == pipe;
  if (perIteration != 1 || count != 1) {
    why = "its loop over the pipe hands off " + std::to_string(count) +
          " times an iteration, not once";
    at = loop;
    return failure();
  }
  for (Value bound :
       {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
    if (tiles.getBody().isAncestor(bound.getParentRegion())) {
      why = "its loop over the pipe takes a bound computed inside the tile "
            "loop, so a tile's count may differ from another's";
      at = loop;
      return failure();
    }
  return loop;
}
} // namespace

bool verify::checkDealtPipes(KernelFacts &f) {
  bool ok = true;
  std::string turnsError;
  FailureOr<RoleTurns> turns = getRoleTurns(f.kernel, turnsError);
  for (PipeOp pipe : f.kernel.getBody().getOps<PipeOp>()) {
    SmallVector<RoleOp> consumers = pipeConsumers(pipe);
    if (consumers.size() < 2)
      continue;
    unsigned index = f.pipeIndex.lookup(pipe);
    std::optional<DealtPipe> dealt = dealtPipe(pipe);
    if (!dealt) {
      InFlightDiagnostic d =
          emitRuleError(pipe, RuleId::SyncDealtPipe)
          << DiagPipe{index} << " has " << consumers.size()
          << " consumer roles; several consumers share a pipe only as a dealt "
             "pipe, each in one tile loop on its own slice k of n = "
          << consumers.size() << " of the CTA's tiles";
      for (RoleOp r : consumers) {
        TilesOp t = roleTileLoop(r);
        auto [k, n] = t ? t.getSliceOrWhole() : std::pair<int64_t, int64_t>{};
        Diagnostic &note = d.attachNote(r.getLoc());
        note << "consumer " << DiagRole{r.getName()};
        if (t)
          note << " takes slice " << k << " of " << n;
        else
          note << " does not walk exactly one tile loop";
      }
      ok = false;
      continue;
    }
    RoleOp producer = dealt->producer;
    if (!producer)
      continue; // sync.pipe-roles reports a pipe no role fills
    TilesOp producerTiles = roleTileLoop(producer);
    if (!producerTiles || producerTiles.getSliceOrWhole().second != 1) {
      emitRuleError(producer, RuleId::SyncDealtPipe)
          << DiagRole{producer.getName()} << " fills dealt " << DiagPipe{index}
          << " but does not walk all of the CTA's tiles in one tile loop: "
             "each consumer takes the stages of its own slice of them";
      ok = false;
      continue;
    }
    int64_t warps = dealt->consumers.front().getNumWarps();
    for (RoleOp r : dealt->consumers)
      if (r.getNumWarps() != warps) {
        emitRuleError(r, RuleId::SyncDealtPipe)
            << DiagRole{r.getName()} << " has " << r.getNumWarps()
            << " warps and " << DiagRole{dealt->consumers.front().getName()}
            << " " << warps << ", but both release stages of dealt "
            << DiagPipe{index}
            << ", whose empty barriers expect one count of arrivals";
        ok = false;
      }
    for (auto [k, r] : llvm::enumerate(dealt->consumers)) {
      if (succeeded(turns) && turns->indexOf(r) == int(k))
        continue;
      emitRuleError(r, RuleId::SyncDealtPipe)
          << DiagRole{r.getName()} << " takes slice " << k << " of dealt "
          << DiagPipe{index} << "'s tiles but not turn " << k
          << " (cake.role_turns): without turns in slice order a consumer may "
             "wait two phases ahead of the producer and pass a stage not yet "
             "filled (an mbarrier wait tests the phase's parity only)";
      ok = false;
    }
    // Every role's hand-offs in one loop of the same shape, the consumers'
    // inside their turns.
    auto shape = [&](RoleOp r, bool isProducer) -> bool {
      std::string why;
      Operation *at = nullptr;
      TilesOp tiles = roleTileLoop(r);
      FailureOr<scf::ForOp> loop =
          isProducer ? handoffLoop<PipeAcquireOp>(r, tiles, pipe, why, at)
                     : handoffLoop<PipeWaitOp>(r, tiles, pipe, why, at);
      if (failed(loop)) {
        emitRuleError(at, RuleId::SyncDealtPipe)
            << DiagRole{r.getName()} << " hands off dealt " << DiagPipe{index}
            << ", but " << why
            << ": the consumers skip the other slices' stages by a tile's "
               "count of them";
        return false;
      }
      if (isProducer)
        return true;
      auto [first, last] = roleTurnSpan(tiles);
      bool inside = false;
      for (Operation *op = first; op; op = op->getNextNode()) {
        inside |= op == loop->getOperation();
        if (op == last)
          break;
      }
      if (!inside) {
        emitRuleError(*loop, RuleId::SyncDealtPipe)
            << DiagRole{r.getName()} << " waits on dealt " << DiagPipe{index}
            << " outside its turn (cake.role_turns spans the tile body's ops "
               "from the first that issues a cake.mma to the last)";
        return false;
      }
      return true;
    };
    ok &= shape(producer, true);
    for (RoleOp r : dealt->consumers)
      ok &= shape(r, false);
  }
  return ok;
}
