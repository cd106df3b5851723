// y[0] = x[0] for a one-thread kernel "k" (the soundness regressions).
kproof.contract @c {
  kernel = "k", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
