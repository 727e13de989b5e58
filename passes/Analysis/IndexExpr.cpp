// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- IndexExpr.cpp - What an index value is computed from ---------------===//
//
// The three readings of an index value (cake/Analysis/IndexExpr.h): a key
// equal across roles, a number from the problem's shapes, the tile
// coordinates it depends on.
//
//===----------------------------------------------------------------------===//

#include "cake/Analysis/IndexExpr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::cake;

std::optional<std::string> mlir::cake::indexKey(Value v, KernelOp kernel) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() == &kernel.getBody().front())
      return "arg" + std::to_string(arg.getArgNumber());
    if (TilesOp::isCoordinate(arg))
      return "tile" + std::to_string(arg.getArgNumber());
    return std::nullopt;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto c = dyn_cast<arith::ConstantOp>(def))
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      return "c" + std::to_string(i.getInt());
  if (auto d = dyn_cast<DimOp>(def)) {
    auto t = indexKey(d.getTensor(), kernel);
    if (!t)
      return std::nullopt;
    return "dim(" + *t + "," + std::to_string(d.getDim()) + ")";
  }
  if (auto ld = dyn_cast<ScalarLoadOp>(def)) {
    // Equal in every role only if nothing in the kernel writes the tensor.
    Value src = ld.getSrc();
    bool written = false;
    kernel.walk([&](Operation *op) {
      if (auto s = dyn_cast<StoreOp>(op))
        written |= s.getDst() == src;
      else if (auto t = dyn_cast<TmaStoreOp>(op))
        written |= t.getDst() == src;
      else if (auto sc = dyn_cast<ScatterOp>(op))
        written |= sc.getDst() == src;
    });
    auto t = indexKey(src, kernel);
    if (written || !t)
      return std::nullopt;
    std::string key = "ld(" + *t;
    for (Value c : ld.getCoords()) {
      auto k = indexKey(c, kernel);
      if (!k)
        return std::nullopt;
      key += "," + *k;
    }
    return key + ")";
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp,
          arith::CeilDivUIOp, arith::RemUIOp, arith::MinUIOp, arith::MaxUIOp>(
          def)) {
    auto l = indexKey(def->getOperand(0), kernel);
    auto r = indexKey(def->getOperand(1), kernel);
    if (!l || !r)
      return std::nullopt;
    return def->getName().stripDialect().str() + "(" + *l + "," + *r + ")";
  }
  return std::nullopt;
}

std::optional<std::string> mlir::cake::loopCountKey(Operation *loop,
                                                    KernelOp kernel) {
  if (auto f = dyn_cast<scf::ForOp>(loop)) {
    auto lb = indexKey(f.getLowerBound(), kernel);
    auto ub = indexKey(f.getUpperBound(), kernel);
    auto st = indexKey(f.getStep(), kernel);
    if (!lb || !ub || !st)
      return std::nullopt;
    return "trip(" + *lb + ".." + *ub + " by " + *st + ")";
  }
  if (auto t = dyn_cast<TilesOp>(loop)) {
    // Slices of the CTA's tiles run different counts of tiles (3 tiles:
    // 2 and 1 for slices of 2), so each is its own factor.
    std::string key = "tiles";
    if (auto [k, n] = t.getSliceOrWhole(); n > 1)
      key += "[" + std::to_string(k) + "/" + std::to_string(n) + "]";
    return key;
  }
  return std::nullopt;
}

MutableArrayRef<BlockArgument> mlir::cake::loopIterArgs(Operation *loop) {
  if (auto f = dyn_cast<scf::ForOp>(loop))
    return f.getRegionIterArgs();
  if (auto t = dyn_cast<TilesOp>(loop))
    return t.getRegionIterArgs();
  return {};
}

static std::optional<bool> constantBool(Value v) {
  if (auto c = v.getDefiningOp<arith::ConstantOp>())
    if (auto b = dyn_cast<BoolAttr>(c.getValue()))
      return b.getValue();
  return std::nullopt;
}

std::optional<bool> mlir::cake::firstFlagInit(Operation *loop, unsigned index) {
  Value init, yielded;
  if (auto f = dyn_cast<scf::ForOp>(loop)) {
    if (index >= f.getInitArgs().size())
      return std::nullopt;
    init = f.getInitArgs()[index];
    yielded = f.getBody()->getTerminator()->getOperand(index);
  } else if (auto t = dyn_cast<TilesOp>(loop)) {
    if (index >= t.getInits().size())
      return std::nullopt;
    init = t.getInits()[index];
    Operation *term = t.getBody().front().getTerminator();
    if (!term || index >= term->getNumOperands())
      return std::nullopt;
    yielded = term->getOperand(index);
  } else {
    return std::nullopt;
  }
  std::optional<bool> i = constantBool(init), y = constantBool(yielded);
  if (!i || !y || *i == *y)
    return std::nullopt;
  return *i;
}

