kproof.contract @gs {
  kernel = "grid_stride_copy", grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["n"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["n"]},
    {name = "n", scalar = i32, range = array<i64: 1, 1048577>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
