// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- Dataflow.cpp - The dataflow rules ----------------------------------===//
//
// Who may touch which ring stage, what may stand outside a role, which
// boxes TMA copies of tile coordinates move, and which register layouts a
// fragment can have.
//
//===----------------------------------------------------------------------===//

#include "RuleChecks.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

/// dataflow.read-outside-wait, dataflow.write-outside-acquire
bool verify::checkStageAccess(KernelFacts &f) {
  bool ok = true;
  auto check = [&](Operation *op, Value buffer, Value stage, bool write) {
    auto name = [&](InFlightDiagnostic &d) -> InFlightDiagnostic & {
      if (isa<TmemType>(buffer.getType()))
        return d << "tensor memory";
      return d << DiagRing{f.ringIndex.lookup(buffer)};
    };
    Operation *def = stage.getDefiningOp();
    RuleId rule = write ? RuleId::DataflowWriteOutsideAcquire
                        : RuleId::DataflowReadOutsideWait;
    bool rightKind = write ? isa_and_nonnull<PipeAcquireOp>(def)
                           : isa_and_nonnull<PipeWaitOp>(def);
    if (!rightKind) {
      InFlightDiagnostic d = emitRuleError(op, rule)
                             << (write ? "writes" : "reads") << " ";
      name(d) << " through a stage not taken with "
              << (write ? "pipe.acquire" : "pipe.wait");
      if (def)
        d.attachNote(def->getLoc()) << "stage taken here";
      ok = false;
      return;
    }
    Value pipe = def->getOperand(0);
    if (!KernelFacts::pipeHolds(pipe, buffer)) {
      InFlightDiagnostic d = emitRuleError(op, rule)
                             << (write ? "writes" : "reads") << " ";
      name(d) << " through a stage of " << DiagPipe{f.pipeIndex.lookup(pipe)}
              << ", which does not hold "
              << (isa<TmemType>(buffer.getType()) ? "that buffer"
                                                  : "that ring");
      d.attachNote(def->getLoc()) << "stage taken here";
      ok = false;
    }
  };
  f.kernel.walk([&](Operation *op) {
    if (auto t = dyn_cast<TmaLoadOp>(op))
      check(op, t.getDst(), t.getStage(), true);
    else if (auto w = dyn_cast<SmemWriteOp>(op))
      check(op, w.getDst(), w.getStage(), true);
    else if (auto g = dyn_cast<GatherOp>(op))
      check(op, g.getDst(), g.getStage(), true);
    else if (auto c = dyn_cast<CpAsyncLoadOp>(op))
      check(op, c.getDst(), c.getStage(), true);
    else if (auto s = dyn_cast<TmaStoreOp>(op))
      check(op, s.getSrc(), s.getStage(), false);
    else if (auto r = dyn_cast<SmemReadOp>(op))
      check(op, r.getSrc(), r.getStage(), false);
    else if (auto r = dyn_cast<SmemReduceOp>(op)) {
      for (Value stage : r.getStages())
        check(op, r.getSrc(), stage, false);
    } else if (auto m = dyn_cast<TmemMmaOp>(op)) {
      check(op, m.getA(), m.getAStage(), false);
      check(op, m.getB(), m.getBStage(), false);
      check(op, m.getD(), m.getDStage(), true);
    } else if (auto l = dyn_cast<TmemLoadOp>(op)) {
      check(op, l.getSrc(), l.getStage(), false);
    } else if (auto st = dyn_cast<TmemStoreOp>(op)) {
      check(op, st.getDst(), st.getStage(), true);
    } else if (auto m = dyn_cast<MmaOp>(op)) {
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
    if (!isa<RoleOp, RingOp, TmemOp, PipeOp>(op) && op.getDialect() &&
        op.getDialect()->getNamespace() == "cake") {
      emitRuleError(&op, RuleId::DataflowHandoffOutsideRole)
          << "'" << op.getName() << "' is outside every role; it would run on "
          << "every warp of the CTA";
      ok = false;
    }
  return ok;
}

namespace {
/// A TMA copy's tensor, coordinates and box extent per tensor dimension (the
/// ring's tile over the innermost dimensions; outer dimensions move one
/// element).
struct TmaCopy {
  Value tensor;
  Value ring; // a load's destination; null for a store
  OperandRange coords;
  SmallVector<int64_t> extents;
  bool registers = false; // a cake.store of a register fragment
};
} // namespace

/// A register fragment's cake.store as a box (the fragment's shape with
/// unit dimensions dropped to the tensor's rank, as cake.load documents):
/// along a loop it must tile the step as a TMA store does.
static std::optional<TmaCopy> registerStore(Operation *op) {
  auto store = dyn_cast<StoreOp>(op);
  if (!store)
    return std::nullopt;
  SmallVector<int64_t> box;
  for (int64_t d : store.getBoxShape())
    if (d != 1)
      box.push_back(d);
  int64_t rank = store.getCoords().size();
  if (int64_t(box.size()) > rank)
    return std::nullopt; // dataflow.box-shape's to report
  SmallVector<int64_t> extents(rank - box.size(), 1);
  llvm::append_range(extents, box);
  return TmaCopy{store.getDst(), Value(), store.getCoords(), extents, true};
}

static std::optional<TmaCopy> tmaCopy(Operation *op) {
  Value ringValue, tensor;
  std::optional<OperandRange> coords;
  if (auto load = dyn_cast<TmaLoadOp>(op)) {
    ringValue = load.getDst();
    tensor = load.getSrc();
    coords = load.getCoords();
  } else if (auto store = dyn_cast<TmaStoreOp>(op)) {
    ringValue = store.getSrc();
    tensor = store.getDst();
    coords = store.getCoords();
  } else {
    return std::nullopt;
  }
  ArrayRef<int64_t> box = cast<RingType>(ringValue.getType()).getShape();
  int64_t rank = coords->size(), outer = rank - int64_t(box.size());
  SmallVector<int64_t> extents;
  for (int64_t i = 0; i < rank; ++i)
    extents.push_back(i < outer ? 1 : box[i - outer]);
  return TmaCopy{tensor, isa<TmaLoadOp>(op) ? ringValue : Value(), *coords,
                 extents};
}

/// The copies under `root` whose coordinate in some dimension is `base`,
/// `base + c` (c a constant) or `base + v` (v anything else, one group per
/// v; with `symbolic` false those are left alone) together move boxes that
/// tile [base, base + span) exactly in that dimension, per tensor (and
/// ring, for loads), block and other coordinates. A box narrower than the
/// span skips part of every step or tile (a GEMM's K loop stepping past
/// half of K); a wider one reads the next one's elements twice: wrong
/// results, no fault. Register stores (cake.store) are held to the same,
/// as dataflow.store-coverage: a chunk loop's output tile wider than its
/// step is written twice. With `repeats` (a tile), loads into several
/// rings or stages share a group and equal boxes count once: a tile's rows
/// are loaded again for each K step, its halves may go to two rings; and
/// only TMA copies count (a register store's rows split over warpgroups).
/// `lead` starts each diagnostic; `unit` names the span ("step", "tile").
static bool checkSpanCoverage(
    Operation *root, Value base, int64_t span, bool symbolic, bool repeats,
    StringRef unit,
    llvm::function_ref<void(InFlightDiagnostic &, int64_t)> lead) {
  bool ok = true;
  // Grouped by tensor, dimension, the symbolic part of the offset and the
  // other coordinates (in the order met, for stable diagnostics): the
  // (constant offset, extent, copy) of each box.
  using Key = std::vector<uintptr_t>;
  using Boxes = SmallVector<std::tuple<int64_t, int64_t, Operation *>>;
  llvm::MapVector<Key, std::pair<int64_t, Boxes>, std::map<Key, unsigned>>
      boxes;
  auto ptr = [](Value v) {
    return reinterpret_cast<uintptr_t>(v.getAsOpaquePointer());
  };
  root->walk([&](Operation *op) {
    std::optional<TmaCopy> copy = tmaCopy(op);
    if (!copy && !repeats)
      copy = registerStore(op);
    if (!copy)
      return;
    for (auto [i, coord] : llvm::enumerate(copy->coords)) {
      int64_t offset = 0;
      Value other;
      if (coord != base) {
        auto add = coord.getDefiningOp<arith::AddIOp>();
        if (!add || (add.getLhs() != base && add.getRhs() != base))
          continue;
        Value term = add.getLhs() == base ? add.getRhs() : add.getLhs();
        if (std::optional<int64_t> c = getConstantIntValue(term))
          offset = *c;
        else if (symbolic)
          other = term;
        else
          continue;
      }
      // A load of the same box into two rings is two copies, not an
      // overlap: loads are grouped per ring too; and per block, since
      // copies on the two branches of an scf.if never both run.
      Key key{ptr(copy->tensor), repeats ? 0 : ptr(copy->ring),
              reinterpret_cast<uintptr_t>(op->getBlock()), uintptr_t(i),
              ptr(other)};
      for (auto [j, c] : llvm::enumerate(copy->coords))
        key.push_back(j == i ? 0 : ptr(c));
      auto &group = boxes[key];
      group.first = i;
      group.second.push_back({offset, copy->extents[i], op});
    }
  });
  for (auto &entry : boxes) {
    int64_t dim = entry.second.first;
    Boxes &list = entry.second.second;
    llvm::stable_sort(
        list, [](auto &x, auto &y) { return std::get<0>(x) < std::get<0>(y); });
    if (repeats)
      list.erase(std::unique(list.begin(), list.end(),
                             [](auto &x, auto &y) {
                               return std::get<0>(x) == std::get<0>(y) &&
                                      std::get<1>(x) == std::get<1>(y);
                             }),
                 list.end());
    auto report = [&](Operation *op) {
      // Register stores write the output: theirs is store-coverage.
      InFlightDiagnostic d =
          emitRuleError(op, isa<StoreOp>(op) ? RuleId::DataflowStoreCoverage
                                             : RuleId::DataflowTileCoverage);
      lead(d, dim);
      ok = false;
      return d;
    };
    int64_t covered = 0;
    bool reported = false;
    for (auto [offset, extent, op] : list) {
      if (offset == covered && offset + extent <= span) {
        covered += extent;
        continue;
      }
      if (offset < covered)
        report(op) << "this box starts at +" << offset << " where the " << unit
                   << "'s boxes already reach +" << covered
                   << ": elements are moved twice";
      else if (offset > covered)
        report(op) << "this box starts at +" << offset << " where the " << unit
                   << "'s boxes reach only +" << covered << ": part of every "
                   << unit << " is never moved";
      else
        report(op) << "the boxes reach +" << offset + extent
                   << ": each runs into the next " << unit << "'s";
      reported = true;
      break;
    }
    if (!reported && covered < span)
      report(std::get<2>(list.back()))
          << (list.size() == 1 ? "the box moves " : "the boxes move ")
          << covered << ": part of every " << unit << " is never moved";
  }
  return ok;
}

/// dataflow.tile-coverage: along an scf.for of constant step, the copies of
/// one iteration tile the step (checkSpanCoverage); along a tile coordinate
/// of cake.tiles (its block argument, or it plus a constant), the copies of
/// one tile tile the tile's extent in that dimension.
bool verify::checkTileCoverage(KernelFacts &f) {
  ArrayRef<int64_t> tile = f.kernel.getTileShape();
  bool ok = true;
  f.kernel.walk([&](scf::ForOp loop) {
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!step || *step <= 0)
      return;
    ok &= checkSpanCoverage(
        loop, loop.getInductionVar(), *step, /*symbolic=*/true,
        /*repeats=*/false, "step", [&](InFlightDiagnostic &d, int64_t dim) {
          d << "coordinate " << dim
            << " follows the loop's induction variable, which steps by "
            << *step << ", but ";
        });
  });
  f.kernel.walk([&](TilesOp tiles) {
    Block &body = tiles.getBody().front();
    for (BlockArgument arg : body.getArguments()) {
      int64_t n = arg.getArgNumber();
      if (n >= int64_t(tile.size()))
        continue;
      ok &= checkSpanCoverage(
          tiles, arg, tile[n], /*symbolic=*/false, /*repeats=*/true, "tile",
          [&](InFlightDiagnostic &d, int64_t dim) {
            d << "coordinate " << dim << " is tile coordinate #" << n
              << ", whose tiles are " << tile[n] << " wide, but ";
          });
    }
  });
  return ok;
}

namespace {
/// One store of a tile: the tensor it writes, its coordinates and the box it
/// writes over the tensor's innermost dimensions.
struct TileStore {
  Operation *op;
  Value dst;
  SmallVector<Value> coords;
  SmallVector<int64_t> box; // one extent per tensor dimension
};

/// Where a coordinate points, comparable across roles: a constant, a tile
/// coordinate of cake.tiles, or (otherwise) the value itself.
using CoordKey = std::tuple<int, int64_t, void *>;
CoordKey coordKey(Value v) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return {0, *c, nullptr};
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (TilesOp::isCoordinate(arg))
      return {1, arg.getArgNumber(), nullptr};
  return {2, 0, v.getAsOpaquePointer()};
}
} // namespace

/// dataflow.store-coverage: along a static dimension of a tensor, the stores
/// that sit directly in a tile's body and address that dimension by
/// constants partition it: sorted by coordinate, each box starts where the
/// previous one ended, the first at 0 and the last ending at the extent.
/// Stores are grouped by where they point in every other dimension; a
/// dimension that any store of the tensor addresses otherwise (a loop
/// variable, a store under a loop or a branch) is not judged.
bool verify::checkStoreCoverage(KernelFacts &f) {
  SmallVector<TileStore> stores;
  llvm::DenseSet<std::pair<Value, int64_t>> unjudged;
  f.kernel.walk([&](Operation *op) {
    TileStore s{op, {}, {}, {}};
    SmallVector<int64_t> tileShape;
    if (auto st = dyn_cast<StoreOp>(op)) {
      s.dst = st.getDst();
      s.coords.assign(st.getCoords().begin(), st.getCoords().end());
      tileShape = st.getBoxShape();
    } else if (auto st = dyn_cast<TmaStoreOp>(op)) {
      s.dst = st.getDst();
      s.coords.assign(st.getCoords().begin(), st.getCoords().end());
      tileShape.assign(cast<RingType>(st.getSrc().getType()).getShape());
    } else if (auto sc = dyn_cast<ScatterOp>(op)) {
      // Rows chosen by data: no dimension of the destination is judged.
      for (int64_t d = 0; d < sc.getDst().getType().getRank(); ++d)
        unjudged.insert({sc.getDst(), d});
      return;
    } else {
      return;
    }
    int64_t rank = s.coords.size();
    bool direct = isa_and_nonnull<TilesOp>(op->getParentOp());
    if (!direct || int64_t(tileShape.size()) > rank) {
      for (int64_t d = 0; d < rank; ++d)
        unjudged.insert({s.dst, d});
      return;
    }
    int64_t outer = rank - int64_t(tileShape.size());
    s.box.assign(outer, 1);
    s.box.append(tileShape.begin(), tileShape.end());
    for (int64_t d = 0; d < rank; ++d)
      if (!getConstantIntValue(s.coords[d]))
        unjudged.insert({s.dst, d});
    stores.push_back(std::move(s));
  });

  bool ok = true;
  // (tensor, dimension, where the box sits in the others) -> its stores
  std::map<std::tuple<void *, int64_t, std::vector<CoordKey>>,
           SmallVector<const TileStore *>>
      groups;
  for (const TileStore &s : stores) {
    ArrayRef<int64_t> shape = cast<GlobalType>(s.dst.getType()).getShape();
    for (int64_t d = 0, rank = s.coords.size(); d < rank; ++d) {
      if (ShapedType::isDynamic(shape[d]) || unjudged.contains({s.dst, d}))
        continue;
      std::vector<CoordKey> others;
      for (int64_t e = 0; e < rank; ++e)
        if (e != d) {
          others.push_back(coordKey(s.coords[e]));
          others.push_back({3, s.box[e], nullptr});
        }
      groups[{s.dst.getAsOpaquePointer(), d, others}].push_back(&s);
    }
  }
  for (auto &[key, group] : groups) {
    int64_t d = std::get<1>(key);
    int64_t extent =
        cast<GlobalType>(group.front()->dst.getType()).getShape()[d];
    auto start = [&](const TileStore *s) {
      return *getConstantIntValue(s->coords[d]);
    };
    llvm::stable_sort(group, [&](const TileStore *a, const TileStore *b) {
      return start(a) < start(b);
    });
    // A box may run past the extent (the store is clipped there); what it
    // may not do is skip or repeat an element before it.
    int64_t covered = 0;
    const TileStore *prev = nullptr;
    bool partitioned = true;
    for (const TileStore *s : group) {
      int64_t lo = start(s);
      if (lo != covered) {
        InFlightDiagnostic diag =
            emitRuleError(s->op, RuleId::DataflowStoreCoverage)
            << "the stores of a tile to dimension " << d << " (extent "
            << extent << ") " << (lo > covered ? "leave [" : "write twice [")
            << std::min(lo, covered) << ", " << std::max(lo, covered) << ")"
            << (lo > covered ? " unwritten" : "") << ": this box starts at "
            << lo << ", the boxes before it end at " << covered;
        if (prev)
          diag.attachNote(prev->op->getLoc()) << "the previous box";
        partitioned = false;
        break;
      }
      covered = lo + s->box[d];
      prev = s;
    }
    if (partitioned && covered < extent) {
      emitRuleError(prev->op, RuleId::DataflowStoreCoverage)
          << "the stores of a tile to dimension " << d << " (extent " << extent
          << ") leave [" << covered << ", " << extent << ") unwritten";
      partitioned = false;
    }
    ok &= partitioned;
  }
  return ok;
}

/// Whether the lowering takes `op`'s fragments held a row a thread
/// (tcgen05.ld's layout): made by tmem.load, a load of a line or a splat,
/// combined element by element or along the thread's row, stored (to
/// global or tensor memory), carried.
static bool lowersRowPerThread(Operation *op) {
  if (auto argmin = dyn_cast<FragArgminOp>(op))
    return !argmin.getPacked();
  if (auto reduce = dyn_cast<FragReduceOp>(op))
    return isa<FloatType>(reduce.getInput().getType().getElementType());
  // Loads of lines (a row's value, a broadcast line); tiles come from
  // tensor memory.
  if (auto load = dyn_cast<LoadOp>(op))
    return llvm::is_contained(load.getType().getShape(), 1);
  return isa<TmemLoadOp, TmemStoreOp, FragConvertOp, FragMapOp, FragSplatOp,
             FragZeroOp, FragIotaOp, StoreOp, scf::ForOp, scf::YieldOp,
             scf::IfOp, TilesOp, TilesYieldOp>(op);
}

/// dataflow.fragment-layout
bool verify::checkFragmentLayout(KernelFacts &f) {
  bool ok = true;
  // Register fragments live in the wgmma accumulator layout: one 64-row
  // slab per warpgroup of the role (M x N), a value per row (M x 1) or a
  // value per column (1 x N); the lowering has no other distribution. On
  // targets with tensor memory, tcgen05.ld's row-a-thread layout too.
  // Reported once per role and fragment type, at its first definition.
  llvm::DenseSet<std::pair<Operation *, Type>> reported;
  llvm::DenseSet<Operation *> badOps;
  f.kernel.walk([&](Operation *op) {
    auto role = op->getParentOfType<RoleOp>();
    if (!role)
      return;
    for (Value v : op->getResults()) {
      if (auto topk = dyn_cast<TopKType>(v.getType())) {
        // A top-k list keeps the rows of the accumulator layout.
        int64_t rows = 64 * (role.getNumWarps() / 4);
        if (reported.contains({role, topk}) ||
            (role.getWarpgroups() && topk.getRows() == rows))
          continue;
        InFlightDiagnostic d = emitRuleError(op, RuleId::DataflowFragmentLayout)
                               << "a top-k list of " << topk.getRows()
                               << " rows in " << DiagRole{role.getName()};
        if (role.getWarpgroups())
          d << " of " << role.getNumWarps() / 4 << " warpgroups: expected "
            << rows << " rows (64 per warpgroup)";
        else
          d << ", which is not a warpgroups(n) role";
        reported.insert({role, topk});
        ok = false;
        continue;
      }
      auto frag = dyn_cast<FragType>(v.getType());
      if (!frag || frag.getRank() != 2 || reported.contains({role, frag}))
        continue;
      int64_t m = frag.getShape()[0], n = frag.getShape()[1];
      // hw.arch-feature and hw.warpgroup-alignment report a tensor-memory
      // load where it cannot run.
      if (isa<TmemLoadOp>(op) &&
          (!f.target->hasTcgen05 || !role.getWarpgroups()))
        continue;
      // A warpgroup that reads tensor memory holds every fragment a row a
      // thread: 128 x N (a row), 128 x 1 (its value), 1 x N (the line).
      if (f.target->hasTcgen05 && holdsRowPerThread(role)) {
        bool held =
            (m == 128 && (n == 1 || n % 8 == 0)) || (m == 1 && n % 8 == 0);
        Operation *bad = lowersRowPerThread(op) ? nullptr : op;
        for (Operation *user : v.getUsers())
          if (!bad && !lowersRowPerThread(user))
            bad = user;
        if (!held) {
          emitRuleError(op, RuleId::DataflowFragmentLayout)
              << "fragment " << m << "x" << n << " has no register layout in "
              << DiagRole{role.getName()}
              << ", which reads tensor memory and holds a row a thread "
                 "(tcgen05.ld's layout): expected 128xN, 128x1 or 1xN, N a "
                 "multiple of 8";
        } else if (bad && badOps.insert(bad).second) {
          // Once per op, whichever of its fragments leads to it.
          InFlightDiagnostic d =
              emitRuleError(bad, RuleId::DataflowFragmentLayout)
              << "fragment " << m << "x" << n << " of "
              << DiagRole{role.getName()}
              << " is held a row a thread (tcgen05.ld's layout), which "
                 "tmem.load, loads of lines, maps, exact argmins, float "
                 "reductions, stores, tmem.store and converts take; '"
              << bad->getName() << "' is not lowered for it";
          if (bad != op)
            d.attachNote(op->getLoc()) << "the fragment defined here";
        }
        // A shape without a layout is reported once per type; an op not
        // lowered for the layout once per op (badOps), whatever its types.
        if (!held)
          reported.insert({role, frag});
        if (!held || bad)
          ok = false;
        continue;
      }
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

/// Whether `a` and `b` never both run: they sit in the two branches of the
/// innermost scf.if that holds both.
static bool inExclusiveBranches(Operation *a, Operation *b) {
  for (Operation *p = a->getParentOp(); p; p = p->getParentOp()) {
    if (!p->isProperAncestor(b))
      continue;
    auto branch = dyn_cast<scf::IfOp>(p);
    return branch &&
           branch.getThenRegion().isAncestor(a->getParentRegion()) !=
               branch.getThenRegion().isAncestor(b->getParentRegion());
  }
  return false;
}

/// dataflow.topk-linear: a shared list's value is used at most once on
/// every path (its entries are updated in place).
bool verify::checkTopKLinear(KernelFacts &f) {
  bool ok = true;
  auto check = [&](Value v, Location at) {
    auto topk = dyn_cast<TopKType>(v.getType());
    if (!topk || !topk.getShared() || v.use_empty() || v.hasOneUse())
      return;
    // The uses in program order (a use list is not): the later one errs.
    // topk.admits reads the value's registers only (the rows' largest
    // entries), never the shared entries, so it does not count.
    SmallVector<Operation *> users;
    for (OpOperand &use : v.getUses())
      if (!isa<TopKAdmitsOp>(use.getOwner()))
        users.push_back(use.getOwner());
    llvm::stable_sort(users, [](Operation *a, Operation *b) {
      return a->getBlock() == b->getBlock() && a->isBeforeInBlock(b);
    });
    // The first pair of uses that may both run (not one in each branch
    // of an scf.if).
    Operation *first = nullptr, *again = nullptr;
    for (size_t i = 0; i < users.size() && !again; ++i)
      for (size_t j = i + 1; j < users.size() && !again; ++j)
        if (!inExclusiveBranches(users[i], users[j]))
          first = users[i], again = users[j];
    if (!again)
      return;
    InFlightDiagnostic d =
        emitRuleError(again, RuleId::DataflowTopKLinear)
        << "a shared top-k list is used again after its entries were "
           "handed on: its shared memory holds only the newest list";
    d.attachNote(first->getLoc()) << "first use here";
    d.attachNote(at) << "the list defined here";
    ok = false;
  };
  f.kernel.walk([&](Operation *op) {
    for (Value r : op->getResults())
      check(r, op->getLoc());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          check(arg, op->getLoc());
  });
  return ok;
}
