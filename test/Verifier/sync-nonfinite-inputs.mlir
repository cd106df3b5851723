// --verify-sync does not assume finite inputs (test/Inputs/cuda/soundness.cu):
// in decode_skip_race a warp whose mask entries are all -inf `continue`s
// before the loop's trailing __syncthreads() and refills the shared tile
// while the other warp still reads it. Over finite inputs the skip never
// happens (the mask compares equal to -inf only when it is -inf), so the
// old blanket "inputs are finite" assumption printed PROVED. Comparisons
// of values that may be NaN or infinite may now go either way, and the
// race the model shows only with such inputs is replayed with the mask
// filled with -inf: the run shows it, so the verdict is REFUTED with that
// input. A contract that says `finite_inputs = true` gets the finite-input
// proof, the assumption printed; with `nonfinite = ["-inf"]` on the mask
// as well, the race is REFUTED again; declaring `s` instead (it steers no
// comparison) keeps the proof. A mask that may hold NaN only (NaN == -inf is
// false) reaches no skip: the model's race is UNKNOWN, the replay with a
// NaN mask shows none, and the verdict says so. The twin whose skip is
// CTA-uniform (__syncthreads_or) is PROVED without the assumption:
// bar.red.or gives every thread of the CTA one value.
// RUN: split-file %s %t
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-sync --contract=%t/race.mlir | FileCheck %s
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/soundness.sm80.G.ptx --verify-sync --contract=%t/race.mlir | FileCheck %s
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-sync --contract=%t/race.mlir --format=json | FileCheck %s --check-prefix=JSON
// RUN: sed 's/spec = {func/finite_inputs = true, spec = {func/' %t/race.mlir > %t/finite.mlir
// RUN: kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-sync --contract=%t/finite.mlir | FileCheck %s --check-prefix=FINITE
// RUN: sed 's/"mask", buffer = "in", space = "global", type = f32, shape = array<i64: 256>/&, nonfinite = ["-inf"]/' %t/finite.mlir > %t/declared.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-sync --contract=%t/declared.mlir | FileCheck %s --check-prefix=DECLARED
// RUN: sed 's/"s", buffer = "in", space = "global", type = f32, shape = array<i64: 256>/&, nonfinite = ["-inf", "inf", "nan"]/' %t/finite.mlir > %t/declared-s.mlir
// RUN: kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-sync --contract=%t/declared-s.mlir | FileCheck %s --check-prefix=DECLS
// RUN: sed 's/"-inf"\]/"nan"]/' %t/declared.mlir > %t/nan.mlir
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-sync --contract=%t/nan.mlir | FileCheck %s --check-prefix=NAN
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-equiv --contract=%t/declared.mlir | FileCheck %s --check-prefix=EQUIV
// RUN: sed 's/decode_skip_race/decode_skip_ok/' %t/race.mlir > %t/ok.mlir
// RUN: kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-sync --contract=%t/ok.mlir | FileCheck %s --check-prefix=OK
// RUN: kproof-opt %inputs/cuda/ptx/soundness.sm80.G.ptx --verify-sync --contract=%t/ok.mlir | FileCheck %s --check-prefix=OK
// RUN: sed 's/decode_skip_race/decode_skip_ok/' %t/declared.mlir > %t/ok-declared.mlir
// RUN: kproof-opt %inputs/cuda/ptx/soundness.sm80.O3.ptx --verify-sync --contract=%t/ok-declared.mlir | FileCheck %s --check-prefix=OK
// RUN: python3 -c "import json; print(json.dumps({'s': [0.0] * 256, 'mask': ['-inf'] * 32 + [0.0] * 224}))" > %t/inf-tile.json
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/soundness.sm80.O3.ptx --contract=%t/race.mlir --inputs=%t/inf-tile.json 2>&1 | FileCheck %s --check-prefix=REPLAY
// CHECK: assuming: floats are exact reals; inputs may be NaN or infinite (a comparison of such values may go either way)
// CHECK: REFUTED: race-free: shared 'decode_skip_race::mt', one CTA, phase {{[0-9]+}}: {{.*}}soundness.cu:7{{[24]}}:5) -- {{(loop-carried )?}}data race on shared 'decode_skip_race::mt' {{.*}} (with mask all -inf, shown by replaying the kernel)
// CHECK: ERROR: {{(loop-carried )?}}data race on shared 'decode_skip_race::mt'
// CHECK: Example:
// CHECK-NEXT: t1.tid.x = {{[0-9]+}}
// CHECK-NEXT: t2.tid.x = {{[0-9]+}}
// CHECK-NEXT: mask[all] = -inf
// CHECK: Replay: confirmed by replay (IEEE f32): race: {{.*}}decode_skip_race{{.*}}mt' at byte {{[0-9]+}} by thread
// CHECK: {{^}}REFUTED{{$}}
// JSON: "buffer": "mask",
// JSON-NEXT: "name": "mask[all]",
// JSON-NEXT: "value": "-inf"
// JSON: "replay": "confirmed by replay (IEEE f32): race:
// JSON: {{^}}  "verdict": "REFUTED"
// FINITE: assuming: floats are exact reals; inputs are finite (no NaN or infinity; contract: finite_inputs)
// FINITE-NOT: UNKNOWN
// FINITE: PROVED
// DECLARED: assuming: 'mask' may hold -inf entries (contract: nonfinite)
// DECLARED: assuming: floats are exact reals; inputs are finite (no NaN or infinity; contract: finite_inputs), except the non-finite entries the contract states above
// DECLARED: mask[all] = -inf
// DECLARED: Replay: confirmed by replay (IEEE f32): race:
// DECLARED: {{^}}REFUTED{{$}}
// DECLS: assuming: 's' may hold -inf, inf, nan entries (contract: nonfinite)
// DECLS-NOT: UNKNOWN
// DECLS: {{^}}PROVED{{$}}
// NAN: assuming: 'mask' may hold nan entries (contract: nonfinite)
// NAN: UNKNOWN: race-free: {{.*}} -- solver: possible only when some input is NaN or infinite {{.*}}; replaying the kernel with mask all nan showed no such violation
// NAN-NOT: REFUTED
// NAN-NOT: confirmed
// NAN: {{^}}UNKNOWN: race-free
// EQUIV: UNKNOWN: inputs as the contract states them: 'mask' may hold non-finite entries (contract: nonfinite) -- --verify-equiv models float inputs as finite exact reals
// OK: PROVED
// OK-NOT: UNKNOWN
// OK-NOT: REFUTED
// REPLAY: "kind": "race"
// REPLAY-NEXT: "message": "race: {{.*}}decode_skip_race{{.*}}mt' at byte {{[0-9]+}} by thread

