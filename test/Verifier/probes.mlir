// Testing before proving (--probes): before a value obligation goes to the
// solver, seeded random inputs are evaluated with the true functions; one
// under which kernel and spec definitely differ is the counterexample,
// shrunk (inputs set to 0 or +-1 while it stays one) and replayed like a
// solver's. The draws depend only on the obligation's name, so the verdict
// and its counterexample are the same on every run. Probes never prove:
// a correct kernel is PROVED by the normalizer or the solver as before,
// and a bug on a thin slice of inputs the probes miss (x == 6.25) is still
// found by the solver. --probes=0 leaves everything to the solver.
// RUN: split-file %s %t
// RUN: %expect_exit 1 kproof-opt %t/k.ptx --verify-equiv --contract=%t/plus1.mlir 2>/dev/null | FileCheck %s --check-prefix=PROBE
// RUN: %expect_exit 1 kproof-opt %t/k.ptx --verify-equiv --contract=%t/plus1.mlir 2>/dev/null > %t/run1.txt
// RUN: %expect_exit 1 kproof-opt %t/k.ptx --verify-equiv --contract=%t/plus1.mlir 2>/dev/null > %t/run2.txt
// RUN: grep -v "^  contract @" %t/run1.txt > %t/run1.cmp
// RUN: grep -v "^  contract @" %t/run2.txt > %t/run2.cmp
// RUN: diff %t/run1.cmp %t/run2.cmp
// RUN: %expect_exit 1 kproof-opt %t/k.ptx --verify-equiv --contract=%t/plus1.mlir --probes=0 2>/dev/null | FileCheck %s --check-prefix=SOLVER
// RUN: %expect_exit 1 kproof-opt %t/k.ptx --verify-equiv --contract=%t/thin.mlir 2>/dev/null | FileCheck %s --check-prefix=THIN
// RUN: %expect_exit 0 kproof-opt %t/k.ptx --verify-equiv --contract=%t/copy.mlir | FileCheck %s --check-prefix=COPY

// PROBE: REFUTED: value y[0] -- counterexample confirmed (random input 1 of 16)
// PROBE: Example:
// PROBE-NEXT: x[0] = 0
// PROBE: Kernel value: [1.000000000000e+00, 1.000000000000e+00]
// PROBE-NEXT: Spec value: [0.000000000000e+00, 0.000000000000e+00]
// PROBE: Replay: confirmed by replay (IEEE f32): kernel y[0] = 1, spec = 0
// PROBE: {{^}}REFUTED

// SOLVER: REFUTED: value y[0] -- counterexample confirmed{{$}}
// SOLVER: Replay: confirmed by replay
// SOLVER: {{^}}REFUTED

// THIN: REFUTED: value y[0] -- counterexample confirmed (in one of 2 cases over the branch conditions of merged states)
// THIN: Example:
// THIN-NEXT: x[0] = 25/4
// THIN: Replay: confirmed by replay (IEEE f32): kernel y[0] = 0, spec = 6.25
// THIN: {{^}}REFUTED

// COPY: obligations: 1 (1 proved)
// COPY: {{^}}PROVED

//--- k.ptx
.version 8.0
.target sm_80
.address_size 64
// y[0] = x[0] + 1
.visible .entry plus1(.param .u64 x, .param .u64 y)
{
	.reg .f32 	%f<3>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [x];
	ld.param.u64 	%rd2, [y];
	ld.global.f32 	%f1, [%rd1];
	add.f32 	%f2, %f1, 0f3F800000;
	st.global.f32 	[%rd2], %f2;
	ret;
}
// y[0] = x[0] == 6.25 ? 0 : x[0]
.visible .entry thin(.param .u64 x, .param .u64 y)
{
	.reg .f32 	%f<3>;
	.reg .b64 	%rd<3>;
	.reg .pred 	%p<2>;
	ld.param.u64 	%rd1, [x];
	ld.param.u64 	%rd2, [y];
	ld.global.f32 	%f1, [%rd1];
	setp.eq.f32 	%p1, %f1, 0f40C80000;
	selp.f32 	%f2, 0f00000000, %f1, %p1;
	st.global.f32 	[%rd2], %f2;
	ret;
}
// y[0] = x[0]
.visible .entry copy(.param .u64 x, .param .u64 y)
{
	.reg .f32 	%f<2>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [x];
	ld.param.u64 	%rd2, [y];
	ld.global.f32 	%f1, [%rd1];
	st.global.f32 	[%rd2], %f1;
	ret;
}
//--- plus1.mlir
kproof.contract @plus1 {
  kernel = "plus1", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- thin.mlir
kproof.contract @thin {
  kernel = "thin", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
//--- copy.mlir
kproof.contract @copy {
  kernel = "copy", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
