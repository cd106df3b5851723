// y[0] = x[0], one thread (used by unknown-unmodeled.ptx and copy1.ptx).
kproof.contract @copy1 {
  kernel = "copy1", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
