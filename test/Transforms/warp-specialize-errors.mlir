// A copy whose coordinate is carried around a loop cannot move to a
// producer role, which keeps no loop state.
// RUN: not cake-opt %s --cake-warp-specialize -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: cake-warp-specialize: the copies of role "mma" depend on a value carried around a loop, which a producer role cannot compute

cake.kernel @carried_coordinate(%A: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [128]>} {
  %a = cake.ring : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<1 x 128x64xbf16, swizzle = 128>
  cake.role "mma" warpgroups(2) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m) in (%M) {
      %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%k = %c0) -> (index) {
        %s = cake.pipe.acquire %p : !cake.pipe<1>
        cake.tma.load %A[%m, %k] -> %a[%s] : !cake.global<?x?xbf16> -> !cake.ring<1 x 128x64xbf16, swizzle = 128>
        cake.pipe.commit %p, %s : !cake.pipe<1>
        %t = cake.pipe.wait %p : !cake.pipe<1>
        cake.pipe.release %p, %t : !cake.pipe<1>
        %next = arith.addi %k, %c64 : index
        scf.yield %next : index
      }
    }
  }
}
