// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- OverlapEpilogue.cpp - cake-overlap-epilogue ------------------------===//
//
// Rewrites a consumer loop whose epilogue follows its wgmma chain into the
// software-pipelined form (cake/Analysis/MmaChains.h) in which each
// iteration's wgmmas run beside the previous tile's epilogue.
//
//===----------------------------------------------------------------------===//

#include "cake/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace cake {
#define GEN_PASS_DEF_OVERLAPEPILOGUE
#include "cake/Passes.h.inc"
} // namespace cake
} // namespace mlir

using namespace mlir;
using namespace mlir::cake;

namespace {

/// A consumer loop in the serial form cake-overlap-epilogue rewrites: the
/// body's ops up to the last release (the chain) and after it (the
/// epilogue, which the chain's result feeds).
struct SerialEpilogueLoop {
  scf::ForOp loop;
  Operation *lastRelease = nullptr;
  Value result; ///< the chain's last wgmma
};

std::optional<SerialEpilogueLoop> serialEpilogueLoop(scf::ForOp loop) {
  SerialEpilogueLoop form{loop, nullptr, Value()};
  Block *body = loop.getBody();
  Value pipe;
  MmaOp last;
  llvm::DenseSet<Operation *> chain;
  for (Operation &op : body->without_terminator()) {
    if (isa<PipeAcquireOp, scf::ForOp, scf::WhileOp>(op))
      return std::nullopt;
    if (auto w = dyn_cast<PipeWaitOp>(op)) {
      if (pipe && w.getPipe() != pipe)
        return std::nullopt;
      pipe = w.getPipe();
    } else if (auto m = dyn_cast<MmaOp>(op)) {
      Value acc = m.getAcc();
      bool chained = last ? acc == last.getResult()
                          : isa_and_nonnull<FragZeroOp>(acc.getDefiningOp()) &&
                                acc.getDefiningOp()->getBlock() == body;
      if (m.getKind() != MmaKind::wgmma || !chained)
        return std::nullopt;
      last = m;
    } else if (auto r = dyn_cast<PipeReleaseOp>(op)) {
      if (!last || r.getPipe() != pipe)
        return std::nullopt;
      form.lastRelease = &op;
    }
  }
  if (!last || !form.lastRelease)
    return std::nullopt;
  form.result = last.getResult();
  // The chain: everything up to the last release. It must not read the
  // loop's carried values (it runs a tile ahead of them), and the epilogue
  // may read of it only its result.
  for (Operation &op : body->without_terminator()) {
    chain.insert(&op);
    if (&op == form.lastRelease)
      break;
  }
  bool ok = true;
  for (Operation *op : chain)
    op->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (auto arg = dyn_cast<BlockArgument>(v);
            arg && arg.getOwner() == body && arg != loop.getInductionVar())
          ok = false;
    });
  for (Operation &op : llvm::make_range(
           std::next(Block::iterator(form.lastRelease)), body->end())) {
    op.walk([&](Operation *inner) {
      if (isa<PipeWaitOp, PipeReleaseOp, PipeAcquireOp, MmaOp>(inner))
        ok = false;
      for (Value v : inner->getOperands())
        if (Operation *def = v.getDefiningOp();
            def && chain.count(def) && v != form.result)
          ok = false;
    });
  }
  // The result feeds the epilogue, not the next iteration.
  for (Operation *user : form.result.getUsers())
    if (isa<scf::YieldOp>(user) && user->getBlock() == body)
      ok = false;
  if (!ok)
    return std::nullopt;
  return form;
}

