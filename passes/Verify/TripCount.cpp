// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

#include <algorithm>
#include <set>

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

std::string verify::where(Operation *op) {
  if (auto l = dyn_cast<FileLineColLoc>(op->getLoc()))
    return " at line " + std::to_string(l.getLine());
  return "";
}

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

std::optional<int64_t> verify::constantTripCount(Operation *op) {
  auto f = dyn_cast<scf::ForOp>(op);
  if (!f)
    return std::nullopt;
  std::optional<int64_t> lb = getConstantIntValue(f.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(f.getUpperBound());
  std::optional<int64_t> st = getConstantIntValue(f.getStep());
  if (!lb || !ub || !st || *st <= 0)
    return std::nullopt;
  if (*ub <= *lb)
    return 0;
  // Unsigned: ub - lb is exact there for any bounds with ub > lb.
  uint64_t span = uint64_t(*ub) - uint64_t(*lb), step = uint64_t(*st);
  uint64_t trips = span / step + (span % step != 0);
  if (trips > (uint64_t(1) << 30))
    return std::nullopt;
  return static_cast<int64_t>(trips);
}

/// The factors of a monomial ("" is 1).
static std::vector<std::string> factorsOf(const std::string &mono) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < mono.size()) {
    size_t end = mono.find('*', start);
    if (end == std::string::npos)
      end = mono.size();
    out.push_back(mono.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

/// a·b with factors sorted; a condition factor ("[...]") is idempotent.
static std::string mulMono(const std::string &a, const std::string &b) {
  std::vector<std::string> f = factorsOf(a), g = factorsOf(b);
  f.insert(f.end(), g.begin(), g.end());
  std::sort(f.begin(), f.end());
  std::string out;
  for (size_t i = 0; i < f.size(); ++i) {
    if (i > 0 && f[i][0] == '[' && f[i] == f[i - 1])
      continue;
    out += (out.empty() ? "" : "*") + f[i];
  }
  return out;
}

static void dropZeros(Count &c) {
  for (auto it = c.begin(); it != c.end();)
    it = it->second == 0 ? c.erase(it) : std::next(it);
}

/// The scf.if on a first-iteration flag of `loop` directly in its body:
/// its branches are counted with the loop (once, and trips - 1 times).
static bool onFirstFlagOf(scf::IfOp ifOp, Operation *loop) {
  auto use = asFirstFlag(ifOp.getCondition());
  return use && !use->isResult && use->loop == loop &&
         ifOp->getParentOp() == loop;
}

Count verify::countOps(Block &block,
                       llvm::function_ref<bool(Operation *)> match,
                       KernelOp kernel, Operation *&unprovenAt,
                       ConditionSites *sites) {
  Count total;
  auto matchesIn = [&](Operation &op) {
    bool any = false;
    op.walk([&](Operation *inner) { any |= match(inner); });
    return any;
  };
  for (Operation &op : block) {
    if (match(&op)) {
      total[""] += 1;
      continue;
    }
    if (op.getNumRegions() == 0)
      continue;
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      if (!matchesIn(op))
        continue;
      // An scf.if on its loop's first-iteration flag: counted by the loop.
      if (onFirstFlagOf(ifOp, block.getParentOp()))
        continue;
      auto key = conditionKey(ifOp.getCondition(), kernel);
      if (!key) {
        if (!unprovenAt)
          unprovenAt = &op;
        continue;
      }
      if (key->first == "true") { // a constant: only one branch runs
        if (Block *taken = key->second ? ifOp.elseBlock() : ifOp.thenBlock())
          for (auto &[mono, coef] :
               countOps(*taken, match, kernel, unprovenAt, sites))
            total[mono] += coef;
        continue;
      }
      std::string atom = "[" + key->first + "]";
      if (sites && !sites->count(atom))
        (*sites)[atom] = {&op, key->second};
      // The branch taken when [atom] holds, and the other.
      Block *whenTrue = key->second ? ifOp.elseBlock() : ifOp.thenBlock();
      Block *whenFalse = key->second ? ifOp.thenBlock() : ifOp.elseBlock();
      if (whenTrue)
        for (auto &[mono, coef] :
             countOps(*whenTrue, match, kernel, unprovenAt, sites))
          total[mulMono(mono, atom)] += coef;
      if (whenFalse)
        for (auto &[mono, coef] :
             countOps(*whenFalse, match, kernel, unprovenAt, sites)) {
          total[mono] += coef;
          total[mulMono(mono, atom)] -= coef;
        }
      continue;
    }
    if (isa<FragMapOp>(op)) { // its body runs per element, not per hand-off
      for (auto &[mono, coef] :
           countOps(op.getRegion(0).front(), match, kernel, unprovenAt, sites))
        total[mono] += coef;
      continue;
    }
    if (!isa<scf::ForOp, TilesOp>(op)) {
      // scf.while and friends: the count depends on what Cake cannot key.
      if (matchesIn(op) && !unprovenAt)
        unprovenAt = &op;
      continue;
    }
    // A loop: its body `trips` times (a constant) or `factor` times (a
    // key), and the branches on its first-iteration flag once and
    // trips - 1 times: `once` is 1 when the loop runs at all.
    std::optional<int64_t> trips = constantTripCount(&op);
    std::string factor, once;
    if (!trips) {
      std::optional<std::string> key = loopCountKey(&op, kernel);
      if (!key) {
        // Only a loop around what is counted makes the count unknown.
        if (matchesIn(op) && !unprovenAt)
          unprovenAt = &op;
        continue;
      }
      factor = *key;
      once = "[" + loopRanKey(*key) + "]";
    }
    auto addTimes = [&](const Count &c, bool perIteration, int64_t sign) {
      for (auto &[mono, coef] : c) {
        if (trips)
          total[mono] += sign * coef * (perIteration ? *trips : *trips > 0);
        else
          total[mulMono(mono, perIteration ? factor : once)] += sign * coef;
      }
    };
    Block &body = op.getRegion(0).front();
    addTimes(countOps(body, match, kernel, unprovenAt, sites), true, 1);
    for (auto ifOp : body.getOps<scf::IfOp>()) {
      if (!onFirstFlagOf(ifOp, &op) || !matchesIn(*ifOp))
        continue;
      auto use = asFirstFlag(ifOp.getCondition());
      bool init = *firstFlagInit(&op, use->index);
      // The branch taken in the first iteration, and in the others.
      bool thenFirst = init != use->negated;
      Block *first = thenFirst ? ifOp.thenBlock() : ifOp.elseBlock();
      Block *rest = thenFirst ? ifOp.elseBlock() : ifOp.thenBlock();
      if (!trips && sites && !sites->count(once))
        (*sites)[once] = {&op,
                          false}; // the loop: "runs" or "runs no iteration"
      if (first)
        addTimes(countOps(*first, match, kernel, unprovenAt, sites), false, 1);
      if (rest) {
        Count c = countOps(*rest, match, kernel, unprovenAt, sites);
        addTimes(c, true, 1);
        addTimes(c, false, -1);
      }
    }
  }
  dropZeros(total);
  return total;
}

/// The condition factors of a count.
static std::set<std::string> conditionsOf(const Count &c) {
  std::set<std::string> out;
  for (auto &[mono, coef] : c)
    for (const std::string &f : factorsOf(mono))
      if (f[0] == '[')
        out.insert(f);
  return out;
}

/// `c` with each condition set to its value in `assignment`.
static Count onPath(const Count &c,
                    const std::map<std::string, bool> &assignment) {
  Count out;
  for (auto &[mono, coef] : c) {
    std::string rest;
    bool zero = false;
    for (const std::string &f : factorsOf(mono)) {
      if (f[0] == '[') {
        zero |= !assignment.at(f);
        continue;
      }
      // A loop that runs no iteration on this path counts nothing.
      auto ran = assignment.find("[" + loopRanKey(f) + "]");
      zero |= ran != assignment.end() && !ran->second;
      rest = mulMono(rest, f);
    }
    if (!zero)
      out[rest] += coef;
  }
  dropZeros(out);
  return out;
}

CountComparison verify::compareCounts(const Count &lhs, const Count &rhs,
                                      const ConditionSites &sites) {
  CountComparison r;
  if (lhs == rhs)
    return r;
  r.equal = false;
  std::set<std::string> a = conditionsOf(lhs), b = conditionsOf(rhs);
  bool nested = std::includes(a.begin(), a.end(), b.begin(), b.end()) ||
                std::includes(b.begin(), b.end(), a.begin(), a.end());
  std::vector<std::string> atoms(a.begin(), a.end());
  atoms.insert(atoms.end(), b.begin(), b.end());
  std::sort(atoms.begin(), atoms.end());
  atoms.erase(std::unique(atoms.begin(), atoms.end()), atoms.end());
  if (!nested || atoms.size() > 12) {
    r.proven = atoms.empty();
    r.lhsOnPath = lhs;
    r.rhsOnPath = rhs;
    return r;
  }
  // Distinct polynomials in idempotent conditions differ on some path.
  for (uint64_t bits = 0; bits < (uint64_t(1) << atoms.size()); ++bits) {
    std::map<std::string, bool> assignment;
    for (size_t i = 0; i < atoms.size(); ++i)
      assignment[atoms[i]] = (bits >> i) & 1;
    Count l = onPath(lhs, assignment), rr = onPath(rhs, assignment);
    if (l == rr)
      continue;
    r.lhsOnPath = l;
    r.rhsOnPath = rr;
    for (const std::string &atom : atoms) {
      auto [op, negated] = sites.at(atom);
      r.path += r.path.empty() ? "" : " and ";
      if (!isa<scf::IfOp>(op)) { // a loop's [ran(...)]
        r.path += "the loop" + where(op) +
                  (assignment[atom] ? " runs" : " runs no iteration");
        continue;
      }
      bool then = assignment[atom] != negated;
      r.path += "the scf.if" + where(op) + " takes its " +
                (then ? "then" : "else") + " branch";
    }
    return r;
  }
  return r; // not reached: the counts differ
}

bool verify::reportUnprovenCount(KernelOp kernel, Operation *anchor,
                                 RuleId rule,
                                 llvm::function_ref<void(Diagnostic &)> what,
                                 Operation *unprovenAt) {
  // Why the counts cannot be compared, naming the op that hides them.
  std::string why;
  if (!unprovenAt)
    why = "the roles test conditions Cake cannot relate to each other";
  else if (isa<scf::IfOp>(unprovenAt))
    why = "the scf.if" + where(unprovenAt) +
          " tests a condition Cake cannot key across roles";
  else if (isa<scf::ForOp>(unprovenAt))
    why = "the scf.for" + where(unprovenAt) +
          " has bounds Cake cannot key across roles";
  else
    why = "the '" + unprovenAt->getName().getStringRef().str() + "'" +
          where(unprovenAt) +
          " repeats them a number of times Cake cannot count (it counts "
          "scf.for and scf.if)";
  if (kernel->hasAttr(kTrustCountsAttrName)) {
    InFlightDiagnostic d = emitWarning(anchor->getLoc());
    d << "[" << getRuleInfo(rule).id << "] unproven, trusted by "
      << kTrustCountsAttrName << ": ";
    what(*d.getUnderlyingDiagnostic());
    d << "; " << why;
    return true;
  }
  InFlightDiagnostic d = emitRuleError(anchor, rule);
  d << "cannot prove on every path that ";
  what(*d.getUnderlyingDiagnostic());
  d << ": " << why;
  if (unprovenAt)
    d.attachNote(unprovenAt->getLoc()) << "the count depends on this op";
  d.attachNote(anchor->getLoc())
      << "hint: bound the loops and key the conditions on kernel arguments, "
         "tile indices, constants or loads both roles make; or mark the "
         "kernel `"
      << kTrustCountsAttrName << "` to accept the counts unproven (a warning)";
  return false;
}

/// Counts the hand-offs of `kind` on `pipe` in `block`.
template <typename HandoffOp>
static Count countHandoffs(Block &block, Value pipe, KernelOp kernel,
                           Operation *&unprovenAt, ConditionSites &sites) {
  return countOps(
      block,
      [&](Operation *op) {
        auto h = dyn_cast<HandoffOp>(op);
        return h && h.getPipe() == pipe;
      },
      kernel, unprovenAt, &sites);
}

/// A dealt pipe: per tile, every consumer waits as often as the producer
/// commits (sync.dealt-pipe keeps the hand-offs inside the tile loops).
static bool checkDealtCounts(KernelFacts &f, PipeOp pipe, DealtPipe dealt) {
  TilesOp producerTiles =
      dealt.producer ? roleTileLoop(dealt.producer) : TilesOp();
  if (!producerTiles)
    return true; // sync.pipe-roles or sync.dealt-pipe reports it
  unsigned index = f.pipeIndex.lookup(pipe);
  bool ok = true;
  for (RoleOp consumer : dealt.consumers) {
    Operation *unprovenAt = nullptr;
    ConditionSites sites;
    Count made = countHandoffs<PipeAcquireOp>(
        producerTiles.getBody().front(), pipe, f.kernel, unprovenAt, sites);
    Count taken =
        countHandoffs<PipeWaitOp>(roleTileLoop(consumer).getBody().front(),
                                  pipe, f.kernel, unprovenAt, sites);
    CountComparison cmp = compareCounts(taken, made, sites);
    if (unprovenAt || !cmp.proven) {
      ok &= reportUnprovenCount(
          f.kernel, pipe, RuleId::SyncTripCountMismatch,
          [&](Diagnostic &d) {
            d << DiagRole{consumer.getName()} << " waits on dealt "
              << DiagPipe{index} << " a tile as often as "
              << DiagRole{dealt.producer.getName()} << " commits";
          },
          unprovenAt);
      continue;
    }
    if (cmp.equal)
      continue;
    InFlightDiagnostic d = emitRuleError(pipe, RuleId::SyncTripCountMismatch)
                           << DiagRole{consumer.getName()} << " waits "
                           << countStr(cmp.lhsOnPath) << " times a tile on "
                           << "dealt " << DiagPipe{index} << " but "
                           << DiagRole{dealt.producer.getName()} << " commits "
                           << countStr(cmp.rhsOnPath) << " times";
    d.attachNote(dealt.producer.getLoc())
        << "producer " << DiagRole{dealt.producer.getName()};
    d.attachNote(consumer.getLoc())
        << "consumer " << DiagRole{consumer.getName()};
    ok = false;
  }
  return ok;
}

/// sync.trip-count-mismatch
bool verify::checkTripCounts(KernelFacts &f) {
  bool ok = true;
  for (auto pipe : f.kernel.getBody().getOps<PipeOp>()) {
    unsigned index = f.pipeIndex.lookup(pipe);
    if (std::optional<DealtPipe> dealt = dealtPipe(pipe)) {
      ok &= checkDealtCounts(f, pipe, *dealt);
      continue;
    }
    if (pipeConsumers(pipe).size() > 1)
      continue; // sync.dealt-pipe reports a pipe of several consumers
    auto [producer, consumer] = pipeRoles(pipe);
    if (!producer || !consumer)
      continue; // sync.pipe-roles reports these
    Operation *unprovenAt = nullptr;
    ConditionSites sites;
    Count made = countHandoffs<PipeAcquireOp>(producer.getBody().front(), pipe,
                                              f.kernel, unprovenAt, sites);
    Count taken = countHandoffs<PipeWaitOp>(consumer.getBody().front(), pipe,
                                            f.kernel, unprovenAt, sites);
    CountComparison cmp = compareCounts(taken, made, sites);
    if (unprovenAt || !cmp.proven) {
      ok &= reportUnprovenCount(
          f.kernel, pipe, RuleId::SyncTripCountMismatch,
          [&](Diagnostic &d) {
            d << DiagRole{consumer.getName()} << " waits on " << DiagPipe{index}
              << " as often as " << DiagRole{producer.getName()} << " commits";
          },
          unprovenAt);
      continue;
    }
    if (!cmp.equal) {
      InFlightDiagnostic d = emitRuleError(pipe, RuleId::SyncTripCountMismatch)
                             << DiagRole{consumer.getName()} << " waits "
                             << countStr(cmp.lhsOnPath) << " times on "
                             << DiagPipe{index} << " but "
                             << DiagRole{producer.getName()} << " commits "
                             << countStr(cmp.rhsOnPath) << " times";
      if (!cmp.path.empty())
        d << " on the path where " << cmp.path;
      d.attachNote(producer.getLoc())
          << "producer " << DiagRole{producer.getName()};
      d.attachNote(consumer.getLoc())
          << "consumer " << DiagRole{consumer.getName()};
      d.attachNote(pipe.getLoc())
          << "hint: both roles must run the same loops, and test the same "
             "conditions, around their hand-offs on this pipe";
      ok = false;
    }
  }
  return ok;
}
