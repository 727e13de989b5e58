// cake-set-argmin packs (or unpacks) the row argmins of one role or of all
// of them; the lowering then takes the packed form (test/Conversion/
// argmin-packed.test). Input: the k-means assignment of overlap-epilogue.mlir.
// RUN: cake-opt --cake-set-argmin %S/overlap-epilogue.mlir | FileCheck %s --check-prefix=CHECK-ALL
// RUN: cake-opt --cake-set-argmin="role=assign" %S/overlap-epilogue.mlir | FileCheck %s --check-prefix=CHECK-ALL
// RUN: cake-opt --cake-set-argmin --cake-set-argmin="packed=false" %S/overlap-epilogue.mlir | FileCheck %s --check-prefix=CHECK-EXACT
// RUN: cake-opt --cake-set-argmin --cake-verify %S/overlap-epilogue.mlir -o /dev/null
// RUN: not cake-opt --cake-set-argmin="role=nosuch" %S/overlap-epilogue.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-ROLE
// RUN: cake-opt --cake-set-argmin %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-REMARK

// CHECK-ALL:       cake.frag.argmin %{{.*}} base %{{.*}} packed :
// CHECK-EXACT:     cake.frag.argmin %{{.*}} base %{{.*}} :
// CHECK-EXACT-NOT: packed
// CHECK-ROLE:      error: cake-set-argmin: no role named 'nosuch'

// An argmin the packed form does not cover stays exact, with a remark.
// CHECK-REMARK: remark: cake-set-argmin: left exact (a packed argmin needs f32 values and at most 1024 columns)
cake.kernel @wide() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %a = cake.frag.zero : !cake.frag<64x2048xf32>
    %v, %i = cake.frag.argmin %a : !cake.frag<64x2048xf32> -> !cake.frag<64x1xf32>, !cake.frag<64x1xi32>
  }
}
