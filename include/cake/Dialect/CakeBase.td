// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeBase.td - Cake dialect definition ---------------*- tablegen -*-===//
//
// The Cake dialect and the base classes its ops, types and attributes share.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_BASE_TD
#define CAKE_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Cake_Dialect : Dialect {
  let name = "cake";
  let cppNamespace = "::mlir::cake";
  let summary = "Explicit decisions of expert GPU kernels, derived mechanics";
  let description = [{
    Cake IR makes the decisions that make expert GPU kernels fast explicit:
    warp roles and their register budgets, the shared-memory rings data moves
    through, the pipes that synchronize producers and consumers, the
    instruction family that does the math and the schedule of output tiles.
    The mechanical details (barrier addresses, phase bits, expect-tx byte
    counts, shared-memory offsets, descriptors) are not written by the author:
    Cake's passes derive them.

    A kernel is a `cake.kernel` holding ring and pipe declarations followed by
    `cake.role` regions. Roles run concurrently on disjoint warps of one CTA
    and communicate only through pipes.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

class Cake_Op<string mnemonic, list<Trait> traits = []>
    : Op<Cake_Dialect, mnemonic, traits>;

class Cake_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Cake_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class Cake_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Cake_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // CAKE_BASE_TD
