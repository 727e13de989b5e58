// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- SharedCode.cpp - Roles that run one copy of code -------------------===//
//
// The two bodies are walked in lockstep. A value defined inside the leader
// must meet the value defined at the same place in the follower; a value
// from outside (the kernel's pipes, rings, arguments) must be the same one,
// or a pipe or ring of the same type, paired the same way at every use.
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/SharedCode.h"

#include "cake/Analysis/Handoffs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::cake;

RoleOp mlir::cake::sharedCodeLeader(RoleOp role) {
  std::optional<StringRef> name = role.getSharesCodeWith();
  if (!name)
    return {};
  auto kernel = role->getParentOfType<KernelOp>();
  if (!kernel)
    return {};
  for (RoleOp r : kernel.getBody().getOps<RoleOp>())
    if (r.getName() == *name)
      return r;
  return {};
}

SmallVector<RoleOp> mlir::cake::sharedCodeFollowers(RoleOp leader) {
  SmallVector<RoleOp> out;
  auto kernel = leader->getParentOfType<KernelOp>();
  if (!kernel)
    return out;
  for (RoleOp r : kernel.getBody().getOps<RoleOp>())
    if (r != leader && r.getSharesCodeWith() &&
        *r.getSharesCodeWith() == leader.getName())
      out.push_back(r);
  return out;
}

namespace {

class Matcher {
public:
  Matcher(RoleOp leader, RoleOp follower, Operation *&where, std::string &why)
      : leader(leader), follower(follower), where(where), why(why) {}

  SharedCodeMatch match;

  bool run() {
    if (leader.getWarpgroups() != follower.getWarpgroups() ||
        leader.getWarps() != follower.getWarps() ||
        leader.getRegs() != follower.getRegs())
      return fail(follower, "its warps or registers differ");
    return regions(leader.getBody(), follower.getBody());
  }

private:
  RoleOp leader, follower;
  Operation *&where;
  std::string &why;
  /// The leader's values defined inside its body, to the follower's.
  DenseMap<Value, Value> local;
  /// The leader's pipes and rings, to the follower's (equal ones too).
  DenseMap<Value, Value> paired;

  /// An op's attributes but the one cake-derive writes.
  static DictionaryAttr decided(Operation &op) {
    NamedAttrList attrs(op.getAttrDictionary());
    attrs.erase("derived");
    return attrs.getDictionary(op.getContext());
  }

  static std::string kind(Value v) {
    return v.getDefiningOp<PipeOp>() ? "pipe" : "ring";
  }

  bool fail(Operation *op, const std::string &what) {
    where = op;
    why = what;
    return false;
  }

  bool regions(Region &a, Region &b) {
    if (a.getBlocks().size() != b.getBlocks().size())
      return fail(b.getParentOp(), "its regions have other blocks");
    for (auto [ba, bb] : llvm::zip(a, b)) {
      if (ba.getArgumentTypes() != bb.getArgumentTypes())
        return fail(b.getParentOp(), "its block arguments differ");
      for (auto [x, y] : llvm::zip(ba.getArguments(), bb.getArguments()))
        local[x] = y;
      auto ia = ba.begin(), ib = bb.begin();
      for (; ia != ba.end() && ib != bb.end(); ++ia, ++ib)
        if (!op(*ia, *ib))
          return false;
      if (ia != ba.end() || ib != bb.end())
        return fail(ib != bb.end() ? &*ib : b.getParentOp(),
                    "its block has " +
                        std::string(ib != bb.end() ? "more" : "fewer") +
                        " ops than that role's");
    }
    return true;
  }