//--- race.mlir
// out[t] = sum over the 4 tiles k of exp(s[j] + mask[j]), j = 64k + 63 - t
// (a masked key, mask[j] = -inf, adds 0).
func.func @decode(%s: tensor<256xf32>, %mask: tensor<256xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      outs(%e : tensor<64xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %c63 = arith.constant 63 : index
    %z = arith.constant 0.0 : f32
    %src = arith.subi %c63, %i : index
    %o0 = arith.constant 0 : index
    %j0 = arith.addi %src, %o0 : index
    %sv0 = tensor.extract %s[%j0] : tensor<256xf32>
    %mv0 = tensor.extract %mask[%j0] : tensor<256xf32>
    %x0 = arith.addf %sv0, %mv0 : f32
    %ex0 = math.exp %x0 : f32
    %acc0 = arith.addf %z, %ex0 : f32
    %o1 = arith.constant 64 : index
    %j1 = arith.addi %src, %o1 : index
    %sv1 = tensor.extract %s[%j1] : tensor<256xf32>
    %mv1 = tensor.extract %mask[%j1] : tensor<256xf32>
    %x1 = arith.addf %sv1, %mv1 : f32
    %ex1 = math.exp %x1 : f32
    %acc1 = arith.addf %acc0, %ex1 : f32
    %o2 = arith.constant 128 : index
    %j2 = arith.addi %src, %o2 : index
    %sv2 = tensor.extract %s[%j2] : tensor<256xf32>
    %mv2 = tensor.extract %mask[%j2] : tensor<256xf32>
    %x2 = arith.addf %sv2, %mv2 : f32
    %ex2 = math.exp %x2 : f32
    %acc2 = arith.addf %acc1, %ex2 : f32
    %o3 = arith.constant 192 : index
    %j3 = arith.addi %src, %o3 : index
    %sv3 = tensor.extract %s[%j3] : tensor<256xf32>
    %mv3 = tensor.extract %mask[%j3] : tensor<256xf32>
    %x3 = arith.addf %sv3, %mv3 : f32
    %ex3 = math.exp %x3 : f32
    %acc3 = arith.addf %acc2, %ex3 : f32
    linalg.yield %acc3 : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
kproof.contract @decode_skip_race_c {
  kernel = "decode_skip_race",
  grid = array<i64: 1, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "s", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "mask", buffer = "in", space = "global", type = f32, shape = array<i64: 256>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 64>}
  ],
  spec = {func = @decode, inputs = ["s", "mask"], output = "out"},
  assume = ["mask[j] is 0 or -INFINITY (a masked key)"]
}
