// Variable-length sequences over a prefix-sum table (FlashAttention's
// varlen layout): CTA b reduces x[cu_seqlens[b] .. cu_seqlens[b+1]), a loop
// whose bounds are table reads. The spec is a linalg.generic over the whole
// packed x (a symbolic extent `total`) that masks the elements outside the
// sequence; the engine reads it as a reduction over the sequence's range.
// Under the preconditions `range` [0, 2^20] and `at_most = "total"` on the
// table (printed with the verdict), the sum proves for every total and
// every table, at -O3 and -G, and so does the max, whose spec masks with
// -inf (an empty sequence's max is -inf on both sides; a twin writing 0
// there, and one starting the max at 0, are REFUTED). Without `at_most` the last
// sequence may run past x: REFUTED (out of bounds), confirmed by replay.
// The twins (one element past the end, the first element skipped) are
// REFUTED with replayed counterexamples.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/sum.mlir | FileCheck %s --check-prefix=SUM
// RUN: kproof-opt %inputs/cuda/ptx/varlen.sm90.G.ptx --verify-equiv --contract=%t/sum.mlir | FileCheck %s --check-prefix=SUM
// RUN: kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/max.mlir | FileCheck %s --check-prefix=MAX
// RUN: kproof-opt %inputs/cuda/ptx/varlen.sm90.G.ptx --verify-equiv --contract=%t/max.mlir | FileCheck %s --check-prefix=MAX
// RUN: sed 's/"varlen_seq_max"/"varlen_seq_max_empty_zero"/' %t/max.mlir > %t/max-empty.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/max-empty.mlir 2>&1 | FileCheck %s --check-prefix=MAXEMPTY
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/varlen.sm90.G.ptx --verify-equiv --contract=%t/max-empty.mlir 2>&1 | FileCheck %s --check-prefix=MAXEMPTY
// RUN: sed 's/"varlen_seq_max"/"varlen_seq_max_zero_init"/' %t/max.mlir > %t/max-zero.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/max-zero.mlir 2>&1 | FileCheck %s --check-prefix=MAXZERO
// RUN: sed 's/"varlen_seq_sum"/"varlen_seq_sum_checked"/' %t/sum.mlir > %t/checked.mlir
// RUN: kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/checked.mlir | FileCheck %s --check-prefix=CHECKED
// RUN: kproof-opt %inputs/cuda/ptx/varlen.sm90.G.ptx --verify-equiv --contract=%t/sumsq.mlir | FileCheck %s --check-prefix=SUMSQ
// RUN: sed 's/, at_most = "total"//' %t/sum.mlir > %t/unbounded.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/unbounded.mlir 2>&1 | FileCheck %s --check-prefix=UNBOUNDED
// RUN: sed 's/"varlen_seq_sum"/"varlen_seq_sum_past_end"/' %t/sum.mlir > %t/past.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/past.mlir 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/varlen.sm90.G.ptx --verify-equiv --contract=%t/past.mlir 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: sed 's/"varlen_seq_sum"/"varlen_seq_sum_skip_first"/' %t/sum.mlir > %t/skip.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/skip.mlir 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/varlen.sm90.G.ptx --verify-equiv --contract=%t/skip.mlir 2>&1 | FileCheck %s --check-prefix=SKIP
// Two wrong specs that once PROVED or were mis-lowered (review findings):
// a second, static reduction dimension before the symbolic one (the spec
// is twice the sum: it must not prove), and a reduction whose body reads a
// producer that is itself a reduction over the same extent (each keeps its
// own variable: p[b, i] stays masked x[i]). Both are REFUTED at a small
// total, replay-confirmed.
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/twodim.mlir 2>&1 | FileCheck %s --check-prefix=TWODIM
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/nested.mlir 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: sed 's/at_most = "total"/at_most = "x"/' %t/sum.mlir > %t/bad-name.mlir
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/bad-name.mlir 2>&1 | FileCheck %s --check-prefix=BADNAME
// Preconditions no input satisfies (every element >= 2000000 and <= total,
// total at most 2^20) would make the proof vacuous: a contract error at the
// table, never PROVED. At the boundary (lo = the largest total) they admit
// an input (every element 2^20, total 2^20) and the sum proves.
// RUN: sed 's/range = array<i64: 0, 1048577>, at_most/range = array<i64: 2000000, 2000001>, at_most/' %t/sum.mlir > %t/contradict.mlir
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/contradict.mlir 2>&1 | FileCheck %s --check-prefix=CONTRADICT
// RUN: sed 's/range = array<i64: 0, 1048577>, at_most/range = array<i64: 1048577, 1048578>, at_most/' %t/sum.mlir > %t/contradict-edge.mlir
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/contradict-edge.mlir 2>&1 | FileCheck %s --check-prefix=CONTRADICT-EDGE
// RUN: sed 's/range = array<i64: 0, 1048577>, at_most/range = array<i64: 1048576, 1048577>, at_most/' %t/sum.mlir > %t/satisfiable-edge.mlir
// RUN: kproof-opt %inputs/cuda/ptx/varlen.sm80.O3.ptx --verify-equiv --contract=%t/satisfiable-edge.mlir 2>&1 | FileCheck %s --check-prefix=SAT-EDGE

