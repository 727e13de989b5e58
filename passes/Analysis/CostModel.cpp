// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CostModel.cpp - Predicted time and bottleneck of a kernel ----------===//
//
// The analysis behind cake-cost (docs/cost-model.md). It interprets each
// role's body once per tile, with loop trip counts evaluated from the
// problem's shapes, and adds up what each role asks of each resource: tensor
// cores (flops at the calibrated rate for the instruction's N and type),
// shared-memory reads of the mma operands, CUDA-core epilogue ops, stores,
// TMA copies, and each pipe's stage cycle (latency + copy + how long the
// consumer holds the stage, over the stages the producer can fill ahead).
// The schedule's raster order decides which operand tiles come from HBM and
// which hit in L2. Rates come from a calibration file measured on the GPU.
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/CostModel.h"
#include "cake/Analysis/AlternateRoles.h"
#include "cake/Analysis/Handoffs.h"
#include "cake/Analysis/IndexExpr.h"
#include "cake/Analysis/KernelLayout.h"
#include "cake/Analysis/MmaChains.h"
#include "cake/Analysis/RasterTraffic.h"
#include "cake/Target/TargetInfo.h"

#include "cake/Transforms/Decisions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::cake;

namespace {

struct RoleWork {
  RoleCost cost;
  double smemBytes = 0;
  /// The tile body's ops summed one after another (what a hold's span is
  /// measured in), and the role's time once its pipes overlap (ping-pong,
  /// MUFU beside ALU): holds scale by their ratio.
  double serialNs = 0, timeNs = 0;
  AlternateRole alone; ///< as the bound on alternate tiles sees it
};

class Interpreter {
public:
  Interpreter(KernelOp kernel, const std::vector<std::vector<int64_t>> &shapes,
              const Calibration &cal, CostReport &report)
      : kernel(kernel), shapes(shapes), eval(shapes), cal(cal),
        report(report) {}

  LogicalResult run();

private:
  KernelOp kernel;
  const std::vector<std::vector<int64_t>> &shapes;
  IndexEvaluator eval;
  const Calibration &cal;
  CostReport &report;
  bool extrapolatedMma = false;

  // Per tile, accumulated while walking a role.
  RoleWork *work = nullptr;
  int64_t roleWarps = 0;
  TilesOp currentTiles;
  std::vector<LoadSite> loads;
  llvm::DenseMap<Value, unsigned> depMemo;
  // Per pipe (by its defining op): steps per tile and the round trips.
  struct PipeAccum {
    double steps = 0;
    double roundTripSum = 0; ///< sum over steps of latency + copy + hold
    double holdSum = 0;      ///< the consumer's part of it
    /// The consumer roles whose holds these are (a dealt pipe's take
    /// turns over its stages).
    llvm::SmallVector<RoleWork *, 2> holders;
    double stageBytes = 0;
    double copyNs = 0;
    bool asyncReader = false; ///< read by mma kept in flight past release
  };
  llvm::MapVector<Operation *, PipeAccum> pipes;

  double mmaInFlight = 1;
  // The kernel's recorded decisions the model mirrors.
  bool flushDenormals = false;
  bool pingPong = false; // wg-order turns over a step's wgmmas

public:
  void setMmaInFlight(unsigned n) { mmaInFlight = n; }

private:
  double copyNs(RingType ring) {
    auto shape = ring.getShape();
    int64_t rows = 1;
    for (size_t i = 0; i + 1 < shape.size(); ++i)
      rows *= shape[i];
    int64_t inner = shape.back() *
                    std::max<int64_t>(1, ring.getElementType()
                                                 .getIntOrFloatBitWidth()) /
                    8;
    double rate = cal.tmaRate(rows, inner, ring.getSwizzle());
    return rate > 0 ? double(ring.getTileBytes()) / rate : 0;
  }

