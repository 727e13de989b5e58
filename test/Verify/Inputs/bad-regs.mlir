// A register budget setmaxnreg cannot take. Used by diagnostics-json.test.
cake.kernel @k() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "r" warpgroups(1) regs(230) {}
}
