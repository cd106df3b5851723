// varlen.cu -- variable-length sequences packed back to back, delimited by
// a prefix-sum table: sequence b is x[cu_seqlens[b] .. cu_seqlens[b+1]).
// One CTA per sequence (FlashAttention's varlen layout); `total` is the
// packed length (the extent of x), passed for the caller's bookkeeping.
//
// varlen_seq_sum: out[b] = sum of sequence b (0 for an empty one).
// varlen_seq_max: out[b] = max of sequence b (-inf for an empty one).
//
// Fixture for: loops whose bounds are read from an integer table
// (test/Verifier/memory-varlen.mlir): with the contract's preconditions
// cu_seqlens[i] in [0, 2^20] and <= total, the sum proves for every total
// and every table, and so does the max (its spec masks with -inf). Twins:
// varlen_seq_sum_past_end also adds x[end] (reads the next sequence's first
// element, or past x for the last one); varlen_seq_sum_skip_first starts at
// start + 1; varlen_seq_max_empty_zero writes 0 for an empty sequence (the
// spec's max is -inf there); varlen_seq_max_zero_init starts the max at 0.

#include <math.h>

extern "C" __global__ void varlen_seq_sum(const float *__restrict__ x,
                                          const int *__restrict__ cu_seqlens,
                                          float *__restrict__ out, int total) {
  int b = blockIdx.x;
  int start = cu_seqlens[b], end = cu_seqlens[b + 1];
  float s = 0.0f;
#pragma unroll 1
  for (int i = start; i < end; ++i)
    s += x[i];
  out[b] = s;
}

extern "C" __global__ void varlen_seq_max(const float *__restrict__ x,
                                          const int *__restrict__ cu_seqlens,
                                          float *__restrict__ out, int total) {
  int b = blockIdx.x;
  int start = cu_seqlens[b], end = cu_seqlens[b + 1];
  float m = -INFINITY;
#pragma unroll 1
  for (int i = start; i < end; ++i)
    m = fmaxf(m, x[i]);
  out[b] = m;
}

extern "C" __global__ void
varlen_seq_sum_past_end(const float *__restrict__ x,
                        const int *__restrict__ cu_seqlens,
                        float *__restrict__ out, int total) {
  int b = blockIdx.x;
  int start = cu_seqlens[b], end = cu_seqlens[b + 1];
  float s = 0.0f;
#pragma unroll 1
  for (int i = start; i <= end; ++i)
    s += x[i];
  out[b] = s;
}

extern "C" __global__ void
varlen_seq_sum_skip_first(const float *__restrict__ x,
                          const int *__restrict__ cu_seqlens,
                          float *__restrict__ out, int total) {
  int b = blockIdx.x;
  int start = cu_seqlens[b], end = cu_seqlens[b + 1];
  float s = 0.0f;
#pragma unroll 1
  for (int i = start + 1; i < end; ++i)
    s += x[i];
  out[b] = s;
}

extern "C" __global__ void
varlen_seq_max_empty_zero(const float *__restrict__ x,
                          const int *__restrict__ cu_seqlens,
                          float *__restrict__ out, int total) {
  int b = blockIdx.x;
  int start = cu_seqlens[b], end = cu_seqlens[b + 1];
  float m = -INFINITY;
#pragma unroll 1
  for (int i = start; i < end; ++i)
    m = fmaxf(m, x[i]);
  out[b] = end > start ? m : 0.0f;
}

extern "C" __global__ void
varlen_seq_max_zero_init(const float *__restrict__ x,
                         const int *__restrict__ cu_seqlens,
                         float *__restrict__ out, int total) {
  int b = blockIdx.x;
  int start = cu_seqlens[b], end = cu_seqlens[b + 1];
  float m = 0.0f;
#pragma unroll 1
  for (int i = start; i < end; ++i)
    m = fmaxf(m, x[i]);
  out[b] = m;
}

// A defensive check the preconditions make dead: with `at_most = "total"`
// no sequence ends past x, so the executor drops the branch (one path).
extern "C" __global__ void
varlen_seq_sum_checked(const float *__restrict__ x,
                       const int *__restrict__ cu_seqlens,
                       float *__restrict__ out, int total) {
  int b = blockIdx.x;
  int start = cu_seqlens[b], end = cu_seqlens[b + 1];
  if (end > total) {
    out[b] = -1.0f;
    return;
  }
  float s = 0.0f;
#pragma unroll 1
  for (int i = start; i < end; ++i)
    s += x[i];
  out[b] = s;
}

// A weighted sum of squares with the loop guarded by its own condition, as
// a new user wrote it: out[b] = w[b] * sum of x[i]^2 over sequence b. At
// -G this ran past 13 minutes (the bodies' nonlinear comparison went to
// the solver whole); it proves in under a second now.
extern "C" __global__ void
varlen_seq_sumsq_guarded(const float *__restrict__ x,
                         const int *__restrict__ cu_seqlens,
                         const float *__restrict__ w, float *__restrict__ out,
                         int total) {
  int b = blockIdx.x;
  int s = cu_seqlens[b], e = cu_seqlens[b + 1];
  float acc = 0.0f;
  if (s < e) {
    for (int i = s; i < e; ++i)
      acc += x[i] * x[i];
  }
  out[b] = w[b] * acc;
}
