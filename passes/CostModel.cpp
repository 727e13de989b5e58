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
#include "cake/Target/TargetInfo.h"
#include "cake/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cjson/cJSON.h>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <unordered_set>

using namespace mlir;
using namespace mlir::cake;

#ifndef CAKE_CALIBRATION_DIR
#define CAKE_CALIBRATION_DIR ""
#endif

//===----------------------------------------------------------------------===//
// Calibration
//===----------------------------------------------------------------------===//

namespace {
double number(const cJSON *obj, const char *key, double fallback = 0) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}
std::string string(const cJSON *obj, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

/// "128x64_sw128" -> rows 128, inner bytes 128 (calibration boxes are bf16),
/// swizzle 128.
bool parseBoxKey(llvm::StringRef key, int64_t &rows, int64_t &innerBytes,
                 int64_t &swizzle) {
  auto [shape, sw] = key.split("_sw");
  auto [r, c] = shape.split('x');
  int64_t cols;
  if (r.getAsInteger(10, rows) || c.getAsInteger(10, cols) ||
      sw.getAsInteger(10, swizzle))
    return false;
  innerBytes = cols * 2;
  return true;
}
} // namespace

bool mlir::cake::loadCalibration(llvm::StringRef path, Calibration &out,
                                 std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    error = "cannot read calibration file '" + path.str() +
            "': " + buffer.getError().message();
    return false;
  }
  cJSON *doc = cJSON_ParseWithLength((*buffer)->getBufferStart(),
                                     (*buffer)->getBufferSize());
  if (!doc) {
    error = "calibration file '" + path.str() + "' is not valid JSON";
    return false;
  }
  out = Calibration();
  out.path = path.str();
  out.gpu = string(doc, "gpu");
  out.target = string(doc, "target");
  out.date = string(doc, "date");
  out.calibrated = cJSON_IsTrue(cJSON_GetObjectItem(doc, "calibrated"));
  out.smCount = (int64_t)number(doc, "sm_count");
  out.l2Bytes = (int64_t)number(doc, "l2_bytes");
  out.hbmGBps = number(doc, "hbm_gbps");
  out.l2GBps = number(doc, "l2_gbps");
  out.storeGBps = number(doc, "store_gbps");
  out.launchNs = number(doc, "launch_ns");
  out.pipeRoundTripNs = number(doc, "pipe_round_trip_ns");
  out.mmaHandoffNs = number(doc, "mma_handoff_ns");
  out.aluOpsPerNsPerSm = number(doc, "alu_ops_per_ns_per_sm");
  out.argminOpsPerElement = number(doc, "argmin_ops_per_element", 3.0);
  out.loadNs = number(doc, "load_ns");
  out.smemGBpsPerSm = number(doc, "smem_gbps_per_sm");
  const cJSON *entry;
  cJSON_ArrayForEach(entry, cJSON_GetObjectItem(doc, "tma")) {
    double rate = number(entry, "l2_gbps_per_sm");
    int64_t rows, inner, sw;
    if (rate > 0 && parseBoxKey(entry->string, rows, inner, sw))
      out.tmaGBpsPerSm[entry->string] = rate;
  }
  const cJSON *dtype;
  cJSON_ArrayForEach(dtype, cJSON_GetObjectItem(doc, "mma_tflops_per_sm")) {
    auto &points = out.mmaTflopsPerSm[dtype->string];
    const cJSON *point;
    cJSON_ArrayForEach(point, dtype) {
      int64_t n;
      if (cJSON_IsNumber(point) &&
          !llvm::StringRef(point->string).getAsInteger(10, n))
        points.push_back({n, point->valuedouble});
    }
    llvm::sort(points);
  }
  cJSON_Delete(doc);
  std::string missing;
  auto need = [&](bool ok, const char *key) {
    if (!ok)
      missing += std::string(missing.empty() ? "" : ", ") + key;
  };
  need(out.smCount > 0, "sm_count");
  need(out.hbmGBps > 0, "hbm_gbps");
  need(out.storeGBps > 0, "store_gbps");
  need(out.pipeRoundTripNs > 0, "pipe_round_trip_ns");
  need(out.aluOpsPerNsPerSm > 0, "alu_ops_per_ns_per_sm");
  need(out.smemGBpsPerSm > 0, "smem_gbps_per_sm");
  need(!out.tmaGBpsPerSm.empty(), "tma");
  need(!out.mmaTflopsPerSm.empty(), "mma_tflops_per_sm");
  if (!missing.empty()) {
    error = "calibration file '" + path.str() + "' lacks " + missing;
    return false;
  }
  return true;
}

