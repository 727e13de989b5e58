// Debian's mlir-opt runs cake-verify from the pass plugin, with the same
// rule diagnostics as cake-opt.
// RUN: %asan_preload %mlir_opt --load-dialect-plugin=%cake_plugin --load-pass-plugin=%cake_plugin --pass-pipeline="builtin.module(cake-verify)" %s -verify-diagnostics -split-input-file

cake.kernel @ok() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "only" warps(1) {}
}

// -----

// expected-error @+1 {{[resource.threads] the roles need 2048 threads}}
cake.kernel @big() attributes {target = #cake.target<"sm_90a">, schedule = #cake.grid<tile = [64]>} {
  cake.role "a" warpgroups(16) {}
}
