// A fused two-layer MLP for Blackwell (sm_100a), the chain of MMAs whose
// second operand A lives in tensor memory:
//   Y = relu(X · W1ᵀ) · W2ᵀ
// with X M×D, W1 F×D and W2 E×F (all bf16, K-major: nn.Linear's weights),
// Y M×E in f32. The hidden activation H = relu(X · W1ᵀ) never leaves the
// SM: 64 of its columns at a time are accumulated in tensor memory, read
// into registers, passed through relu, converted to bf16 and written back
// into tensor memory with tcgen05.st, where the next tcgen05.mma reads
// them as its A operand (the form FlashAttention-4 uses for P · V).
//
// The decisions written here: a load warp streams X and W1 tiles through a
// 4-stage ring and W2 tiles through a 2-stage one; one MMA warp
// accumulates each 64-column slice of H into one of two tensor-memory
// stages, running ahead; the activation warpgroup turns H's stages into
// bf16 A operands (relu, convert, tcgen05.st) and, at the tile's end,
// stores Y; a second MMA warp accumulates Y += A_f · W2_fᵀ into a 128×256
// accumulator as the slices arrive. What the compiler derives: the
// tensor-memory columns (H 2 × 64, the bf16 slices 2 × 32, Y 256: one
// allocation of 512), the barriers, phases and byte counts, that the MMA
// warps' hand-offs are tcgen05.commit arrivals while the activation
// warpgroup's commit of a bf16 slice is a wait for its tcgen05.st, a
// fence and an arrival a warp.
//
// Each 128×256 tile of Y recomputes H for its rows: with E > 256 the
// first layer runs E / 256 times (a kernel for wide E would keep H's bf16
// slices in shared memory instead). X's tile is streamed again for every
// slice of H. It verifies and lowers to a cubin (ptxas -arch=sm_100a;
// test/Conversion/tcgen05-mlp.test), but has not run on hardware: Cake has
// had no Blackwell GPU (docs/blackwell.md).
cake.kernel @mlp_tcgen05_bf16_128x256_h64(%X: !cake.global<?x?xbf16>,
                                         %W1: !cake.global<?x?xbf16>,
                                         %W2: !cake.global<?x?xbf16>,
                                         %Y: !cake.global<?x?xf32>)
    attributes {target = #cake.target<"sm_100a">,
                schedule = #cake.persistent<tile = [128, 256], group_m = 8>} {
  %x = cake.ring : !cake.ring<4 x 128x64xbf16, swizzle = 128>
  %w1 = cake.ring : !cake.ring<4 x 64x64xbf16, swizzle = 128>
  %p1 = cake.pipe %x, %w1 : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
                            !cake.ring<4 x 64x64xbf16, swizzle = 128>
  %w2 = cake.ring : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  %p2 = cake.pipe %w2 : !cake.ring<2 x 256x64xbf16, swizzle = 128>
  // H's f32 slices, their bf16 relu, and Y's accumulator.
  %h = cake.tmem : !cake.tmem<2 x 128x64xf32>
  %hp = cake.pipe %h : !cake.tmem<2 x 128x64xf32>
  %a = cake.tmem : !cake.tmem<2 x 128x64xbf16>
  %ap = cake.pipe %a : !cake.tmem<2 x 128x64xbf16>
  %y = cake.tmem : !cake.tmem<1 x 128x256xf32>
  %yp = cake.pipe %y : !cake.tmem<1 x 128x256xf32>

  // Slice f's X and W1 tiles, then W2's slice f (which the second MMA
  // warp takes once the activation warpgroup has slice f ready).
  cake.role "load" warps(1) {
    %M = cake.dim %X, 0 : !cake.global<?x?xbf16>
    %D = cake.dim %X, 1 : !cake.global<?x?xbf16>
    %F = cake.dim %W1, 0 : !cake.global<?x?xbf16>
    %E = cake.dim %W2, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %e) in (%M, %E) {
      scf.for %f = %c0 to %F step %c64 {
        scf.for %d = %c0 to %D step %c64 {
          %s = cake.pipe.acquire %p1 : !cake.pipe<4>
          cake.tma.load %X[%m, %d] -> %x[%s]
            : !cake.global<?x?xbf16> -> !cake.ring<4 x 128x64xbf16, swizzle = 128>
          cake.tma.load %W1[%f, %d] -> %w1[%s]
            : !cake.global<?x?xbf16> -> !cake.ring<4 x 64x64xbf16, swizzle = 128>
          cake.pipe.commit %p1, %s : !cake.pipe<4>
        }
        %s2 = cake.pipe.acquire %p2 : !cake.pipe<2>
        cake.tma.load %W2[%e, %f] -> %w2[%s2]
          : !cake.global<?x?xbf16> -> !cake.ring<2 x 256x64xbf16, swizzle = 128>
        cake.pipe.commit %p2, %s2 : !cake.pipe<2>
      }
    }
  }

  // Two MMA warps, each one thread issuing into its own accumulator: the
  // first runs ahead through H's slices (as far as H's two stages allow),
  // the second accumulates Y += A_f · W2_fᵀ as the activation warpgroup
  // hands it each slice, so the tensor cores work on slice f + 1 of H
  // while the warpgroup turns slice f into A_f.
  cake.role "mma_h" warps(1) {
    %M = cake.dim %X, 0 : !cake.global<?x?xbf16>
    %D = cake.dim %X, 1 : !cake.global<?x?xbf16>
    %F = cake.dim %W1, 0 : !cake.global<?x?xbf16>
    %E = cake.dim %W2, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %e) in (%M, %E) {
      scf.for %f = %c0 to %F step %c64 {
        %u = cake.pipe.acquire %hp : !cake.pipe<2>
        scf.for %d = %c0 to %D step %c64 {
          %s = cake.pipe.wait %p1 : !cake.pipe<4>
          %more = arith.cmpi ne, %d, %c0 : index
          cake.tmem.mma %x[%s], %w1[%s], %h[%u] accumulate %more
            : !cake.ring<4 x 128x64xbf16, swizzle = 128>,
              !cake.ring<4 x 64x64xbf16, swizzle = 128>,
              !cake.tmem<2 x 128x64xf32>
          cake.pipe.release %p1, %s : !cake.pipe<4>
        }
        cake.pipe.commit %hp, %u : !cake.pipe<2>
      }
    }
  }

  cake.role "mma_y" warps(1) {
    %M = cake.dim %X, 0 : !cake.global<?x?xbf16>
    %F = cake.dim %W1, 0 : !cake.global<?x?xbf16>
    %E = cake.dim %W2, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    cake.tiles (%m, %e) in (%M, %E) {
      %t = cake.pipe.acquire %yp : !cake.pipe<1>
      scf.for %f = %c0 to %F step %c64 {
        %v = cake.pipe.wait %ap : !cake.pipe<2>
        %s2 = cake.pipe.wait %p2 : !cake.pipe<2>
        %more = arith.cmpi ne, %f, %c0 : index
        cake.tmem.mma %a[%v], %w2[%s2], %y[%t] accumulate %more
          : !cake.tmem<2 x 128x64xbf16>,
            !cake.ring<2 x 256x64xbf16, swizzle = 128>,
            !cake.tmem<1 x 128x256xf32>
        cake.pipe.release %p2, %s2 : !cake.pipe<2>
        cake.pipe.release %ap, %v : !cake.pipe<2>
      }
      cake.pipe.commit %yp, %t : !cake.pipe<1>
    }
  }

  // Each warp reads and writes the 32 lanes (rows) of its quarter of
  // tensor memory, 32 columns at a time.
  cake.role "activation" warpgroups(1) {
    %M = cake.dim %X, 0 : !cake.global<?x?xbf16>
    %F = cake.dim %W1, 0 : !cake.global<?x?xbf16>
    %E = cake.dim %W2, 0 : !cake.global<?x?xbf16>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    cake.tiles (%m, %e) in (%M, %E) {
      scf.for %f = %c0 to %F step %c64 {
        %u = cake.pipe.wait %hp : !cake.pipe<2>
        %v = cake.pipe.acquire %ap : !cake.pipe<2>
        scf.for %c = %c0 to %c64 step %c32 {
          %hf = cake.tmem.load %h[%u] columns %c
            : !cake.tmem<2 x 128x64xf32> -> !cake.frag<128x32xf32>
          %r = cake.frag.map %hf : (!cake.frag<128x32xf32>)
              -> !cake.frag<128x32xf32> {
          ^bb0(%hv: f32):
            %zero = arith.constant 0.0 : f32
            %rv = arith.maximumf %hv, %zero : f32
            cake.frag.yield %rv : f32
          }
          %rb = cake.frag.convert %r
            : !cake.frag<128x32xf32> -> !cake.frag<128x32xbf16>
          cake.tmem.store %rb -> %a[%v] columns %c
            : !cake.frag<128x32xbf16> -> !cake.tmem<2 x 128x64xbf16>
        }
        cake.pipe.release %hp, %u : !cake.pipe<2>
        cake.pipe.commit %ap, %v : !cake.pipe<2>
      }
      %t = cake.pipe.wait %yp : !cake.pipe<1>
      scf.for %c = %c0 to %c256 step %c32 {
        %yf = cake.tmem.load %y[%t] columns %c
          : !cake.tmem<1 x 128x256xf32> -> !cake.frag<128x32xf32>
        %ec = arith.addi %e, %c : index
        cake.store %yf -> %Y[%m, %ec]
          : !cake.frag<128x32xf32> -> !cake.global<?x?xf32>
      }
      cake.pipe.release %yp, %t : !cake.pipe<1>
    }
  }
}
