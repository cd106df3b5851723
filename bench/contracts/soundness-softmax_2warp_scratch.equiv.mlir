kproof.contract @softmax_2warp_scratch_c {
  kernel = "softmax_2warp_scratch",
  grid = array<i64: 1, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1, 64>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1, 64>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
