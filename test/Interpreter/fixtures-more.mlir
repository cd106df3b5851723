// kproof-run on the remaining PTX-frontend fixture kernels (test/Inputs/cuda):
// tiled and causal attention, a 3-D grid, device-function calls (with printf
// and assert), the 64-bin histogram, and the naive reference kernels. Inputs
// are chosen so the expected outputs are hand-computed (and exact in f32
// where the kernel allows); random runs compare against the contract's spec.
// device_calls_minmax does not run: its callee returns a float2 through an
// array-typed .param (func_retval0[8]), which the importer leaves opaque.
// RUN: split-file %s %t
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/attention_tiled.sm80.O3.ptx --contract=%t/tiled.mlir --inputs=%t/tiled.json | FileCheck %s --check-prefix=TILED
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/attention_tiled.sm80.O3.ptx --contract=%t/tiled.mlir --random=2 --seed=3 | FileCheck %s --check-prefix=RAND
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/attention_causal.sm80.O3.ptx --contract=%t/causal.mlir --inputs=%t/causal.json | FileCheck %s --check-prefix=CAUSAL
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/attention_causal.sm80.O3.ptx --contract=%t/causal.mlir --random=2 --seed=3 --schedule=random:4 | FileCheck %s --check-prefix=RAND
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/grid3d.sm80.O3.ptx --contract=%t/grid3d.mlir --inputs=%t/grid3d.json | FileCheck %s --check-prefix=G3D
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/grid3d.sm80.O3.ptx --contract=%t/grid3d.mlir --random=3 --seed=5 | FileCheck %s --check-prefix=RAND
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/device_calls.sm80.O3.ptx --contract=%t/calls.mlir --inputs=%t/calls.json 2>/dev/null | FileCheck %s --check-prefix=CALLS
// RUN: %expect_exit 2 kproof-run %inputs/cuda/ptx/device_calls.sm80.O3.ptx --contract=%t/minmax.mlir --inputs=%t/minmax.json 2>&1 | FileCheck %s --check-prefix=MINMAX
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/histogram_atomics.sm80.O3.ptx --contract=%t/hist.mlir --inputs=%t/hist.json --schedule=random:9 | FileCheck %s --check-prefix=HIST
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/ref_softmax_naive.sm80.O3.ptx --contract=%t/naive4.mlir --inputs=%t/ramp4.json | FileCheck %s --check-prefix=SOFTMAX
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/ref_softmax_naive.sm80.O3.ptx --contract=%t/naive-threads4.mlir --inputs=%t/ramp4.json | FileCheck %s --check-prefix=SOFTMAX
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/ref_softmax_naive.sm80.O3.ptx --contract=%t/scexp.mlir --contract-name=scexp --inputs=%t/scexp.json | FileCheck %s --check-prefix=SCEXP
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/ref_softmax_naive.sm80.O3.ptx --contract=%t/scexp.mlir --contract-name=scexp_loop --inputs=%t/scexp.json | FileCheck %s --check-prefix=SCEXP
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/ref_softmax_naive.sm80.O3.ptx --contract=%t/writes-input.mlir --inputs=%t/ramp4.json | FileCheck %s --check-prefix=WRITES

// Random inputs in [-4, 4] against the spec (attention, or the func.func).
// RAND: "found": false,
// RAND: "max_abs_error": {{[0-9.]+}}e-0{{[678]}},
// RAND: "first_mismatch": null
// RAND: "result": "ok"

