// A kernel in the kproof dialect: each thread copies one f32 through shared
// memory. out[tid] = in[tid] for a block of 256 threads.
kproof.global shared @tile : f32 [256] {align = 4 : i64}

kproof.kernel entry @copy(%out: i64 {kproof.ptx_type = "u64"},
                          %in: i64 {kproof.ptx_type = "u64"}) {
  %tid = kproof.sreg tid.x : i32
  %v = kproof.ld global %in : i64 -> f32
  %s = kproof.addressof @tile : i32
  kproof.st shared %s, %v : i32, f32
  kproof.barrier sync {aligned}
  %w = kproof.ld shared %s : i32 -> f32
  kproof.st global %out, %w : i64, f32
  kproof.return
}