  /// Compute time (ns) of one op on the role's resources, adding its work
  /// to `work` times `mult` when `record` is set.
  double opCost(Operation *op, double mult, bool record);
  /// Compute time of a range of ops (a block, or the ops between a wait and
  /// its release).
  double rangeCost(Block::iterator begin, Block::iterator end, double mult,
                   bool record);
  LogicalResult walkRole(RoleOp role, RoleWork &w);
  void chargeSpills(std::deque<RoleWork> &roles);
  LogicalResult tripCount(scf::ForOp loop, double &trips);
  LogicalResult failure_ = success();
  bool inOverlap = false; ///< inside an overlapped epilogue loop
};

LogicalResult Interpreter::tripCount(scf::ForOp loop, double &trips) {
  auto lb = eval.eval(loop.getLowerBound());
  auto ub = eval.eval(loop.getUpperBound());
  auto step = eval.eval(loop.getStep());
  if (!lb || !ub || !step || *step <= 0) {
    if (auto mean = currentTiles
                        ? meanTripCountOverTiles(loop, currentTiles,
                                                 kernel.getTileShape(), shapes)
                        : std::nullopt) {
      trips = *mean;
      return success();
    }
    bool loaded = loop.getLowerBound().getDefiningOp<ScalarLoadOp>() ||
                  loop.getUpperBound().getDefiningOp<ScalarLoadOp>();
    if (loaded)
      return loop.emitError(
          "cake-cost: this loop's bounds are loaded from memory "
          "(cake.scalar.load, a work list), so its trip count is not known "
          "from the problem shapes; the cost model does not rank "
          "data-dependent kernels yet");
    return loop.emitError(
        "cake-cost: cannot evaluate this loop's trip count from the problem "
        "shapes (bounds must be constants or cake.dim of arguments)");
  }
  // ceil((ub - lb) / step) without overflow: the bounds are any int64.
  std::optional<int64_t> span = llvm::checkedSub(*ub, *lb);
  if (*ub > *lb && !span)
    return loop.emitError("cake-cost: this loop runs from ")
           << *lb << " to " << *ub
           << ", more than 2^63 - 1 apart: its trip count overflows";
  trips = *ub > *lb ? double(*span / *step + (*span % *step != 0)) : 0;
  return success();
}

double Interpreter::rangeCost(Block::iterator begin, Block::iterator end,
                              double mult, bool record) {
  double ns = 0;
  for (auto it = begin; it != end; ++it)
    ns += opCost(&*it, mult, record);
  return ns;
}

static int64_t fragElements(Type t) {
  if (auto f = dyn_cast<FragType>(t))
    return f.getNumElements();
  return 0;
}

/// The bytes a fragment holds (what a store, smem.write or smem.read moves).
static double fragBytes(Type t) {
  auto f = cast<FragType>(t);
  return double(f.getNumElements()) *
         double(f.getElementType().getIntOrFloatBitWidth()) / 8;
}

double Interpreter::opCost(Operation *op, double mult, bool record) {
  double perSmShare = 1.0 / double(std::max<int64_t>(report.ctasPerSm, 1));
  // CUDA-core rate: the calibration ran 8 warps; fewer than one warp per
  // scheduler lose issue slots.
  double aluRate = cal.aluOpsPerNsPerSm * perSmShare *
                   std::min(1.0, double(roleWarps) / 4.0);
  auto alu = [&](double ops) {
    double ns = aluRate > 0 ? ops / aluRate * mult : 0;
    if (record) {
      work->cost.aluOps += ops * mult;
      work->cost.aluNs += ns;
      if (inOverlap)
        work->cost.overlapAluNs += ns;
    }
    return ns;
  };

  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    double trips = 0;
    if (failed(tripCount(loop, trips))) {
      failure_ = failure();
      return 0;
    }
    Block &body = *loop.getBody();
    bool outer = inOverlap;
    bool overlapForm = mmaInFlight > 0 && isOverlappedEpilogueLoop(loop);
    // With one consumer warpgroup the software-pipelined loop runs its
    // epilogue beside its own wgmmas. With two or more, one warpgroup's
    // epilogue already runs beside another's wgmmas in the serial form
    // (what the serial sum was calibrated on), so the form gains nothing
    // and pays a move per carried accumulator element per iteration (the
    // H200 measured it slower: docs/benchmarks.md, runs 10 and Findings).
    inOverlap |= overlapForm && roleWarps <= 4;
    double ns = rangeCost(body.begin(), body.end(), mult * trips, record);
    if (overlapForm && roleWarps > 4) {
      auto yield = cast<scf::YieldOp>(body.getTerminator());
      for (Value v : yield.getOperands())
        if (v.getDefiningOp<MmaOp>())
          ns += alu(double(fragElements(v.getType())) * trips);
    }
    inOverlap = outer;
    return ns;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    // Unknown condition: the costlier branch, whose work is recorded.
    double best = 0;
    Region *costlier = nullptr;
    for (Region &r : ifOp->getRegions()) {
      if (r.empty())
        continue;
      double ns = rangeCost(r.front().begin(), r.front().end(), mult, false);
      if (!costlier || ns > best) {
        best = ns;
        costlier = &r;
      }
    }
    if (record && costlier)
      rangeCost(costlier->front().begin(), costlier->front().end(), mult,
                true);
    return best;
  }
  if (auto tiles = dyn_cast<TilesOp>(op)) {
    // Handled by walkRole: work inside is per tile.
    return 0;
  }
  // An M x N x K tile on the tensor cores, at the calibrated rate, beside
  // its operand reads from shared memory: the longer of the two.
  auto mmaTile = [&](Type elt, int64_t m, int64_t n, int64_t k,
                     double smemBytes) {
    double flops = 2.0 * double(m) * double(n) * double(k);
    std::string dtype;
    llvm::raw_string_ostream(dtype) << elt;
    int64_t bits = elt.getIntOrFloatBitWidth();
    bool extrapolated = false;
    double tflops =
        cal.mmaRate(dtype, std::min<int64_t>(n, 256), bits, extrapolated) *
        perSmShare;
    extrapolatedMma |= extrapolated;
    double mmaNs = tflops > 0 ? flops / (tflops * 1e3) : 0;
    double smemNs = smemBytes / (cal.smemGBpsPerSm * perSmShare);
    if (record) {
      work->cost.flops += flops * mult;
      work->cost.mmaNs += mmaNs * mult;
      work->cost.smemNs += smemNs * mult;
      work->smemBytes += smemBytes * mult;
    }
    return std::max(mmaNs, smemNs) * mult;
  };
  if (auto mma = dyn_cast<MmaOp>(op)) {
    Type elt = mma.getAElementType();
    auto acc = cast<FragType>(mma.getAcc().getType());
    int64_t m = acc.getShape()[0], n = acc.getShape()[1];
    int64_t k = mma.getK();
    // Each warpgroup reads its 64 rows of A (none when A is a register
    // fragment) and all of B; with mma_sync each warp reads its 16 rows of
    // A and all of B through ldmatrix, so B is read four times as often.
    double eb = double(elt.getIntOrFloatBitWidth()) / 8;
    double aBytes = mma.isAFromRegisters() ? 0 : double(m * k) * eb;
    int64_t bReaders = mma.getKind() == MmaKind::mma_sync ? m / 16 : m / 64;
    return mmaTile(elt, m, n, k, aBytes + double(bReaders) * n * k * eb);
  }
  if (auto mma = dyn_cast<TmemMmaOp>(op)) {
    // tcgen05.mma: one thread issues the tile; the tensor cores read all of
    // B, and A unless it is in tensor memory, from shared memory once and
    // accumulate in tensor memory.
    Type in = mma.getInputElementType();
    TmemType d = mma.getD().getType();
    int64_t m = d.getRows(), n = d.getCols(), k = mma.getK();
    double eb = double(in.getIntOrFloatBitWidth()) / 8;
    int64_t smemRows = isa<RingType>(mma.getA().getType()) ? m + n : n;
    return mmaTile(in, m, n, k, double(smemRows * k) * eb);
  }
  if (isa<TmemLoadOp, TmemStoreOp>(op)) {
    // tcgen05.ld and tcgen05.st: no figure for tensor memory's rate is
    // calibrated yet; they are charged at the shared-memory rate (an upper
    // bound on their time, uncalibrated).
    auto frag =
        cast<FragType>(isa<TmemLoadOp>(op) ? op->getResult(0).getType()
                                           : op->getOperand(0).getType());
    double bytes = double(frag.getNumElements()) *
                   double(frag.getElementType().getIntOrFloatBitWidth()) / 8;
    double ns = bytes / (cal.smemGBpsPerSm * perSmShare);
    if (record)
      work->cost.smemNs += ns * mult;
    return ns * mult;
  }
  if (auto map = dyn_cast<FragMapOp>(op)) {
    // One issue slot per op; a transcendental also occupies the MUFU pipe,
    // a quarter of a warp per clock, beside the ALU's: the map takes the
    // longer of the two. An exp2 keeping IEEE denormals is wrapped in a
    // compare and two multiplies.
    double perElement = 0, mufuPerElement = 0;
    map.getBody().walk([&](Operation *inner) {
      if (isa<FragYieldOp, arith::ConstantOp>(inner))
        return;
      perElement += 1;
      if (isa<math::Exp2Op, math::ExpOp, math::Log2Op, math::LogOp,
              math::RsqrtOp, math::TanhOp, math::SinOp, math::CosOp>(inner))
        mufuPerElement += 1;
      if (isa<math::Exp2Op>(inner) && !flushDenormals)
        perElement += cal.exp2IeeeExtraAluOps;
    });
    double elements = double(fragElements(map->getResult(0).getType()));
    double aluNs = alu(elements * perElement);
    double mufuRate = cal.mufuOpsPerNsPerSm * perSmShare *
                      std::min(1.0, double(roleWarps) / 4.0);
    double mufuNs =
        mufuRate > 0 ? elements * mufuPerElement / mufuRate * mult : 0;
    if (record)
      work->cost.mufuNs += mufuNs;
    // Alone (a hold's span), the map takes the longer of its two pipes;
    // over a role, the longer of the role's ALU and MUFU totals.
    return std::max(aluNs, mufuNs);
  }
  if (auto argmin = dyn_cast<FragArgminOp>(op)) {
    // Packed: a LOP3 and a min per element, where the exact form compares
    // and selects both the value and the index (2 of 3 ops).
    double ops =
        cal.argminOpsPerElement * (argmin.getPacked() ? 2.0 / 3.0 : 1.0);
    return alu(ops * double(fragElements(argmin.getInput().getType())));
  }
  // Counted from the lowering (TopK.cpp), not calibrated: the filter's
  // compare, select and or per candidate; the insertions it lets through
  // depend on the data and are left out (few past a chunk's first tiles).
  if (auto insert = dyn_cast<TopKInsertOp>(op))
    return alu(3.0 * double(fragElements(insert.getCandidates().getType())));
  // Not calibrated: the filter's pair comparison and an or per candidate,
  // then one meeting of the role (bar.red), exposed like a dependent
  // load's round trip (cal.loadNs), as for frag.row.
  if (auto admits = dyn_cast<TopKAdmitsOp>(op)) {
    double ns =
        alu(4.0 * double(fragElements(admits.getCandidates().getType())));
    if (record)
      work->cost.aluNs += cal.loadNs * mult;
    return ns + cal.loadNs * mult;
  }
  // The quad merge: per thread, 2 rounds x 2 rows x k insertions of about
  // 9 k ops (select tree and insertion), then the predicated stores.
  if (auto store = dyn_cast<TopKStoreOp>(op)) {
    double k = double(store.getList().getType().getK());
    double threads = 2.0 * double(store.getList().getType().getRows());
    return alu(threads * 4.0 * k * (9.0 * k + 3.0));
  }
  if (auto reduce = dyn_cast<FragReduceOp>(op))
    return alu(double(fragElements(reduce.getInput().getType())));
  // Counted from the lowering, not calibrated: 4 shuffles and about 10
  // combines or selects per pair of elements (KernelEmitter::emitScan).
  // Down the columns: 4 shuffles and selects per element in the warp, the
  // warps' totals through scratch (not calibrated: one exposed round trip,
  // cal.loadNs, as for frag.row), unless segments of one warp stay in it.
  if (auto scan = dyn_cast<FragScanOp>(op)) {
    double ns = alu(7.0 * double(fragElements(scan.getInput().getType())));
    if (!scan.crossesWarps())
      return ns;
    if (record)
      work->cost.aluNs += cal.loadNs * mult;
    return ns + cal.loadNs * mult;
  }
  // Not calibrated: a store and a load per column and two named barriers,
  // whose round trip is exposed like a dependent load's (cal.loadNs).
  if (auto row = dyn_cast<FragRowOp>(op)) {
    double ns = alu(2.0 * double(fragElements(row.getResult().getType())));
    if (record)
      work->cost.aluNs += cal.loadNs * mult;
    return ns + cal.loadNs * mult;
  }
  // Counted from the lowering (Solve.cpp), not calibrated: per column of
  // T, two lanes of about 1280 FMAs, 350 loads and 160 selects and
  // shuffles; 64 diagonal-block columns of about 170; five meetings of the
  // role, each exposed like a dependent load (cal.loadNs).
  if (auto inverse = dyn_cast<FragTrilInverseOp>(op)) {
    // `diagonal`: the blocks' columns and three meetings, no column solves.
    if (inverse.getDiagonal()) {
      double ns = alu(64.0 * 170.0 + 128.0 * 64.0);
      if (record)
        work->cost.aluNs += 3.0 * cal.loadNs * mult;
      return ns + 3.0 * cal.loadNs * mult;
    }
    double ns = alu(128.0 * 1790.0 + 64.0 * 170.0);
    if (record)
      work->cost.aluNs += 5.0 * cal.loadNs * mult;
    return ns + 5.0 * cal.loadNs * mult;
  }
  if (auto convert = dyn_cast<FragConvertOp>(op))
    return alu(double(fragElements(convert.getInput().getType())));
  if (auto load = dyn_cast<LoadOp>(op)) {
    // The loaded row is used right away: its latency is exposed.
    double ns = alu(double(fragElements(load.getResult().getType())));
    if (record)
      work->cost.aluNs += cal.loadNs * mult;
    return ns + cal.loadNs * mult;
  }
  if (isa<StoreOp, ScatterOp>(op)) {
    // A scatter is costed as a store of the same bytes. Not modelled: the
    // rate of red.global (about 150 G reductions/s on an H100 at 131K
    // distinct addresses, 90 G/s at 16K, halved again by skewed keys:
    // k-means run 31), uncalibrated on the H200.
    Value value = isa<StoreOp>(op) ? cast<StoreOp>(op).getValue()
                                   : cast<ScatterOp>(op).getValue();
    double bytes = fragBytes(value.getType());
    // every(S) writes one row in S.
    if (auto st = dyn_cast<StoreOp>(op); st && st.getEvery())
      bytes /= double(*st.getEvery());
    double rate = cal.storeGBps / double(cal.smCount) * perSmShare;
    double ns = bytes / rate;
    if (record) {
      work->cost.storeBytes += bytes * mult;
      work->cost.storeNs += ns * mult;
    }
    return ns * mult;
  }
  if (auto write = dyn_cast<SmemWriteOp>(op)) {
    // Registers into a ring stage (an epilogue staged for a TMA store).
    double bytes = fragBytes(write.getValue().getType());
    double ns = bytes / (cal.smemGBpsPerSm * perSmShare);
    if (record)
      work->cost.storeNs += ns * mult;
    return ns * mult;
  }
  if (auto read = dyn_cast<SmemReadOp>(op)) {
    // A ring stage into registers: the role's threads issue the loads, at
    // shared-memory bandwidth (not beside the tensor cores' operand reads).
    double bytes = fragBytes(read.getResult().getType());
    double ns = bytes / (cal.smemGBpsPerSm * perSmShare);
    if (record)
      work->cost.aluNs += ns * mult;
    return ns * mult;
  }
  if (auto reduce = dyn_cast<SmemReduceOp>(op)) {
    // Every stage read once by the role's threads, then the rows' values
    // through the scratch (written once, read by every thread).
    auto ring = cast<RingType>(reduce.getSrc().getType());
    double bytes = double(ring.getTileBytes()) * reduce.getStages().size() +
                   4.0 * ring.getShape()[0];
    double ns = bytes / (cal.smemGBpsPerSm * perSmShare);
    if (record)
      work->cost.aluNs += ns * mult;
    return ns * mult;
  }
  if (auto tmaStore = dyn_cast<TmaStoreOp>(op)) {
    // The copy engine writes the stage to global memory asynchronously.
    auto ring = cast<RingType>(tmaStore.getSrc().getType());
    if (record) {
      work->cost.storeBytes += double(ring.getTileBytes()) * mult;
      work->cost.copyBytes += double(ring.getTileBytes()) * mult;
      work->cost.copyNs += copyNs(ring) / perSmShare * mult;
    }
    return 0;
  }
  if (auto copy = dyn_cast<TmaLoadOp>(op)) {
    auto ring = cast<RingType>(copy.getDst().getType());
    // A multicast copy: this CTA fetches one slice from L2 and its peers
    // the rest, each slice landing in every CTA of the cluster.
    int64_t slices = 1;
    if (auto kernel = copy->getParentOfType<KernelOp>();
        kernel && copy.getMulticast())
      slices = std::max<int64_t>(1, kernel.getCluster().value_or(1));
    double ns = copyNs(ring) / perSmShare / double(slices);
    if (record) {
      work->cost.copyBytes += double(ring.getTileBytes()) / slices * mult;
      work->cost.copyNs += ns * mult;
      LoadSite site;
      if (auto arg = dyn_cast<BlockArgument>(copy.getSrc()))
        site.argIndex = arg.getArgNumber();
      for (Value c : copy.getCoords())
        site.tileMask |= tileCoordinateMask(
            c, currentTiles ? &currentTiles.getBody().front() : nullptr,
            depMemo);
      site.bytesPerTile = double(ring.getTileBytes()) * mult;
      loads.push_back(site);
    }
    // The producer only issues; the copy engine's time is the role's copy
    // term, not compute that delays the next op.
    return 0;
  }
  if (isa<GatherOp, CpAsyncLoadOp>(op)) {
    // The rows arrive as cp.async pieces: the model charges their bytes as
    // a copy of the stage (which rows, and so the L2 hits, it cannot see;
    // nor the issue cost of pieces smaller than 16 bytes, uncalibrated).
    auto ring =
        cast<RingType>(op->getOperand(op->getNumOperands() - 2).getType());
    if (record) {
      work->cost.copyBytes += double(ring.getTileBytes()) * mult;
      work->cost.copyNs += copyNs(ring) / perSmShare * mult;
    }
    return 0;
  }
  if (auto wait = dyn_cast<PipeWaitOp>(op)) {
    // A stage an mma of this block reads is a per-step hand-off: the
    // consumer pays the calibrated wait / issue / retire / release cost.
    Operation *pipeDef = wait.getPipe().getDefiningOp();
    Operation *release = nullptr;
    for (Operation *user : wait.getStage().getUsers())
      if (auto r = dyn_cast<PipeReleaseOp>(user))
        if (r->getBlock() == op->getBlock())
          release = r;
    bool asyncRead = false;
    for (Operation *user : wait.getStage().getUsers())
      if (isa<MmaOp, TmemMmaOp>(user) && user->getBlock() == op->getBlock())
        asyncRead = true;
    double handoff = asyncRead ? cal.mmaHandoffNs : 0;
    if (!record)
      return handoff * mult;
    work->cost.syncNs += handoff * mult;
    // The stage is held from this wait to its release: one step's round
    // trip is the pipe's latency, the stage's copy and the hold.
    PipeAccum &acc = pipes[pipeDef];
    double hold = handoff;
    if (release) {
      // An overlapped epilogue loop releases its stages when the iteration
      // ends, after the epilogue.
      Block::iterator end(release);
      if (auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
          loop && mmaInFlight > 0 && isOverlappedEpilogueLoop(loop))
        end = Block::iterator(loop.getBody()->getTerminator());
      hold += rangeCost(std::next(Block::iterator(op)), end, 1.0, false);
    }
    double stageBytes = 0, copy = 0;
    if (auto pipe = dyn_cast_or_null<PipeOp>(pipeDef))
      for (Value ring : pipe.getRings()) {
        auto rt = cast<RingType>(ring.getType());
        stageBytes += double(rt.getTileBytes());
        copy += copyNs(rt);
      }
    acc.steps += mult;
    acc.stageBytes = stageBytes;
    acc.copyNs = copy;
    // Only a pipelined K loop keeps mma in flight past the release.
    if (auto loop = dyn_cast<scf::ForOp>(op->getParentOp()))
      acc.asyncReader |= asyncRead && isPipelinedMmaLoop(loop);
    acc.roundTripSum += mult * (cal.pipeRoundTripNs + copy + hold);
    acc.holdSum += mult * hold;
    if (!llvm::is_contained(acc.holders, work))
      acc.holders.push_back(work);
    return handoff * mult;
  }
  // Other hand-offs, fences, constants and index math: free here.
  return 0;
}