// attention_tiled_fwd, n = 20 (two query tiles, a partial key tile),
// Q = 0: every score is 0, so O[i][c] = mean_j V[j][c] = mean_j (j + c)
// = 9.5 + c for every row i (exact: the masked keys give exp(-inf) = 0).
// TILED: "O": [
// TILED-NEXT: 9.5,
// TILED-NEXT: 10.5,
// TILED-NEXT: 11.5,
// TILED-NEXT: 12.5,
// TILED-NEXT: 13.5,
// TILED-NEXT: 14.5,
// TILED-NEXT: 15.5,
// TILED-NEXT: 16.5,
// TILED-NEXT: 17.5,
// TILED-NEXT: 18.5,
// TILED-NEXT: 19.5,
// TILED-NEXT: 20.5,
// TILED-NEXT: 21.5,
// TILED-NEXT: 22.5,
// TILED-NEXT: 23.5,
// TILED-NEXT: 24.5,
// TILED: 24.5{{$}}
// TILED-NEXT: ]
// TILED: "max_abs_error": 0,
// TILED: "first_mismatch": null
// TILED: "findings": [],
// TILED: "result": "ok"

// attention_causal_fwd, n_q = 4, n_k = 6, q_offset = 2, Q = 0, V[j][c] = j:
// row i sees keys 0..2+i, O[i][c] = (2 + i) / 2 = 1, 1.5, 2, 2.5.
// CAUSAL: "O": [
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 1.5,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5,
// CAUSAL-NEXT: 2.5{{$}}
// CAUSAL: "max_abs_error": 0,
// CAUSAL: "findings": [],
// CAUSAL: "result": "ok"

// grid3d_axpb over [nz, ny, nx] = [2, 3, 4], block (2, 1, 2), grid (1, 2, 1)
// (grid-strides in x and y), in[idx] = idx, w = 2:
// out[z][y][x] = 2 * idx + x + y + z.
// G3D: "out": [
// G3D-NEXT: 0,
// G3D-NEXT: 3,
// G3D-NEXT: 6,
// G3D-NEXT: 9,
// G3D-NEXT: 9,
// G3D-NEXT: 12,
// G3D-NEXT: 15,
// G3D-NEXT: 18,
// G3D-NEXT: 18,
// G3D-NEXT: 21,
// G3D-NEXT: 24,
// G3D-NEXT: 27,
// G3D-NEXT: 25,
// G3D-NEXT: 28,
// G3D-NEXT: 31,
// G3D-NEXT: 34,
// G3D-NEXT: 34,
// G3D-NEXT: 37,
// G3D-NEXT: 40,
// G3D-NEXT: 43,
// G3D-NEXT: 43,
// G3D-NEXT: 46,
// G3D-NEXT: 49,
// G3D-NEXT: 52{{$}}
// G3D: "max_abs_error": 0,
// G3D: "findings": [],
// G3D: "result": "ok"

// device_calls_kernel (mangled; .func scale_add and clamp01 via call.uni,
// vprintf ignored, the assert never fails): n = 5 over 2 CTAs of 4,
// out = clamp01(a * 0.5 + b) = [0.25, 0.75, clamp(1.25), clamp(-0.25), 0.5].
// CALLS: "out": [
// CALLS-NEXT: 0.25,
// CALLS-NEXT: 0.75,
// CALLS-NEXT: 1,
// CALLS-NEXT: 0,
// CALLS-NEXT: 0.5{{$}}
// CALLS: "max_abs_error": 0,
// CALLS: "findings": [],
// CALLS: "result": "ok"

// device_calls_minmax: the float2 return of minmax2 is an array-typed .param,
// imported as kproof.opaque: not executable (exit 2).
// MINMAX: device_calls.sm80.O3.ptx:81:2: error: kproof-run: unmodeled PTX instruction 'st.param.f32 [func_retval0+0], %f4' (st): kproof.opaque is not executable

// histogram64_atomics, 2 CTAs of 32 threads, n = 12, hist[0] = 10 before:
// data & 63 = 0,1,1,1,63,63,2,2,0,3,8,5 -> bins 0: 10+2, 1: 3, 2: 2, 3: 1,
// 5: 1, 8: 1, 63: 2, the rest 0.
// HIST: "outputs": {
// HIST-NEXT: "hist": [
// HIST-NEXT: 12,
// HIST-NEXT: 3,
// HIST-NEXT: 2,
// HIST-NEXT: 1,
// HIST-NEXT: 0,
// HIST-NEXT: 1,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 1,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 0,
// HIST-NEXT: 2{{$}}
// HIST: "max_abs_error": 0,
// HIST: "findings": [],
// HIST: "result": "ok"

