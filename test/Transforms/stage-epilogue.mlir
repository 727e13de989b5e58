// cake-stage-epilogue: the GEMM's tile store becomes a write into a new
// ring stage, a fence for the async proxy and a commit; a new one-warp
// role stores each stage to the same box by TMA.
// RUN: cake-opt --cake-stage-epilogue="stages=2 store-name=out" %cake_src/examples/gemm-variants/gemm_128x128x64_s6.cake.mlir | FileCheck %s
// CHECK:      %[[RING:.*]] = cake.ring : !cake.ring<2 x 128x128xbf16, swizzle = 0>
// CHECK-NEXT: %[[PIPE:.*]] = cake.pipe %[[RING]]
// CHECK:      cake.role "mma"
// CHECK-NOT:  cake.store
// CHECK:      %[[S:.*]] = cake.pipe.acquire %[[PIPE]] : !cake.pipe<2>
// CHECK-NEXT: cake.smem.write %{{.*}} -> %[[RING]][%[[S]]] : !cake.frag<128x128xbf16>
// CHECK-NEXT: cake.fence.proxy_async
// CHECK-NEXT: cake.pipe.commit %[[PIPE]], %[[S]]
// CHECK:      cake.role "out" warps(1) {
// CHECK-NEXT:   %[[M:.*]] = cake.dim %arg0, 0
// CHECK-NEXT:   %[[N:.*]] = cake.dim %arg1, 0
// CHECK-NEXT:   cake.tiles (%[[TM:.*]], %[[TN:.*]]) in (%[[M]], %[[N]]) {
// CHECK-NEXT:     %[[T:.*]] = cake.pipe.wait %[[PIPE]]
// CHECK-NEXT:     cake.tma.store %[[RING]][%[[T]]] -> %arg2[%[[TM]], %[[TN]]]
// CHECK-NEXT:     cake.pipe.release %[[PIPE]], %[[T]]

// Composed with a shallower operand ring and a smaller math budget (the
// new warp keeps the launch baseline's registers), it verifies and lowers
// to a TMA store from the swizzle-free stage.
// RUN: cake-opt --cake-stage-epilogue --cake-set-stages="pipe=0 stages=4" --cake-set-regs="role=mma regs=168" --cake-verify --cake-derive --convert-cake-to-nvvm %cake_src/examples/gemm-variants/gemm_128x128x64_s6.cake.mlir | FileCheck %s --check-prefix=LOWER
// LOWER: llvm.store %{{.*}} : vector<2xbf16>, !llvm.ptr<3>
// LOWER: nvvm.fence.proxy
// LOWER: nvvm.cp.async.bulk.tensor.global.shared.cta
// LOWER: nvvm.cp.async.bulk.wait_group 0 {read}

// Alone on the 128 x 256 GEMM the staging tile does not fit: the verifier
// says which resources run out. A swizzled ring needs rows no wider than
// the swizzle span.
// RUN: not cake-opt --cake-stage-epilogue --cake-verify %cake_src/examples/gemm_ws_persistent.cake.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// FULL-DAG: error: [resource.smem-capacity] barriers and rings need 264192 bytes
// FULL-DAG: error: [resource.register-budget]
// With the ring made to fit, the 128 x 256 tile's accumulators still do
// not: ptxas compiles the 416-thread CTA to the register target of 512
// threads (128 per thread) and refuses a wgmma needing more, whatever
// regs() asks (the first H200-bound attempt failed in ptxas with C7602).
// RUN: not cake-opt --cake-stage-epilogue --cake-set-stages="pipe=0 stages=3" --cake-set-regs="role=mma regs=168" --cake-verify %cake_src/examples/gemm_ws_persistent.cake.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS-TARGET
// PTXAS-TARGET: error: [resource.fragment-registers] a wgmma of role "mma" holds 128 accumulator registers per thread at once (64x256 per warpgroup), 4 for its operands and 22 for what else is live at it: 154 > the launch baseline of 128 (416 threads), which setmaxnreg.inc does not raise for one instruction (ptxas C7602)
// RUN: not cake-opt --cake-stage-epilogue="swizzle=128" %cake_src/examples/gemm-variants/gemm_128x128x64_s6.cake.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SWIZZLE
// SWIZZLE: error: cake-stage-epilogue: [hw.tma-box] the tile's inner dimension spans 256 bytes, more than the 128-byte swizzle span

