// Round trip of cake.cp_async.load: a box copied into a ring stage by the
// producer's threads, for rows TMA cannot address (200 bytes apart).
// RUN: cake-opt %s | cake-opt | FileCheck %s

// CHECK-LABEL: cake.kernel @rows_of_100
// CHECK: cake.cp_async.load %{{.*}}[%{{.*}}, %{{.*}}] -> %{{.*}}[%{{.*}}] : !cake.global<?x100xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
cake.kernel @rows_of_100(%X: !cake.global<?x100xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %x : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(2) {
    %N = cake.dim %X, 0 : !cake.global<?x100xbf16>
    %c64 = arith.constant 64 : index
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.cp_async.load %X[%n, %c64] -> %x[%s] : !cake.global<?x100xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warps(1) {
    %N = cake.dim %X, 0 : !cake.global<?x100xbf16>
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// A row pitch known only at launch (a GEMM operand's K): 16-byte pieces,
// checked when the kernel runs.
// CHECK-LABEL: cake.kernel @dynamic_pitch
// CHECK: cake.cp_async.load %{{.*}} : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
cake.kernel @dynamic_pitch(%X: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_80">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %x : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(2) {
    %N = cake.dim %X, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.cp_async.load %X[%n, %c0] -> %x[%s] : !cake.global<?x?xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warps(1) {
    %N = cake.dim %X, 0 : !cake.global<?x?xbf16>
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}

// A plane of a rank-3 tensor (a batch, a head): the first coordinate
// selects it.
// CHECK-LABEL: cake.kernel @plane
// CHECK: cake.cp_async.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] -> %{{.*}}[%{{.*}}] : !cake.global<?x?x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
cake.kernel @plane(%X: !cake.global<?x?x64xbf16>)
    attributes {target = #cake.target<"sm_80">, schedule = #cake.grid<tile = [64]>} {
  %x = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %x : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(2) {
    %N = cake.dim %X, 1 : !cake.global<?x?x64xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.cp_async.load %X[%c1, %n, %c0] -> %x[%s] : !cake.global<?x?x64xbf16> -> !cake.ring<2 x 64x64xbf16, swizzle = 128>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warps(1) {
    %N = cake.dim %X, 1 : !cake.global<?x?x64xbf16>
    cake.tiles (%n) in (%N) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      cake.pipe.release %p, %s : !cake.pipe<2>
    }
  }
}
