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
