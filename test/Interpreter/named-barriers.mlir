// kproof-run on counted named barriers (test/Inputs/cuda/named_barriers.cu):
// a generation of `bar.sync id, n` / `bar.arrive id, n` orders the accesses
// of its participants only, so a producer that arrives before writing, or a
// thread count that splits producers and consumers into different
// generations, shows as a race under any schedule; the correct hand-offs
// run clean and match their specs.
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --contract=%s --contract-name=pc_contract --random=2 | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --contract=%s --contract-name=pc_contract --random=2 --schedule=reversed | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/named_barriers.sm90.G.ptx --contract=%s --contract-name=groups_contract --random=2 --schedule=random:7 | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --contract=%s --contract-name=early_contract --random=2 | FileCheck %s --check-prefix=EARLY
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/named_barriers.sm80.O3.ptx --contract=%s --contract-name=count_contract --random=2 --schedule=reversed | FileCheck %s --check-prefix=COUNT

// OK: "summary": "not found in 2 samples"
// OK: "findings": [],
// OK: "result": "ok"

// EARLY: "kind": "race",
// EARLY-NEXT: "message": "race: read of 'producer_consumer_early.{{.*}}tile' at byte {{[0-9]+}} by thread ({{[0-9]+}},0,0) of CTA (0,0,0) and write by thread ({{[0-9]+}},0,0) of CTA (0,0,0)
// EARLY: "result": "finding"

// 128 producers complete generation 0 of barrier 1 by themselves; the
// consumers' generation 1 does not include them.
// COUNT: "kind": "race",
// COUNT-NEXT: "message": "race: {{read|write}} of 'producer_consumer_count.{{.*}}tile'
// COUNT: "result": "finding"

func.func @pc(%x: tensor<4x128xf32>) -> tensor<4x128xf32> {
  %e = tensor.empty() : tensor<4x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x128xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v = tensor.extract %x[%b, %j] : tensor<4x128xf32>
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %two, %v : f32
    linalg.yield %w : f32
  } -> tensor<4x128xf32>
  return %r : tensor<4x128xf32>
}
func.func @groups(%x: tensor<4x128xf32>) -> tensor<4x128xf32> {
  %e = tensor.empty() : tensor<4x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x128xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %g = arith.divui %i, %c64 : index
    %base = arith.muli %g, %c64 : index
    %i1 = arith.addi %i, %c1 : index
    %k = arith.remui %i1, %c64 : index
    %j = arith.addi %base, %k : index
    %v = tensor.extract %x[%b, %j] : tensor<4x128xf32>
    linalg.yield %v : f32
  } -> tensor<4x128xf32>
  return %r : tensor<4x128xf32>
}
kproof.contract @pc_contract {
  kernel = "producer_consumer", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 128>}
  ],
  spec = {func = @pc, inputs = ["x"], output = "y"}
}
kproof.contract @early_contract {
  kernel = "producer_consumer_early", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 128>}
  ],
  spec = {func = @pc, inputs = ["x"], output = "y"}
}
kproof.contract @count_contract {
  kernel = "producer_consumer_count", grid = array<i64: 4, 1, 1>, block = array<i64: 256, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 128>}
  ],
  spec = {func = @pc, inputs = ["x"], output = "y"}
}
kproof.contract @groups_contract {
  kernel = "two_groups", grid = array<i64: 4, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4, 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4, 128>}
  ],
  spec = {func = @groups, inputs = ["x"], output = "y"}
}
