// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- AlternateRoles.cpp - Consumer roles on alternate tiles -------------===//

#include "cake/Analysis/AlternateRoles.h"
#include "cake/Analysis/RoleTurns.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdio>

using namespace mlir;
using namespace mlir::cake;

double mlir::cake::turnFeedNs(double steps, int64_t slices, double holdNs,
                              double roundTripNs, int64_t inFlight) {
  if (steps <= 0 || inFlight <= 0)
    return 0;
  double n = double(std::max<int64_t>(slices, 1));
  double whole = steps * n; // the steps of one of the role's own tiles
  double ahead = std::min(whole, double(inFlight));
  double period = std::max(holdNs, roundTripNs / double(inFlight));
  return (ahead * holdNs + (whole - ahead) * period) / n;
}

static std::string micros(double ns) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f us", ns / 1e3);
  return buf;
}

AlternateBound
mlir::cake::alternateRolesBound(KernelOp kernel,
                                llvm::ArrayRef<AlternateRole> roles) {
  llvm::SmallVector<const AlternateRole *> alternate;
  for (const AlternateRole &r : roles)
    if (r.slices >= 2 && r.mmaNs > 0)
      alternate.push_back(&r);
  AlternateBound bound;
  if (alternate.size() < 2)
    return bound;

  std::string error;
  FailureOr<RoleTurns> turns = getRoleTurns(kernel, error);
  bool inTurns = succeeded(turns) && !turns->empty() &&
                 llvm::count_if(alternate, [&](const AlternateRole *r) {
                   RoleOp role = r->role;
                   return turns->indexOf(role) >= 0;
                 }) >= 2;
  double mmaSum = 0, mainMax = 0, epilogueMax = 0;
  for (const AlternateRole *r : alternate) {
    mmaSum += r->mmaNs;
    mainMax = std::max(mainMax, r->mainNs);
    epilogueMax = std::max(epilogueMax, r->epilogueNs);
  }
  if (!inTurns) {
    // In phase: the main loops together at the tensor cores' rate, then
    // every epilogue at once.
    bound.ns = std::max(mmaSum, mainMax) + epilogueMax;
    bound.term = "in-phase-epilogues";
    bound.detail = "consumer roles on alternate tiles without turns run in "
                   "phase: their epilogues (" +
                   micros(epilogueMax) +
                   " a tile) coincide and the tensor cores idle through them";
    return bound;
  }
  // One turn after another; a role's epilogue runs through the others'
  // turns and must end before its own next turn.
  double turnSum = 0, cycle = 0, feedMax = 0;
  bool dealt = false;
  for (const AlternateRole *r : alternate) {
    if (RoleOp role = r->role; turns->indexOf(role) < 0)
      continue;
    double turn = std::max(r->mainNs, r->feedNs);
    turnSum += turn;
    cycle = std::max(cycle, turn + r->epilogueNs);
    feedMax = std::max(feedMax, r->feedNs);
    dealt |= r->dealtFeed;
  }
  bound.ns = std::max(turnSum, cycle);
  bound.term = "role-turns";
  bound.detail = std::string("consumer roles take turns over their main "
                             "loops, each fed ") +
                 (dealt ? "by the whole ring dealt between them ("
                        : "by its own pipes alone (") +
                 micros(feedMax) +
                 " a tile at the full mma rate); their epilogues run "
                 "through the others' turns";
  return bound;
}