std::optional<FirstFlagUse> mlir::cake::asFirstFlag(Value cond) {
  bool negated = false;
  // Peel xor with true (either operand).
  while (auto x = cond.getDefiningOp<arith::XOrIOp>()) {
    if (constantBool(x.getRhs()) == true)
      cond = x.getLhs();
    else if (constantBool(x.getLhs()) == true)
      cond = x.getRhs();
    else
      return std::nullopt;
    negated = !negated;
  }
  if (auto arg = dyn_cast<BlockArgument>(cond)) {
    Operation *loop = arg.getOwner()->getParentOp();
    MutableArrayRef<BlockArgument> carried = loopIterArgs(loop);
    auto it = llvm::find(carried, arg);
    if (it == carried.end())
      return std::nullopt;
    unsigned index = it - carried.begin();
    if (!firstFlagInit(loop, index))
      return std::nullopt;
    return FirstFlagUse{cond, loop, index, /*isResult=*/false, negated};
  }
  auto res = dyn_cast<OpResult>(cond);
  if (!res || !isa<scf::ForOp, TilesOp>(res.getOwner()) ||
      !firstFlagInit(res.getOwner(), res.getResultNumber()))
    return std::nullopt;
  return FirstFlagUse{cond, res.getOwner(), res.getResultNumber(),
                      /*isResult=*/true, negated};
}

std::optional<std::pair<std::string, bool>>
mlir::cake::conditionKey(Value cond, KernelOp kernel) {
  using Key = std::pair<std::string, bool>;
  // A first-iteration flag after its loop: the init unless the loop ran.
  if (auto use = asFirstFlag(cond); use && use->isResult) {
    auto loop = loopCountKey(use->loop, kernel);
    if (!loop)
      return std::nullopt;
    bool init = *firstFlagInit(use->loop, use->index);
    // cond = ran ? !init : init, i.e. ran xor init (then xor negated).
    return Key{loopRanKey(*loop), init != use->negated};
  }
  if (isa<BlockArgument>(cond)) {
    auto k = indexKey(cond, kernel);
    return k ? std::optional<Key>(Key{*k, false}) : std::nullopt;
  }
  Operation *def = cond.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto c = dyn_cast<arith::ConstantOp>(def))
    if (auto b = dyn_cast<BoolAttr>(c.getValue()))
      return Key{"true", !b.getValue()};
  if (auto x = dyn_cast<arith::XOrIOp>(def)) {
    // cond xor true: the negation (either operand may be the constant).
    for (int i = 0; i < 2; ++i) {
      auto lhs = conditionKey(x->getOperand(i), kernel);
      auto rhs = conditionKey(x->getOperand(1 - i), kernel);
      if (lhs && rhs && rhs->first == "true")
        return Key{lhs->first, lhs->second != !rhs->second};
    }
    return std::nullopt;
  }
  auto cmp = dyn_cast<arith::CmpIOp>(def);
  if (!cmp)
    return std::nullopt;
  auto l = indexKey(cmp.getLhs(), kernel);
  auto r = indexKey(cmp.getRhs(), kernel);
  if (!l || !r)
    return std::nullopt;
  // Canonical forms: eq, slt and ult with their operands in order, and
  // whether the predicate is the form's negation. Indexed by the predicate.
  struct Form {
    const char *name;
    bool swap, negate;
  };
  static const Form forms[] = {
      {"eq", false, false},  // eq
      {"eq", false, true},   // ne: not eq
      {"slt", false, false}, // slt
      {"slt", true, true},   // sle: not (b slt a)
      {"slt", true, false},  // sgt: b slt a
      {"slt", false, true},  // sge: not slt
      {"ult", false, false}, // ult
      {"ult", true, true},   // ule
      {"ult", true, false},  // ugt
      {"ult", false, true},  // uge
  };
  using P = arith::CmpIPredicate;
  static_assert(int(P::eq) == 0 && int(P::sle) == 3 && int(P::uge) == 9,
                "arith::CmpIPredicate's numbering");
  const Form &form = forms[int(cmp.getPredicate())];
  if (form.swap)
    std::swap(l, r);
  // eq is symmetric: order its operands too.
  if (std::string(form.name) == "eq" && *r < *l)
    std::swap(l, r);
  return Key{std::string(form.name) + "(" + *l + "," + *r + ")", form.negate};
}

std::optional<int64_t> IndexEvaluator::eval(Value v) {
  auto it = memo.find(v);
  if (it != memo.end())
    return it->second;
  std::optional<int64_t> r = compute(v);
  memo[v] = r;
  return r;
}

