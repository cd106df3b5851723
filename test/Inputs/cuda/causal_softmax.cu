// causal_softmax.cu -- a causal (lower-triangular) row softmax, the masking
// step of attention: one thread per row i of a 16 x 16 score matrix (one
// CTA of 16 threads), key j visible iff j <= i. Masked scores are
// -INFINITY, as attention kernels write them, so every register holding a
// score is -inf on some rows only: the value depends on the thread.
//
//   y[i][j] = j <= i ? exp(x[i][j] - m_i) / l_i : 0
//   m_i = max_{j <= i} x[i][j],  l_i = sum_{j <= i} exp(x[i][j] - m_i)
//
// Fixture for: values that are -inf at thread-dependent positions
// (test/Verifier/extended-values.mlir). Twins: causal_softmax_rows_strict
// masks the diagonal too (j < i: row 0 then has no visible key, its max
// is -inf and -inf - -inf is NaN); causal_softmax_rows_nomask_sum masks
// the max but sums exp over every key of the row.

#include <math.h>

#define N 16

template <bool Strict, bool MaskSum>
__device__ __forceinline__ void causal_softmax(const float *__restrict__ x,
                                               float *__restrict__ y) {
  int i = threadIdx.x;
  const float *xr = x + i * N;
  float s[N];
  float m = -INFINITY;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    bool visible = Strict ? j < i : j <= i;
    s[j] = visible ? xr[j] : -INFINITY;
    m = fmaxf(m, s[j]);
  }
  float l = 0.0f;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    float v = MaskSum ? s[j] : xr[j];
    l += __expf(v - m);
    s[j] = __expf(s[j] - m);
  }
#pragma unroll
  for (int j = 0; j < N; ++j)
    y[i * N + j] = s[j] / l;
}

extern "C" __global__ void causal_softmax_rows(const float *__restrict__ x,
                                               float *__restrict__ y) {
  causal_softmax<false, true>(x, y);
}

extern "C" __global__ void
causal_softmax_rows_strict(const float *__restrict__ x,
                           float *__restrict__ y) {
  causal_softmax<true, true>(x, y);
}

extern "C" __global__ void
causal_softmax_rows_nomask_sum(const float *__restrict__ x,
                               float *__restrict__ y) {
  causal_softmax<false, false>(x, y);
}
