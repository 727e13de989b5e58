// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- SharedCode.cpp - One body for roles that share code ----------------===//
//
// A role marked shares_code_with runs its leader's lowered body. What the
// two bodies may differ in (cake/Analysis/SharedCode.h) is computed from
// the warp's index in the group: the constants, each ring's first byte,
// each pipe's barrier array, each scratch and named barrier, each TMA
// descriptor. Everything else the lowering derives from the leader's ops
// holds for every role of the group, since the ops are equal.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

FailureOr<KernelEmitter::SharedCodeGroup>
KernelEmitter::sharedCodeGroup(RoleOp leader) {
  SharedCodeGroup group;
  group.roles.push_back(leader);
  group.matches.emplace_back();
  for (RoleOp follower : sharedCodeFollowers(leader)) {
    Operation *where = nullptr;
    std::string why;
    FailureOr<SharedCodeMatch> match =
        matchSharedCode(leader, follower, where, why);
    // cake-verify rejects these; a tactic applied after it may not have.
    if (failed(match))
      return where->emitError("[dataflow.shared-code] role '")
             << follower.getName() << "' shares the code of role '"
             << leader.getName() << "' but " << why;
    // What cake-derive gave each role on its own: the lowering selects a
    // scratch and a TMA descriptor by role, nothing else.
    for (auto [mine, theirs] : match->ops) {
      Attribute x = mine->getAttr("derived"), y = theirs->getAttr("derived");
      if (x == y)
        continue;
      auto tx = dyn_cast_or_null<TmaCopyAttr>(x);
      auto ty = dyn_cast_or_null<TmaCopyAttr>(y);
      bool selectable = (isa_and_nonnull<ScratchAttr>(x) &&
                         isa_and_nonnull<ScratchAttr>(y)) ||
                        (tx && ty && tx.getSlices() == ty.getSlices());
      if (!selectable)
        return theirs->emitError("[dataflow.shared-code] role '")
               << follower.getName() << "' shares the code of role '"
               << leader.getName()
               << "' but cake-derive gave this op another layout (" << y
               << " for " << x << "), which the lowering does not select by "
               << "role";
    }
    group.roles.push_back(follower);
    group.matches.push_back(std::move(*match));
  }
  return group;
}

Operation *KernelEmitter::inRole(Operation *op, unsigned k) {
  if (!sharedGroup || k == 0)
    return op;
  Operation *own = sharedGroup->matches[k].ops.lookup(op);
  return own ? own : op;
}

Value KernelEmitter::byRole(ArrayRef<Value> perRole) {
  Value out = perRole[0];
  if (!sharedGroup)
    return out;
  // Equal constants need no select (the constants themselves fold later).
  auto same = [](Value x, Value y) {
    if (x == y)
      return true;
    auto cx = x.getDefiningOp<arith::ConstantOp>();
    auto cy = y.getDefiningOp<arith::ConstantOp>();
    return cx && cy && cx.getValue() == cy.getValue();
  };
  if (llvm::all_of(perRole, [&](Value v) { return same(v, perRole[0]); }))
    return out;
  // Integers in steps of one stride by role (a ring or scratch of each role
  // laid out one after another, a column block per role): c0 + index *
  // stride, whose c0 folds into the address's immediate offset.
  SmallVector<int64_t> ints;
  for (Value v : perRole)
    if (std::optional<int64_t> c = getConstantIntValue(v))
      ints.push_back(*c);
  Type type = out.getType();
  if (ints.size() == perRole.size() &&
      (type.isIndex() ||
       (type.isInteger() && type.getIntOrFloatBitWidth() >= 32))) {
    int64_t stride = ints[1] - ints[0];
    bool linear = true;
    for (unsigned k = 0; k < ints.size(); ++k)
      linear &= ints[k] == ints[0] + int64_t(k) * stride;
    if (linear) {
      // The index read where it is used, through an opaque mov: a product
      // LLVM hoists out of the tile loop holds a register through it (one
      // a stride), where the halves of KDA's intra kernel already spill
      // (ptxas: 520 bytes of spill stores hoisted, 464 not; 284 for two
      // copies of the code).
      Value index = sideEffectAsm(b.getI32Type(), sharedGroup->index,
                                  "mov.u32 $0, $1;", "=r,r");
      if (type != index.getType())
        index =
            type.isIndex()
                ? arith::IndexCastOp::create(b, loc(), type, index).getResult()
                : arith::ExtUIOp::create(b, loc(), type, index).getResult();
      Value step = arith::MulIOp::create(
          b, loc(), index,
          arith::ConstantOp::create(b, loc(), type,
                                    b.getIntegerAttr(type, stride)));
      return arith::AddIOp::create(b, loc(), perRole[0], step);
    }
  }
  for (unsigned k = 1; k < perRole.size(); ++k) {
    if (same(perRole[k], perRole[0]))
      continue;
    Value isK = arith::CmpIOp::create(b, loc(), arith::CmpIPredicate::eq,
                                      sharedGroup->index, i32c(k));
    out =
        isa<LLVM::LLVMPointerType>(out.getType())
            ? LLVM::SelectOp::create(b, loc(), isK, perRole[k], out).getResult()
            : arith::SelectOp::create(b, loc(), isK, perRole[k], out)
                  .getResult();
  }
  return out;
}

Value KernelEmitter::inRole(Value v, unsigned k) {
  if (!sharedGroup || k == 0)
    return v;
  Value own = sharedGroup->matches[k].resources.lookup(v);
  return own ? own : v;
}

Value KernelEmitter::eachRole(llvm::function_ref<Value(unsigned)> valueOf) {
  unsigned n = sharedGroup ? sharedGroup->roles.size() : 1;
  SmallVector<Value> perRole;
  for (unsigned k = 0; k < n; ++k)
    perRole.push_back(valueOf(k));
  return byRole(perRole);
}

Value KernelEmitter::ringOffset(Value ring) {
  return eachRole(
      [&](unsigned k) { return i32c(rings[inRole(ring, k)].offset); });
}

Value KernelEmitter::barrierBase(Value pipe, bool empty) {
  return eachRole([&](unsigned k) {
    const PipeInfo &info = pipes[inRole(pipe, k)];
    return i32c(empty ? info.empty : info.full);
  });
}

bool KernelEmitter::emitSharedConstant(Operation &op) {
  if (!sharedGroup || !isa<arith::ConstantOp>(op))
    return false;
  // Each role's value (byRole keeps one where they agree; the constants
  // left unused fold away).
  map.map(op.getResult(0), eachRole([&](unsigned k) {
            Operation *own = sharedGroup->matches[k].constants.lookup(&op);
            return b.clone(own ? *own : op)->getResult(0);
          }));
  return true;
}

Value KernelEmitter::scratchOffset(Operation *op) {
  return eachRole([&](unsigned k) {
    return i32c(
        cast<ScratchAttr>(inRole(op, k)->getAttr("derived")).getOffset());
  });
}

Value KernelEmitter::scratchBarrier(Operation *op) {
  return eachRole([&](unsigned k) {
    return i32c(
        cast<ScratchAttr>(inRole(op, k)->getAttr("derived")).getBarrier());
  });
}

Value KernelEmitter::tmaDescriptor(Operation *op, int64_t leaderIndex) {
  // The leader's index as the caller checked it; the others' as derived.
  return eachRole([&](unsigned k) {
    if (k == 0)
      return descriptors[leaderIndex];
    return descriptors[cast<TmaCopyAttr>(inRole(op, k)->getAttr("derived"))
                           .getDescriptor()];
  });
}
