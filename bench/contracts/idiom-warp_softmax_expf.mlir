kproof.contract @warp {
  kernel = "warp_softmax_expf", grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 32>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 8, 32>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
