// attention_1thread.cu -- attention computed by one thread, the naive way.
//
// q [M, D], k [N, D], v [N, D] -> o [M, D] with M = 2, N = 3, D = 2 and
// scale 1/sqrt(D) = 0.70710677f (a float constant), one pass per query row:
// scores, running max, exp (__expf), normalized sum of values.
//
//   attention_1thread_causal : key j is visible to query i iff j <= i + 1
//                              (a query-position offset of 1).
//   attention_1thread_nomask : every key is visible.
//
// Fixture for: the built-in attention spec (causal mask with an offset, and
// no mask) proved against a single-thread kernel.
#include <math.h>

#define M 2
#define N 3
#define D 2

template <bool CAUSAL>
__device__ __forceinline__ void attention_row(const float *q, const float *k,
                                              const float *v, float *o, int i) {
  const float scale = 0.70710677f;
  float s[N];
  float m = -INFINITY;
  for (int j = 0; j < N; ++j) {
    float acc = 0.0f;
    for (int t = 0; t < D; ++t)
      acc += q[i * D + t] * k[j * D + t];
    s[j] = acc * scale;
    if (!CAUSAL || j <= i + 1)
      m = fmaxf(m, s[j]);
  }
  float denom = 0.0f;
  float out[D] = {0.0f, 0.0f};
  for (int j = 0; j < N; ++j) {
    if (CAUSAL && j > i + 1)
      continue;
    float p = __expf(s[j] - m);
    denom += p;
    for (int c = 0; c < D; ++c)
      out[c] += p * v[j * D + c];
  }
  for (int c = 0; c < D; ++c)
    o[i * D + c] = out[c] / denom;
}

extern "C" __global__ void attention_1thread_causal(const float *__restrict__ q,
                                                    const float *__restrict__ k,
                                                    const float *__restrict__ v,
                                                    float *__restrict__ o) {
  for (int i = 0; i < M; ++i)
    attention_row<true>(q, k, v, o, i);
}

extern "C" __global__ void attention_1thread_nomask(const float *__restrict__ q,
                                                    const float *__restrict__ k,
                                                    const float *__restrict__ v,
                                                    float *__restrict__ o) {
  for (int i = 0; i < M; ++i)
    attention_row<false>(q, k, v, o, i);
}