// SUM: assuming: precondition: every element of 'cu_seqlens' is in [0, 1048577) (contract: range)
// SUM: assuming: precondition: every element of 'cu_seqlens' is <= total (contract: at_most)
// SUM-NOT: UNKNOWN
// SUM: {{^}}PROVED

// MAX: assuming: precondition: every element of 'cu_seqlens' is <= total (contract: at_most)
// MAX-NOT: UNKNOWN
// MAX: obligations: [[N:[0-9]+]] ([[N]] proved)
// MAX: {{^}}PROVED
// An empty sequence (cu_seqlens[b] == cu_seqlens[b+1]) has max -inf in the
// spec; the twin writes 0 there. The replay shows the difference (0 is not
// -inf within any tolerance).
// (The example's sequence is empty: its end is at most its start.)
// MAXEMPTY: ERROR: value mismatch at out[{{[0-9]+}}]
// MAXEMPTY: Kernel value: [0.000000000000e+00, 0.000000000000e+00]
// MAXEMPTY-NEXT: Spec value:   [-inf, -inf]
// MAXEMPTY: Replay: confirmed by replay (IEEE f32): kernel out[{{[0-9]+}}] = 0, spec = -inf
// MAXEMPTY: {{^}}REFUTED
// A max started at 0: wrong for a sequence of negative elements.
// MAXZERO: REFUTED: value out[i]
// MAXZERO: Kernel value: [0.000000000000e+00, 0.000000000000e+00]
// MAXZERO-NEXT: Spec value:   [-1.000000000000e+00, -1.000000000000e+00]
// MAXZERO: Replay: confirmed by replay (IEEE f32): kernel out[{{[0-9]+}}] = 0, spec = -1
// MAXZERO: {{^}}REFUTED

// A branch on end > total is dead under at_most: the executor's path
// queries know the precondition and drop it (one branch: the loop's).
// CHECKED: paths: 1 (1 data-dependent branches
// CHECKED: {{^}}PROVED
// A weighted sum of squares whose loop is guarded by `if (s < e)`: at -G
// it ran past 13 minutes (the reduction bodies x[a]^2 and x[b]^2 were
// compared by the solver, nonlinear); the bodies are now compared by their
// index terms alone. (At -O3 nvcc unrolls it by 4 with a remainder loop:
// UNKNOWN, not pinned here.)
// SUMSQ-NOT: UNKNOWN
// SUMSQ: {{^}}PROVED
// UNBOUNDED-NOT: at_most
// UNBOUNDED: error: REFUTED: violated: load from x inside its extent of total elements
// UNBOUNDED: Replay: confirmed by replay (IEEE f32): out-of-bounds access
// UNBOUNDED: {{^}}REFUTED

// PAST: REFUTED
// PAST: Replay: confirmed by replay
// PAST: {{^}}REFUTED

// SKIP: REFUTED: value out[i] written by the representative thread -- counterexample confirmed
// SKIP: Replay: confirmed by replay ({{[^)]*}}): kernel out[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// SKIP: {{^}}REFUTED

// TWODIM: modeled only as the single reduction dimension
// TWODIM: Replay: confirmed by replay
// TWODIM: {{^}}REFUTED

// NESTED: Replay: confirmed by replay
// NESTED: {{^}}REFUTED

