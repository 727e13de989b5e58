// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===- CakeTypes.td - Cake types ---------------------------*- tablegen -*-===//
//
// Types of Cake IR: global tensors, shared-memory rings, pipes, pipe stages
// and register fragments.
//
//===----------------------------------------------------------------------===//

#ifndef CAKE_TYPES_TD
#define CAKE_TYPES_TD

include "cake/Dialect/CakeBase.td"

def Cake_GlobalType : Cake_Type<"Global", "global"> {
  let summary = "a tensor in global memory, passed to the kernel";
  let description = [{
    A row-major tensor in global (device) memory. Dimensions may be dynamic
    (`?`); the innermost dimension is contiguous. The element type must be one
    the copy engines and the math can handle.

    ```mlir
    !cake.global<?x?xbf16>
    !cake.global<?x128xf16>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    bool isDynamicDim(unsigned i) const {
      return ::mlir::ShapedType::isDynamic(getShape()[i]);
    }
  }];
}

def Cake_RingType : Cake_Type<"Ring", "ring"> {
  let summary = "a ring of shared-memory tile buffers, one per pipeline stage";
  let description = [{
    `stages` buffers of one tile each in shared memory, written by the copy
    engine (TMA) or by ordinary stores and read by the tensor cores. The
    swizzle (0, 32, 64 or 128 bytes) is the layout TMA writes and wgmma reads.
    With a swizzle, the tile's innermost dimension must span at most the
    swizzle width in bytes.

    ```mlir
    !cake.ring<4 x 128x64xbf16, swizzle = 128>
    ```
  }];
  let parameters = (ins "int64_t":$stages,
                        ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "int64_t":$swizzle);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    /// Number of elements of one stage's tile.
    int64_t getTileElements() const;
    /// Bytes of one stage's tile.
    int64_t getTileBytes() const;
    /// Bytes of the whole ring (all stages).
    int64_t getRingBytes() const { return getStages() * getTileBytes(); }
  }];
}

def Cake_PipeType : Cake_Type<"Pipe", "pipe"> {
  let summary = "a producer/consumer pipeline over rings";
  let description = [{
    A pipe with `stages` stages synchronizes a producer role with a consumer
    role over one or more rings of the same depth. Its barriers, arrival
    counts, byte counts and phase bits are derived, never written.

    ```mlir
    !cake.pipe<4>
    ```
  }];
  let parameters = (ins "int64_t":$stages);
  let assemblyFormat = "`<` $stages `>`";
  let genVerifyDecl = 1;
}

def Cake_StageType : Cake_Type<"Stage", "stage"> {
  let summary = "the stage of a pipe a role currently holds";
  let description = [{
    The value produced by `cake.pipe.acquire` and `cake.pipe.wait`: which
    stage (slot) of the pipe's rings the role may now write or read.

    ```mlir
    !cake.stage
    ```
  }];
}

def Cake_FragType : Cake_Type<"Frag", "frag"> {
  let summary = "a tile held in registers, distributed over a role's threads";
  let description = [{
    A register fragment: a tile of values distributed over the threads of the
    role that owns it. Its layout across threads is derived from how it is
    produced (an mma accumulator, a row reduction, a load). Row reductions
    keep their reduced dimension as size 1 so fragments broadcast.

    ```mlir
    !cake.frag<128x256xf32>
    !cake.frag<128x1xi32>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    int64_t getNumElements() const;
  }];
}

#endif // CAKE_TYPES_TD