// ref_softmax_naive_4 and ref_softmax_naive_threads_4 on [1, 2, 3, 4]:
// e^(i-4) / (1 + e^-1 + e^-2 + e^-3) = 0.0320586, 0.0871443, 0.2368828, 0.6439142.
// SOFTMAX: "out": [
// SOFTMAX-NEXT: 0.03205860{{[0-9]*}},
// SOFTMAX-NEXT: 0.0871443{{[0-9]*}},
// SOFTMAX-NEXT: 0.236882{{[0-9]*}},
// SOFTMAX-NEXT: 0.643914{{[0-9]*}}{{$}}
// SOFTMAX: "max_abs_error": {{[0-9.]+}}e-0{{[78]}},
// SOFTMAX: "first_mismatch": null
// SOFTMAX: "findings": [],
// SOFTMAX: "result": "ok"

// ref_scaled_exp (2 CTAs of 4) and ref_scaled_exp_loop (one thread), s = 0.5,
// in = [0, 2, -2, 4, 1, -4, 6, -1]: e^0, e^1, e^-1, e^2, e^0.5, e^-2, e^3, e^-0.5.
// SCEXP: "out": [
// SCEXP-NEXT: 1,
// SCEXP-NEXT: 2.718281{{[0-9]*}},
// SCEXP-NEXT: 0.367879{{[0-9]*}},
// SCEXP-NEXT: 7.38905{{[0-9]*}},
// SCEXP-NEXT: 1.648721{{[0-9]*}},
// SCEXP-NEXT: 0.135335{{[0-9]*}},
// SCEXP-NEXT: 20.08553{{[0-9]*}},
// SCEXP-NEXT: 0.606530{{[0-9]*}}{{$}}
// SCEXP: "max_abs_error": {{[0-9.]+}}e-0{{[5678]}},
// SCEXP: "first_mismatch": null
// SCEXP: "findings": [],
// SCEXP: "result": "ok"

// ref_softmax_writes_input: the softmax is right, but x[0] = 0 is a store to
// an input buffer (exit 1).
// WRITES: "out": [
// WRITES-NEXT: 0.03205860{{[0-9]*}},
// WRITES: "first_mismatch": null
// WRITES: "kind": "store to an input buffer",
// WRITES-NEXT: "message": "thread (0,0,0) of CTA (0,0,0) stores to x[0] of the input buffer 'x'",
// WRITES-NEXT: "location": "{{.*}}ref_softmax_naive.sm80.O3.ptx:339:2 (test/Inputs/cuda/ref_softmax_naive.cu:72:3)"
// WRITES: "result": "finding"

