// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
/* C API: Cake types and attributes built, inspected and printed from C.
 *
 * RUN: cake-capi-dialect 2>&1 | FileCheck %s
 */

#include "cake-c/Dialect.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <stdio.h>

static void printToStdout(MlirStringRef s, void *userData) {
  (void)userData;
  fwrite(s.data, 1, s.length, stdout);
}

static void show(const char *what, MlirType t) {
  printf("%s: ", what);
  if (mlirTypeIsNull(t)) {
    printf("<null>\n");
    return;
  }
  mlirTypePrint(t, printToStdout, NULL);
  printf("\n");
}

static MlirLogicalResult onDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(d, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

int main(void) {
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirCakeRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextGetOrLoadDialect(ctx, mlirStringRefCreateFromCString("cake"));
  mlirContextAttachDiagnosticHandler(ctx, onDiagnostic, NULL, NULL);

  MlirDialectHandle handle = mlirGetDialectHandle__cake__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(handle);
  printf("namespace: %.*s\n", (int)ns.length, ns.data);
  // CHECK: namespace: cake
  printf("version: %s\n", mlirCakeGetVersion());
  // CHECK: version: {{[0-9]+\.[0-9]+\.[0-9]+$}}

  MlirType bf16 = mlirBF16TypeGet(ctx);
  int64_t dyn = mlirShapedTypeGetDynamicSize();
  int64_t gshape[2] = {dyn, 128};
  MlirType global = mlirCakeGlobalTypeGet(ctx, 2, gshape, bf16);
  show("global", global);
  // CHECK: global: !cake.global<?x128xbf16>
  printf("global rank=%ld dim1=%ld isa=%d isring=%d\n",
         (long)mlirCakeGlobalTypeGetRank(global),
         (long)mlirCakeGlobalTypeGetDimSize(global, 1),
         mlirTypeIsACakeGlobalType(global), mlirTypeIsACakeRingType(global));
  // CHECK: global rank=2 dim1=128 isa=1 isring=0

  int64_t tile[2] = {128, 64};
  MlirType ring = mlirCakeRingTypeGet(ctx, 4, 2, tile, bf16, 128);
  show("ring", ring);
  // CHECK: ring: !cake.ring<4 x 128x64xbf16, swizzle = 128>
  printf("ring stages=%ld swizzle=%ld tile_bytes=%ld\n",
         (long)mlirCakeRingTypeGetStages(ring),
         (long)mlirCakeRingTypeGetSwizzle(ring),
         (long)mlirCakeRingTypeGetTileBytes(ring));
  // CHECK: ring stages=4 swizzle=128 tile_bytes=16384

  MlirType pipe = mlirCakePipeTypeGet(ctx, 4);
  show("pipe", pipe);
  // CHECK: pipe: !cake.pipe<4>
  show("stage", mlirCakeStageTypeGet(ctx));
  // CHECK: stage: !cake.stage

  int64_t fshape[2] = {128, 1};
  MlirType frag = mlirCakeFragTypeGet(ctx, 2, fshape, mlirF32TypeGet(ctx));
  show("frag", frag);
  // CHECK: frag: !cake.frag<128x1xf32>

  MlirType topk = mlirCakeTopKTypeGet(ctx, 128, 10, mlirF32TypeGet(ctx));
  show("topk", topk);
  printf("topk rows=%lld k=%lld isa=%d isfrag=%d\n",
         (long long)mlirCakeTopKTypeGetRows(topk),
         (long long)mlirCakeTopKTypeGetK(topk), mlirTypeIsACakeTopKType(topk),
         mlirTypeIsACakeFragType(topk));
  show("topk values", mlirCakeTopKTypeGetElementType(topk));
  // CHECK: topk: !cake.topk<128x10xf32>
  // CHECK: topk rows=128 k=10 isa=1 isfrag=0
  // CHECK: topk values: f32

  MlirType shared =
      mlirCakeTopKTypeGetShared(ctx, 64, 100, mlirF32TypeGet(ctx));
  show("topk shared", shared);
  printf("topk shared=%d %d\n", mlirCakeTopKTypeIsShared(shared),
         mlirCakeTopKTypeIsShared(topk));
  // CHECK: topk shared: !cake.topk<64x100xf32, shared>
  // CHECK: topk shared=1 0

  MlirType tmem = mlirCakeTmemTypeGet(ctx, 2, 128, 256, mlirF32TypeGet(ctx));
  show("tmem", tmem);
  printf("tmem stages=%lld rows=%lld cols=%lld columns=%lld isa=%d %d\n",
         (long long)mlirCakeTmemTypeGetStages(tmem),
         (long long)mlirCakeTmemTypeGetRows(tmem),
         (long long)mlirCakeTmemTypeGetCols(tmem),
         (long long)mlirCakeTmemTypeGetColumns(tmem),
         mlirTypeIsACakeTmemType(tmem), mlirTypeIsACakeTmemType(topk));
  show("tmem values", mlirCakeTmemTypeGetElementType(tmem));
  // CHECK: tmem: !cake.tmem<2 x 128x256xf32>
  // CHECK: tmem stages=2 rows=128 cols=256 columns=512 isa=1 0
  // CHECK: tmem values: f32
  // Half-width elements share a column: 256 bf16 take 128.
  printf("tmem bf16 columns=%lld\n",
         (long long)mlirCakeTmemTypeGetColumns(
             mlirCakeTmemTypeGet(ctx, 1, 128, 256, bf16)));
  // CHECK: tmem bf16 columns=128

  MlirAttribute target =
      mlirCakeTargetAttrGet(ctx, mlirStringRefCreateFromCString("sm_90a"));
  MlirStringRef arch = mlirCakeTargetAttrGetArch(target);
  printf("target: %.*s isa=%d\n", (int)arch.length, arch.data,
         mlirAttributeIsACakeTargetAttr(target));
  // CHECK: target: sm_90a isa=1

  int64_t stile[2] = {128, 256};
  MlirAttribute sched = mlirCakePersistentAttrGet(ctx, 2, stile, 8);
  mlirAttributePrint(sched, printToStdout, NULL);
  printf("\n");
  // CHECK: #cake.persistent<tile = [128, 256], group_m = 8>
  printf("schedule rank=%ld tile1=%ld group_m=%ld\n",
         (long)mlirCakeScheduleAttrGetTileRank(sched),
         (long)mlirCakeScheduleAttrGetTileSize(sched, 1),
         (long)mlirCakePersistentAttrGetGroupM(sched));
  // CHECK: schedule rank=2 tile1=256 group_m=8
  MlirAttribute grid = mlirCakeGridAttrGet(ctx, 1, stile);
  printf("grid isa=%d rank=%ld\n", mlirAttributeIsACakeGridAttr(grid),
         (long)mlirCakeScheduleAttrGetTileRank(grid));
  // CHECK: grid isa=1 rank=1

  // Invalid parameters give a diagnostic and a null handle, never an abort.
  show("bad ring", mlirCakeRingTypeGet(ctx, 0, 2, tile, bf16, 128));
  // CHECK: diagnostic: [resource.stage-count] expected a stage count >= 1, got 0
  // CHECK: bad ring: <null>
  show("bad swizzle", mlirCakeRingTypeGet(ctx, 2, 2, tile, bf16, 48));
  // CHECK: diagnostic: [hw.swizzle-mode] expected a swizzle of 0, 32, 64 or 128 bytes, got 48
  // CHECK: bad swizzle: <null>
  show("bad tmem", mlirCakeTmemTypeGet(ctx, 1, 64, 256, bf16));
  // CHECK: diagnostic: [hw.tmem-shape] expected 128 rows, one a lane
  // CHECK: bad tmem: <null>
  show("bad topk", mlirCakeTopKTypeGet(ctx, 128, 10, bf16));
  // CHECK: diagnostic: [dataflow.element-type] top-k lists hold f32 values, got
  // 'bf16' CHECK: bad topk: <null>
  MlirAttribute badTarget =
      mlirCakeTargetAttrGet(ctx, mlirStringRefCreateFromCString("sm_42"));
  printf("bad target null=%d\n", mlirAttributeIsNull(badTarget));
  // CHECK: diagnostic: [hw.arch-feature] unknown target 'sm_42'
  // CHECK: bad target null=1

  mlirContextDestroy(ctx);
  printf("done\n");
  // CHECK: done
  return 0;
}
