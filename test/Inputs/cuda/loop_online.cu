// loop_online.cu -- the one-pass ("online") softmax recurrence over a row
// length n that is a kernel parameter, one thread per row of x [rows, n]:
//
//   m = -inf, d = 0
//   for j < n: m' = max(m, x[j]);  d = d * __expf(m - m') + __expf(x[j] - m');
//              m = m'
//   for j < n: y[j] = __expf(x[j] - m) / d
//
// Fixture for: loops whose loop-carried value is a sum rescaled by a running
// max (test/Verifier/loop-symbolic-online.mlir): summarized by the
// invariant d_k = sum_{j<k} exp(x_j - m_k), so the kernel proves for every
// n in the contract's range. Twin: softmax_online_rows_norescale forgets
// the rescale of the denominator (d += __expf(x[j] - m')), which is wrong
// as soon as a later element raises the running max.
// The loops keep `#pragma unroll 1`; __expf is written explicitly.

#include <math.h>

extern "C" __global__ void softmax_online_rows(const float *__restrict__ x,
                                               float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const float *xr = x + (size_t)row * n;
  float m = -INFINITY, d = 0.0f;
#pragma unroll 1
  for (int j = 0; j < n; ++j) {
    float v = xr[j];
    float m_new = fmaxf(m, v);
    d = d * __expf(m - m_new) + __expf(v - m_new);
    m = m_new;
  }
#pragma unroll 1
  for (int j = 0; j < n; ++j)
    y[(size_t)row * n + j] = __expf(xr[j] - m) / d;
}

extern "C" __global__ void softmax_online_rows_norescale(
    const float *__restrict__ x, float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const float *xr = x + (size_t)row * n;
  float m = -INFINITY, d = 0.0f;
#pragma unroll 1
  for (int j = 0; j < n; ++j) {
    float v = xr[j];
    float m_new = fmaxf(m, v);
    d = d + __expf(v - m_new); // bug: d is not rescaled by exp(m - m_new)
    m = m_new;
  }
#pragma unroll 1
  for (int j = 0; j < n; ++j)
    y[(size_t)row * n + j] = __expf(xr[j] - m) / d;
}

// decode_attn_online -- one query against n keys (decode attention), one
// thread per output column c of D = 64 (one CTA of 64 threads; D = 128 in
// decode_attn_online_128, one CTA of 128 threads): the online
// softmax over the scores s_j = 0.125 * dot(q, K[j]) with the accumulator
// acc = sum_j exp(s_j - m) V[j, c] rescaled with the denominator.
// Twin: decode_attn_online_stale_acc rescales the denominator but not the
// accumulator.
template <bool RescaleAcc, int D = 64>
__device__ __forceinline__ void decode_attn(const float *__restrict__ q,
                                            const float *__restrict__ k,
                                            const float *__restrict__ v,
                                            float *__restrict__ out, int n) {
  int c = threadIdx.x;
  float m = -INFINITY, d = 0.0f, acc = 0.0f;
#pragma unroll 1
  for (int j = 0; j < n; ++j) {
    float s = 0.0f;
#pragma unroll
    for (int t = 0; t < D; ++t)
      s += q[t] * k[(size_t)j * D + t];
    s *= 0.125f;
    float m_new = fmaxf(m, s);
    float corr = __expf(m - m_new);
    float p = __expf(s - m_new);
    d = d * corr + p;
    acc = (RescaleAcc ? acc * corr : acc) + p * v[(size_t)j * D + c];
    m = m_new;
  }
  out[c] = acc / d;
}

extern "C" __global__ void decode_attn_online(const float *__restrict__ q,
                                              const float *__restrict__ k,
                                              const float *__restrict__ v,
                                              float *__restrict__ out, int n) {
  decode_attn<true>(q, k, v, out, n);
}

extern "C" __global__ void
decode_attn_online_stale_acc(const float *__restrict__ q,
                             const float *__restrict__ k,
                             const float *__restrict__ v,
                             float *__restrict__ out, int n) {
  decode_attn<false>(q, k, v, out, n);
}

extern "C" __global__ void
decode_attn_online_128(const float *__restrict__ q,
                       const float *__restrict__ k,
                       const float *__restrict__ v, float *__restrict__ out,
                       int n) {
  decode_attn<true, 128>(q, k, v, out, n);
}

// Added later (kept at the end so the line numbers above stay put):
// decode_attn_online_len_minus1 -- decode_attn_online attending to keys
// j < n - 1: the causal length off by one (the newest token dropped, as
// when a decode step passes the position instead of position + 1).
template <int D = 64>
__device__ __forceinline__ void decode_attn_short(const float *__restrict__ q,
                                                  const float *__restrict__ k,
                                                  const float *__restrict__ v,
                                                  float *__restrict__ out,
                                                  int n) {
  int c = threadIdx.x;
  float m = -INFINITY, d = 0.0f, acc = 0.0f;
#pragma unroll 1
  for (int j = 0; j < n - 1; ++j) {
    float s = 0.0f;
#pragma unroll
    for (int t = 0; t < D; ++t)
      s += q[t] * k[(size_t)j * D + t];
    s *= 0.125f;
    float m_new = fmaxf(m, s);
    float corr = __expf(m - m_new);
    float p = __expf(s - m_new);
    d = d * corr + p;
    acc = acc * corr + p * v[(size_t)j * D + c];
    m = m_new;
  }
  out[c] = acc / d;
}

extern "C" __global__ void
decode_attn_online_len_minus1(const float *__restrict__ q,
                              const float *__restrict__ k,
                              const float *__restrict__ v,
                              float *__restrict__ out, int n) {
  decode_attn_short(q, k, v, out, n);
}

// softmax_twopass_rows -- the two-pass softmax over a row of n: pass 1 the
// row max; pass 2 writes y[j] = exp(x[j] - m) while summing them; then the
// row is scaled in place by 1 / sum (reading back its own stores).
// Twin: softmax_twopass_rows_short_scale scales only y[0 .. n - 2].
template <bool Short>
__device__ __forceinline__ void softmax_twopass(const float *__restrict__ x,
                                                float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const float *xr = x + (size_t)row * n;
  float *yr = y + (size_t)row * n;
  float m = -INFINITY;
#pragma unroll 1
  for (int j = 0; j < n; ++j)
    m = fmaxf(m, xr[j]);
  float s = 0.0f;
#pragma unroll 1
  for (int j = 0; j < n; ++j) {
    float e = __expf(xr[j] - m);
    yr[j] = e;
    s += e;
  }
  float r = 1.0f / s;
#pragma unroll 1
  for (int j = 0; j < (Short ? n - 1 : n); ++j)
    yr[j] = yr[j] * r;
}

extern "C" __global__ void softmax_twopass_rows(const float *__restrict__ x,
                                                float *__restrict__ y, int n) {
  softmax_twopass<false>(x, y, n);
}

extern "C" __global__ void
softmax_twopass_rows_short_scale(const float *__restrict__ x,
                                 float *__restrict__ y, int n) {
  softmax_twopass<true>(x, y, n);
}