/// The time of two concurrent activities bounded by `a` and `b`: their
/// max when one dominates, up to 2^(1/p) of it when they are equal
/// (p = kOverlapNorm). Each stalls the other now and then.
constexpr double kOverlapNorm = 4;
double overlapped(double a, double b) {
  double m = std::max(a, b);
  if (m <= 0)
    return 0;
  return m * std::pow(std::pow(a / m, kOverlapNorm) +
                          std::pow(b / m, kOverlapNorm),
                      1.0 / kOverlapNorm);
}

/// The registers ptxas spilled, charged to the role whose fragments need
/// the most registers (ptxas reports the kernel's function, not a role;
/// the role with the most live fragments is where it runs short). Each
/// spilled byte is stored and reloaded once per step of that role's loop
/// (its pipes' steps per tile; once per tile without a pipe), by each of
/// its threads, through L1 at the shared-memory rate (one array on
/// Hopper). Neither the once-per-step nor the rate is measured yet.
void Interpreter::chargeSpills(std::deque<RoleWork> &roles) {
  const PtxasFacts &ptxas = report.ptxas;
  double bytes = double(ptxas.spillStores + ptxas.spillLoads);
  if (!ptxas.present || bytes <= 0 || roles.empty())
    return;
  RoleWork *spiller = nullptr;
  int64_t most = -1;
  auto role = roles.begin();
  for (RoleOp r : kernel.getBody().front().getOps<RoleOp>()) {
    int64_t regs = estimateRoleRegisters(r);
    if (regs > most) {
      most = regs;
      spiller = &*role;
    }
    ++role;
  }
  double steps = 1;
  for (auto &entry : pipes)
    if (llvm::is_contained(entry.second.holders, spiller))
      steps = std::max(steps, entry.second.steps);
  double perSmShare = 1.0 / double(std::max<int64_t>(report.ctasPerSm, 1));
  RoleCost &c = spiller->cost;
  c.spillBytes = bytes * double(c.warps * 32) * steps;
  c.spillNs = c.spillBytes / (cal.smemGBpsPerSm * perSmShare);
  spiller->serialNs += c.spillNs;
  // ptxas -v reports the kernel's spills, not whose: the copy warpgroup
  // of a tight budget may be the one (benchmarks/findings.md, 2026-12-07).
  report.notes.push_back("ptxas's spills are charged to role \"" + c.name +
                         "\", the one with the most fragment registers; "
                         "ptxas does not say which role spilled");
}