struct OverlapEpiloguePass
    : public mlir::cake::impl::OverlapEpilogueBase<OverlapEpiloguePass> {
  using OverlapEpilogueBase::OverlapEpilogueBase;

  /// Clones the epilogue (the ops after the chain, and the yield's values)
  /// at the builder with `mapping`; returns the yielded values.
  SmallVector<Value> cloneEpilogue(OpBuilder &b, const SerialEpilogueLoop &f,
                                   IRMapping &mapping) {
    Block *body = scf::ForOp(f.loop).getBody();
    for (Operation &op : llvm::make_range(
             std::next(Block::iterator(f.lastRelease)), body->end()))
      if (!isa<scf::YieldOp>(op))
        b.clone(op, mapping);
    SmallVector<Value> out;
    for (Value v : body->getTerminator()->getOperands())
      out.push_back(mapping.lookupOrDefault(v));
    return out;
  }

  void rewrite(const SerialEpilogueLoop &f) {
    scf::ForOp loop = f.loop; // a handle; the loop itself changes
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    auto accType = f.result.getType();
    Value zero = FragZeroOp::create(b, loc, accType);
    SmallVector<Value> inits(loop.getInitArgs());
    size_t n = inits.size();
    inits.push_back(zero);
    inits.push_back(loop.getLowerBound());
    auto pipelined = scf::ForOp::create(b, loc, loop.getLowerBound(),
                                        loop.getUpperBound(), loop.getStep(),
                                        inits);
    Block *newBody = pipelined.getBody();
    Value iv = pipelined.getInductionVar();
    ValueRange carried = pipelined.getRegionIterArgs();
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(newBody);
      if (!newBody->empty())
        b.setInsertionPoint(newBody->getTerminator());
      // This tile's chain.
      IRMapping chainMap;
      chainMap.map(loop.getInductionVar(), iv);
      for (Operation &op : *loop.getBody()) {
        b.clone(op, chainMap);
        if (&op == f.lastRelease)
          break;
      }
      // The previous tile's epilogue, from the second iteration on.
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          iv, loop.getLowerBound());
      auto guard = scf::IfOp::create(b, loc, loop.getResultTypes(), first,
                                     /*withElse=*/true);
      {
        OpBuilder::InsertionGuard gi(b);
        b.setInsertionPointToStart(guard.thenBlock());
        scf::YieldOp::create(b, loc, carried.take_front(n));
        b.setInsertionPointToStart(guard.elseBlock());
        IRMapping epi;
        epi.map(loop.getInductionVar(), carried[n + 1]);
        epi.map(f.result, carried[n]);
        for (size_t i = 0; i < n; ++i)
          epi.map(loop.getRegionIterArgs()[i], carried[i]);
        scf::YieldOp::create(b, loc, cloneEpilogue(b, f, epi));
      }
      SmallVector<Value> yields(guard.getResults());
      yields.push_back(chainMap.lookup(f.result));
      yields.push_back(iv);
      if (!newBody->empty() && isa<scf::YieldOp>(newBody->back()))
        newBody->back().erase();
      scf::YieldOp::create(b, loc, yields);
    }
    // The last tile's epilogue, when the loop ran.
    Value ran = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                      loop.getLowerBound(),
                                      loop.getUpperBound());
    auto tail = scf::IfOp::create(b, loc, loop.getResultTypes(), ran,
                                  /*withElse=*/true);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(tail.thenBlock());
      IRMapping epi;
      epi.map(loop.getInductionVar(), pipelined.getResult(n + 1));
      epi.map(f.result, pipelined.getResult(n));
      for (size_t i = 0; i < n; ++i)
        epi.map(loop.getRegionIterArgs()[i], pipelined.getResult(i));
      scf::YieldOp::create(b, loc, cloneEpilogue(b, f, epi));
      b.setInsertionPointToStart(tail.elseBlock());
      scf::YieldOp::create(b, loc, pipelined.getResults().take_front(n));
    }
    loop.replaceAllUsesWith(tail.getResults());
    loop.erase();
  }

  void runOnOperation() override {
    SmallVector<SerialEpilogueLoop> loops;
    bool found = roleName.empty();
    getOperation().walk([&](RoleOp role) {
      if (!roleName.empty() && role.getName() != roleName)
        return;
      found = true;
      role.walk([&](scf::ForOp loop) {
        if (auto f = serialEpilogueLoop(loop))
          loops.push_back(*f);
      });
    });
    if (!found) {
      getOperation().emitError("cake-overlap-epilogue: no role named \"")
          << roleName << "\"";
      return signalPassFailure();
    }
    for (const SerialEpilogueLoop &f : loops)
      rewrite(f);
  }
};

} // namespace