// Stores that are not a whole tile at the tile's coordinates stay (the
// k-means assignment writes one index per row).
// RUN: cake-opt --cake-stage-epilogue %cake_src/examples/kmeans_assign.cake.mlir | FileCheck %s --check-prefix=KMEANS
// KMEANS-NOT: cake.smem.write
// KMEANS:     cake.store
// KMEANS-NOT: cake.smem.write

// into=load: the 128 x 256 GEMM's load warpgroup sends the stages, one tile
// behind (no store warp, so 384 threads and the accumulator fits); with
// three operand stages the staging tile fits too. Its tile loop carries
// the first-tile flag and the previous corner, and the sync rules count
// its waits through the flag (examples/gemm-variants/gemm_128x256x64_s3_se
// is this, written out).
// RUN: cake-opt --cake-stage-epilogue="into=load" --cake-set-stages="pipe=0 stages=3" --cake-verify %cake_src/examples/gemm_ws_persistent.cake.mlir | FileCheck %s --check-prefix=INTO
// RUN: cake-opt --cake-stage-epilogue="into=load" --cake-set-stages="pipe=0 stages=3" --cake-verify --cake-lower %cake_src/examples/gemm_ws_persistent.cake.mlir -o /dev/null
// INTO:      %[[RING:.*]] = cake.ring : !cake.ring<1 x 128x256xbf16, swizzle = 0>
// INTO-NEXT: %[[PIPE:.*]] = cake.pipe %[[RING]]
// INTO:      cake.role "load" warpgroups(1) regs(40) {
// INTO:      %[[T:.*]]:3 = cake.tiles (%[[M:.*]], %[[N:.*]]) in (%{{.*}}, %{{.*}}) iter_args(%[[FIRST:.*]] = %true, %[[PM:.*]] = %c0{{.*}}, %[[PN:.*]] = %c0{{.*}}) -> (i1, index, index) {
// INTO:      cake.tma.load
// INTO:      %[[MORE:.*]] = arith.xori %[[FIRST]], %true
// INTO-NEXT: scf.if %[[MORE]] {
// INTO-NEXT:   %[[S:.*]] = cake.pipe.wait %[[PIPE]]
// INTO-NEXT:   cake.tma.store %[[RING]][%[[S]]] -> %arg2[%[[PM]], %[[PN]]]
// INTO-NEXT:   cake.pipe.release %[[PIPE]], %[[S]]
// INTO:      cake.tiles.yield %false, %[[M]], %[[N]] : i1, index, index
// INTO:      %[[RAN:.*]] = arith.xori %[[T]]#0, %true
// INTO-NEXT: scf.if %[[RAN]] {
// INTO-NEXT:   %[[L:.*]] = cake.pipe.wait %[[PIPE]]
// INTO-NEXT:   cake.tma.store %[[RING]][%[[L]]] -> %arg2[%[[T]]#1, %[[T]]#2]
// INTO:      cake.role "mma" warpgroups(2) regs(232)
// INTO:      cake.smem.write
// INTO-NOT:  cake.role "store"
// The load role is a copy role: it runs on its leader alone, so one
// arrival (not one per warp of its warpgroup) releases the staged output.
// Counted as 4, the second tile's acquire of the stage waited forever: on
// the H200 the kernel hung from two tiles per CTA on (2026-12-05).
// RUN: cake-opt --cake-stage-epilogue="into=load" --cake-set-stages="pipe=0 stages=3" --cake-verify --cake-derive %cake_src/examples/gemm_ws_persistent.cake.mlir | FileCheck %s --check-prefix=INTO-COUNT
// INTO-COUNT: cake.pipe %{{.*}} {derived = #cake.pipe_barriers<full = {{[0-9]+}}, empty = {{[0-9]+}}, full_count = 1, empty_count = 8, tx_bytes = 49152>}
// INTO-COUNT: cake.pipe %{{.*}} {derived = #cake.pipe_barriers<full = {{[0-9]+}}, empty = {{[0-9]+}}, full_count = 8, empty_count = 1, tx_bytes = 65536>}
// Near miss: a copy role of one warp (the default store role) counts 1 too.
// RUN: cake-opt --cake-stage-epilogue --cake-set-stages="pipe=0 stages=4" --cake-set-regs="role=mma regs=168" --cake-verify --cake-derive %cake_src/examples/gemm-variants/gemm_128x128x64_s6.cake.mlir | FileCheck %s --check-prefix=STORE-COUNT
// STORE-COUNT: full_count = 8, empty_count = 1, tx_bytes = 32768>
// The role named must exist and must not be the one that computes the tile.
// RUN: not cake-opt --cake-stage-epilogue="into=nobody" %cake_src/examples/gemm_ws_persistent.cake.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=INTO-NONE
// INTO-NONE: error: cake-stage-epilogue: into="nobody": the kernel has no role of that name
// RUN: not cake-opt --cake-stage-epilogue="into=mma" %cake_src/examples/gemm_ws_persistent.cake.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=INTO-SELF
// INTO-SELF: error: cake-stage-epilogue: into="mma": the role that computes the tile cannot also wait for its own stage

