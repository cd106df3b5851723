// Several outputs: attention with one thread per query row writes o [8, 2]
// and its row statistics m (row max) and l (softmax denominator). One
// func.func spec with three results defines all three buffers
// (`outputs = ["o", "m", "l"]`); every store is compared with the spec of
// its own buffer, and each output's coverage is proved. The planted bug
// stores the first score as m: REFUTED at m, confirmed by replay. A kernel
// that writes a buffer no spec defines is UNKNOWN with that reason; a
// spec's result count that differs from its outputs, and `outputs` on a
// built-in spec, are contract errors.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/attention_rows_stats.sm80.O3.ptx --verify-equiv --contract=%t/stats.mlir | FileCheck %s --check-prefix=STATS
// RUN: kproof-opt %inputs/cuda/ptx/attention_rows_stats.sm90.G.ptx --verify-equiv --contract=%t/stats.mlir | FileCheck %s --check-prefix=STATS
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/attention_rows_stats.sm80.O3.ptx --verify-equiv --contract=%t/stats-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/attention_rows_stats.sm90.G.ptx --verify-equiv --contract=%t/stats-bug.mlir 2>&1 | FileCheck %s --check-prefix=BUG
// The same attention in base 2 (exp2f, as Triton and FlashAttention-3
// compute it) writing o and its logsumexp lse = m + log2(l): both outputs
// proved; the twin that stores log2(l) without the max is REFUTED at lse,
// confirmed by replay.
// RUN: kproof-opt %inputs/cuda/ptx/attention_rows_stats.sm80.O3.ptx --verify-equiv --contract=%t/lse.mlir | FileCheck %s --check-prefix=LSE
// RUN: kproof-opt %inputs/cuda/ptx/attention_rows_stats.sm90.G.ptx --verify-equiv --contract=%t/lse.mlir | FileCheck %s --check-prefix=LSE
// RUN: sed 's/kernel = "attention_rows_lse"/kernel = "attention_rows_lse_bug"/' %t/lse.mlir > %t/lse-bug.mlir
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/attention_rows_stats.sm80.O3.ptx --verify-equiv --contract=%t/lse-bug.mlir 2>&1 | FileCheck %s --check-prefix=LSE-BUG
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/attention_rows_stats.sm90.G.ptx --verify-equiv --contract=%t/lse-bug.mlir 2>&1 | FileCheck %s --check-prefix=LSE-BUG
// RUN: %expect_exit 3 kproof-opt %inputs/cuda/ptx/attention_rows_stats.sm80.O3.ptx --verify-equiv --contract=%t/one-spec.mlir 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/attention_rows_stats.sm80.O3.ptx --verify-equiv --contract=%t/count.mlir 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/attention_rows_stats.sm80.O3.ptx --verify-equiv --contract=%t/builtin.mlir 2>&1 | FileCheck %s --check-prefix=BUILTIN

// STATS: kproof: attention_rows_stats against @attn(q, k, v) -> o; @attn(q, k, v) -> m; @attn(q, k, v) -> l
// STATS-NOT: UNKNOWN
// STATS: {{^}}PROVED

// LSE: kproof: attention_rows_lse against @attn(q, k, v) -> o; @attn(q, k, v) -> lse
// LSE-NOT: UNKNOWN
// LSE: {{^}}PROVED

// LSE-BUG: error: REFUTED: value mismatch at lse[{{[0-9]+}}]
// LSE-BUG: Replay: confirmed by replay ({{[^)]*}}): kernel lse[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// LSE-BUG: {{^}}REFUTED

// BUG: error: REFUTED: value mismatch at m[{{[0-9]+}}]
// BUG: REFUTED: value m[i] written by the representative thread -- counterexample confirmed
// BUG: Replay: confirmed by replay ({{[^)]*}}): kernel {{[a-z_]+}}[{{[0-9]+}}] = {{-?[0-9.e+-]+}}, spec = {{-?[0-9.e+-]+}}
// BUG: {{^}}REFUTED

// ONE: UNKNOWN: store to 'm' -- no spec defines 'm': every buffer the kernel writes needs one
// ONE: {{^}}UNKNOWN

