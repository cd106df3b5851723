kproof.contract @tiled {
  kernel = "attention_tiled_fwd", grid = array<i64: 1, 1, 1>, block = array<i64: 16, 1, 1>,
  params = [
    {name = "Q", buffer = "in", type = f32, shape = array<i64: 16, 16>},
    {name = "K", buffer = "in", type = f32, shape = array<i64: 16, 16>},
    {name = "V", buffer = "in", type = f32, shape = array<i64: 16, 16>},
    {name = "O", buffer = "out", type = f32, shape = array<i64: 16, 16>},
    {name = "n", scalar = i32, value = 16 : i32},
    {name = "scale", scalar = f32, value = 0.25 : f32}
  ],
  spec = {builtin = "attention", q = "Q", k = "K", v = "V", output = "O",
          scale = 0.25 : f32, mask = "none"}
}
