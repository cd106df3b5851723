kproof.contract @wm {
  kernel = "warp_softmax_masked", grid = array<i64: 8, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 8, 20>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 8, 20>},
    {name = "n", scalar = i32, value = 20 : i32}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"}
}