//--- tiled.json
{"Q": [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]], "K": [[-3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2], [-1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0], [1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2], [3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3], [-2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1], [0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1], [2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3], [-3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2], [-1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0], [1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2], [3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3], [-2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1], [0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1], [2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3], [-3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2], [-1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0], [1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2], [3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3], [-2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1], [0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1]], "V": [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17], [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18], [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19], [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21], [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22], [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23], [9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24], [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25], [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26], [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27], [13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28], [14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29], [15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30], [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31], [17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32], [18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33], [19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34]]}
//--- causal.json
{"Q": [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]], "K": [[-2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2], [-1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1], [0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0], [1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1], [2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2], [-2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1, 2, -2]], "V": [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], [3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3], [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]]}
//--- grid3d.json
{"in": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23], "w": 2}
//--- calls.json
{"a": [0, 1, 2, -1, 4], "b": [0.25, 0.25, 0.25, 0.25, -1.5], "s": 0.5}
//--- minmax.json
{"a": [1, -2, 3, 0.5], "b": [2, -3, -3, 0.5]}
//--- hist.json
{"data": [0, 1, 1, 65, 63, 127, 2, 130, 64, 3, 200, 5], "hist": [10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}
//--- ramp4.json
{"x": [1, 2, 3, 4]}
//--- scexp.json
{"in": [0, 2, -2, 4, 1, -4, 6, -1], "s": 0.5}
//--- tiled.mlir
kproof.contract @tiled {
  kernel = "attention_tiled_fwd", grid = array<i64: 2, 1, 1>, block = array<i64: 16, 1, 1>,
  params = [
    {name = "Q", buffer = "in", space = "global", type = f32, shape = array<i64: 20, 16>},
    {name = "K", buffer = "in", space = "global", type = f32, shape = array<i64: 20, 16>},
    {name = "V", buffer = "in", space = "global", type = f32, shape = array<i64: 20, 16>},
    {name = "O", buffer = "out", space = "global", type = f32, shape = array<i64: 20, 16>},
    {name = "n", scalar = i32, value = 20 : i32},
    {name = "scale", scalar = f32, value = 0.25 : f32}
  ],
  spec = {builtin = "attention", q = "Q", k = "K", v = "V", output = "O",
          scale = "scale", mask = "none"}
}
//--- causal.mlir
kproof.contract @causal {
  kernel = "attention_causal_fwd", grid = array<i64: 1, 1, 1>, block = array<i64: 16, 1, 1>,
  params = [
    {name = "Q", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 16>},
    {name = "K", buffer = "in", space = "global", type = f32, shape = array<i64: 6, 16>},
    {name = "V", buffer = "in", space = "global", type = f32, shape = array<i64: 6, 16>},
    {name = "O", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 16>},
    {name = "n_q", scalar = i32, value = 4 : i32},
    {name = "n_k", scalar = i32, value = 6 : i32},
    {name = "q_offset", scalar = i32, value = 2 : i32},
    {name = "scale", scalar = f32, value = 0.25 : f32}
  ],
  spec = {builtin = "attention", q = "Q", k = "K", v = "V", output = "O",
          scale = "scale", mask = "causal", offset = 2 : i64}
}
//--- grid3d.mlir
// out[z, y, x] = in[z, y, x] * w + (x + y + z)
func.func @axpb(%in: tensor<2x3x4xf32>, %w: f32) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(z, y, x) -> (z, y, x)>, affine_map<(z, y, x) -> (z, y, x)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%in : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %z = linalg.index 0 : index
    %y = linalg.index 1 : index
    %x = linalg.index 2 : index
    %xy = arith.addi %x, %y : index
    %xyz = arith.addi %xy, %z : index
    %i = arith.index_cast %xyz : index to i32
    %f = arith.sitofp %i : i32 to f32
    %m = arith.mulf %a, %w : f32
    %o = arith.addf %m, %f : f32
    linalg.yield %o : f32
  } -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
