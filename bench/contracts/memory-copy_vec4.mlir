kproof.contract @copy_vec4 {kernel = "copy_vec4",
  grid = array<i64: 4, 1, 1>, block = array<i64: 64, 1, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 1024>},
            {name = "n4", scalar = i32, value = 256 : i32}],
  spec = {builtin = "copy", input = "x", output = "y"}, mode = "reals"}
