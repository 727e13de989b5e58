//===- TripCount.cpp - sync.trip-count-mismatch ---------------------------===//
//
// Counts each role's hand-offs on a pipe as a polynomial in loop trip
// counts, whose keys (cake/Analysis/IndexExpr.h) are equal across roles for
// equal values, and compares producer with consumer.
//
//===----------------------------------------------------------------------===//

#include "RuleChecks.h"
#include "cake/Analysis/Handoffs.h"
#include "cake/Analysis/IndexExpr.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

std::string verify::countStr(const Count &c) {
  if (c.empty())
    return "0";
  std::string s;
  for (auto &[mono, coef] : c) {
    if (!s.empty())
      s += " + ";
    if (mono.empty())
      s += std::to_string(coef);
    else
      s += (coef == 1 ? "" : std::to_string(coef) + "*") + mono;
  }
  return s;
}

Count verify::countOps(Block &block, llvm::function_ref<bool(Operation *)> match,
               KernelOp kernel, bool &unproven) {
  Count total;
  for (Operation &op : block) {
    if (match(&op)) {
      total[""] += 1;
      continue;
    }
    if (op.getNumRegions() == 0)
      continue;
    std::string factor;
    if (auto f = dyn_cast<scf::ForOp>(op)) {
      auto lb = indexKey(f.getLowerBound(), kernel);
      auto ub = indexKey(f.getUpperBound(), kernel);
      auto st = indexKey(f.getStep(), kernel);
      if (!lb || !ub || !st)
        unproven = true;
      else
        factor = "trip(" + *lb + ".." + *ub + " by " + *st + ")";
    } else if (auto t = dyn_cast<TilesOp>(op)) {
      // Slices of the CTA's tiles run different counts of tiles (3 tiles:
      // 2 and 1 for slices of 2), so each is its own factor.
      factor = "tiles";
      if (auto [k, n] = t.getSliceOrWhole(); n > 1)
        factor += "[" + std::to_string(k) + "/" + std::to_string(n) + "]";
    } else if (!isa<FragMapOp>(op)) {
      // scf.if and friends: the count depends on a condition.
      bool any = false;
      op.walk([&](Operation *inner) { any |= match(inner); });
      if (any)
        unproven = true;
      continue;
    }
    for (Region &r : op.getRegions())
      for (Block &b : r) {
        Count inner = countOps(b, match, kernel, unproven);
        for (auto &[mono, coef] : inner) {
          std::string m = factor;
          if (!mono.empty())
            m = m.empty() ? mono : (mono < m ? mono + "*" + m : m + "*" + mono);
          total[m] += coef;
        }
      }
  }
  return total;
}

/// Counts the hand-offs of `kind` on `pipe` in `block`.
template <typename HandoffOp>
static Count countHandoffs(Block &block, Value pipe, KernelOp kernel,
                           bool &unproven) {
  return countOps(
      block,
      [&](Operation *op) {
        auto h = dyn_cast<HandoffOp>(op);
        return h && h.getPipe() == pipe;
      },
      kernel, unproven);
}

/// sync.trip-count-mismatch
bool verify::checkTripCounts(KernelFacts &f) {
  bool ok = true;
  for (auto pipe : f.kernel.getBody().getOps<PipeOp>()) {
    unsigned index = f.pipeIndex.lookup(pipe);
    auto [producer, consumer] = pipeRoles(pipe);
    if (!producer || !consumer)
      continue; // sync.pipe-roles reports these
    bool unproven = false;
    Count made = countHandoffs<PipeAcquireOp>(producer.getBody().front(), pipe,
                                              f.kernel, unproven);
    Count taken = countHandoffs<PipeWaitOp>(consumer.getBody().front(), pipe,
                                            f.kernel, unproven);
    if (unproven) {
      emitWarning(pipe.getLoc())
          << "[" << getRuleInfo(RuleId::SyncTripCountMismatch).id
          << "] unproven: the hand-offs on " << DiagPipe{index}
          << " depend on values or conditions Cake cannot compare across "
             "roles";
      continue;
    }
    if (made != taken) {
      InFlightDiagnostic d = emitRuleError(pipe, RuleId::SyncTripCountMismatch)
                             << DiagRole{consumer.getName()} << " waits "
                             << countStr(taken) << " times on "
                             << DiagPipe{index} << " but "
                             << DiagRole{producer.getName()} << " commits "
                             << countStr(made) << " times";
      d.attachNote(producer.getLoc())
          << "producer " << DiagRole{producer.getName()};
      d.attachNote(consumer.getLoc())
          << "consumer " << DiagRole{consumer.getName()};
      d.attachNote(pipe.getLoc())
          << "hint: both roles must run the same loops around their "
             "hand-offs on this pipe";
      ok = false;
    }
  }
  return ok;
}
