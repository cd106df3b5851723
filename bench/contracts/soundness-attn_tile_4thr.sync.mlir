kproof.contract @attn_tile_4thr_c {
  kernel = "attn_tile_4thr",
  grid = array<i64: 1, 1, 1>, block = array<i64: 4, 1, 1>,
  params = [
    {name = "q", buffer = "in", space = "global", type = f32, shape = array<i64: 1, 4>},
    {name = "k", buffer = "in", space = "global", type = f32, shape = array<i64: 2, 4>},
    {name = "v", buffer = "in", space = "global", type = f32, shape = array<i64: 2, 4>},
    {name = "out", buffer = "out", space = "global", type = f32, shape = array<i64: 1, 4>},
    {name = "scale", scalar = f32}
  ],
  spec = {builtin = "attention", q = "q", k = "k", v = "v", output = "out", scale = "scale", mask = "none"}
}
