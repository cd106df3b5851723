// kproof-run's output is valid JSON: non-finite numbers (a spec value past
// the double range, an infinite error) are the strings "inf", "-inf",
// "nan", never bare inf/nan, which no JSON parser reads. Python's json
// module (strict: NaN/Infinity rejected) reads the output. The kernel's
// 1000 is far from the spec's exp(1000) (compared in MPFR, not as
// doubles, where inf <= rtol * inf held): a mismatch.
// RUN: split-file %s %t
// RUN: %expect_exit 1 kproof-run %t/k.mlir --contract=%t/c.mlir --inputs=%t/big.json > %t/out.json
// RUN: python3 -c "import json, sys; json.load(open(sys.argv[1]), parse_constant=lambda c: sys.exit('bare ' + c))" %t/out.json
// RUN: FileCheck %s < %t/out.json

// CHECK: "outputs": {
// CHECK-NEXT: "y": [
// CHECK-NEXT: 1000
// CHECK: "values": [
// CHECK-NEXT: "inf"
// CHECK-NEXT: ],
// CHECK-NEXT: "max_abs_error": "inf",
// CHECK-NEXT: "max_rel_error": 1,
// CHECK: "result": "mismatch"

//--- big.json
{"x": [1000]}
//--- k.mlir
kproof.kernel entry @copy(%x: i64, %y: i64) {
  %a = kproof.ld global %x : i64 -> f32
  kproof.st global %y, %a : i64, f32
  kproof.return
}
//--- c.mlir
func.func @exp(%x: tensor<1xf32>) -> tensor<1xf32> {
  %init = tensor.empty() : tensor<1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<1xf32>) outs(%init : tensor<1xf32>) {
  ^bb0(%a: f32, %unused: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<1xf32>
  return %r : tensor<1xf32>
}
kproof.contract @c {kernel = "copy", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [{name = "x", buffer = "in", type = f32, shape = array<i64: 1>},
            {name = "y", buffer = "out", type = f32, shape = array<i64: 1>}],
  spec = {func = @exp, inputs = ["x"], output = "y"}}
