// The kernel's cluster (hw.cluster): 1 to 8 CTAs, 16 as a non-portable
// size, and only on targets that have clusters; the near misses (16 and 1)
// are in cluster.mlir.
// RUN: cake-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{[hw.cluster] a cluster holds 1 to 8 CTAs (16 as a non-portable size), got cluster = 17}}
cake.kernel @too_big(%In: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, cluster = 17 : i64,
                schedule = #cake.persistent<tile = [128, 64], group_m = 1>} {
  cake.role "r" warps(1) {
  }
}

// -----

// expected-error @+1 {{[hw.cluster] a cluster holds 1 to 8 CTAs (16 as a non-portable size), got cluster = 0}}
cake.kernel @empty(%In: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_90a">, cluster = 0 : i64,
                schedule = #cake.persistent<tile = [128, 64], group_m = 1>} {
  cake.role "r" warps(1) {
  }
}

// -----

// expected-error @+1 {{[hw.cluster] target sm_80 has no thread-block clusters; drop `cluster`}}
cake.kernel @ampere(%In: !cake.global<?x?xbf16>)
    attributes {target = #cake.target<"sm_80">, cluster = 2 : i64,
                schedule = #cake.grid<tile = [128, 64]>} {
  cake.role "r" warps(1) {
  }
}