// A column band of the tile's rows at a constant column: the attention
// forward stores each 64-column half of O as [bh, m, 0] and [bh, m, 64] of
// a [1, 128] tile. Each becomes its own stage (swizzled: 128-byte rows),
// sent by the copy warpgroup one tile behind at the previous tile's corner
// and the same column; the kernel verifies and lowers. (The shipped
// example is written staged; gen-attention.py --staged-epilogue 0 writes
// the register-store form, one Q stage beside it.)
// RUN: rm -rf %t && mkdir -p %t && python3 %cake_src/examples/attention/gen-attention.py %t --staged-epilogue 0 > /dev/null
// RUN: cake-opt --cake-stage-epilogue="into=load swizzle=128" %t/attention_fwd_d128.cake.mlir | FileCheck %s --check-prefix=CHECK-BAND
// RUN: cake-opt --cake-stage-epilogue="into=load swizzle=128" --cake-verify --cake-lower %t/attention_fwd_d128.cake.mlir -o /dev/null
// CHECK-BAND:      cake.pipe %{{.*}}, %{{.*}} : !cake.ring<2 x 128x64xbf16, swizzle = 128>
// CHECK-BAND-NEXT: cake.pipe %{{.*}}, %{{.*}} : !cake.ring<2 x 128x64xbf16, swizzle = 128>
// CHECK-BAND-NEXT: %[[R0:.*]] = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
// CHECK-BAND-NEXT: %{{.*}} = cake.pipe %[[R0]]
// CHECK-BAND-NEXT: %[[R1:.*]] = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
// CHECK-BAND:      cake.role "load"
// CHECK-BAND:      cake.tiles (%{{.*}}, %{{.*}}) in (%{{.*}}, %{{.*}}) iter_args(%{{.*}} = %true, %[[PBH:.*]] = %c0{{.*}}, %[[PM:.*]] = %c0{{.*}}, %{{.*}} = %true{{.*}}, %[[QBH:.*]] = %c0{{.*}}, %[[QM:.*]] = %c0{{.*}})
// CHECK-BAND:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-BAND-NEXT: cake.tma.store %[[R0]][%{{.*}}] -> %arg3[%[[PBH]], %[[PM]], %[[C0]]] : !cake.ring<1 x 128x64xbf16, swizzle = 128> -> !cake.global<?x?x128xbf16>
// CHECK-BAND:      %[[C64:.*]] = arith.constant 64 : index
// CHECK-BAND-NEXT: cake.tma.store %[[R1]][%{{.*}}] -> %arg3[%[[QBH]], %[[QM]], %[[C64]]]
// CHECK-BAND:      cake.role "attn"
// CHECK-BAND-NOT:  cake.store
// CHECK-BAND:      cake.smem.write %{{.*}} -> %[[R0]]
// CHECK-BAND:      cake.smem.write %{{.*}} -> %[[R1]]
// Near miss: a column that is not a constant is no band of the tile; that
// store stays, the other half is staged.
// RUN: sed 's/-> %O\[%bh, %m, %c64\]/-> %O[%bh, %m, %m]/' %t/attention_fwd_d128.cake.mlir | cake-opt --cake-stage-epilogue="into=load swizzle=128" | FileCheck %s --check-prefix=CHECK-BAND-MISS
// CHECK-BAND-MISS-COUNT-2: cake.tma.store
// CHECK-BAND-MISS-NOT:     cake.tma.store
// CHECK-BAND-MISS:         cake.smem.write
// CHECK-BAND-MISS:         cake.store %{{.*}} -> %arg3[%{{.*}}, %{{.*}}, %{{.*}}] : !cake.frag<128x64xbf16>
