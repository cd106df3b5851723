kproof.contract @tr {kernel = "transpose_smem_padded_bug",
  grid = array<i64: 2, 2, 1>, block = array<i64: 32, 8, 1>,
  params = [{name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 64, 64>},
            {name = "W", scalar = i32, value = 64 : i32},
            {name = "H", scalar = i32, value = 64 : i32}],
  spec = {builtin = "permute", input = "x", output = "y", perm = array<i64: 1, 0>}}