// CONTRADICT: contradict.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'kproof.contract' op param 'cu_seqlens': the preconditions contradict each other: 'range' [2000000, 2000001) puts every element at >= 2000000, but 'at_most = "total"' puts it at <= total, which is at most 1048576; no input satisfies both
// CONTRADICT-NOT: PROVED
// CONTRADICT-EDGE: error: 'kproof.contract' op param 'cu_seqlens': the preconditions contradict each other: 'range' [1048577, 1048578)
// CONTRADICT-EDGE-NOT: PROVED
// SAT-EDGE: assuming: precondition: every element of 'cu_seqlens' is in [1048576, 1048577) (contract: range)
// SAT-EDGE: {{^}}PROVED
// BADNAME: error: 'kproof.contract' op param 'cu_seqlens': 'at_most' must name an integer scalar param of this contract

//--- sum.mlir
func.func @seq_sum(%x: tensor<?xf32>, %cu: tensor<9xi32>, %total: i32) -> tensor<8xf32> {
  %z = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (i)>, affine_map<(b, i) -> (b)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %b1 = arith.addi %b, %c1 : index
    %lo = tensor.extract %cu[%b] : tensor<9xi32>
    %hi = tensor.extract %cu[%b1] : tensor<9xi32>
    %ii = arith.index_cast %i : index to i32
    %ge = arith.cmpi sge, %ii, %lo : i32
    %lt = arith.cmpi slt, %ii, %hi : i32
    %in = arith.andi %ge, %lt : i1
    %t = arith.select %in, %v, %z : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
kproof.contract @varlen_sum {kernel = "varlen_seq_sum",
  grid = array<i64: 8, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = ["total"]},
            {name = "cu_seqlens", buffer = "in", space = "global", type = i32, shape = array<i64: 9>, range = array<i64: 0, 1048577>, at_most = "total"},
            {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "total", scalar = i32, range = array<i64: 1, 1048577>}],
  spec = {func = @seq_sum, inputs = ["x", "cu_seqlens", "total"], output = "out"}, mode = "reals"}
//--- max.mlir
func.func @seq_max(%x: tensor<?xf32>, %cu: tensor<9xi32>, %total: i32) -> tensor<8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (i)>, affine_map<(b, i) -> (b)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %b1 = arith.addi %b, %c1 : index
    %lo = tensor.extract %cu[%b] : tensor<9xi32>
    %hi = tensor.extract %cu[%b1] : tensor<9xi32>
    %ii = arith.index_cast %i : index to i32
    %ge = arith.cmpi sge, %ii, %lo : i32
    %lt = arith.cmpi slt, %ii, %hi : i32
    %in = arith.andi %ge, %lt : i1
    %t = arith.select %in, %v, %ninf : f32
    %m = arith.maximumf %acc, %t : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
kproof.contract @varlen_max {kernel = "varlen_seq_max",
  grid = array<i64: 8, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = ["total"]},
            {name = "cu_seqlens", buffer = "in", space = "global", type = i32, shape = array<i64: 9>, range = array<i64: 0, 1048577>, at_most = "total"},
            {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "total", scalar = i32, range = array<i64: 1, 1048577>}],
  spec = {func = @seq_max, inputs = ["x", "cu_seqlens", "total"], output = "out"}, mode = "reals"}
//--- twodim.mlir
// out[b] = sum_{r<2} sum_{i<total} w[r] * mask(x[i]) with w = [1, 1]: twice the kernel's sum.
func.func @seq_sum2(%x: tensor<?xf32>, %cu: tensor<9xi32>, %total: i32) -> tensor<8xf32> {
  %z = arith.constant 0.0 : f32
  %w = arith.constant dense<1.0> : tensor<2xf32>
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, r, i) -> (i)>, affine_map<(b, r, i) -> (r)>, affine_map<(b, r, i) -> (b)>],
                       iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %w : tensor<?xf32>, tensor<2xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%v: f32, %wr: f32, %acc: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 2 : index
    %b1 = arith.addi %b, %c1 : index
    %lo = tensor.extract %cu[%b] : tensor<9xi32>
    %hi = tensor.extract %cu[%b1] : tensor<9xi32>
    %ii = arith.index_cast %i : index to i32
    %ge = arith.cmpi sge, %ii, %lo : i32
    %lt = arith.cmpi slt, %ii, %hi : i32
    %in = arith.andi %ge, %lt : i1
    %t = arith.select %in, %v, %z : f32
    %tw = arith.mulf %t, %wr : f32
    %s = arith.addf %acc, %tw : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
