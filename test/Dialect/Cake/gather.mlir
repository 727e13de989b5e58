// Round trip of cake.gather: rows of a global matrix chosen by an index
// list, into a ring stage.
// RUN: cake-opt %s | cake-opt | FileCheck %s

// CHECK-LABEL: cake.kernel @rows
// CHECK: cake.gather %{{.*}}[%{{.*}}[%{{.*}}], %{{.*}}] -> %{{.*}}[%{{.*}}] : !cake.global<?x?xbf16>, !cake.global<?xi32> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
cake.kernel @rows(%X: !cake.global<?x?xbf16>, %Order: !cake.global<?xi32>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %x : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "gather" warps(1) {
    %N = cake.dim %Order, 0 : !cake.global<?xi32>
    %c0 = arith.constant 0 : index
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.gather %X[%Order[%n], %c0] -> %x[%s]
        : !cake.global<?x?xbf16>, !cake.global<?xi32> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warps(1) {
    %N = cake.dim %Order, 0 : !cake.global<?xi32>
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// A list loaded a chunk ahead by cake.gather.indices and carried across
// the loop.
// CHECK-LABEL: cake.kernel @loaded_ahead
// CHECK: %[[L0:.*]] = cake.gather.indices %{{.*}}[%{{.*}}] : !cake.global<?xi32> -> !cake.indices<64>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[CUR:.*]] = %[[L0]]) -> (!cake.indices<64>)
// CHECK: cake.gather %{{.*}}[%[[CUR]], %{{.*}}] -> %{{.*}}[%{{.*}}] : !cake.global<?x?xbf16>, !cake.indices<64> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
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
