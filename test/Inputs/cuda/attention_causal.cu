// attention_causal.cu -- causal variant of attention_tiled.cu, with a query
// position offset (the KV-cache / chunked-prefill case).
//
// Q and O are [heads][n_q][D], K and V are [heads][n_k][D], row-major;
// D = 16, TILE = 16, blockDim.x == TILE, blockIdx.x = query tile,
// blockIdx.y = head. Query row i sits at absolute position q_offset + i and
// attends to key j iff j <= q_offset + i (and j < n_k):
//
//   O[i] = sum_{j <= q_offset+i, j < n_k} softmax_j(scale*<Q[i],K[j]>) * V[j]
//
// Preconditions: q_offset >= 0, n_k >= 1 (so key 0 is visible to every row and
// the running max is finite after the first tile; no -inf - -inf NaN). The
// usual decode/prefill setting is q_offset = n_k - n_q.
//
// The key-tile loop stops at the last tile any row of this query tile can see,
// min(n_k, q_offset + q0 + TILE): the trip count depends only on blockIdx, so
// all threads reach the same barriers. Masked scores are -INFINITY; staging
// through __shared__ tiles and the online-softmax update are as in
// attention_tiled.cu.
//
// Fixture for: the causal-attention proof (mask correctness, tile skipping is
// sound because skipped tiles are fully masked, barrier uniformity of a
// blockIdx-dependent loop bound). __expf written explicitly; compiled WITHOUT
// --use_fast_math.

#include <math.h>

#define D 16
#define TILE 16

extern "C" __global__ void attention_causal_fwd(const float *__restrict__ Q,
                                                const float *__restrict__ K,
                                                const float *__restrict__ V,
                                                float *__restrict__ O, int n_q,
                                                int n_k, int q_offset,
                                                float scale) {
  __shared__ float Qs[TILE][D];
  __shared__ float Ks[TILE][D];
  __shared__ float Vs[TILE][D];

  const int t = threadIdx.x;
  const size_t qhead = (size_t)blockIdx.y * (size_t)n_q * D;
  const size_t khead = (size_t)blockIdx.y * (size_t)n_k * D;
  const int q0 = blockIdx.x * TILE;

  for (int r = 0; r < TILE; ++r) {
    int row = q0 + r;
    Qs[r][t] = row < n_q ? Q[qhead + (size_t)row * D + t] : 0.0f;
  }
  __syncthreads();

  float q[D];
  for (int c = 0; c < D; ++c)
    q[c] = Qs[t][c] * scale;

  const int qpos = q_offset + q0 + t; // absolute position of this thread's row
  float m = -INFINITY, l = 0.0f, acc[D];
  for (int c = 0; c < D; ++c)
    acc[c] = 0.0f;

  const int k_end = min(n_k, q_offset + q0 + TILE); // block-uniform
  for (int k0 = 0; k0 < k_end; k0 += TILE) {
    for (int r = 0; r < TILE; ++r) {
      int row = k0 + r;
      bool ok = row < n_k;
      Ks[r][t] = ok ? K[khead + (size_t)row * D + t] : 0.0f;
      Vs[r][t] = ok ? V[khead + (size_t)row * D + t] : 0.0f;
    }
    __syncthreads();

    float s[TILE];
    float mt = -INFINITY;
    for (int j = 0; j < TILE; ++j) {
      int kpos = k0 + j;
      float dot = 0.0f;
      for (int c = 0; c < D; ++c)
        dot += q[c] * Ks[j][c];
      s[j] = (kpos < n_k && kpos <= qpos) ? dot : -INFINITY;
      mt = fmaxf(mt, s[j]);
    }
    float m_new = fmaxf(m, mt);
    float alpha = __expf(m - m_new);
    l *= alpha;
    for (int c = 0; c < D; ++c)
      acc[c] *= alpha;
    for (int j = 0; j < TILE; ++j) {
      float p = __expf(s[j] - m_new);
      l += p;
      for (int c = 0; c < D; ++c)
        acc[c] += p * Vs[j][c];
    }
    m = m_new;
    __syncthreads();
  }

  const int row = q0 + t;
  if (row < n_q)
    for (int c = 0; c < D; ++c)
      O[qhead + (size_t)row * D + c] = acc[c] / l;
}