  bool op(Operation &a, Operation &b) {
    if (a.getName() != b.getName())
      return fail(&b, "'" + b.getName().getStringRef().str() +
                          "' stands where that role has '" +
                          a.getName().getStringRef().str() + "'");
    if (a.getNumOperands() != b.getNumOperands() ||
        a.getNumResults() != b.getNumResults() ||
        a.getNumRegions() != b.getNumRegions() ||
        a.getResultTypes() != b.getResultTypes())
      return fail(&b, "this op's operands, results or types differ");
    match.ops[&a] = &b;
    if (isa<arith::ConstantOp>(a)) {
      // The one difference in the ops themselves a role may make, where
      // the lowering emits the constant once for the role (a fragment op's
      // body is emitted per element, the same for every role: it takes
      // such a value from outside).
      if (a.getAttrDictionary() != b.getAttrDictionary()) {
        for (Operation *up = b.getParentOp(); up != follower.getOperation();
             up = up->getParentOp()) {
          Dialect *d = up->getDialect();
          if (!isa<TilesOp>(up) && !(d && d->getNamespace() == "scf"))
            return fail(&b, "a constant inside '" +
                                up->getName().getStringRef().str() +
                                "' differs; define it in the role and use "
                                "it there");
        }
        match.constants[&a] = &b;
      }
    } else if (decided(a) != decided(b)) {
      return fail(&b, "this op's attributes differ");
    }
    for (unsigned i = 0, e = a.getNumOperands(); i < e; ++i)
      if (!operand(a.getOperand(i), b.getOperand(i), b, i))
        return false;
    for (auto [x, y] : llvm::zip(a.getRegions(), b.getRegions()))
      if (!regions(x, y))
        return false;
    for (auto [x, y] : llvm::zip(a.getResults(), b.getResults()))
      local[x] = y;
    return true;
  }

  bool operand(Value x, Value y, Operation &at, unsigned i) {
    std::string which = "operand #" + std::to_string(i);
    if (auto it = local.find(x); it != local.end()) {
      if (it->second != y)
        return fail(&at, which + " is not the value defined where that "
                                 "role's is");
      return true;
    }
    if (follower->isAncestor(y.getParentRegion()->getParentOp()))
      return fail(&at, which + " is defined inside the role where that "
                               "role's is not");
    return resource(x, y, &at, which);
  }

  /// A value from outside both roles: the same one, or the follower's own
  /// pipe or ring of the same type in place of the leader's.
  bool resource(Value x, Value y, Operation *at, const std::string &which) {
    // A pipe or ring pairs with one counterpart at every use, itself
    // included: the lowering selects by the pairs.
    auto seen = paired.find(x);
    if (seen != paired.end()) {
      if (seen->second != y)
        return fail(at, which + " pairs that role's " + kind(x) +
                            " with another " + kind(x) +
                            " than its other uses do");
      return true;
    }
    bool pipes = x.getDefiningOp<PipeOp>() && y.getDefiningOp<PipeOp>();
    bool rings = x.getDefiningOp<RingOp>() && y.getDefiningOp<RingOp>();
    if (!(pipes || rings)) {
      if (x == y)
        return true;
      return fail(at, which + " differs, and only pipes and rings of the "
                              "same type may");
    }
    if (x.getType() != y.getType())
      return fail(at, which + " is a " + kind(x) + " of another type");
    paired[x] = y;
    if (x != y)
      match.resources[x] = y;
    if (!pipes)
      return true;
    // The stages the follower hands off are its own rings': its pipe holds
    // the counterparts of the leader's pipe's rings, in the same order.
    auto px = x.getDefiningOp<PipeOp>(), py = y.getDefiningOp<PipeOp>();
    if (px.getTmem() || py.getTmem())
      return fail(at, which + " is a tensor-memory pipe; its columns are not "
                              "selected by role");
    // The one body arrives the one way: per thread on a thread hand-off,
    // per warp otherwise.
    if (isThreadHandoff(px) != isThreadHandoff(py))
      return fail(at, which + " is " + (isThreadHandoff(py) ? "" : "not ") +
                          "a thread hand-off (filled by smem.write, read by "
                          "smem.read or smem.reduce) where that role's pipe " +
                          (isThreadHandoff(px) ? "is" : "is not") +
                          ": the shared body cannot arrive both ways");
    if (px.getBuffers().size() != py.getBuffers().size())
      return fail(at, which + "'s pipe holds another number of rings");
    for (auto [rx, ry] : llvm::zip(px.getBuffers(), py.getBuffers()))
      if (!resource(rx, ry, at, which + "'s pipe's ring"))
        return false;
    return true;
  }
};

} // namespace

FailureOr<SharedCodeMatch> mlir::cake::matchSharedCode(RoleOp leader,
                                                       RoleOp follower,
                                                       Operation *&where,
                                                       std::string &why) {
  Matcher m(leader, follower, where, why);
  if (!m.run())
    return failure();
  return std::move(m.match);
}