std::optional<int64_t> IndexEvaluator::compute(Value v) {
  Operation *def = v.getDefiningOp();
  // An index argument of the kernel: the one value its shape entry gives.
  if (auto arg = dyn_cast<BlockArgument>(v);
      arg && v.getType().isIndex() &&
      isa_and_nonnull<KernelOp>(arg.getOwner()->getParentOp()) &&
      arg.getArgNumber() < shapes.size() &&
      shapes[arg.getArgNumber()].size() == 1)
    return shapes[arg.getArgNumber()][0];
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
    return std::optional<int64_t>(fn(*a, *b));
  };
  // Index arithmetic on the problem's values, checked: a result that does
  // not fit in int64 (or a division by zero) is not known, never wrapped.
  using Value64 = std::optional<int64_t>;
  if (isa<arith::AddIOp>(def))
    return binary([](int64_t a, int64_t b) { return llvm::checkedAdd(a, b); });
  if (isa<arith::SubIOp>(def))
    return binary([](int64_t a, int64_t b) { return llvm::checkedSub(a, b); });
  if (isa<arith::MulIOp>(def))
    return binary([](int64_t a, int64_t b) { return llvm::checkedMul(a, b); });
  auto divisible = [](int64_t a, int64_t b) {
    return b != 0 && !(a == std::numeric_limits<int64_t>::min() && b == -1);
  };
  if (isa<arith::DivUIOp, arith::DivSIOp>(def))
    return binary([&](int64_t a, int64_t b) -> Value64 {
      return divisible(a, b) ? Value64(a / b) : std::nullopt;
    });
  if (isa<arith::CeilDivUIOp, arith::CeilDivSIOp>(def))
    return binary([&](int64_t a, int64_t b) -> Value64 {
      if (!divisible(a, b))
        return std::nullopt;
      int64_t q = a / b;
      return (a % b != 0 && (a > 0) == (b > 0)) ? llvm::checkedAdd(q, int64_t(1))
                                                : Value64(q);
    });
  if (isa<arith::RemUIOp, arith::RemSIOp>(def))
    return binary([&](int64_t a, int64_t b) -> Value64 {
      return divisible(a, b) ? Value64(a % b) : std::nullopt;
    });
  if (isa<arith::MinUIOp, arith::MinSIOp>(def))
    return binary([](int64_t a, int64_t b) -> Value64 { return std::min(a, b); });
  if (isa<arith::MaxUIOp, arith::MaxSIOp>(def))
    return binary([](int64_t a, int64_t b) -> Value64 { return std::max(a, b); });
  if (auto cast = dyn_cast<arith::IndexCastOp>(def))
    return eval(cast.getIn());
  return std::nullopt;
}

unsigned mlir::cake::tileCoordinateMask(Value v, Block *tilesBody,
                                        llvm::DenseMap<Value, unsigned> &memo) {
  auto it = memo.find(v);
  if (it != memo.end())
    return it->second;
  unsigned mask = 0;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (tilesBody && arg.getOwner() == tilesBody && TilesOp::isCoordinate(arg))
      mask = 1u << arg.getArgNumber();
  } else if (Operation *def = v.getDefiningOp()) {
    memo[v] = 0; // cycles cannot occur in SSA, but keep recursion finite
    for (Value operand : def->getOperands())
      mask |= tileCoordinateMask(operand, tilesBody, memo);
  }
  memo[v] = mask;
  return mask;
}

std::optional<double> mlir::cake::meanTripCountOverTiles(
    scf::ForOp loop, TilesOp tiles, llvm::ArrayRef<int64_t> sizes,
    const std::vector<std::vector<int64_t>> &shapes) {
  Block &body = tiles.getBody().front();
  llvm::DenseMap<Value, unsigned> masks;
  unsigned mask = tileCoordinateMask(loop.getLowerBound(), &body, masks) |
                  tileCoordinateMask(loop.getUpperBound(), &body, masks) |
                  tileCoordinateMask(loop.getStep(), &body, masks);
  auto coords = tiles.getCoordinates();
  if (!mask || coords.size() != sizes.size())
    return std::nullopt;
  IndexEvaluator eval(shapes);
  llvm::SmallVector<int64_t> counts;
  int64_t combos = 1;
  for (auto [d, extent] : llvm::enumerate(tiles.getExtents())) {
    auto e = eval.eval(extent);
    if (!e || sizes[d] <= 0)
      return std::nullopt;
    counts.push_back(mask & (1u << d)
                         ? std::max<int64_t>(1, (*e + sizes[d] - 1) / sizes[d])
                         : 1);
    combos = llvm::checkedMul(combos, counts.back())
                 .value_or(std::numeric_limits<int64_t>::max());
  }
  int64_t samples = std::min<int64_t>(combos, int64_t(1) << 16);
  double sum = 0;
  for (int64_t k = 0; k < samples; ++k) {
    int64_t rest = samples == combos ? k : k * (combos / samples);
    IndexEvaluator at(shapes);
    for (auto [d, c] : llvm::enumerate(coords)) {
      at.bind(c, (rest % counts[d]) * sizes[d]);
      rest /= counts[d];
    }
    auto lb = at.eval(loop.getLowerBound());
    auto ub = at.eval(loop.getUpperBound());
    auto step = at.eval(loop.getStep());
    if (!lb || !ub || !step || *step <= 0)
      return std::nullopt;
    std::optional<int64_t> span = llvm::checkedSub(*ub, *lb);
    if (*ub > *lb && !span)
      return std::nullopt; // more than 2^63 - 1 apart: tripCount says so
    if (*ub > *lb)
      sum += double(*span / *step + (*span % *step != 0));
  }
  return sum / double(samples);
}