LogicalResult Interpreter::walkRole(RoleOp role, RoleWork &w) {
  work = &w;
  w.alone.role = role;
  roleWarps = role.getNumWarps();
  w.cost.name = role.getName().str();
  w.cost.warps = roleWarps;
  Block &body = role.getBody().front();
  for (Operation &op : body) {
    auto tiles = dyn_cast<TilesOp>(op);
    if (!tiles)
      continue;
    currentTiles = tiles;
    Block &tb = tiles.getBody().front();
    // A role on slice k of n runs ceil((T - k) / n) of its CTA's T tiles:
    // per tile of the CTA's sequence, that share of it (1/n for many
    // tiles; the whole of the one tile a CTA gets on a small problem).
    auto [k, n] = tiles.getSliceOrWhole();
    w.alone.slices = std::max(w.alone.slices, n);
    int64_t t = report.tilesPerCta;
    double share = t > 0 ? double(std::max<int64_t>(0, (t - k + n - 1) / n)) /
                               double(t)
                         : 1.0 / double(n);
    w.serialNs += rangeCost(tb.begin(), tb.end(), share, true);
  }
  currentTiles = TilesOp();
  return failure_;
}

LogicalResult Interpreter::run() {
  const TargetInfo *target = lookupTarget(kernel.getTarget().getArch());
  if (!target)
    return kernel.emitError("cake-cost: unknown target");
  report.kernel = kernel.getSymName().str();
  report.target = target->arch.str();
  auto decided = [&](StringRef name) {
    auto attr = kernel->getAttrOfType<BoolAttr>(name);
    return attr && attr.getValue();
  };
  flushDenormals = decided(kFlushDenormalsAttrName);
  pingPong = decided(kWgOrderAttrName) && decided(kRetireLateAttrName);

  // Problem shapes: one per tensor argument; static dimensions must match.
  auto argTypes = kernel.getArgumentTypes();
  if (shapes.size() != argTypes.size())
    return kernel.emitError("cake-cost: the kernel has ")
           << argTypes.size() << " arguments but " << shapes.size()
           << " shapes were given (shapes=\"8192x8192,...\", one per "
              "argument in order)";
  for (auto [i, t] : llvm::enumerate(argTypes)) {
    auto g = dyn_cast<GlobalType>(t);
    if (!g)
      continue;
    const auto &s = shapes[i];
    if (s.size() != size_t(g.getRank()))
      return kernel.emitError("cake-cost: argument #")
             << i << " has rank " << g.getRank() << " but its shape has "
             << s.size() << " dimensions";
    for (int64_t d = 0; d < g.getRank(); ++d)
      if (!g.isDynamicDim(d) && g.getShape()[d] != s[d])
        return kernel.emitError("cake-cost: argument #")
               << i << " has static dimension " << d << " = "
               << g.getShape()[d] << " but the shape gives " << s[d];
  }

  // Schedule: tiles, CTAs and CTAs per SM.
  TilesOp anyTiles;
  kernel.walk([&](TilesOp t) {
    if (!anyTiles)
      anyTiles = t;
  });
  llvm::SmallVector<int64_t> counts;
  int64_t tiles = 1;
  if (anyTiles) {
    for (auto [e, size] :
         llvm::zip(anyTiles.getExtents(), kernel.getTileShape())) {
      auto ext = eval.eval(e);
      if (!ext)
        return anyTiles.emitError(
            "cake-cost: cannot evaluate this tile extent from the shapes");
      counts.push_back((*ext + size - 1) / size);
      tiles *= counts.back();
    }
  }
  RoleWarps warps = computeRoleWarps(kernel);
  int64_t threads = warps.totalWarps * 32;
  int64_t smem = computeSharedMemoryLayout(kernel).totalBytes;
  bool persistent = isa<PersistentAttr>(kernel.getSchedule());
  PtxasFacts &ptxas = report.ptxas;
  if (failed(readPtxasFacts(kernel, ptxas)))
    return failure();
  int64_t ctasPerSm = 1;
  if (!persistent) {
    bool budgets = false;
    int64_t ctaRegisters = 0;
    kernel.walk([&](RoleOp r) {
      budgets |= bool(r.getRegs());
      ctaRegisters += r.getNumWarps() * 32 * estimateRoleRegisters(r);
    });
    // ptxas compiles the whole CTA to one register count, allocated per
    // warp in units of 256 (8 per thread): what ptxas reported decides
    // rather than the fragments' estimate, which does not see what else
    // ptxas keeps live.
    if (ptxas.present)
      ctaRegisters =
          warps.totalWarps * llvm::alignTo(ptxas.registers * 32, 256);
    int64_t bySmem =
        smem > 0 ? target->smemPerSM / (smem + target->smemReservedPerBlock)
                 : 32;
    int64_t byThreads = threads > 0 ? target->maxThreadsPerSM / threads : 32;
    // Budgets launch the warps at the baseline, which fills the register
    // file; without them, what the registers need decides.
    int64_t byRegs =
        budgets ? 1
                : (ctaRegisters > 0 ? target->registersPerSM / ctaRegisters
                                    : 32);
    // cake.ctas_per_sm holds ptxas to that many CTAs' share of the
    // registers (spilling if it must): registers no longer limit below it.
    byRegs = std::max(byRegs, getCtasPerSM(kernel));
    ctasPerSm = std::max<int64_t>(
        1, std::min({bySmem, byThreads, byRegs, int64_t(32)}));
  }
  int64_t sms = cal.smCount;
  report.occupancyCtasPerSm = ctasPerSm;
  // A grid of fewer CTAs than the SMs can hold at that occupancy puts
  // ceil(CTAs / SMs) on the busiest SM, and they share it no further.
  if (!persistent && sms > 0)
    ctasPerSm =
        std::max<int64_t>(1, std::min(ctasPerSm, (tiles + sms - 1) / sms));
  report.ctasPerSm = ctasPerSm;
  if (ptxas.present) {
    report.registers = ptxas.registers;
    report.registersFromPtxas = true;
  } else {
    kernel.walk([&](RoleOp r) {
      report.registers = std::max(report.registers, estimateRoleRegisters(r));
    });
  }
  report.tiles = tiles;
  report.ctas = persistent ? std::min(tiles, sms) : tiles;
  int64_t slots = persistent ? report.ctas : sms * ctasPerSm;
  report.tilesPerCta = slots > 0 ? (tiles + slots - 1) / slots : 0;

  // Per-tile work of every role. A deque: pipes keep a pointer to the role
  // that holds their stages, which must survive the roles after it.
  std::deque<RoleWork> roles;
  for (RoleOp role : kernel.getBody().front().getOps<RoleOp>()) {
    roles.emplace_back();
    if (failed(walkRole(role, roles.back())))
      return failure();
  }

  chargeSpills(roles);

  // Steady-state time of one tile: the slowest of the consumers' serial
  // compute, the tensor cores shared by all roles, the copies, and each
  // pipe's stage cycle.
  double consumer = 0, tensor = 0, smemT = 0, alu = 0, store = 0, copy = 0;
  for (RoleWork &w : roles) {
    RoleCost &c = w.cost;
    // An overlapped epilogue's ALU work runs beside the wgmmas.
    double mmaT = overlapped(std::max(c.mmaNs, c.smemNs), c.overlapAluNs);
    double serialAlu = std::max(c.aluNs, c.mufuNs) - c.overlapAluNs;
    // In ping-pong (wg-order turns spanning a step's wgmmas) a warpgroup's
    // softmax runs while the other warpgroups' wgmmas hold the tensor
    // cores: of the role's ALU work only one warpgroup's share stays
    // exposed. (Chosen over max(mma, (mma + alu) / W) on the rank study of
    // docs/benchmarks/attention.md, the data it is judged on: a fit, not
    // yet a held-out result.)
    double compute = mmaT + serialAlu;
    if (pingPong && c.warps >= 8)
      compute = mmaT + serialAlu / double(c.warps / 4);
    consumer = std::max(consumer, compute + c.storeNs + c.syncNs + c.spillNs);
    w.timeNs = compute + c.storeNs + c.syncNs + c.spillNs;
    w.alone.mmaNs = c.mmaNs;
    w.alone.mainNs = mmaT + c.syncNs + c.spillNs;
    w.alone.epilogueNs = serialAlu + c.storeNs;
    tensor += c.mmaNs;
    smemT += c.smemNs;
    copy = std::max(copy, c.copyNs);
    report.roles.push_back(c);
    report.flops += c.flops * tiles;
    report.aluOps += c.aluOps * tiles;
    report.storeBytes += c.storeBytes * tiles;
    report.tmaBytes += c.copyBytes * tiles;
    report.smemReadBytes += w.smemBytes * tiles;
  }
  // The SM's CUDA cores and special-function units serve every role on
  // it: a role's ALU time is at the rate its warps can issue, and the
  // roles together can issue no more than the SM's calibrated rate. Their
  // ops at that rate bound the tile as well (three roles of four warps
  // each used to get the whole SM three times over: KDA's intra pipeline,
  // docs/benchmarks/cost-model.md).
  double sync = 0, spill = 0, aluShared = 0, mufuShared = 0;
  for (const RoleCost &c : report.roles) {
    double issue = std::min(1.0, double(c.warps) / 4.0);
    aluShared += c.aluNs * issue;
    mufuShared += c.mufuNs * issue;
    store = std::max(store, c.storeNs);
    sync = std::max(sync, c.syncNs);
    spill = std::max(spill, c.spillNs);
  }
  alu = std::max(aluShared, mufuShared);
  double latencyBound = 0, refillBound = 0, exposedRefill = 0;
  int index = 0;
  for (auto &[def, acc] : pipes) {
    // A hold spans the holder's ops one after another; when the role's
    // pipes overlap (ping-pong, MUFU beside the ALU), its time and so the
    // hold are shorter by the same ratio (a dealt pipe's consumers are
    // alike: the last one's).
    RoleWork *holder = acc.holders.empty() ? nullptr : acc.holders.back();
    if (holder && holder->serialNs > 0 && holder->timeNs > 0) {
      double scale = std::min(1.0, holder->timeNs / holder->serialNs);
      acc.roundTripSum -= acc.holdSum * (1 - scale);
      acc.holdSum *= scale;
    }
    PipeCost p;
    p.name = "pipe #" + std::to_string(index++);
    if (auto pipe = dyn_cast_or_null<PipeOp>(def))
      p.stages = cast<PipeType>(pipe.getType()).getStages();
    // A stage read by an asynchronous mma is released n mma later, so the
    // producer runs that many fewer stages ahead.
    // (The lowering does not defer releases on a pipe of no more stages.)
    bool deferred = acc.asyncReader && p.stages > int64_t(mmaInFlight);
    p.stagesInFlight = std::max<int64_t>(
        1, p.stages - (deferred ? int64_t(mmaInFlight) : 0));
    // A role that fills its own pipe fills each stage just before it
    // waits on it: nothing is in flight ahead, whatever the depth.
    if (auto pipe = dyn_cast_or_null<PipeOp>(def); pipe && selfFillingRole(pipe))
      p.stagesInFlight = 1;
    p.stepsPerTile = acc.steps;
    p.stageBytes = acc.stageBytes;
    p.roundTripNs = acc.steps > 0 ? acc.roundTripSum / acc.steps : 0;
    p.boundNs = acc.roundTripSum / double(p.stagesInFlight);
    // Each consumer's turn is fed by the whole ring (a dealt pipe's
    // consumers share it, each holding its share of the steps).
    if (acc.steps > 0)
      for (RoleWork *holder : acc.holders) {
        holder->alone.dealtFeed |= acc.holders.size() > 1;
        holder->alone.feedNs +=
            turnFeedNs(acc.steps / double(acc.holders.size()),
                       holder->alone.slices, acc.holdSum / acc.steps,
                       acc.roundTripSum / acc.steps, p.stagesInFlight);
      }
    latencyBound = std::max(latencyBound, p.boundNs);
    // A pipe whose round trip is mostly copy and latency runs beside the
    // consumer and competes with it; one whose round trip is mostly the
    // consumer's own hold (a stage held across a tile) is the consumer.
    if (acc.holdSum < 0.5 * acc.roundTripSum)
      refillBound = std::max(refillBound, p.boundNs);
    else
      // A consumer that holds the stages for most of their cycle still
      // waits for the part of the ring's cycle its holds do not cover: with
      // too few stages in flight, each refill's latency and copy.
      exposedRefill = std::max(exposedRefill, p.boundNs - acc.holdSum);
    report.pipes.push_back(p);
  }
  // Overlapped work does not overlap perfectly: the consumer's path and
  // the refills it waits on, close to each other, cost more than the
  // larger (a p-norm, not a max); so do the SMs' work and the shared
  // memory system below.
  SmallVector<AlternateRole> alone;
  for (RoleWork &w : roles)
    alone.push_back(w.alone);
  AlternateBound order = alternateRolesBound(kernel, alone);
  double path = std::max({consumer, tensor, smemT, copy, alu, order.ns});
  double tile = std::max({overlapped(path, refillBound), latencyBound,
                          path + exposedRefill});
  report.tileNs = tile;

  // HBM traffic: simulate the raster order wave by wave; an operand box a
  // CTA of the previous wave also read hits in L2 if both waves' working
  // sets fit.
  double hbm = report.storeBytes;
  if (!loads.empty() && tiles > 0) {
    int64_t groupM = 1;
    if (auto p = dyn_cast<PersistentAttr>(kernel.getSchedule()))
      groupM = std::max<int64_t>(p.getGroupM(), 1);
    hbm += rasterHbmLoadBytes(loads, tiles, report.ctas, counts, groupM,
                              cal.l2Bytes);
  }
  report.hbmBytes = hbm;
  double hbmNs = hbm / cal.hbmGBps;
  // Every TMA byte crosses from L2 to an SM; all SMs share that bandwidth.
  double l2Ns = cal.l2GBps > 0 ? report.tmaBytes / cal.l2GBps : 0;

  // Fill: the first stage's round trip before the first tile can start.
  double fill = cal.pipeRoundTripNs;
  if (!report.pipes.empty())
    fill += pipes.front().second.copyNs;
  // A grid kernel starts a CTA per tile, and each fills its pipes afresh:
  // with one CTA per SM nothing else runs while it does, so every tile
  // pays the fill; a persistent CTA (or a second CTA on the SM) hides all
  // but the first.
  bool refillsPerTile = !persistent && report.ctasPerSm == 1;
  double body = refillsPerTile ? double(report.tilesPerCta) * (fill + tile)
                               : fill + double(report.tilesPerCta) * tile;
  double device = overlapped(body, std::max(hbmNs, l2Ns) + fill);
  // A launch costs at least what a one-tile kernel costs through the
  // runtime (host-bound for small kernels).
  report.predictedNs = std::max(device, cal.launchNs);

  auto add = [&](const char *name, double ns, std::string detail) {
    CostResource r;
    r.name = name;
    r.ns = ns;
    r.share = report.predictedNs > 0 ? ns / report.predictedNs : 0;
    r.detail = std::move(detail);
    report.resources.push_back(r);
  };
  double n = double(report.tilesPerCta);
  double stall = std::max(0.0, tile - path);
  add("tensor-core", n * tensor, "mma issue at the calibrated rate");
  add("shared-memory", n * smemT, "mma operand reads");
  add("epilogue-alu", n * alu, "frag.map / argmin / reduce / convert ops");
  add("store", n * store, "register -> global and shared-memory stores");
  add("handoff", n * sync, "per-step stage hand-offs around the mma");
  if (ptxas.present)
    add("local-memory", n * spill,
        "registers ptxas spilled, stored and reloaded per loop step");
  add("tma", n * copy, "TMA copies between shared memory and L2");
  add("l2", l2Ns, "TMA bytes through L2 to the SMs, all SMs together");
  add("hbm", hbmNs, "HBM reads after L2 reuse, plus stores");
  add("pipeline-latency", n * stall + (refillsPerTile ? n : 1.0) * fill,
      refillsPerTile ? "stage round trips not hidden by the stages in "
                       "flight, plus a fill per tile (a CTA per tile, one "
                       "per SM)"
                     : "stage round trips not hidden by the stages in "
                       "flight, plus fill");
  if (!order.term.empty())
    add(order.term.c_str(), n * order.ns, order.detail);
  add("launch", cal.launchNs, "per-launch cost through the runtime");
  // The bottleneck is the busiest resource.
  for (const CostResource &r : report.resources)
    if (r.ns > 0 && r.share > report.bottleneckShare) {
      report.bottleneckShare = r.share;
      report.bottleneck = r.name;
    }

  report.calibration = cal;
  if (!cal.calibrated)
    report.notes.push_back("calibration '" + cal.path +
                           "' holds datasheet figures, not measurements "
                           "(uncalibrated)");
  if (ptxas.present)
    report.notes.push_back(
        "registers from ptxas (cake.ptxas): " +
        std::to_string(ptxas.registers) + " per thread, " +
        std::to_string(ptxas.spillStores + ptxas.spillLoads) +
        " bytes of spill stores and loads");
  if (extrapolatedMma)
    report.notes.push_back("the calibration has no tensor-core rate for an "
                           "operand type used here; a 16-bit rate was scaled");
  if (report.ctas < sms && persistent)
    report.notes.push_back(std::to_string(report.ctas) + " tiles keep only " +
                           std::to_string(report.ctas) + " of " +
                           std::to_string(sms) + " SMs busy");
  return success();
}

} // namespace

LogicalResult
mlir::cake::estimateCost(KernelOp kernel,
                         const std::vector<std::vector<int64_t>> &shapes,
                         const Calibration &calibration, CostReport &report,
                         unsigned mmaInFlight) {
  report = CostReport();
  report.shapes = shapes;
  Interpreter interp(kernel, shapes, calibration, report);
  interp.setMmaInFlight(mmaInFlight);
  return interp.run();
}

