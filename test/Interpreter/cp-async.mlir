// kproof-run on asynchronous copies (test/Inputs/cuda/cp_async.cu): a
// cp.async reads its source at issue and writes its destination when the
// issuing thread's cp.async.wait completes it; until then its bytes are in
// flight, and any access to them (its own thread's included) is a race.
// The correct pipelines run clean and match their specs in IEEE and exact
// mode under any schedule; the missing wait shows as a race.
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/cp_async.sm80.O3.ptx --contract=%s --contract-name=double_buffer --random=2 | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/cp_async.sm90.O3.ptx --contract=%s --contract-name=double_buffer --random=2 --schedule=reversed --mode=exact | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 0 kproof-run %inputs/cuda/ptx/cp_async.sm80.O3.ptx --contract=%s --contract-name=copy_masked --random=2 --schedule=random:3 | FileCheck %s --check-prefix=OK
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/cp_async.sm80.O3.ptx --contract=%s --contract-name=double_buffer_last --random=2 | FileCheck %s --check-prefix=LAST
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/cp_async.sm80.O3.ptx --contract=%s --contract-name=double_buffer_last --random=2 --schedule=reversed | FileCheck %s --check-prefix=LAST
// RUN: %expect_exit 1 kproof-run %inputs/cuda/ptx/cp_async.sm80.O3.ptx --contract=%s --contract-name=source_overwrite --random=1 | FileCheck %s --check-prefix=SOURCE

// OK: "summary": "not found in 2 samples"
// OK: "findings": [],
// OK: "result": "ok"

// LAST: "kind": "race",
// LAST-NEXT: "message": "race: read of 'double_buffer_last.{{.*}}buf' at byte {{[0-9]+}} by thread ({{[0-9]+}},0,0) of CTA ({{[01]}},0,0) while the cp.async of thread ({{[0-9]+}},0,0) of CTA ({{[01]}},0,0) at {{.*}}cp_async.sm80.O3.ptx:{{[0-9]+}}:2 {{.*}} to it may still be in flight",
// LAST-NEXT: "location": "{{.*}}cp_async.sm80.O3.ptx:{{[0-9]+}}:2 (test/Inputs/cuda/cp_async.cu:{{[0-9]+}}:5)",
// LAST-NEXT: "other": "{{.*}}cp_async.sm80.O3.ptx:{{[0-9]+}}:2
// LAST: "result": "finding"
// The thread stores to the copy's source before its wait.
// SOURCE: "kind": "race",
// SOURCE-NEXT: "message": "race: write of buf[0] by thread (0,0,0) of CTA (0,0,0) while the cp.async of thread (0,0,0) of CTA (0,0,0) at {{.*}} may still read it",

func.func @tilesum(%x: tensor<3x2x128xf32>) -> tensor<2x128xf32> {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x128xf32>) -> tensor<2x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, k) -> (k, b, i)>, affine_map<(b, i, k) -> (b, i)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x2x128xf32>) outs(%z : tensor<2x128xf32>) {
  ^bb0(%unused: f32, %acc: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %k = linalg.index 2 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v = tensor.extract %x[%k, %b, %j] : tensor<3x2x128xf32>
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<2x128xf32>
  return %r : tensor<2x128xf32>
}
kproof.contract @double_buffer {
  kernel = "double_buffer",
  grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2, 128>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 128>},
    {name = "tiles", scalar = i32, value = 3 : i32}
  ],
  spec = {func = @tilesum, inputs = ["in"], output = "out"}
}
func.func @tilesum2(%x: tensor<3x2x128xf32>) -> tensor<2x128xf32> {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x128xf32>) -> tensor<2x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, k) -> (k, b, i)>, affine_map<(b, i, k) -> (b, i)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<3x2x128xf32>) outs(%z : tensor<2x128xf32>) {
  ^bb0(%unused: f32, %acc: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %k = linalg.index 2 : index
    %i1 = arith.addi %i, %c1 : index
    %j = arith.remui %i1, %c128 : index
    %v = tensor.extract %x[%k, %b, %j] : tensor<3x2x128xf32>
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  } -> tensor<2x128xf32>
  return %r : tensor<2x128xf32>
}
kproof.contract @double_buffer_last {
  kernel = "double_buffer_last",
  grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 3, 2, 128>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 2, 128>},
    {name = "tiles", scalar = i32, value = 3 : i32}
  ],
  spec = {func = @tilesum2, inputs = ["in"], output = "out"}
}
func.func @rotate_padded(%x: tensor<200xf32>) -> tensor<256xf32> {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c200 = arith.constant 200 : index
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      outs(%e : tensor<256xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %b = arith.divui %i, %c128 : index
    %t = arith.remui %i, %c128 : index
    %t1 = arith.addi %t, %c1 : index
    %tn = arith.remui %t1, %c128 : index
    %base = arith.muli %b, %c128 : index
    %j = arith.addi %base, %tn : index
    %in = arith.cmpi ult, %j, %c200 : index
    %c0 = arith.constant 0 : index
    %jc = arith.select %in, %j, %c0 : index
    %v = tensor.extract %x[%jc] : tensor<200xf32>
    %d = arith.mulf %two, %v : f32
    %w = arith.select %in, %d, %zero : f32
    linalg.yield %w : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}
kproof.contract @copy_masked {
  kernel = "copy_masked",
  grid = array<i64: 2, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "in", buffer = "in", space = "global", type = f32, shape = array<i64: 200>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 256>},
    {name = "n", scalar = i32, value = 200 : i32}
  ],
  spec = {func = @rotate_padded, inputs = ["in"], output = "out"}
}
kproof.contract @source_overwrite {
  kernel = "source_overwrite", grid = array<i64: 1, 1, 1>, block = array<i64: 128, 1, 1>,
  params = [
    {name = "buf", buffer = "inout", space = "global", type = f32, shape = array<i64: 128>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "buf", output = "out"}
}