kproof.contract @varlen_sum {kernel = "varlen_seq_sum",
  grid = array<i64: 8, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = ["total"]},
            {name = "cu_seqlens", buffer = "in", space = "global", type = i32, shape = array<i64: 9>, range = array<i64: 0, 1048577>, at_most = "total"},
            {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "total", scalar = i32, range = array<i64: 1, 1048577>}],
  spec = {func = @seq_sum2, inputs = ["x", "cu_seqlens", "total"], output = "out"}, mode = "reals"}
//--- nested.mlir
// p[b, i] = sum_k [cu[b] <= k < cu[b+1]] [i == k] x[k]   (= masked x[i])
// out[b]  = sum_i [i == cu[b]] p[b, i]                    (= x[cu[b]] for a nonempty sequence)
func.func @nested(%x: tensor<?xf32>, %cu: tensor<9xi32>, %total: i32) -> tensor<8xf32> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e2 = tensor.empty(%n) : tensor<8x?xf32>
  %init2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<8x?xf32>) -> tensor<8x?xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, k) -> (k)>, affine_map<(b, i, k) -> (b, i)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<?xf32>) outs(%init2 : tensor<8x?xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %k = linalg.index 2 : index
    %b1 = arith.addi %b, %c1 : index
    %lo = tensor.extract %cu[%b] : tensor<9xi32>
    %hi = tensor.extract %cu[%b1] : tensor<9xi32>
    %kk = arith.index_cast %k : index to i32
    %ge = arith.cmpi sge, %kk, %lo : i32
    %lt = arith.cmpi slt, %kk, %hi : i32
    %eq = arith.cmpi eq, %i, %k : index
    %in0 = arith.andi %ge, %lt : i1
    %in = arith.andi %in0, %eq : i1
    %t = arith.select %in, %v, %z : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  } -> tensor<8x?xf32>
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>, affine_map<(b, i) -> (b)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<8x?xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %lo = tensor.extract %cu[%b] : tensor<9xi32>
    %ii = arith.index_cast %i : index to i32
    %eq = arith.cmpi eq, %ii, %lo : i32
    %t = arith.select %eq, %v, %z : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
kproof.contract @varlen_sum {kernel = "varlen_seq_sum",
  grid = array<i64: 8, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = ["total"]},
            {name = "cu_seqlens", buffer = "in", space = "global", type = i32, shape = array<i64: 9>, range = array<i64: 0, 1048577>, at_most = "total"},
            {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "total", scalar = i32, range = array<i64: 1, 1048577>}],
  spec = {func = @nested, inputs = ["x", "cu_seqlens", "total"], output = "out"}, mode = "reals"}
//--- sumsq.mlir
func.func @spec(%x: tensor<?xf32>, %cu: tensor<9xi32>, %w: tensor<8xf32>, %total: i32) -> tensor<8xf32> {
  %z = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (i)>, affine_map<(b, i) -> (b)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %b1 = arith.addi %b, %c1 : index
    %lo = tensor.extract %cu[%b] : tensor<9xi32>
    %hi = tensor.extract %cu[%b1] : tensor<9xi32>
    %ii = arith.index_cast %i : index to i32
    %ge = arith.cmpi sge, %ii, %lo : i32
    %lt = arith.cmpi slt, %ii, %hi : i32
    %in = arith.andi %ge, %lt : i1
    %sq = arith.mulf %v, %v : f32
    %t = arith.select %in, %sq, %z : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(b) -> (b)>, affine_map<(b) -> (b)>, affine_map<(b) -> (b)>],
                       iterator_types = ["parallel"]}
      ins(%r, %w : tensor<8xf32>, tensor<8xf32>) outs(%e2 : tensor<8xf32>) {
  ^bb0(%a: f32, %wb: f32, %o: f32):
    %m = arith.mulf %wb, %a : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %y : tensor<8xf32>
}
kproof.contract @c {kernel = "varlen_seq_sumsq_guarded",
  grid = array<i64: 8, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = ["total"]},
            {name = "cu_seqlens", buffer = "in", space = "global", type = i32, shape = array<i64: 9>, range = array<i64: 0, 1048577>, at_most = "total"},
            {name = "w", buffer = "in", space = "global", type = f32, shape = array<i64: 8>},
            {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "total", scalar = i32, range = array<i64: 1, 1048577>}],
  spec = {func = @spec, inputs = ["x", "cu_seqlens", "w", "total"], output = "out"}, mode = "reals"}
