// cake.gather.indices: a gather's index entries loaded ahead into
// registers and carried across the producer's loop. One warp, 64 rows of
// 128 bytes: the list is two registers a lane (entry e in lane e % 32,
// register e / 32); 8 pieces a row, so 4 rows a step and 16 steps, each
// selecting the register that holds its rows and shuffling the entry to
// the lanes that copy the row.
// RUN: cake-opt --cake-verify --cake-derive --convert-cake-to-nvvm %s | FileCheck %s
// RUN: cake-opt --cake-verify "--cake-lower=format=ptx" %s | cake-translate --cake-to-ptx > %t.ptx
// RUN: FileCheck %s --check-prefix=CHECK-PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=CHECK-COPY < %t.ptx

// The first list, before the loop: a bounded load per register (-1 past
// the list), packed into a struct.
// CHECK:      scf.if %{{[0-9]+}} -> (i32) {
// CHECK:        llvm.load %{{[0-9]+}} : !llvm.ptr<1> -> i32
// CHECK:        arith.constant -1 : i32
// CHECK:      llvm.insertvalue %{{[0-9]+}}, %{{[0-9]+}}[0] : !llvm.struct<(i32, i32)>
// CHECK:      %[[FIRST:[0-9]+]] = llvm.insertvalue %{{[0-9]+}}, %{{[0-9]+}}[1] : !llvm.struct<(i32, i32)>
// CHECK:      scf.for %{{.*}} iter_args(%[[CUR:.*]] = %[[FIRST]]) -> (!llvm.struct<(i32, i32)>)
// The next chunk's list is loaded before the copies of this one ...
// CHECK:        %[[NEXT:[0-9]+]] = llvm.insertvalue %{{[0-9]+}}, %{{[0-9]+}}[1] : !llvm.struct<(i32, i32)>
// ... which read the carried one: register row0 / 32, lane row0 % 32 + row.
// CHECK:        %[[R0:[0-9]+]] = llvm.extractvalue %[[CUR]][0]
// CHECK:        %[[R1:[0-9]+]] = llvm.extractvalue %[[CUR]][1]
// CHECK:        %[[REG:[0-9]+]] = arith.divui %{{[0-9]+}}, %c32_i32{{.*}} : i32
// CHECK:        %[[IS1:[0-9]+]] = arith.cmpi eq, %[[REG]], %c1_i32{{.*}} : i32
// CHECK:        %[[HELD:[0-9]+]] = arith.select %[[IS1]], %[[R1]], %[[R0]] : i32
// CHECK:        gpu.shuffle  idx %[[HELD]]
// CHECK:        nvvm.cp.async.shared.global
// CHECK-COUNT-15: gpu.shuffle  idx
// CHECK-NOT:    gpu.shuffle
// CHECK:        scf.yield %[[NEXT]] : !llvm.struct<(i32, i32)>

// What ptxas sees: the first list's two loads, the next list's two issued
// before the chunk's 16 shuffles (nothing waits on them there), and 16
// cp.async pieces a lane a chunk.
// CHECK-PTX-COUNT-4:  ld.global.b32
// CHECK-PTX-COUNT-16: shfl.sync.idx.b32
// CHECK-PTX-NOT:      shfl.sync.idx.b32
// CHECK-COPY-COUNT-16: cp.async.cg.shared.global
// CHECK-COPY-NOT:      cp.async.cg.shared.global

// The kernel: a list loaded a chunk ahead and carried across the loop.
cake.kernel @loaded_ahead(%X: !cake.global<?x?xbf16>, %Order: !cake.global<?xi32>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %x : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "gather" warps(1) {
    %N = cake.dim %Order, 0 : !cake.global<?xi32>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %l0 = cake.gather.indices %Order[%c0] : !cake.global<?xi32> -> !cake.indices<64>
    %last = scf.for %q = %c0 to %c256 step %c64 iter_args(%cur = %l0) -> (!cake.indices<64>) {
      %q1 = arith.addi %q, %c64 : index
      %next = cake.gather.indices %Order[%q1] : !cake.global<?xi32> -> !cake.indices<64>
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.gather %X[%cur, %c0] -> %x[%s]
        : !cake.global<?x?xbf16>, !cake.indices<64> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<2>
      scf.yield %next : !cake.indices<64>
    }
  }
  cake.role "use" warps(1) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    scf.for %q = %c0 to %c256 step %c64 {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}