kproof.contract @grid3d {
  kernel = "grid3d_axpb", grid = array<i64: 1, 2, 1>, block = array<i64: 2, 1, 2>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 2, 3, 4>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 3, 4>},
    {name = "w", scalar = f32},
    {name = "nx", scalar = i32, value = 4 : i32},
    {name = "ny", scalar = i32, value = 3 : i32},
    {name = "nz", scalar = i32, value = 2 : i32}
  ],
  spec = {func = @axpb, inputs = ["in", "w"], output = "out"}
}
//--- calls.mlir
// out[i] = clamp01(a[i] * s + b[i])
func.func @clamp_axpb(%a: tensor<5xf32>, %b: tensor<5xf32>, %s: f32) -> tensor<5xf32> {
  %e = tensor.empty() : tensor<5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%a, %b : tensor<5xf32>, tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%x: f32, %y: f32, %unused: f32):
    %m = arith.mulf %x, %s : f32
    %v = arith.addf %m, %y : f32
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %lo = arith.maximumf %v, %zero : f32
    %c = arith.minimumf %lo, %one : f32
    linalg.yield %c : f32
  } -> tensor<5xf32>
  return %r : tensor<5xf32>
}
kproof.contract @calls {
  kernel = "device_calls_kernel", grid = array<i64: 2, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f32, shape = array<i64: 5>},
    {name = "b", buffer = "in", space = "global", type = f32, shape = array<i64: 5>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 5>},
    {name = "s", scalar = f32},
    {name = "n", scalar = i32, value = 5 : i32}
  ],
  spec = {func = @clamp_axpb, inputs = ["a", "b", "s"], output = "out"}
}
//--- minmax.mlir
func.func @lo(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.minimumf %a, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}
kproof.contract @minmax {
  kernel = "device_calls_minmax", grid = array<i64: 1, 1, 1>, block = array<i64: 8, 1, 1>,
  params = [
    {name = "a", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "b", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "lo", buffer = "out", space = "global", type = f32, shape = array<i64: 4>},
    {name = "hi", buffer = "out", space = "global", type = f32, shape = array<i64: 4>},
    {name = "n", scalar = i32, value = 4 : i32}
  ],
  spec = {func = @lo, inputs = ["a", "b"], output = "lo"}
}
//--- hist.mlir
// hist[b] = hist_in[b] + #{i : data[i] & 63 == b}
func.func @hist(%d: tensor<12xi32>, %h: tensor<64xi32>) -> tensor<64xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (i)>, affine_map<(b, i) -> (b)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%d : tensor<12xi32>) outs(%h : tensor<64xi32>) {
  ^bb0(%x: i32, %acc: i32):
    %b = linalg.index 0 : index
    %bi = arith.index_cast %b : index to i32
    %c63 = arith.constant 63 : i32
    %m = arith.andi %x, %c63 : i32
    %eq = arith.cmpi eq, %m, %bi : i32
    %one = arith.constant 1 : i32
    %zero = arith.constant 0 : i32
    %inc = arith.select %eq, %one, %zero : i32
    %s = arith.addi %acc, %inc : i32
    linalg.yield %s : i32
  } -> tensor<64xi32>
  return %r : tensor<64xi32>
}
kproof.contract @histogram {
  kernel = "histogram64_atomics", grid = array<i64: 2, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "data", buffer = "in", space = "global", type = i32, shape = array<i64: 12>},
    {name = "hist", buffer = "inout", space = "global", type = i32, shape = array<i64: 64>},
    {name = "n", scalar = i32, value = 12 : i32}
  ],
  spec = {func = @hist, inputs = ["data", "hist"], output = "hist"}
}
//--- naive4.mlir
kproof.contract @naive4 {
  kernel = "ref_softmax_naive_4", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "out"}
}
//--- naive-threads4.mlir
kproof.contract @naive_threads4 {
  kernel = "ref_softmax_naive_threads_4", grid = array<i64: 1, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "out"}
}
//--- scexp.mlir
func.func @scaled_exp(%x: tensor<8xf32>, %s: f32) -> tensor<8xf32> {
  %init = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %m = arith.mulf %a, %s : f32
    %e = math.exp %m : f32
    linalg.yield %e : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
kproof.contract @scexp {
  kernel = "ref_scaled_exp", grid = array<i64: 2, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 8>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
    {name = "s", scalar = f32}
  ],
  spec = {func = @scaled_exp, inputs = ["in", "s"], output = "out"}
}
kproof.contract @scexp_loop {
  kernel = "ref_scaled_exp_loop", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 8>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
    {name = "s", scalar = f32},
    {name = "n", scalar = i32, value = 8 : i32}
  ],
  spec = {func = @scaled_exp, inputs = ["in", "s"], output = "out"}
}
//--- writes-input.mlir
kproof.contract @writes_input {
  kernel = "ref_softmax_writes_input", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "out"}
}
