// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- SharedCode.cpp - dataflow.shared-code ------------------------------===//
//
// A role that shares another's code runs that role's lowered body, so its
// own body must say nothing else: the leader exists, shares no code
// itself, and the bodies match (cake/Analysis/SharedCode.h).
//
//===----------------------------------------------------------------------===//

#include "RuleChecks.h"

#include "cake/Analysis/SharedCode.h"

using namespace mlir;
using namespace mlir::cake;
using namespace mlir::cake::verify;

bool mlir::cake::verify::checkSharedCode(KernelFacts &f) {
  bool ok = true;
  for (RoleOp role : f.roles) {
    std::optional<StringRef> name = role.getSharesCodeWith();
    if (!name)
      continue;
    RoleOp leader = sharedCodeLeader(role);
    if (!leader || leader == role) {
      emitRuleError(role, RuleId::DataflowSharedCode)
          << DiagRole{role.getName()} << " shares the code of "
          << (leader ? std::string("itself")
                     : "no role of this kernel named '" + name->str() + "'");
      ok = false;
      continue;
    }
    if (leader.getSharesCodeWith()) {
      emitRuleError(role, RuleId::DataflowSharedCode)
          << DiagRole{role.getName()} << " shares the code of "
          << DiagRole{leader.getName()}
          << ", which runs another role's code itself: name that one";
      ok = false;
      continue;
    }
    Operation *where = nullptr;
    std::string why;
    if (failed(matchSharedCode(leader, role, where, why))) {
      InFlightDiagnostic diag = emitRuleError(where, RuleId::DataflowSharedCode)
                                << DiagRole{role.getName()}
                                << " shares the code of "
                                << DiagRole{leader.getName()} << " but " << why;
      diag.attachNote(role.getLoc())
          << "hint: change only constants and which pipes and rings the "
             "body uses, or drop shares_code_with to emit the role's own code";
      ok = false;
    }
  }
  return ok;
}
