// The contract of examples/softmax4.ptx: one thread computes a softmax over
// four floats.
kproof.contract @softmax4 {
  kernel = "softmax4",
  grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 4>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 4>}
  ],
  spec = {builtin = "softmax", input = "x", output = "y"},
  mode = "reals"
}
