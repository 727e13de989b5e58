// cake-cost refuses what it cannot predict, with a located error and a
// non-zero exit.
// RUN: not %cake_bin/cake-opt %s -o /dev/null --cake-cost="shapes=1024x128" 2>&1 | FileCheck %s
// RUN: not %cake_bin/cake-opt %s -o /dev/null --cake-cost="shapes=1024x64,1024" 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: not %cake_bin/cake-opt %s -o /dev/null --cake-cost="shapes=1024,1024" 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not %cake_bin/cake-opt %s -o /dev/null --cake-cost="shapes=1024xabc,1024" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not %cake_bin/cake-opt %s -o /dev/null --cake-cost="shapes=1024x128,1024 calibration=%t.missing.json" 2>&1 | FileCheck %s --check-prefix=CALIB
// RUN: echo '{"gpu": "x"}' > %t.partial.json
// RUN: not %cake_bin/cake-opt %s -o /dev/null --cake-cost="shapes=1024x128,1024 calibration=%t.partial.json" 2>&1 | FileCheck %s --check-prefix=PARTIAL
// RUN: not %cake_bin/cake-opt %s -o /dev/null --cake-cost="shapes=1024x128,1024 gpu=mi300" 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not %cake_bin/cake-opt %s -o /dev/null --cake-cost="shapes=1024x128,1024" 2>&1 | FileCheck %s --check-prefix=TRIP
// RUN: sed 's/to %x2 step/to %m step/' %s | %cake_bin/cake-opt -o /dev/null --cake-cost="shapes=1024x128,1024" 2>&1 | FileCheck %s --check-prefix=MEAN

// CHECK: 21:1: error: cake-cost: the kernel has 2 arguments but 1 shapes were given
// STATIC: 21:1: error: cake-cost: argument #0 has static dimension 1 = 128 but the shape gives 64
// RANK: 21:1: error: cake-cost: argument #0 has rank 2 but its shape has 1 dimensions
// SYNTAX: error: cake-cost: expected a shape like 8192x8192, got '1024xabc'
// CALIB: 21:1: error: cake-cost: cannot read calibration file '{{.*}}.missing.json'
// PARTIAL: 21:1: error: cake-cost: calibration file '{{.*}}.partial.json' lacks sm_count, hbm_gbps
// GPU: 21:1: error: cake-cost: no calibration file for mi300 (pass calibration=<file>, or set CAKE_CALIBRATION_DIR)
cake.kernel @row_loop(%X: !cake.global<?x128xf16>, %Out: !cake.global<?xi32>)
    attributes {target = #cake.target<"sm_90a">,
                schedule = #cake.persistent<tile = [128], group_m = 1>} {
  cake.role "r" warpgroups(1) {
    %N = cake.dim %X, 0 : !cake.global<?x128xf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    cake.tiles (%m) in (%N) {
      // A trip count from index arithmetic the analysis does not evaluate
      // (a shift of the tile's row).
      // TRIP: 37:7: error: cake-cost: cannot evaluate this loop's trip count from the problem shapes
      // Near miss (MEAN, the loop to %m itself): a trip count that depends
      // on the tile is charged as its mean over the tiles, (0 + 128 + ...
      // + 896) / 8 = 448 steps.
      // MEAN: predicted:
      %x2 = arith.shli %m, %c1 : index
      scf.for %i = %c0 to %x2 step %c1 {
      }
    }
  }
}
