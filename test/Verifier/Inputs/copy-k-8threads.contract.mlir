// y[i] = x[i] over 2 x 4 threads (soundness/t5.ptx).
kproof.contract @c {
  kernel = "k", grid = array<i64: 2, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 8>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 8>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
