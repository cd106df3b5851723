// attention_tiled.cu -- small tiled attention forward pass (non-causal),
// FlashAttention-style, fp32, head dim D = 16, tile size TILE = 16.
//
// Layout: Q, K, V, O are [heads][n][D] row-major; blockIdx.y = head,
// blockIdx.x = query tile (TILE consecutive query rows), blockDim.x == TILE.
// Thread t owns query row q0 + t and computes
//
//   O[q] = sum_j softmax_j(scale * <Q[q], K[j]>) * V[j]       (j < n)
//
// Q, K and V tiles are staged through __shared__ [TILE][D] arrays; thread t
// loads COLUMN t of each tile row (so every thread reads values written by
// the others, and the __syncthreads() barriers are required). Over the key
// tiles the thread keeps the online-softmax state (running max m, running
// denominator l, unnormalised accumulator acc[D]), rescaled by
// __expf(m_old - m_new) per tile; keys j >= n get score -INFINITY. Rows past n
// are computed on zero padding but not stored.
//
// attention_tiled_fwd_mask_bug: the key mask admits j = n (off by one).
//
// Fixture for: the tiled-attention == naive softmax(QK^T)V proof (online
// softmax across tiles + barrier/race reasoning on the shared tiles + bounds
// safety with a partial last tile). __expf is written explicitly; compiled
// WITHOUT --use_fast_math.

#include <math.h>

#define D 16
#define TILE 16

extern "C" __global__ void attention_tiled_fwd(const float *__restrict__ Q,
                                               const float *__restrict__ K,
                                               const float *__restrict__ V,
                                               float *__restrict__ O, int n,
                                               float scale) {
  __shared__ float Qs[TILE][D];
  __shared__ float Ks[TILE][D];
  __shared__ float Vs[TILE][D];

  const int t = threadIdx.x; // 0..TILE-1, also the column this thread loads
  const size_t head = (size_t)blockIdx.y * (size_t)n * D;
  const int q0 = blockIdx.x * TILE;

  for (int r = 0; r < TILE; ++r) {
    int row = q0 + r;
    Qs[r][t] = row < n ? Q[head + (size_t)row * D + t] : 0.0f;
  }
  __syncthreads();

  float q[D];
  for (int c = 0; c < D; ++c)
    q[c] = Qs[t][c] * scale;

  float m = -INFINITY, l = 0.0f, acc[D];
  for (int c = 0; c < D; ++c)
    acc[c] = 0.0f;

  for (int k0 = 0; k0 < n; k0 += TILE) {
    for (int r = 0; r < TILE; ++r) {
      int row = k0 + r;
      bool ok = row < n;
      Ks[r][t] = ok ? K[head + (size_t)row * D + t] : 0.0f;
      Vs[r][t] = ok ? V[head + (size_t)row * D + t] : 0.0f;
    }
    __syncthreads();

    float s[TILE];
    float mt = -INFINITY;
    for (int j = 0; j < TILE; ++j) {
      float dot = 0.0f;
      for (int c = 0; c < D; ++c)
        dot += q[c] * Ks[j][c];
      s[j] = (k0 + j < n) ? dot : -INFINITY;
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
    __syncthreads(); // tiles are overwritten in the next iteration
  }

  const int row = q0 + t;
  if (row < n)
    for (int c = 0; c < D; ++c)
      O[head + (size_t)row * D + c] = acc[c] / l;
}

// The same kernel with the classic padding-mask bug: key j = n (a zero
// padding row of the last tile) is not masked out.
extern "C" __global__ void attention_tiled_fwd_mask_bug(const float *__restrict__ Q,
                                               const float *__restrict__ K,
                                               const float *__restrict__ V,
                                               float *__restrict__ O, int n,
                                               float scale) {
  __shared__ float Qs[TILE][D];
  __shared__ float Ks[TILE][D];
  __shared__ float Vs[TILE][D];

  const int t = threadIdx.x; // 0..TILE-1, also the column this thread loads
  const size_t head = (size_t)blockIdx.y * (size_t)n * D;
  const int q0 = blockIdx.x * TILE;

  for (int r = 0; r < TILE; ++r) {
    int row = q0 + r;
    Qs[r][t] = row < n ? Q[head + (size_t)row * D + t] : 0.0f;
  }
  __syncthreads();

  float q[D];
  for (int c = 0; c < D; ++c)
    q[c] = Qs[t][c] * scale;

  float m = -INFINITY, l = 0.0f, acc[D];
  for (int c = 0; c < D; ++c)
    acc[c] = 0.0f;

  for (int k0 = 0; k0 < n; k0 += TILE) {
    for (int r = 0; r < TILE; ++r) {
      int row = k0 + r;
      bool ok = row < n;
      Ks[r][t] = ok ? K[head + (size_t)row * D + t] : 0.0f;
      Vs[r][t] = ok ? V[head + (size_t)row * D + t] : 0.0f;
    }
    __syncthreads();

    float s[TILE];
    float mt = -INFINITY;
    for (int j = 0; j < TILE; ++j) {
      float dot = 0.0f;
      for (int c = 0; c < D; ++c)
        dot += q[c] * Ks[j][c];
      s[j] = (k0 + j <= n) ? dot : -INFINITY; // BUG: admits key n
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
    __syncthreads(); // tiles are overwritten in the next iteration
  }

  const int row = q0 + t;
  if (row < n)
    for (int c = 0; c < D; ++c)
      O[head + (size_t)row * D + c] = acc[c] / l;
}
