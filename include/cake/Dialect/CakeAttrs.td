// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeAttrs.td - Cake attributes ----------------------*- tablegen -*-===//
//
// Attributes of Cake IR: the target, the tile schedules and the enums that
// name instruction families and reductions.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_ATTRS_TD
#define CAKE_ATTRS_TD

include "cake/Dialect/CakeBase.td"

def Cake_TargetAttr : Cake_Attr<"Target", "target"> {
  let summary = "the GPU architecture a kernel is written for";
  let description = [{
    One of `sm_80` (Ampere), `sm_90a` (Hopper) or `sm_100a` (Blackwell). The
    target selects the hardware limits every rule, pass and the cost model
    read.

    ```mlir
    #cake.target<"sm_90a">
    ```
  }];
  let parameters = (ins StringRefParameter<"architecture name">:$arch);
  let assemblyFormat = "`<` $arch `>`";
  let genVerifyDecl = 1;
}

def Cake_PersistentAttr : Cake_Attr<"Persistent", "persistent"> {
  let summary = "a persistent tile schedule";
  let description = [{
    One CTA per SM loops over output tiles of shape `tile`, rasterized in
    groups of `group_m` tile rows so consecutive tiles reuse operands in L2.

    ```mlir
    #cake.persistent<tile = [128, 256], group_m = 8>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$tile, "int64_t":$groupM);
  let assemblyFormat = "`<` `tile` `=` `[` $tile `]` `,` `group_m` `=` $groupM `>`";
  let genVerifyDecl = 1;
}

def Cake_GridAttr : Cake_Attr<"Grid", "grid"> {
  let summary = "a one-CTA-per-tile schedule";
  let description = [{
    One CTA per output tile of shape `tile`; the grid covers the problem.

    ```mlir
    #cake.grid<tile = [128, 128]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$tile);
  let assemblyFormat = "`<` `tile` `=` `[` $tile `]` `>`";
  let genVerifyDecl = 1;
}

def Cake_MmaKind : I32EnumAttr<"MmaKind", "tensor-core instruction family", [
    I32EnumAttrCase<"wgmma", 0>,
    I32EnumAttrCase<"mma_sync", 1, "mma_sync">,
    I32EnumAttrCase<"tcgen05", 2>]> {
  let cppNamespace = "::mlir::cake";
}

def Cake_ReduceKind : I32EnumAttr<"ReduceKind", "row reduction", [
    I32EnumAttrCase<"sum", 0>,
    I32EnumAttrCase<"min", 1>,
    I32EnumAttrCase<"max", 2>]> {
  let cppNamespace = "::mlir::cake";
}

include "cake/Dialect/CakeDerived.td"

#endif // CAKE_ATTRS_TD
