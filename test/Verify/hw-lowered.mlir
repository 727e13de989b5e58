// Near misses of hw.mlir: kernels that use only what their target has
// verify and lower. A plain kernel for sm_90a and for sm_80, and the bf16
// form of hw.mlir's refused tf32 mma_sync.
// RUN: cake-opt --cake-verify %s -split-input-file | FileCheck %s --check-prefix=CHECK-OK
// RUN: cake-opt --cake-verify --cake-lower=format=ptx %s -split-input-file -o /dev/null
// CHECK-OK: cake.kernel @plain_on_hopper
// CHECK-OK: cake.kernel @plain_on_ampere
// CHECK-OK: cake.kernel @bf16_mma_sync_on_ampere
cake.kernel @plain_on_hopper(%X: !cake.global<?xf32>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %n = cake.dim %X, 0 : !cake.global<?xf32>
    cake.tiles (%m) in (%n) {
      %v = cake.load %X[%m] : !cake.global<?xf32> -> !cake.frag<64x1xf32>
      cake.store %v -> %X[%m] : !cake.frag<64x1xf32> -> !cake.global<?xf32>
    }
  }
}

// -----

cake.kernel @plain_on_ampere(%X: !cake.global<?xf32>) attributes {target = #cake.target<"sm_80">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) {
    %n = cake.dim %X, 0 : !cake.global<?xf32>
    cake.tiles (%m) in (%n) {
      %v = cake.load %X[%m] : !cake.global<?xf32> -> !cake.frag<64x1xf32>
      cake.store %v -> %X[%m] : !cake.frag<64x1xf32> -> !cake.global<?xf32>
    }
  }
}

// -----

cake.kernel @bf16_mma_sync_on_ampere(%C: !cake.global<?x?xf32>) attributes {target = #cake.target<"sm_80">, schedule = #cake.grid<tile = [64, 64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %M = cake.dim %C, 0 : !cake.global<?x?xf32>
    %N = cake.dim %C, 1 : !cake.global<?x?xf32>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.acquire %p : !cake.pipe<2>
      cake.pipe.commit %p, %s : !cake.pipe<2>
    }
  }
  cake.role "use" warpgroups(1) {
    %M = cake.dim %C, 0 : !cake.global<?x?xf32>
    %N = cake.dim %C, 1 : !cake.global<?x?xf32>
    cake.tiles (%m, %n) in (%M, %N) {
      %s = cake.pipe.wait %p : !cake.pipe<2>
      %z = cake.frag.zero : !cake.frag<64x64xf32>
      %r = cake.mma mma_sync %a[%s], %a[%s], %z : !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.ring<2 x 64x64xbf16, swizzle = 128>, !cake.frag<64x64xf32>
      cake.pipe.release %p, %s : !cake.pipe<2>
      cake.store %r -> %C[%m, %n] : !cake.frag<64x64xf32> -> !cake.global<?x?xf32>
    }
  }
}
