kproof.contract @copy4 {kernel = "copy_4per_thread",
  grid = array<i64: 8, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>}],
  spec = {builtin = "copy", input = "x", output = "y"}, mode = "reals"}
