// cake-verify: pipe roles and role resources across the whole kernel.
// RUN: cake-opt --cake-verify %s -split-input-file -verify-diagnostics

// A well-formed producer/consumer pair verifies clean and is not changed.
cake.kernel @ok() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "load" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "mma" warpgroups(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

cake.kernel @two_producers() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-error @+1 {{[sync.pipe-roles] pipe #0 has 2 producer roles, expected exactly one}}
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-note @+1 {{producer role "a"}}
  cake.role "a" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  // expected-note @+1 {{producer role "b"}}
  cake.role "b" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
  cake.role "c" warps(1) {
    %s = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %s : !cake.pipe<2>
  }
}

// -----

cake.kernel @no_consumer() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  // expected-error @+1 {{[sync.pipe-roles] pipe #0 has 0 consumer roles, expected exactly one}}
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "a" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
  }
}

// -----

// Near miss: one role that both produces and consumes a pipe, its stage a
// pure signal (no copy, no store): the full barrier counts one arrival
// per warp of the role, so the wait is a barrier among its own warps.
cake.kernel @self_wait() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  %a = cake.ring : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  %p = cake.pipe %a : !cake.ring<2 x 64x64xbf16, swizzle = 128>
  cake.role "a" warps(1) {
    %s = cake.pipe.acquire %p : !cake.pipe<2>
    cake.pipe.commit %p, %s : !cake.pipe<2>
    %t = cake.pipe.wait %p : !cake.pipe<2>
    cake.pipe.release %p, %t : !cake.pipe<2>
  }
}

// -----

// 3 warpgroups x 128 threads x 232 registers = 89088 > 384 x 168.
// expected-error @+2 {{[resource.register-budget] the roles' register budgets add up to 89088 registers, more than the 64512 the CTA is launched with (384 threads at the launch baseline of 168; 0 warps without regs() keep the baseline): setmaxnreg.inc would wait forever}}
// expected-note @+1 {{hint: give the roles that need few registers a small regs()}}
cake.kernel @too_many_registers() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "a" warpgroups(3) regs(232) {}
}

// -----

// expected-error @+1 {{[resource.threads] the roles need 1152 threads, more than the 1024 a CTA of sm_90a can have}}
cake.kernel @too_many_threads() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "a" warpgroups(8) {}
  cake.role "b" warps(4) {}
}

// -----

cake.kernel @setmaxnreg_on_ampere() attributes {target = #cake.target<"sm_80">, schedule = #cake.grid<tile = [64]>} {
  // expected-error @+1 {{[hw.arch-feature] role "a" asks for regs(232) but sm_80 has no setmaxnreg}}
  cake.role "a" warpgroups(1) regs(232) {}
}

// -----

// Found on the H200: 8 consumer warps at regs(232) next to a copy warp and
// 3 padding warps that keep the launch baseline (168) need 80896 registers;
// setmaxnreg.inc then waits forever and the kernel hangs.
// expected-error @+2 {{[resource.register-budget] the roles' register budgets add up to 80896 registers, more than the 64512 the CTA is launched with (384 threads at the launch baseline of 168; 4 warps without regs() keep the baseline): setmaxnreg.inc would wait forever}}
// expected-note @+1 {{hint:}}
cake.kernel @baseline_warps_hold_registers() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  // expected-note @+1 {{role "load" keeps 168 registers per thread}}
  cake.role "load" warps(1) {}
  cake.role "math" warpgroups(2) regs(232) {}
}

// -----

// Near miss: the same consumers beside a copy warpgroup at regs(40) fit
// (128 x 40 + 256 x 232 = 64512 = 384 x 168).
cake.kernel @copy_warpgroup_gives_registers() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "load" warpgroups(1) regs(40) {}
  cake.role "math" warpgroups(2) regs(232) {}
}

// -----

// Found on the H200 by the cost model's rank study (a 256x128 GEMM tile):
// 128 x 40 + 512 x 112 = 62464 fits the 65536-register file but not the
// 640 x 96 = 61440 the CTA is launched with; setmaxnreg.inc draws only on
// the per-CTA pool, so the consumers waited forever.
// expected-error @+2 {{[resource.register-budget] the roles' register budgets add up to 62464 registers, more than the 61440 the CTA is launched with (640 threads at the launch baseline of 96; 0 warps without regs() keep the baseline): setmaxnreg.inc would wait forever}}
// expected-note @+1 {{hint:}}
cake.kernel @launch_allocation_not_register_file() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "load" warpgroups(1) regs(40) {}
  cake.role "math" warpgroups(4) regs(112) {}
}

// -----

// Near miss: at regs(104) the consumers fit (128 x 40 + 512 x 104 = 58368).
cake.kernel @launch_allocation_fits() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "load" warpgroups(1) regs(40) {}
  cake.role "math" warpgroups(4) regs(104) {}
}
