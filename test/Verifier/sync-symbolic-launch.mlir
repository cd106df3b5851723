// Synchronization over a symbolic launch (contract fields grid_max,
// block_max, max_threads; docs/contracts.md): %ntid.x and %nctaid.x are
// bounded variables, so one proof covers every block size up to 1024 and
// every grid within the bound, never enumerating threads.
// RUN: split-file %s %t
// RUN: kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/rotate.mlir | FileCheck %s --check-prefix=SYNC
// RUN: kproof-opt %inputs/cuda/ptx/sync_bugs.sm90.G.ptx --verify-sync --contract=%t/rotate.mlir | FileCheck %s --check-prefix=SYNC
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/nobarrier.mlir 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/wrap.mlir 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/skip.mlir 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: %expect_exit 1 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/overlap.mlir 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/bad-both.mlir 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/bad-limit.mlir 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/bad-factor.mlir 2>&1 | FileCheck %s --check-prefix=FACTOR
// RUN: %expect_exit 2 kproof-opt %inputs/cuda/ptx/sync_bugs.sm80.O3.ptx --verify-sync --contract=%t/bad-concrete.mlir 2>&1 | FileCheck %s --check-prefix=CONCRETE

// Race-free for any ntid.x <= 1024 and any grid of at most 2^31 threads.
// SYNC: kproof: rotate_smem against synchronization
// SYNC: assuming: symbolic launch: ntid.x in [1, 1024], nctaid.x in [1, 2147483647]; at most 1024 threads per CTA; at most 2147483648 threads in all
// SYNC-NOT: UNKNOWN
// SYNC: PROVED

// Without the barrier: a race for some block size (the model is shrunk to
// a small launch).
// RACE: error: REFUTED: data race on shared 'rotate_smem_nobarrier::s'
// RACE: REFUTED

// Without a bound on the whole launch, the 32-bit index g = ctaid.x *
// ntid.x + tid.x wraps past 2^32 threads: two CTAs write the same element.
// WRAP: REFUTED: {{.*}}race on global 'y'
// WRAP: REFUTED

// barrier_skip64: with ntid.x >= 64 some thread skips the barrier.
// SKIP: barrier divergence
// SKIP: REFUTED

// overlap_footprints: CTA b writes y[b*(ntid.x-1) + t]: CTAs overlap.
// OVERLAP: race on global 'y'
// OVERLAP: REFUTED

// BOTH: error: 'kproof.contract' op needs exactly one of 'grid' (a concrete launch) and 'grid_max' (a symbolic one)
// LIMIT: error: 'kproof.contract' op 'block_max' dimension x exceeds the CUDA limit of 1024
// FACTOR: error: 'kproof.contract' op param 'x': shape factor 'nwarps' is neither a positive integer, a launch extent (ntid.x, ntid.y, ntid.z, nctaid.x, nctaid.y, nctaid.z), nor an integer scalar param with a 'range'
// CONCRETE: error: 'kproof.contract' op param 'x': a 'shape' naming launch extents needs a symbolic launch

//--- rotate.mlir
kproof.contract @rotate_any {
  kernel = "rotate_smem",
  grid_max = array<i64: 2147483647, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  max_threads = 2147483648,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x*ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x*ntid.x"]}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- nobarrier.mlir
kproof.contract @rotate_any {
  kernel = "rotate_smem_nobarrier",
  grid_max = array<i64: 2147483647, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  max_threads = 2147483648,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x*ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x*ntid.x"]}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- wrap.mlir
kproof.contract @rotate_any {
  kernel = "rotate_smem",
  grid_max = array<i64: 2147483647, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x*ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x*ntid.x"]}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- skip.mlir
kproof.contract @skip_any {
  kernel = "barrier_skip64",
  grid = array<i64: 1, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["ntid.x"]}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- overlap.mlir
kproof.contract @overlap_any {
  kernel = "overlap_footprints",
  grid_max = array<i64: 65536, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x*ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x*ntid.x"]}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- bad-both.mlir
kproof.contract @c {
  kernel = "rotate_smem",
  grid = array<i64: 4, 1, 1>, grid_max = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = array<i64: 128>},
    {name = "y", buffer = "out", space = "global", type = f32, shape = array<i64: 128>}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- bad-limit.mlir
kproof.contract @c {
  kernel = "rotate_smem",
  grid = array<i64: 4, 1, 1>, block_max = array<i64: 2048, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["4*ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["4*ntid.x"]}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- bad-factor.mlir
kproof.contract @c {
  kernel = "rotate_smem",
  grid = array<i64: 4, 1, 1>, block_max = array<i64: 1024, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["4*nwarps"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["4*ntid.x"]}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}

//--- bad-concrete.mlir
kproof.contract @c {
  kernel = "rotate_smem",
  grid = array<i64: 4, 1, 1>, block = array<i64: 32, 1, 1>,
  params = [
    {name = "x", buffer = "in", space = "global", type = f32, shape = ["nctaid.x*ntid.x"]},
    {name = "y", buffer = "out", space = "global", type = f32, shape = ["nctaid.x*ntid.x"]}
  ],
  spec = {builtin = "copy", input = "x", output = "y"}
}
