// attention_rows_stats.cu -- attention with one thread per query row, which
// writes its D outputs and the row statistics a backward pass needs: the
// row max m and the softmax denominator l (several output buffers).
//
// q [M, D], k [N, D], v [N, D] with N = 3, D = 2, scale 1/sqrt(2):
//   s_ij = scale * q_i . k_j,  m_i = max_j s_ij,  l_i = sum_j exp(s_ij - m_i),
//   o[i, c] = sum_j exp(s_ij - m_i) v[j, c] / l_i.
//
//   attention_rows_stats     : o, m, l as above, row i = blockIdx.x *
//                              blockDim.x + threadIdx.x < n_q
//   attention_rows_stats_bug : stores the first score as m (not the max);
//                              o and l stay right
//
//   attention_rows_lse       : the same attention in base 2 (scores scaled
//                              by scale * log2(e), exp2f), writing o and the
//                              base-2 logsumexp lse = m + log2(l) that a
//                              backward pass reads (as Triton's and
//                              FlashAttention-3's forward kernels store it)
//   attention_rows_lse_bug   : stores log2(l) without the max
//
// Fixture for: several outputs, each with its spec (one func.func spec with
// three results; test/Verifier/memory-several-outputs.mlir).
#include <math.h>

#define N 3
#define D 2

template <bool Bug>
__device__ __forceinline__ void row(const float *__restrict__ q,
                                    const float *__restrict__ k,
                                    const float *__restrict__ v,
                                    float *__restrict__ o,
                                    float *__restrict__ m_out,
                                    float *__restrict__ l_out, int n_q) {
  const float scale = 0.70710677f;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_q)
    return;
  float s[N];
  float m = -INFINITY;
  for (int j = 0; j < N; ++j) {
    float acc = 0.0f;
    for (int t = 0; t < D; ++t)
      acc += q[i * D + t] * k[j * D + t];
    s[j] = acc * scale;
    m = fmaxf(m, s[j]);
  }
  float l = 0.0f;
  float out[D] = {0.0f, 0.0f};
  for (int j = 0; j < N; ++j) {
    float p = __expf(s[j] - m);
    l += p;
    for (int c = 0; c < D; ++c)
      out[c] += p * v[j * D + c];
  }
  for (int c = 0; c < D; ++c)
    o[i * D + c] = out[c] / l;
  m_out[i] = Bug ? s[0] : m;
  l_out[i] = l;
}

extern "C" __global__ void attention_rows_stats(
    const float *__restrict__ q, const float *__restrict__ k,
    const float *__restrict__ v, float *__restrict__ o,
    float *__restrict__ m_out, float *__restrict__ l_out, int n_q) {
  row<false>(q, k, v, o, m_out, l_out, n_q);
}

extern "C" __global__ void attention_rows_stats_bug(
    const float *__restrict__ q, const float *__restrict__ k,
    const float *__restrict__ v, float *__restrict__ o,
    float *__restrict__ m_out, float *__restrict__ l_out, int n_q) {
  row<true>(q, k, v, o, m_out, l_out, n_q);
}

template <bool Bug>
__device__ __forceinline__ void row_lse(const float *__restrict__ q,
                                        const float *__restrict__ k,
                                        const float *__restrict__ v,
                                        float *__restrict__ o,
                                        float *__restrict__ lse, int n_q) {
  // (1 / sqrt(2)) * log2(e), rounded to f32.
  const float scale_log2 = 1.0201397f;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_q)
    return;
  float s[N];
  float m = -INFINITY;
  for (int j = 0; j < N; ++j) {
    float acc = 0.0f;
    for (int t = 0; t < D; ++t)
      acc += q[i * D + t] * k[j * D + t];
    s[j] = acc * scale_log2;
    m = fmaxf(m, s[j]);
  }
  float l = 0.0f;
  float out[D] = {0.0f, 0.0f};
  for (int j = 0; j < N; ++j) {
    float p = exp2f(s[j] - m);
    l += p;
    for (int c = 0; c < D; ++c)
      out[c] += p * v[j * D + c];
  }
  for (int c = 0; c < D; ++c)
    o[i * D + c] = out[c] / l;
  lse[i] = Bug ? __log2f(l) : m + __log2f(l);
}

extern "C" __global__ void attention_rows_lse(const float *__restrict__ q,
                                              const float *__restrict__ k,
                                              const float *__restrict__ v,
                                              float *__restrict__ o,
                                              float *__restrict__ lse, int n_q) {
  row_lse<false>(q, k, v, o, lse, n_q);
}

extern "C" __global__ void
attention_rows_lse_bug(const float *__restrict__ q, const float *__restrict__ k,
                       const float *__restrict__ v, float *__restrict__ o,
                       float *__restrict__ lse, int n_q) {
  row_lse<true>(q, k, v, o, lse, n_q);
}
