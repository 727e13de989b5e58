// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- RoleTurns.cpp - Roles taking turns over their main loops -----------===//
//
// cake.role_turns (cake/Analysis/RoleTurns.h): role i of n waits on named
// barrier base+i before its tile's main loop and arrives on base+(i+1)%n
// once the loop's wgmmas are issued; the last role gives the first its
// first turn. The slices (turn i takes slice i of n of the CTA's tiles)
// keep the turns in step: role i has a tile for its j-th turn whenever
// the role before it had one for its own, so no turn is waited for in
// vain. The one arrival left after the last tile is discarded with the CTA.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::nvvm;

LogicalResult KernelEmitter::startRoleTurn(RoleOp r) {
  roleTurnIndex = roleTurns.indexOf(r);
  turnFirst = turnLast = nullptr;
  if (roleTurnIndex < 0)
    return success();
  // dataflow.shared-code rejects this in cake-verify (the roles' slices
  // differ); a module lowered without the verifier is refused here.
  if (sharedGroup)
    return r.emitError("[sync.role-turn] role \"")
           << r.getName()
           << "\" takes turns and shares its code with another role; the "
              "turn's barrier would differ between them (not lowered yet)";
  int n = int(roleTurns.roles.size());
  if (roleTurnIndex == n - 1)
    namedBarrier(/*arrive=*/true, i32c(roleTurns.barrierBase),
                 roleTurns.barrierThreads(0));
  return success();
}

void KernelEmitter::waitRoleTurn() {
  namedBarrier(/*arrive=*/false, i32c(roleTurns.barrierBase + roleTurnIndex),
               roleTurns.barrierThreads(roleTurnIndex));
}

void KernelEmitter::passRoleTurn() {
  unsigned next = (roleTurnIndex + 1) % roleTurns.roles.size();
  namedBarrier(/*arrive=*/true, i32c(roleTurns.barrierBase + next),
               roleTurns.barrierThreads(next));
}
