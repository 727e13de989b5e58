// cake-ping-pong refuses kernels it cannot split by tiles.
// RUN: cake-opt --cake-ping-pong %s -split-input-file -verify-diagnostics
// RUN: not cake-opt --cake-ping-pong=sets=1 %s 2>&1 | FileCheck %s --check-prefix=SETS
// SETS: cake-ping-pong: sets must be at least 2

// expected-error @+1 {{cake-ping-pong: needs a persistent schedule (a grid gives each CTA one tile); apply cake-set-schedule first}}
cake.kernel @grid(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {}
  }
}

// -----

cake.kernel @sliced(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [64], group_m = 1>} {
  cake.role "r" warps(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    // expected-error @+1 {{cake-ping-pong: this tile loop already takes a slice}}
    cake.tiles (%m) in (%M) slice 0 of 2 {}
  }
}

// -----

cake.kernel @no_tiles(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [64], group_m = 1>} {
  // expected-error @+1 {{cake-ping-pong: role "r" has 0 tile loops; each role needs exactly one to take a slice of}}
  cake.role "r" warps(1) {}
}

// -----

cake.kernel @barrier(%A: !cake.global<?x?xbf16>) attributes {target = #cake.target<"sm_90a">, schedule = #cake.persistent<tile = [64], group_m = 1>} {
  cake.role "r" warpgroups(1) {
    %M = cake.dim %A, 0 : !cake.global<?x?xbf16>
    cake.tiles (%m) in (%M) {
      // expected-error @+1 {{cake-ping-pong: named barriers are not split by set yet (each set would need its own barrier ids)}}
      cake.barrier.sync id(1) threads(128)
    }
  }
}
