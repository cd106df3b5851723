// kproof-run never aborts on a launch or an allocation it cannot hold: a
// huge .shared array, a grid past the interpreter's 2^26 threads, a
// symbolic launch instantiated past 2^63 - 1 threads are errors naming the
// limit (exit 2). A grid of [2^32, 2^32, 1] (whose thread count wrapped to
// 0, so that nothing ran) is rejected by the contract verifier.
// RUN: split-file %s %t
// RUN: %expect_exit 2 kproof-run %t/smem.ptx --contract=%t/one.mlir --inputs=%t/x.json 2>&1 | FileCheck %s --check-prefix=SMEM
// RUN: %expect_exit 2 kproof-run %t/copy.ptx --contract=%t/wide.mlir --inputs=%t/x.json 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: %expect_exit 2 kproof-run %t/copy.ptx --contract=%t/wrap.mlir --inputs=%t/x.json 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: %expect_exit 2 kproof-run %t/copy.ptx --contract=%t/huge.mlir --inputs=%t/x.json 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: %expect_exit 2 kproof-run %t/copy.ptx --contract=%t/symbolic.mlir --inputs=%t/x.json --launch=ntid.x=1024,nctaid.x=2147483647,nctaid.y=65535,nctaid.z=65535 2>&1 | FileCheck %s --check-prefix=SYM
// RUN: %expect_exit 2 kproof-run %t/copy.ptx --contract=%t/symbolic.mlir --inputs=%t/x.json --launch=nctaid.x=2147483647 2>&1 | FileCheck %s --check-prefix=INSTANCE

// SMEM: smem.ptx:{{[0-9]+}}:{{[0-9]+}}: error: kproof-run: shared variable 's' has 4294967296 bytes; the interpreter allocates at most 1073741824 bytes of shared memory
// WIDE: error: kproof-run: the launch has 2147483647 x 1 x 1 CTAs of 1 threads; the interpreter runs at most 67108864 (2^26) threads
// WRAP: wrap.mlir:1:1: error: 'kproof.contract' op 'grid' dimension x exceeds the CUDA limit of 2147483647
// HUGE: huge.mlir:1:1: error: 'kproof.contract' op the launch has more than 2^63 - 1 threads (grid 2147483647 x 65535 x 65535, block 1024 x 1 x 1)
// SYM: symbolic.mlir:1:1: error: the instantiated launch exceeds 1024 threads per CTA, the contract's max_threads, or 2^63 - 1 threads in all
// INSTANCE: error: kproof-run: the launch has 2147483647 x 1 x 1 CTAs of 1 threads; the interpreter runs at most 67108864 (2^26) threads

//--- x.json
{"x": [1]}
//--- smem.ptx
.version 8.0
.target sm_80
.address_size 64
.shared .align 4 .b8 s[4294967296];
.visible .entry k(.param .u64 x, .param .u64 y)
{
	.reg .f32 	%f<2>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [x];
	ld.param.u64 	%rd2, [y];
	ld.global.f32 	%f1, [%rd1];
	st.shared.f32 	[s], %f1;
	st.global.f32 	[%rd2], %f1;
	ret;
}
//--- copy.ptx
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 y)
{
	.reg .f32 	%f<2>;
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [x];
	ld.param.u64 	%rd2, [y];
	ld.global.f32 	%f1, [%rd1];
	st.global.f32 	[%rd2], %f1;
	ret;
}
//--- one.mlir
kproof.contract @one {kernel = "k", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}], spec = {builtin = "copy", input = "x", output = "y"}}
//--- wide.mlir
kproof.contract @wide {kernel = "k", grid = array<i64: 2147483647, 1, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}], spec = {builtin = "copy", input = "x", output = "y"}}
//--- wrap.mlir
kproof.contract @wrap {kernel = "k", grid = array<i64: 4294967296, 4294967296, 1>, block = array<i64: 1, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}], spec = {builtin = "copy", input = "x", output = "y"}}
//--- huge.mlir
kproof.contract @huge {kernel = "k", grid = array<i64: 2147483647, 65535, 65535>, block = array<i64: 1024, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}], spec = {builtin = "copy", input = "x", output = "y"}}
//--- symbolic.mlir
kproof.contract @symbolic {kernel = "k", grid_max = array<i64: 2147483647, 65535, 65535>, block_max = array<i64: 1024, 1, 1>, params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>}, {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}], spec = {builtin = "copy", input = "x", output = "y"}}