// COUNT: error: spec @attn must return 2 tensor(s), one per name in 'outputs'; it returns 3 result(s)
// BUILTIN: error: 'kproof.contract' op spec 'outputs' (several output buffers) needs a 'func' spec and no 'output'

//--- stats.mlir
#qk = affine_map<(i, j, t) -> (i, t)>
#kk = affine_map<(i, j, t) -> (j, t)>
#ij3 = affine_map<(i, j, t) -> (i, j)>
#ij = affine_map<(i, j) -> (i, j)>
#i_ = affine_map<(i, j) -> (i)>
#jc = affine_map<(i, j, c) -> (j, c)>
#ij_c = affine_map<(i, j, c) -> (i, j)>
#i_c = affine_map<(i, j, c) -> (i)>
#ic = affine_map<(i, j, c) -> (i, c)>
func.func @attn(%q: tensor<8x2xf32>, %k: tensor<3x2xf32>, %v: tensor<3x2xf32>)
    -> (tensor<8x2xf32>, tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.70710677 : f32
  %e83 = tensor.empty() : tensor<8x3xf32>
  %z83 = linalg.fill ins(%zero : f32) outs(%e83 : tensor<8x3xf32>) -> tensor<8x3xf32>
  %qk = linalg.generic {indexing_maps = [#qk, #kk, #ij3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<8x2xf32>, tensor<3x2xf32>) outs(%z83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x3xf32>
  %s = linalg.generic {indexing_maps = [#ij, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%qk : tensor<8x3xf32>) outs(%e83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %scale : f32
    linalg.yield %r : f32
  } -> tensor<8x3xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %ninf8 = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#ij, #i_], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<8x3xf32>) outs(%ninf8 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#ij, #i_, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<8x3xf32>, tensor<8xf32>) outs(%e83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<8x3xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %l = linalg.generic {indexing_maps = [#ij, #i_], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<8x3xf32>) outs(%z8 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e82 = tensor.empty() : tensor<8x2xf32>
  %z82 = linalg.fill ins(%zero : f32) outs(%e82 : tensor<8x2xf32>) -> tensor<8x2xf32>
  %pv = linalg.generic {indexing_maps = [#ij_c, #jc, #ic], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%p, %v : tensor<8x3xf32>, tensor<3x2xf32>) outs(%z82 : tensor<8x2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %t : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, c) -> (i, c)>, affine_map<(i, c) -> (i)>, affine_map<(i, c) -> (i, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%pv, %l : tensor<8x2xf32>, tensor<8xf32>) outs(%e82 : tensor<8x2xf32>) {
  ^bb0(%a: f32, %d: f32, %x: f32):
    %r = arith.divf %a, %d : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  return %o, %m, %l : tensor<8x2xf32>, tensor<8xf32>, tensor<8xf32>
}
kproof.contract @stats {kernel = "attention_rows_stats",
  grid = array<i64: 2, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [{name = "q", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 2>},
            {name = "k", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2>},
            {name = "v", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2>},
            {name = "o", buffer = "out", space = "global", type = f32, shape = array<i64: 8, 2>},
            {name = "m", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "l", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "n_q", scalar = i32, value = 8 : i32}],
  spec = {func = @attn, inputs = ["q", "k", "v"], outputs = ["o", "m", "l"]}}
//--- stats-bug.mlir
#qk = affine_map<(i, j, t) -> (i, t)>
#kk = affine_map<(i, j, t) -> (j, t)>
#ij3 = affine_map<(i, j, t) -> (i, j)>
#ij = affine_map<(i, j) -> (i, j)>
#i_ = affine_map<(i, j) -> (i)>
#jc = affine_map<(i, j, c) -> (j, c)>
#ij_c = affine_map<(i, j, c) -> (i, j)>
#i_c = affine_map<(i, j, c) -> (i)>
#ic = affine_map<(i, j, c) -> (i, c)>
func.func @attn(%q: tensor<8x2xf32>, %k: tensor<3x2xf32>, %v: tensor<3x2xf32>)
    -> (tensor<8x2xf32>, tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.70710677 : f32
  %e83 = tensor.empty() : tensor<8x3xf32>
  %z83 = linalg.fill ins(%zero : f32) outs(%e83 : tensor<8x3xf32>) -> tensor<8x3xf32>
  %qk = linalg.generic {indexing_maps = [#qk, #kk, #ij3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<8x2xf32>, tensor<3x2xf32>) outs(%z83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x3xf32>
  %s = linalg.generic {indexing_maps = [#ij, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%qk : tensor<8x3xf32>) outs(%e83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %scale : f32
    linalg.yield %r : f32
  } -> tensor<8x3xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %ninf8 = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#ij, #i_], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<8x3xf32>) outs(%ninf8 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#ij, #i_, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<8x3xf32>, tensor<8xf32>) outs(%e83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<8x3xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %l = linalg.generic {indexing_maps = [#ij, #i_], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<8x3xf32>) outs(%z8 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e82 = tensor.empty() : tensor<8x2xf32>
  %z82 = linalg.fill ins(%zero : f32) outs(%e82 : tensor<8x2xf32>) -> tensor<8x2xf32>
  %pv = linalg.generic {indexing_maps = [#ij_c, #jc, #ic], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%p, %v : tensor<8x3xf32>, tensor<3x2xf32>) outs(%z82 : tensor<8x2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %t : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, c) -> (i, c)>, affine_map<(i, c) -> (i)>, affine_map<(i, c) -> (i, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%pv, %l : tensor<8x2xf32>, tensor<8xf32>) outs(%e82 : tensor<8x2xf32>) {
  ^bb0(%a: f32, %d: f32, %x: f32):
    %r = arith.divf %a, %d : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  return %o, %m, %l : tensor<8x2xf32>, tensor<8xf32>, tensor<8xf32>
}
kproof.contract @stats {kernel = "attention_rows_stats_bug",
  grid = array<i64: 2, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [{name = "q", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 2>},
            {name = "k", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2>},
            {name = "v", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2>},
            {name = "o", buffer = "out", space = "global", type = f32, shape = array<i64: 8, 2>},
            {name = "m", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "l", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "n_q", scalar = i32, value = 8 : i32}],
  spec = {func = @attn, inputs = ["q", "k", "v"], outputs = ["o", "m", "l"]}}
//--- one-spec.mlir
#qk = affine_map<(i, j, t) -> (i, t)>
#kk = affine_map<(i, j, t) -> (j, t)>
#ij3 = affine_map<(i, j, t) -> (i, j)>
#ij = affine_map<(i, j) -> (i, j)>
#i_ = affine_map<(i, j) -> (i)>
#jc = affine_map<(i, j, c) -> (j, c)>
#ij_c = affine_map<(i, j, c) -> (i, j)>
#i_c = affine_map<(i, j, c) -> (i)>
#ic = affine_map<(i, j, c) -> (i, c)>
func.func @attn_o(%q: tensor<8x2xf32>, %k: tensor<3x2xf32>, %v: tensor<3x2xf32>)
    -> tensor<8x2xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.70710677 : f32
  %e83 = tensor.empty() : tensor<8x3xf32>
  %z83 = linalg.fill ins(%zero : f32) outs(%e83 : tensor<8x3xf32>) -> tensor<8x3xf32>
  %qk = linalg.generic {indexing_maps = [#qk, #kk, #ij3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<8x2xf32>, tensor<3x2xf32>) outs(%z83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x3xf32>
  %s = linalg.generic {indexing_maps = [#ij, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%qk : tensor<8x3xf32>) outs(%e83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %scale : f32
    linalg.yield %r : f32
  } -> tensor<8x3xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %ninf8 = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#ij, #i_], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<8x3xf32>) outs(%ninf8 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#ij, #i_, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<8x3xf32>, tensor<8xf32>) outs(%e83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<8x3xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %l = linalg.generic {indexing_maps = [#ij, #i_], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<8x3xf32>) outs(%z8 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e82 = tensor.empty() : tensor<8x2xf32>
  %z82 = linalg.fill ins(%zero : f32) outs(%e82 : tensor<8x2xf32>) -> tensor<8x2xf32>
  %pv = linalg.generic {indexing_maps = [#ij_c, #jc, #ic], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%p, %v : tensor<8x3xf32>, tensor<3x2xf32>) outs(%z82 : tensor<8x2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %t : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, c) -> (i, c)>, affine_map<(i, c) -> (i)>, affine_map<(i, c) -> (i, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%pv, %l : tensor<8x2xf32>, tensor<8xf32>) outs(%e82 : tensor<8x2xf32>) {
  ^bb0(%a: f32, %d: f32, %x: f32):
    %r = arith.divf %a, %d : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  return %o : tensor<8x2xf32>
}
kproof.contract @stats {kernel = "attention_rows_stats",
  grid = array<i64: 2, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [{name = "q", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 2>},
            {name = "k", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2>},
            {name = "v", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2>},
            {name = "o", buffer = "out", space = "global", type = f32, shape = array<i64: 8, 2>},
            {name = "m", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "l", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "n_q", scalar = i32, value = 8 : i32}],
  spec = {func = @attn_o, inputs = ["q", "k", "v"], output = "o"}}
//--- count.mlir
#qk = affine_map<(i, j, t) -> (i, t)>
#kk = affine_map<(i, j, t) -> (j, t)>
#ij3 = affine_map<(i, j, t) -> (i, j)>
#ij = affine_map<(i, j) -> (i, j)>
#i_ = affine_map<(i, j) -> (i)>
#jc = affine_map<(i, j, c) -> (j, c)>
#ij_c = affine_map<(i, j, c) -> (i, j)>
#i_c = affine_map<(i, j, c) -> (i)>
#ic = affine_map<(i, j, c) -> (i, c)>
func.func @attn(%q: tensor<8x2xf32>, %k: tensor<3x2xf32>, %v: tensor<3x2xf32>)
    -> (tensor<8x2xf32>, tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.70710677 : f32
  %e83 = tensor.empty() : tensor<8x3xf32>
  %z83 = linalg.fill ins(%zero : f32) outs(%e83 : tensor<8x3xf32>) -> tensor<8x3xf32>
  %qk = linalg.generic {indexing_maps = [#qk, #kk, #ij3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<8x2xf32>, tensor<3x2xf32>) outs(%z83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x3xf32>
  %s = linalg.generic {indexing_maps = [#ij, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%qk : tensor<8x3xf32>) outs(%e83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %scale : f32
    linalg.yield %r : f32
  } -> tensor<8x3xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %ninf8 = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#ij, #i_], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<8x3xf32>) outs(%ninf8 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#ij, #i_, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<8x3xf32>, tensor<8xf32>) outs(%e83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<8x3xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %l = linalg.generic {indexing_maps = [#ij, #i_], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<8x3xf32>) outs(%z8 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e82 = tensor.empty() : tensor<8x2xf32>
  %z82 = linalg.fill ins(%zero : f32) outs(%e82 : tensor<8x2xf32>) -> tensor<8x2xf32>
  %pv = linalg.generic {indexing_maps = [#ij_c, #jc, #ic], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%p, %v : tensor<8x3xf32>, tensor<3x2xf32>) outs(%z82 : tensor<8x2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %t : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, c) -> (i, c)>, affine_map<(i, c) -> (i)>, affine_map<(i, c) -> (i, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%pv, %l : tensor<8x2xf32>, tensor<8xf32>) outs(%e82 : tensor<8x2xf32>) {
  ^bb0(%a: f32, %d: f32, %x: f32):
    %r = arith.divf %a, %d : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  return %o, %m, %l : tensor<8x2xf32>, tensor<8xf32>, tensor<8xf32>
}
kproof.contract @stats {kernel = "attention_rows_stats",
  grid = array<i64: 2, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [{name = "q", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 2>},
            {name = "k", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2>},
            {name = "v", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2>},
            {name = "o", buffer = "out", space = "global", type = f32, shape = array<i64: 8, 2>},
            {name = "m", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "l", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "n_q", scalar = i32, value = 8 : i32}],
  spec = {func = @attn, inputs = ["q", "k", "v"], outputs = ["o", "m"]}}
//--- builtin.mlir
kproof.contract @stats {kernel = "attention_rows_stats",
  grid = array<i64: 2, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [{name = "q", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 2>},
            {name = "k", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2>},
            {name = "v", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2>},
            {name = "o", buffer = "out", space = "global", type = f32, shape = array<i64: 8, 2>},
            {name = "m", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "l", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "n_q", scalar = i32, value = 8 : i32}],
  spec = {builtin = "copy", input = "q", outputs = ["o"]}}
//--- lse.mlir
#qk = affine_map<(i, j, t) -> (i, t)>
#kk = affine_map<(i, j, t) -> (j, t)>
#ij3 = affine_map<(i, j, t) -> (i, j)>
#ij = affine_map<(i, j) -> (i, j)>
#i_ = affine_map<(i, j) -> (i)>
#jc = affine_map<(i, j, c) -> (j, c)>
#ij_c = affine_map<(i, j, c) -> (i, j)>
#i_c = affine_map<(i, j, c) -> (i)>
#ic = affine_map<(i, j, c) -> (i, c)>
#i8 = affine_map<(i) -> (i)>
func.func @attn(%q: tensor<8x2xf32>, %k: tensor<3x2xf32>, %v: tensor<3x2xf32>)
    -> (tensor<8x2xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 1.0201397 : f32
  %e83 = tensor.empty() : tensor<8x3xf32>
  %z83 = linalg.fill ins(%zero : f32) outs(%e83 : tensor<8x3xf32>) -> tensor<8x3xf32>
  %qk = linalg.generic {indexing_maps = [#qk, #kk, #ij3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<8x2xf32>, tensor<3x2xf32>) outs(%z83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x3xf32>
  %s = linalg.generic {indexing_maps = [#ij, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%qk : tensor<8x3xf32>) outs(%e83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %scale : f32
    linalg.yield %r : f32
  } -> tensor<8x3xf32>
  %e8 = tensor.empty() : tensor<8xf32>
  %ninf8 = linalg.fill ins(%ninf : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#ij, #i_], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<8x3xf32>) outs(%ninf8 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#ij, #i_, #ij], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<8x3xf32>, tensor<8xf32>) outs(%e83 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %r = math.exp2 %d : f32
    linalg.yield %r : f32
  } -> tensor<8x3xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %l = linalg.generic {indexing_maps = [#ij, #i_], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<8x3xf32>) outs(%z8 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e82 = tensor.empty() : tensor<8x2xf32>
  %z82 = linalg.fill ins(%zero : f32) outs(%e82 : tensor<8x2xf32>) -> tensor<8x2xf32>
  %pv = linalg.generic {indexing_maps = [#ij_c, #jc, #ic], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%p, %v : tensor<8x3xf32>, tensor<3x2xf32>) outs(%z82 : tensor<8x2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %t = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %t : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, c) -> (i, c)>, affine_map<(i, c) -> (i)>, affine_map<(i, c) -> (i, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%pv, %l : tensor<8x2xf32>, tensor<8xf32>) outs(%e82 : tensor<8x2xf32>) {
  ^bb0(%a: f32, %d: f32, %x: f32):
    %r = arith.divf %a, %d : f32
    linalg.yield %r : f32
  } -> tensor<8x2xf32>
  %lse = linalg.generic {indexing_maps = [#i8, #i8, #i8], iterator_types = ["parallel"]}
      ins(%m, %l : tensor<8xf32>, tensor<8xf32>) outs(%e8 : tensor<8xf32>) {
  ^bb0(%mx: f32, %d: f32, %x: f32):
    %lg = math.log2 %d : f32
    %r = arith.addf %mx, %lg : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %o, %lse : tensor<8x2xf32>, tensor<8xf32>
}
kproof.contract @lse {kernel = "attention_rows_lse",
  grid = array<i64: 2, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [{name = "q", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 2>},
            {name = "k", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2>},
            {name = "v", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2>},
            {name = "o", buffer = "out", space = "global", type = f32, shape = array<i64: 8, 2>},
            {name = "lse", buffer = "out", space = "global", type = f32, shape = array<i64: 8>},
            {name = "n_q", scalar = i32, value = 8 : i32}],
  spec = {func = @attn, inputs = ["q", "k", "v"], outputs = ["o", "lse"]}}
