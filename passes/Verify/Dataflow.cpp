//===- Dataflow.cpp - The dataflow rules ----------------------------------===//
//
// Who may touch which ring stage, what may stand outside a role, which
// boxes TMA copies of tile coordinates move, and which register layouts a
// fragment can have.
//
//===----------------------------------------------------------------------===//

#include "RuleChecks.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

/// dataflow.read-outside-wait, dataflow.write-outside-acquire
bool verify::checkStageAccess(KernelFacts &f) {
  bool ok = true;
  auto check = [&](Operation *op, Value ring, Value stage, bool write) {
    Operation *def = stage.getDefiningOp();
    RuleId rule = write ? RuleId::DataflowWriteOutsideAcquire
                        : RuleId::DataflowReadOutsideWait;
    bool rightKind = write ? isa_and_nonnull<PipeAcquireOp>(def)
                           : isa_and_nonnull<PipeWaitOp>(def);
    if (!rightKind) {
      InFlightDiagnostic d = emitRuleError(op, rule)
                             << (write ? "writes" : "reads") << " "
                             << DiagRing{f.ringIndex.lookup(ring)}
                             << " through a stage not taken with "
                             << (write ? "pipe.acquire" : "pipe.wait");
      if (def)
        d.attachNote(def->getLoc()) << "stage taken here";
      ok = false;
      return;
    }
    Value pipe = def->getOperand(0);
    if (!KernelFacts::pipeHolds(pipe, ring)) {
      InFlightDiagnostic d = emitRuleError(op, rule)
                             << (write ? "writes" : "reads") << " "
                             << DiagRing{f.ringIndex.lookup(ring)}
                             << " through a stage of "
                             << DiagPipe{f.pipeIndex.lookup(pipe)}
                             << ", which does not hold that ring";
      d.attachNote(def->getLoc()) << "stage taken here";
      ok = false;
    }
  };
  f.kernel.walk([&](Operation *op) {
    if (auto t = dyn_cast<TmaLoadOp>(op))
      check(op, t.getDst(), t.getStage(), true);
    else if (auto w = dyn_cast<SmemWriteOp>(op))
      check(op, w.getDst(), w.getStage(), true);
    else if (auto s = dyn_cast<TmaStoreOp>(op))
      check(op, s.getSrc(), s.getStage(), false);
    else if (auto m = dyn_cast<MmaOp>(op)) {
      if (m.getAStage())
        check(op, m.getA(), m.getAStage(), false);
      check(op, m.getB(), m.getBStage(), false);
    }
  });
  return ok;
}

/// dataflow.handoff-outside-role (dataflow.cross-role holds by SSA
/// dominance: a role's values are invisible to its siblings)
bool verify::checkRoleScoping(KernelFacts &f) {
  bool ok = true;
  for (Operation &op : f.kernel.getBody().front())
    if (!isa<RoleOp, RingOp, PipeOp>(op) && op.getDialect() &&
        op.getDialect()->getNamespace() == "cake") {
      emitRuleError(&op, RuleId::DataflowHandoffOutsideRole)
          << "'" << op.getName() << "' is outside every role; it would run on "
          << "every warp of the CTA";
      ok = false;
    }
  return ok;
}

/// dataflow.tile-coverage: a TMA copy whose coordinate is a tile coordinate
/// (a block argument of cake.tiles) moves a box of the tile's extent in that
/// dimension. The box is the ring's tile over the tensor's innermost
/// dimensions; outer dimensions move one element.
bool verify::checkTileCoverage(KernelFacts &f) {
  ArrayRef<int64_t> tile = f.kernel.getTileShape();
  bool ok = true;
  f.kernel.walk([&](Operation *op) {
    Value ringValue;
    OperandRange coords = op->getOperands();
    if (auto load = dyn_cast<TmaLoadOp>(op)) {
      ringValue = load.getDst();
      coords = load.getCoords();
    } else if (auto store = dyn_cast<TmaStoreOp>(op)) {
      ringValue = store.getSrc();
      coords = store.getCoords();
    } else {
      return;
    }
    ArrayRef<int64_t> box = cast<RingType>(ringValue.getType()).getShape();
    int64_t rank = coords.size(), outer = rank - int64_t(box.size());
    for (int64_t i = 0; i < rank; ++i) {
      auto arg = dyn_cast<BlockArgument>(coords[i]);
      if (!arg || !isa<TilesOp>(arg.getOwner()->getParentOp()) ||
          arg.getArgNumber() >= tile.size())
        continue;
      int64_t extent = i < outer ? 1 : box[i - outer];
      int64_t want = tile[arg.getArgNumber()];
      if (extent == want)
        continue;
      emitRuleError(op, RuleId::DataflowTileCoverage)
          << "coordinate " << i << " is tile coordinate #"
          << arg.getArgNumber() << ", whose tiles are " << want
          << " wide, but the box moves " << extent << ": "
          << (extent < want ? "part of every tile is never moved"
                            : "each box runs into the next tile");
      ok = false;
    }
  });
  return ok;
}

/// dataflow.fragment-layout
bool verify::checkFragmentLayout(KernelFacts &f) {
  bool ok = true;
  // Register fragments live in the wgmma accumulator layout: one 64-row
  // slab per warpgroup of the role (M x N), a value per row (M x 1) or a
  // value per column (1 x N); the lowering has no other distribution.
  // Reported once per role and fragment type, at its first definition.
  llvm::DenseSet<std::pair<Operation *, Type>> reported;
  f.kernel.walk([&](Operation *op) {
    auto role = op->getParentOfType<RoleOp>();
    if (!role)
      return;
    for (Value v : op->getResults()) {
      auto frag = dyn_cast<FragType>(v.getType());
      if (!frag || frag.getRank() != 2 || reported.contains({role, frag}))
        continue;
      int64_t m = frag.getShape()[0], n = frag.getShape()[1];
      if (!role.getWarpgroups()) {
        bool mma = false;
        role.walk([&](MmaOp) { mma = true; });
        if (mma)
          return; // hw.warpgroup-alignment reports the role
        emitRuleError(op, RuleId::DataflowFragmentLayout)
            << "fragment " << m << "x" << n << " in "
            << DiagRole{role.getName()}
            << ", which is not a warpgroups(n) role; fragments live in the "
               "wgmma accumulator layout";
        reported.insert({role, frag});
        ok = false;
        return;
      }
      int64_t rows = 64 * (role.getNumWarps() / 4);
      bool laidOut = (m == 1 && n % 8 == 0) || (m == rows && n == 1) ||
                     (m == rows && n % 8 == 0);
      if (!laidOut) {
        InFlightDiagnostic d =
            emitRuleError(op, RuleId::DataflowFragmentLayout)
            << "fragment " << m << "x" << n << " has no register layout in "
            << DiagRole{role.getName()} << " of " << role.getNumWarps() / 4
            << " warpgroups: expected " << rows
            << "xN (one 64-row slab per warpgroup), " << rows
            << "x1 or 1xN, N a multiple of 8";
        d.attachNote(role.getLoc())
            << "hint: give the role " << m / 64
            << " warpgroups, or tile the fragment to " << rows << " rows";
        reported.insert({role, frag});
        ok = false;
        return;
      }
    }
  });
  return ok;
}
