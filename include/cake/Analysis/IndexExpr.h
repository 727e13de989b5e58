// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- IndexExpr.h - What an index value is computed from -------*- C++ -*-===//
//
// Index values (loop bounds, tile extents, coordinates) read three ways:
// symbolically, as a key equal in every role for equal values (the sync
// rules compare trip counts across roles with it); numerically, from the
// problem's shapes (the cost model's trip counts); and by the tile
// coordinates they depend on (the raster simulation, cake-set-tile).
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ANALYSIS_INDEXEXPR_H
#define CAKE_ANALYSIS_INDEXEXPR_H

#include "cake/Dialect/CakeDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace cake {

/// A canonical key for `v`: equal keys mean equal values in every role of
/// `kernel`. Keys exist for constants, kernel arguments, tile coordinates,
/// cake.dim of keyed tensors, scalar loads from tensors the kernel never
/// writes at keyed coordinates, and integer arithmetic of keys; otherwise
/// none (the value may differ between roles).
std::optional<std::string> indexKey(Value v, KernelOp kernel);

/// A condition (an i1) as a key equal in every role for equal values, and
/// whether the value is the key's negation: kernel arguments, constants,
/// integer comparisons of index keys (a predicate and its inverse share
/// one key, as do swapped operands: `a sge b` is `not (a slt b)`, `a sgt b`
/// is `b slt a`), and xor with true. A constant is the key "true", negated
/// when false. A loop's first-iteration flag after the loop (its result)
/// is "ran(<loop count key>)": it differs from its init exactly when the
/// loop ran. None otherwise.
std::optional<std::pair<std::string, bool>> conditionKey(Value cond,
                                                         KernelOp kernel);

/// The count key of a loop whose trip count has one: an scf.for's
/// "trip(lb..ub by st)" over keyed bounds, a cake.tiles' "tiles" (with its
/// slice, "tiles[k/n]"). sync.trip-count-mismatch counts a loop's body
/// this many times.
std::optional<std::string> loopCountKey(Operation *loop, KernelOp kernel);

/// The key of "the loop of count key `loopKey` ran at least once", the
/// condition a first-iteration flag tests after its loop.
inline std::string loopRanKey(const std::string &loopKey) {
  return "ran(" + loopKey + ")";
}

/// The block arguments an scf.for or a cake.tiles carries from iteration
/// to iteration (after the induction variable or the tile coordinates);
/// none for other ops.
MutableArrayRef<BlockArgument> loopIterArgs(Operation *loop);

/// Whether iter_arg `index` of `loop` (an scf.for or a cake.tiles) is a
/// first-iteration flag: a constant i1 init that every iteration yields
/// negated, so it holds the init in the first iteration only (a rotated
/// loop's "first tile" flag). Returns the init.
std::optional<bool> firstFlagInit(Operation *loop, unsigned index);

/// `cond` as a first-iteration flag: the flag (the block argument, or the
/// loop's result after the loop), its loop, the iter_arg's index, and
/// whether `cond` is the flag's negation (xor with true). None for other
/// values.
struct FirstFlagUse {
  Value flag;
  Operation *loop;
  unsigned index;
  bool isResult, negated;
};
std::optional<FirstFlagUse> asFirstFlag(Value cond);

/// Index values known from a problem (one shape per kernel argument):
/// cake.dim of an argument, constants and integer arithmetic on them. Tile
/// coordinates and loaded values stay unknown.
class IndexEvaluator {
public:
  explicit IndexEvaluator(const std::vector<std::vector<int64_t>> &shapes)
      : shapes(shapes) {}

  /// The value of `v`, or none if it is not known from the shapes.
  std::optional<int64_t> eval(Value v);

  /// Takes `v` (a tile coordinate, say) to be `value` from now on.
  void bind(Value v, int64_t value) { memo[v] = value; }

private:
  std::optional<int64_t> compute(Value v);

  const std::vector<std::vector<int64_t>> &shapes;
  llvm::DenseMap<Value, std::optional<int64_t>> memo;
};

/// The tile coordinates `v` is computed from, as a bit mask over the block
/// arguments of `tilesBody` (a cake.tiles body; null: none). `memo` caches
/// the masks of values already visited.
unsigned tileCoordinateMask(Value v, Block *tilesBody,
                            llvm::DenseMap<Value, unsigned> &memo);

/// The trip count of `loop` (inside `tiles`, of tile shape `sizes`), whose
/// bounds depend on the tile's coordinates (a split reduction's slice, a
/// causal mask's diagonal), averaged over the tiles: the cost model charges
/// every tile the mean. Coordinates take each tile's offset (index × tile
/// size); past 2^16 tiles, an even sample of them. None if the bounds
/// depend on something else.
std::optional<double>
meanTripCountOverTiles(scf::ForOp loop, TilesOp tiles,
                       llvm::ArrayRef<int64_t> sizes,
                       const std::vector<std::vector<int64_t>> &shapes);

} // namespace cake
} // namespace mlir

#endif // CAKE_ANALYSIS_INDEXEXPR_H