double Calibration::tmaRate(int64_t rows, int64_t innerBytes,
                            int64_t swizzle) const {
  double best = 0, bestScore = 1e30;
  for (const auto &e : tmaGBpsPerSm) {
    int64_t r, inner, sw;
    if (!parseBoxKey(e.getKey(), r, inner, sw))
      continue;
    // Same inner bytes first, then the nearest row count (log scale).
    double score = std::fabs(std::log2(double(r) / double(std::max<int64_t>(
                                                       rows, 1)))) +
                   (inner == innerBytes ? 0 : 100) + (sw == swizzle ? 0 : 1);
    if (score < bestScore) {
      bestScore = score;
      best = e.getValue();
    }
  }
  return best;
}

double Calibration::mmaRate(llvm::StringRef dtype, int64_t n,
                            int64_t elementBits, bool &extrapolated) const {
  extrapolated = false;
  auto it = mmaTflopsPerSm.find(dtype);
  double scale = 1;
  if (it == mmaTflopsPerSm.end()) {
    // A type not measured: the nearest 16-bit rate, scaled by how many
    // operand elements one instruction's K bytes hold.
    extrapolated = true;
    it = mmaTflopsPerSm.find("bf16");
    if (it == mmaTflopsPerSm.end())
      it = mmaTflopsPerSm.begin();
    scale = 16.0 / double(std::max<int64_t>(elementBits, 1));
  }
  const auto &pts = it->getValue();
  if (pts.empty())
    return 0;
  if (n <= pts.front().first)
    return pts.front().second * scale;
  for (size_t i = 1; i < pts.size(); ++i)
    if (n <= pts[i].first) {
      double t = double(n - pts[i - 1].first) /
                 double(pts[i].first - pts[i - 1].first);
      return (pts[i - 1].second * (1 - t) + pts[i].second * t) * scale;
    }
  return pts.back().second * scale;
}

std::string mlir::cake::defaultCalibrationPath(llvm::StringRef target,
                                               llvm::StringRef gpu) {
  std::string name = gpu.str();
  if (name.empty()) {
    if (target == "sm_90a")
      name = "h200";
    else if (target == "sm_100a")
      name = "b200";
    else
      return "";
  }
  const char *dirs[] = {std::getenv("CAKE_CALIBRATION_DIR"),
                        CAKE_CALIBRATION_DIR};
  for (const char *dir : dirs) {
    if (!dir || !*dir)
      continue;
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, name + ".json");
    if (llvm::sys::fs::exists(p))
      return std::string(p);
  }
  return "";
}

