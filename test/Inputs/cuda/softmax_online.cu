// softmax_online.cu -- single-row online softmax, one thread.
//
// Computes out[i] = exp(x[i] - max(x)) / sum_j exp(x[j] - max(x)) for a row of
// N floats with the one-pass ("online") recurrence:
//
//   m = -inf, d = 0
//   for i: m' = max(m, x[i]);  d = d * __expf(m - m') + __expf(x[i] - m');  m = m'
//   for i: out[i] = __expf(x[i] - m) / d
//
// The first iteration computes __expf(-inf - x[0]) = 0, which is the case the
// ex2.approx special-value table (-Inf -> +0) must cover.
//
// Fixture for: the online-softmax equivalence proof (online == two-pass softmax
// up to the ex2.approx error bound) at three sizes: with nvcc 13 -O3, N = 4
// and N = 32 are fully unrolled (straight-line code), N = 128 stays a loop
// (partially unrolled), so the same spec exercises loop handling; the -G
// builds keep every loop.
// __expf is written explicitly; compiled WITHOUT --use_fast_math.

#include <math.h>

template <int N>
__device__ __forceinline__ void softmax_online_row(const float *__restrict__ x,
                                                   float *__restrict__ out) {
  float m = -INFINITY;
  float d = 0.0f;
  for (int i = 0; i < N; ++i) {
    float v = x[i];
    float m_new = fmaxf(m, v);
    d = d * __expf(m - m_new) + __expf(v - m_new);
    m = m_new;
  }
  for (int i = 0; i < N; ++i)
    out[i] = __expf(x[i] - m) / d;
}

extern "C" __global__ void softmax_online_4(const float *__restrict__ x,
                                            float *__restrict__ out) {
  softmax_online_row<4>(x, out);
}

extern "C" __global__ void softmax_online_32(const float *__restrict__ x,
                                             float *__restrict__ out) {
  softmax_online_row<32>(x, out);
}

extern "C" __global__ void softmax_online_128(const float *__restrict__ x,
                                              float *__restrict__ out) {
  softmax_online_row<128>(x, out);
}