bool mlir::cake::parseProblemShapes(llvm::StringRef text,
                                    std::vector<std::vector<int64_t>> &shapes,
                                    std::string &error) {
  shapes.clear();
  if (text.trim().empty())
    return true;
  llvm::SmallVector<llvm::StringRef> args;
  text.split(args, ',');
  for (llvm::StringRef a : args) {
    a = a.trim();
    std::vector<int64_t> shape;
    if (!a.empty()) {
      llvm::SmallVector<llvm::StringRef> dims;
      a.split(dims, 'x');
      for (llvm::StringRef d : dims) {
        int64_t v;
        if (d.trim().getAsInteger(10, v) || v < 0) {
          error = "expected a shape like 8192x8192, got '" + a.str() + "'";
          return false;
        }
        shape.push_back(v);
      }
    }
    shapes.push_back(std::move(shape));
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Interpretation of a kernel on one problem
//===----------------------------------------------------------------------===//

namespace {

/// Index values known from the problem: cake.dim of an argument, constants
/// and integer arithmetic on them. Tile coordinates stay unknown.
struct IndexEvaluator {
  IndexEvaluator(KernelOp kernel,
                 const std::vector<std::vector<int64_t>> &shapes)
      : kernel(kernel), shapes(shapes) {}
  KernelOp kernel;
  const std::vector<std::vector<int64_t>> &shapes;
  llvm::DenseMap<Value, std::optional<int64_t>> memo;

  std::optional<int64_t> eval(Value v) {
    auto it = memo.find(v);
    if (it != memo.end())
      return it->second;
    std::optional<int64_t> r = compute(v);
    memo[v] = r;
    return r;
  }

  std::optional<int64_t> compute(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (auto dim = dyn_cast<DimOp>(def)) {
      auto arg = dyn_cast<BlockArgument>(dim.getTensor());
      if (!arg || arg.getArgNumber() >= shapes.size())
        return std::nullopt;
      const auto &s = shapes[arg.getArgNumber()];
      if (dim.getDim() >= s.size())
        return std::nullopt;
      return s[dim.getDim()];
    }
    if (auto c = dyn_cast<arith::ConstantOp>(def))
      if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
        return i.getInt();
    auto binary = [&](auto fn) -> std::optional<int64_t> {
      auto a = eval(def->getOperand(0)), b = eval(def->getOperand(1));
      if (!a || !b)
        return std::nullopt;
      return fn(*a, *b);
    };
    if (isa<arith::AddIOp>(def))
      return binary([](int64_t a, int64_t b) { return a + b; });
    if (isa<arith::SubIOp>(def))
      return binary([](int64_t a, int64_t b) { return a - b; });
    if (isa<arith::MulIOp>(def))
      return binary([](int64_t a, int64_t b) { return a * b; });
    if (isa<arith::DivUIOp, arith::DivSIOp>(def))
      return binary([](int64_t a, int64_t b) { return b ? a / b : 0; });
    if (isa<arith::CeilDivUIOp, arith::CeilDivSIOp>(def))
      return binary([](int64_t a, int64_t b) { return b ? (a + b - 1) / b : 0; });
    if (isa<arith::RemUIOp, arith::RemSIOp>(def))
      return binary([](int64_t a, int64_t b) { return b ? a % b : 0; });
    if (isa<arith::MinUIOp, arith::MinSIOp>(def))
      return binary([](int64_t a, int64_t b) { return std::min(a, b); });
    if (isa<arith::MaxUIOp, arith::MaxSIOp>(def))
      return binary([](int64_t a, int64_t b) { return std::max(a, b); });
    if (auto cast = dyn_cast<arith::IndexCastOp>(def))
      return eval(cast.getIn());
    return std::nullopt;
  }
};

/// Which tile coordinates (bits) a value depends on.
unsigned tileDependence(Value v, TilesOp tiles,
                        llvm::DenseMap<Value, unsigned> &memo) {
  auto it = memo.find(v);
  if (it != memo.end())
    return it->second;
  unsigned mask = 0;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (tiles && arg.getOwner() == &tiles.getBody().front())
      mask = 1u << arg.getArgNumber();
  } else if (Operation *def = v.getDefiningOp()) {
    memo[v] = 0; // cycles cannot occur in SSA, but keep recursion finite
    for (Value operand : def->getOperands())
      mask |= tileDependence(operand, tiles, memo);
  }
  memo[v] = mask;
  return mask;
}

/// A TMA load as the raster simulation needs it.
struct LoadSite {
  unsigned argIndex = 0;
  unsigned tileMask = 0;     ///< tile coordinates its box depends on
  double bytesPerTile = 0;   ///< over every trip of its loops, per tile
};

struct RoleWork {
  RoleCost cost;
  double smemBytes = 0;
};

class Interpreter {
public:
  Interpreter(KernelOp kernel, const std::vector<std::vector<int64_t>> &shapes,
              const Calibration &cal, CostReport &report)
      : kernel(kernel), eval(kernel, shapes), cal(cal), report(report) {}

  LogicalResult run();

private:
  KernelOp kernel;
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
    double stageBytes = 0;
    double copyNs = 0;
    bool asyncReader = false; ///< read by mma kept in flight past release
  };
  llvm::MapVector<Operation *, PipeAccum> pipes;

  double mmaInFlight = 1;

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
  LogicalResult tripCount(scf::ForOp loop, double &trips);
  LogicalResult failure_ = success();
  bool inOverlap = false; ///< inside an overlapped epilogue loop
};

LogicalResult Interpreter::tripCount(scf::ForOp loop, double &trips) {
  auto lb = eval.eval(loop.getLowerBound());
  auto ub = eval.eval(loop.getUpperBound());
  auto step = eval.eval(loop.getStep());
  if (!lb || !ub || !step || *step <= 0) {
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
  trips = *ub > *lb ? double((*ub - *lb + *step - 1) / *step) : 0;
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
  if (auto mma = dyn_cast<MmaOp>(op)) {
    auto a = cast<RingType>(mma.getA().getType());
    auto acc = cast<FragType>(mma.getAcc().getType());
    int64_t m = acc.getShape()[0], n = acc.getShape()[1];
    int64_t k = a.getShape().back();
    double flops = 2.0 * double(m) * double(n) * double(k);
    std::string dtype;
    llvm::raw_string_ostream(dtype) << a.getElementType();
    int64_t bits = a.getElementType().getIntOrFloatBitWidth();
    bool extrapolated = false;
    double tflops =
        cal.mmaRate(dtype, std::min<int64_t>(n, 256), bits, extrapolated) *
        perSmShare;
    extrapolatedMma |= extrapolated;
    double mmaNs = tflops > 0 ? flops / (tflops * 1e3) : 0;
    // Each warpgroup reads its 64 rows of A and all of B.
    double eb = double(bits) / 8;
    double smemBytes = double(m * k) * eb + double(m / 64) * n * k * eb;
    double smemNs = smemBytes / (cal.smemGBpsPerSm * perSmShare);
    if (record) {
      work->cost.flops += flops * mult;
      work->cost.mmaNs += mmaNs * mult;
      work->cost.smemNs += smemNs * mult;
      work->smemBytes += smemBytes * mult;
    }
    return std::max(mmaNs, smemNs) * mult;
  }
  if (auto map = dyn_cast<FragMapOp>(op)) {
    double perElement = 0;
    map.getBody().walk([&](Operation *inner) {
      if (!isa<FragYieldOp, arith::ConstantOp>(inner))
        perElement += 1;
    });
    return alu(double(fragElements(map->getResult(0).getType())) * perElement);
  }
  if (auto argmin = dyn_cast<FragArgminOp>(op)) {
    // Packed: a LOP3 and a min per element, where the exact form compares
    // and selects both the value and the index (2 of 3 ops).
    double ops =
        cal.argminOpsPerElement * (argmin.getPacked() ? 2.0 / 3.0 : 1.0);
    return alu(ops * double(fragElements(argmin.getInput().getType())));
  }
  if (auto reduce = dyn_cast<FragReduceOp>(op))
    return alu(double(fragElements(reduce.getInput().getType())));
  if (auto convert = dyn_cast<FragConvertOp>(op))
    return alu(double(fragElements(convert.getInput().getType())));
  if (auto load = dyn_cast<LoadOp>(op)) {
    // The loaded row is used right away: its latency is exposed.
    double ns = alu(double(fragElements(load.getResult().getType())));
    if (record)
      work->cost.aluNs += cal.loadNs * mult;
    return ns + cal.loadNs * mult;
  }
  if (auto store = dyn_cast<StoreOp>(op)) {
    auto f = cast<FragType>(store.getValue().getType());
    double bytes = double(f.getNumElements()) *
                   double(f.getElementType().getIntOrFloatBitWidth()) / 8;
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
    auto f = cast<FragType>(write.getValue().getType());
    double bytes = double(f.getNumElements()) *
                   double(f.getElementType().getIntOrFloatBitWidth()) / 8;
    double ns = bytes / (cal.smemGBpsPerSm * perSmShare);
    if (record)
      work->cost.storeNs += ns * mult;
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
    double ns = copyNs(ring) / perSmShare;
    if (record) {
      work->cost.copyBytes += double(ring.getTileBytes()) * mult;
      work->cost.copyNs += ns * mult;
      LoadSite site;
      if (auto arg = dyn_cast<BlockArgument>(copy.getSrc()))
        site.argIndex = arg.getArgNumber();
      for (Value c : copy.getCoords())
        site.tileMask |= tileDependence(c, currentTiles, depMemo);
      site.bytesPerTile = double(ring.getTileBytes()) * mult;
      loads.push_back(site);
    }
    // The producer only issues; the copy engine's time is the role's copy
    // term, not compute that delays the next op.
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
      if (isa<MmaOp>(user) && user->getBlock() == op->getBlock())
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

LogicalResult Interpreter::walkRole(RoleOp role, RoleWork &w) {
  work = &w;
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
    int64_t t = report.tilesPerCta;
    double share = t > 0 ? double(std::max<int64_t>(0, (t - k + n - 1) / n)) /
                               double(t)
                         : 1.0 / double(n);
    rangeCost(tb.begin(), tb.end(), share, true);
  }
  currentTiles = TilesOp();
  return failure_;
}

/// The (tm, tn) coordinates of linear tile `t` in the lowering's raster
/// order (group-M for two-dimensional schedules).
std::pair<int64_t, int64_t> rasterTile(int64_t t, llvm::ArrayRef<int64_t> counts,
                                       int64_t groupM) {
  if (counts.size() == 1)
    return {t, 0};
  int64_t groupSize = groupM * counts[1];
  int64_t group = t / groupSize;
  int64_t firstM = group * groupM;
  int64_t rows = std::min(counts[0] - firstM, groupM);
  int64_t inGroup = t % groupSize;
  return {firstM + inGroup % rows, inGroup / rows};
}

LogicalResult Interpreter::run() {
  const TargetInfo *target = lookupTarget(kernel.getTarget().getArch());
  if (!target)
    return kernel.emitError("cake-cost: unknown target");
  report.kernel = kernel.getSymName().str();
  report.target = target->arch.str();

  // Problem shapes: one per tensor argument; static dimensions must match.
  auto argTypes = kernel.getArgumentTypes();
  if (eval.shapes.size() != argTypes.size())
    return kernel.emitError("cake-cost: the kernel has ")
           << argTypes.size() << " arguments but " << eval.shapes.size()
           << " shapes were given (shapes=\"8192x8192,...\", one per "
              "argument in order)";
  for (auto [i, t] : llvm::enumerate(argTypes)) {
    auto g = dyn_cast<GlobalType>(t);
    if (!g)
      continue;
    const auto &s = eval.shapes[i];
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
  int64_t ctasPerSm = 1;
  if (!persistent) {
    bool budgets = false;
    int64_t ctaRegisters = 0;
    kernel.walk([&](RoleOp r) {
      budgets |= bool(r.getRegs());
      ctaRegisters += r.getNumWarps() * 32 * estimateRoleRegisters(r);
    });
    int64_t bySmem =
        smem > 0 ? target->smemPerSM / (smem + target->smemReservedPerBlock)
                 : 32;
    int64_t byThreads = threads > 0 ? target->maxThreadsPerSM / threads : 32;
    // Budgets launch the warps at the baseline, which fills the register
    // file; without them, what the fragments need decides.
    int64_t byRegs =
        budgets ? 1
                : (ctaRegisters > 0 ? target->registersPerSM / ctaRegisters
                                    : 32);
    ctasPerSm = std::max<int64_t>(
        1, std::min({bySmem, byThreads, byRegs, int64_t(32)}));
  }
  int64_t sms = cal.smCount;
  report.ctasPerSm = ctasPerSm;
  report.tiles = tiles;
  report.ctas = persistent ? std::min(tiles, sms) : tiles;
  int64_t slots = persistent ? report.ctas : sms * ctasPerSm;
  report.tilesPerCta = slots > 0 ? (tiles + slots - 1) / slots : 0;

  // Per-tile work of every role.
  std::vector<RoleWork> roles;
  for (RoleOp role : kernel.getBody().front().getOps<RoleOp>()) {
    roles.emplace_back();
    if (failed(walkRole(role, roles.back())))
      return failure();
  }

  // Steady-state time of one tile: the slowest of the consumers' serial
  // compute, the tensor cores shared by all roles, the copies, and each
  // pipe's stage cycle.
  double consumer = 0, tensor = 0, smemT = 0, alu = 0, store = 0, copy = 0;
  for (RoleWork &w : roles) {
    RoleCost &c = w.cost;
    // An overlapped epilogue's ALU work runs beside the wgmmas.
    consumer = std::max(consumer,
                        overlapped(std::max(c.mmaNs, c.smemNs),
                                   c.overlapAluNs) +
                            (c.aluNs - c.overlapAluNs) + c.storeNs +
                            c.syncNs);
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
  double sync = 0;
  for (const RoleCost &c : report.roles) {
    alu = std::max(alu, c.aluNs);
    store = std::max(store, c.storeNs);
    sync = std::max(sync, c.syncNs);
  }
  double latencyBound = 0, refillBound = 0, exposedRefill = 0;
  int index = 0;
  for (auto &[def, acc] : pipes) {
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
  double path = std::max({consumer, tensor, smemT, copy});
  double tile = std::max({overlapped(path, refillBound), latencyBound,
                          path + exposedRefill});
  report.tileNs = tile;

  // HBM traffic: simulate the raster order wave by wave; an operand box a
  // CTA of the previous wave also read hits in L2 if both waves' working
  // sets fit.
  double hbm = report.storeBytes;
  if (!loads.empty() && tiles > 0) {
    int64_t wave = std::max<int64_t>(report.ctas, 1);
    int64_t groupM = 1;
    if (auto p = dyn_cast<PersistentAttr>(kernel.getSchedule()))
      groupM = std::max<int64_t>(p.getGroupM(), 1);
    std::unordered_set<uint64_t> prev, cur;
    double prevBytes = 0;
    // Bound the analysis time: past 2^22 tiles, simulate that many and
    // scale the traffic by the rest.
    int64_t simulated = std::min<int64_t>(tiles, int64_t(1) << 22);
    double scale = double(tiles) / double(simulated);
    double loaded = 0;
    for (int64_t start = 0; start < simulated; start += wave) {
      cur.clear();
      double curBytes = 0, hitBytes = 0;
      int64_t end = std::min(simulated, start + wave);
      for (int64_t t = start; t < end; ++t) {
        auto [tm, tn] = rasterTile(t, counts, groupM);
        for (auto [li, site] : llvm::enumerate(loads)) {
          uint64_t key = uint64_t(li) << 48;
          if (site.tileMask & 1u)
            key ^= uint64_t(tm) << 24;
          if (site.tileMask & 2u)
            key ^= uint64_t(tn) + 1;
          if (!cur.insert(key).second)
            continue;
          curBytes += site.bytesPerTile;
          if (prev.count(key))
            hitBytes += site.bytesPerTile;
        }
      }
      double fit = std::min(1.0, double(cal.l2Bytes) /
                                     std::max(1.0, prevBytes + curBytes));
      loaded += curBytes - hitBytes * fit;
      std::swap(prev, cur);
      prevBytes = curBytes;
    }
    hbm += loaded * scale;
  }
  report.hbmBytes = hbm;
  double hbmNs = hbm / cal.hbmGBps;
  // Every TMA byte crosses from L2 to an SM; all SMs share that bandwidth.
  double l2Ns = cal.l2GBps > 0 ? report.tmaBytes / cal.l2GBps : 0;

  // Fill: the first stage's round trip before the first tile can start.
  double fill = cal.pipeRoundTripNs;
  if (!report.pipes.empty())
    fill += pipes.front().second.copyNs;
  double body = fill + double(report.tilesPerCta) * tile;
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
  add("tma", n * copy, "TMA copies between shared memory and L2");
  add("l2", l2Ns, "TMA bytes through L2 to the SMs, all SMs together");
  add("hbm", hbmNs, "HBM reads after L2 reuse, plus stores");
  add("pipeline-latency", n * stall + fill,
      "stage round trips not hidden by the stages in flight, plus fill");
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

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

namespace {
std::string shapeString(const std::vector<int64_t> &s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i)
    out += (i ? "x" : "") + std::to_string(s[i]);
  return out;
}

/// 1.234 ms / 56.7 us / 890 ns.
std::string timeString(double ns) {
  char buf[32];
  if (ns >= 1e6)
    snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
  else if (ns >= 1e3)
    snprintf(buf, sizeof buf, "%.2f us", ns / 1e3);
  else
    snprintf(buf, sizeof buf, "%.0f ns", ns);
  return buf;
}

std::string bytesString(double b) {
  char buf[32];
  if (b >= 1e9)
    snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  else if (b >= 1e6)
    snprintf(buf, sizeof buf, "%.1f MB", b / 1e6);
  else
    snprintf(buf, sizeof buf, "%.1f KB", b / 1e3);
  return buf;
}
} // namespace

void mlir::cake::printCostReport(const CostReport &r, llvm::raw_ostream &os) {
  const Calibration &c = r.calibration;
  os << "cake-cost: @" << r.kernel << " on " << c.gpu << " (" << r.target
     << ", " << (c.calibrated ? "calibrated " + c.date : "uncalibrated")
     << ")\n";
  os << "  problem: ";
  for (size_t i = 0; i < r.shapes.size(); ++i)
    os << (i ? ", " : "") << "#" << i << " " << shapeString(r.shapes[i]);
  os << "\n";
  os << "  predicted: " << timeString(r.predictedNs);
  if (r.flops > 0 && r.predictedNs > 0)
    os << llvm::format(" (%.1f TFLOP/s)", r.flops / r.predictedNs / 1e3);
  os << "\n";
  os << "  bottleneck: " << r.bottleneck
     << llvm::format(" (%.0f%% of the time)", 100 * r.bottleneckShare) << "\n";
  os << "  resources (busy time on the critical CTA, share of the time):\n";
  for (const CostResource &res : r.resources)
    os << llvm::format("    %-17s %11s %6.1f%%  ", res.name.c_str(),
                       timeString(res.ns).c_str(), 100 * res.share)
       << res.detail << "\n";
  double eff = r.ctas > 0 && r.tilesPerCta > 0
                   ? double(r.tiles) /
                         double(std::min<int64_t>(r.ctas, c.smCount *
                                                              r.ctasPerSm) *
                                r.tilesPerCta)
                   : 0;
  os << "  schedule: " << r.tiles << " tiles, " << r.ctas << " CTAs ("
     << r.ctasPerSm << " per SM), " << r.tilesPerCta
     << " tiles on the busiest CTA slot, "
     << llvm::format("wave efficiency %.1f%%", 100 * eff) << ", "
     << timeString(r.tileNs) << " per tile\n";
  os << "  memory: HBM " << bytesString(r.hbmBytes) << ", TMA "
     << bytesString(r.tmaBytes);
  if (r.tmaBytes > 0)
    os << llvm::format(" (L2 hit %.1f%%)",
                       100 * std::max(0.0, 1 - (r.hbmBytes - r.storeBytes) /
                                                   r.tmaBytes));
  os << ", stores " << bytesString(r.storeBytes) << ", shared-memory reads "
     << bytesString(r.smemReadBytes) << "\n";
  for (const RoleCost &role : r.roles) {
    os << "  role \"" << role.name << "\" (" << role.warps
       << " warps), per tile:";
    if (role.copyNs > 0)
      os << " copy " << timeString(role.copyNs) << " ("
         << bytesString(role.copyBytes) << ")";
    if (role.mmaNs > 0)
      os << " mma " << timeString(role.mmaNs);
    if (role.aluNs > 0)
      os << " alu " << timeString(role.aluNs);
    if (role.storeNs > 0)
      os << " store " << timeString(role.storeNs);
    if (role.syncNs > 0)
      os << " handoff " << timeString(role.syncNs);
    if (role.copyNs <= 0 && role.mmaNs <= 0 && role.aluNs <= 0 &&
        role.storeNs <= 0 && role.syncNs <= 0)
      os << " idle";
    os << "\n";
  }
  for (const PipeCost &p : r.pipes)
    os << "  " << p.name << ": " << p.stages << " stages ("
       << p.stagesInFlight << " filled ahead), "
       << llvm::format("%.0f", p.stepsPerTile) << " steps per tile of "
       << bytesString(p.stageBytes) << ", round trip "
       << timeString(p.roundTripNs) << " per step, bound "
       << timeString(p.boundNs) << " per tile\n";
  for (const std::string &note : r.notes)
    os << "  note: " << note << "\n";
}

std::string mlir::cake::costReportToJson(llvm::ArrayRef<CostReport> reports) {
  cJSON *root = cJSON_CreateArray();
  for (const CostReport &r : reports) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", r.kernel.c_str());
    cJSON_AddStringToObject(o, "target", r.target.c_str());
    cJSON *cal = cJSON_AddObjectToObject(o, "calibration");
    cJSON_AddStringToObject(cal, "gpu", r.calibration.gpu.c_str());
    cJSON_AddStringToObject(cal, "file", r.calibration.path.c_str());
    cJSON_AddBoolToObject(cal, "calibrated", r.calibration.calibrated);
    cJSON_AddStringToObject(cal, "date", r.calibration.date.c_str());
    cJSON *shapes = cJSON_AddArrayToObject(o, "shapes");
    for (const auto &s : r.shapes) {
      cJSON *dims = cJSON_CreateArray();
      for (int64_t d : s)
        cJSON_AddItemToArray(dims, cJSON_CreateNumber(double(d)));
      cJSON_AddItemToArray(shapes, dims);
    }
    cJSON_AddNumberToObject(o, "predicted_ns", r.predictedNs);
    if (r.flops > 0 && r.predictedNs > 0)
      cJSON_AddNumberToObject(o, "predicted_tflops",
                              r.flops / r.predictedNs / 1e3);
    cJSON *b = cJSON_AddObjectToObject(o, "bottleneck");
    cJSON_AddStringToObject(b, "resource", r.bottleneck.c_str());
    cJSON_AddNumberToObject(b, "share", r.bottleneckShare);
    cJSON *res = cJSON_AddArrayToObject(o, "resources");
    for (const CostResource &x : r.resources) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "name", x.name.c_str());
      cJSON_AddNumberToObject(e, "ns", x.ns);
      cJSON_AddNumberToObject(e, "share", x.share);
      cJSON_AddStringToObject(e, "detail", x.detail.c_str());
      cJSON_AddItemToArray(res, e);
    }
    cJSON *s = cJSON_AddObjectToObject(o, "schedule");
    cJSON_AddNumberToObject(s, "tiles", double(r.tiles));
    cJSON_AddNumberToObject(s, "ctas", double(r.ctas));
    cJSON_AddNumberToObject(s, "ctas_per_sm", double(r.ctasPerSm));
    cJSON_AddNumberToObject(s, "tiles_per_cta", double(r.tilesPerCta));
    cJSON_AddNumberToObject(s, "tile_ns", r.tileNs);
    cJSON *w = cJSON_AddObjectToObject(o, "work");
    cJSON_AddNumberToObject(w, "flops", r.flops);
    cJSON_AddNumberToObject(w, "alu_ops", r.aluOps);
    cJSON_AddNumberToObject(w, "tma_bytes", r.tmaBytes);
    cJSON_AddNumberToObject(w, "hbm_bytes", r.hbmBytes);
    cJSON_AddNumberToObject(w, "store_bytes", r.storeBytes);
    cJSON_AddNumberToObject(w, "smem_read_bytes", r.smemReadBytes);
    cJSON *roles = cJSON_AddArrayToObject(o, "roles");
    for (const RoleCost &x : r.roles) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "name", x.name.c_str());
      cJSON_AddNumberToObject(e, "warps", double(x.warps));
      cJSON *t = cJSON_AddObjectToObject(e, "per_tile_ns");
      cJSON_AddNumberToObject(t, "mma", x.mmaNs);
      cJSON_AddNumberToObject(t, "shared_memory", x.smemNs);
      cJSON_AddNumberToObject(t, "alu", x.aluNs);
      cJSON_AddNumberToObject(t, "store", x.storeNs);
      cJSON_AddNumberToObject(t, "handoff", x.syncNs);
      cJSON_AddNumberToObject(t, "copy", x.copyNs);
      cJSON_AddItemToArray(roles, e);
    }
    cJSON *pipes = cJSON_AddArrayToObject(o, "pipes");
    for (const PipeCost &x : r.pipes) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "pipe", x.name.c_str());
      cJSON_AddNumberToObject(e, "stages", double(x.stages));
      cJSON_AddNumberToObject(e, "stages_ahead", double(x.stagesInFlight));
      cJSON_AddNumberToObject(e, "steps_per_tile", x.stepsPerTile);
      cJSON_AddNumberToObject(e, "stage_bytes", x.stageBytes);
      cJSON_AddNumberToObject(e, "round_trip_ns", x.roundTripNs);
      cJSON_AddNumberToObject(e, "bound_per_tile_ns", x.boundNs);
      cJSON_AddItemToArray(pipes, e);
    }
    cJSON *notes = cJSON_AddArrayToObject(o, "notes");
    for (const std::string &n : r.notes)
      cJSON_AddItemToArray(notes, cJSON_CreateString(n.c_str()));
    cJSON_AddItemToArray(root, o);
  }
  char *text = cJSON_Print(root);
  std::string out = text ? text : "[]";
  cJSON_free(text);
  cJSON_Delete(root);
  return out + "\n";
}
