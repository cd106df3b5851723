// FlashAttention-2-style forward pass (non-causal), fp32, as a CUDA kernel
// without tensor cores: one thread per query row, tiles of BC = 16 keys
// staged through shared memory, online softmax over the tiles.
//
// Layout: Q, K, V, O are [heads][n][D] row-major; blockIdx.y = head,
// blockIdx.x = block of BR = 16 query rows, blockDim.x == BR. Thread t keeps
// its scaled query row in registers and, over the key tiles, the running
// max m, the denominator l and the unnormalised accumulator acc[D]:
//
//   s_j   = <q, K[j]>             (q = scale * Q[row]; -inf past n)
//   m'    = max(m, max_j s_j)
//   l     = l * exp(m - m') + sum_j exp(s_j - m')
//   acc   = acc * exp(m - m') + sum_j exp(s_j - m') V[j]
//   O[row] = acc / l              (rows past n are not stored)
//
// Each tile of K and V is loaded cooperatively through a flat index
// (`for (i = t; i < BC * D; i += BR)`: row i / D, column i % D), so every
// thread reads elements the others wrote, between two __syncthreads().
//
// Planted-bug twins (FLASH_FWD flags), each at D = 16:
//   flash_fwd_no_l_rescale    the denominator is not rescaled by exp(m - m')
//   flash_fwd_no_acc_rescale  the accumulator is not rescaled
//   flash_fwd_mask_le         key j = n admitted (k0 + j <= n)
//   flash_fwd_no_normalize    O = acc (the final division skipped)
//   flash_fwd_no_load_sync    no barrier between the tile load and its use
//   flash_fwd_no_trailing_sync no barrier before the next tile overwrites it
//
// Fixture for the tiled-attention proof at D = 16, 64 and 128
// (test/Verifier/flash-fwd.mlir, bench/flash-fwd.sh). __expf is written
// explicitly; compiled WITHOUT --use_fast_math.

#include <math.h>

#define BR 16
#define BC 16

#define FLASH_FWD(NAME, D, RESCALE_L, RESCALE_ACC, MASK_LE, NORMALIZE,         \
                  LOAD_SYNC, TRAILING_SYNC)                                    \
  extern "C" __global__ void NAME(const float *__restrict__ Q,                 \
                                  const float *__restrict__ K,                 \
                                  const float *__restrict__ V,                 \
                                  float *__restrict__ O, int n, float scale) { \
    __shared__ float Ks[BC][D];                                                \
    __shared__ float Vs[BC][D];                                                \
    const int t = threadIdx.x;                                                 \
    const int q = blockIdx.x * BR + t;                                         \
    const size_t head = (size_t)blockIdx.y * (size_t)n * D;                    \
    float qr[D], acc[D];                                                       \
    for (int c = 0; c < D; ++c) {                                              \
      qr[c] = q < n ? Q[head + (size_t)q * D + c] * scale : 0.0f;              \
      acc[c] = 0.0f;                                                           \
    }                                                                          \
    float m = -INFINITY, l = 0.0f;                                             \
    for (int k0 = 0; k0 < n; k0 += BC) {                                       \
      for (int i = t; i < BC * D; i += BR) {                                   \
        int r = i / D, c = i % D;                                              \
        bool ok = k0 + r < n;                                                  \
        Ks[r][c] = ok ? K[head + (size_t)(k0 + r) * D + c] : 0.0f;             \
        Vs[r][c] = ok ? V[head + (size_t)(k0 + r) * D + c] : 0.0f;             \
      }                                                                        \
      if (LOAD_SYNC)                                                           \
        __syncthreads();                                                       \
      float s[BC], mt = -INFINITY;                                             \
      for (int j = 0; j < BC; ++j) {                                           \
        float dot = 0.0f;                                                      \
        for (int c = 0; c < D; ++c)                                            \
          dot += qr[c] * Ks[j][c];                                             \
        bool in = MASK_LE ? k0 + j <= n : k0 + j < n;                          \
        s[j] = in ? dot : -INFINITY;                                           \
        mt = fmaxf(mt, s[j]);                                                  \
      }                                                                        \
      float mn = fmaxf(m, mt);                                                 \
      float alpha = __expf(m - mn);                                            \
      if (RESCALE_L)                                                           \
        l *= alpha;                                                            \
      if (RESCALE_ACC)                                                         \
        for (int c = 0; c < D; ++c)                                            \
          acc[c] *= alpha;                                                     \
      for (int j = 0; j < BC; ++j) {                                           \
        float p = __expf(s[j] - mn);                                           \
        l += p;                                                                \
        for (int c = 0; c < D; ++c)                                            \
          acc[c] += p * Vs[j][c];                                              \
      }                                                                        \
      m = mn;                                                                  \
      if (TRAILING_SYNC)                                                       \
        __syncthreads();                                                       \
    }                                                                          \
    if (q < n)                                                                 \
      for (int c = 0; c < D; ++c)                                              \
        O[head + (size_t)q * D + c] = NORMALIZE ? acc[c] / l : acc[c];         \
  }

FLASH_FWD(flash_fwd_d16, 16, 1, 1, 0, 1, 1, 1)
FLASH_FWD(flash_fwd_d64, 64, 1, 1, 0, 1, 1, 1)
FLASH_FWD(flash_fwd_d128, 128, 1, 1, 0, 1, 1, 1)
FLASH_FWD(flash_fwd_no_l_rescale, 16, 0, 1, 0, 1, 1, 1)
FLASH_FWD(flash_fwd_no_acc_rescale, 16, 1, 0, 0, 1, 1, 1)
FLASH_FWD(flash_fwd_mask_le, 16, 1, 1, 1, 1, 1, 1)
FLASH_FWD(flash_fwd_no_normalize, 16, 1, 1, 0, 0, 1, 1)
FLASH_FWD(flash_fwd_no_load_sync, 16, 1, 1, 0, 1, 0, 1)
FLASH_FWD(flash_fwd_no_trailing_sync, 16, 1, 1, 0, 1, 1, 0)

// Causal variant with a query-position offset: query q sees keys
// j <= q + off (j < n). A CTA of query rows [BR bx, BR bx + BR) runs the key
// tiles up to its last row's horizon, kend = min(n, BR bx + BR + off), so the
// blocks above the diagonal are skipped whole; the mask is applied in every
// tile (only the diagonal tiles have masked keys). L (logsumexp of the scaled
// scores, m + log l) is a second output when LSE is set.
//
// Planted-bug twins (FLASH_CAUSAL flags), each at D = 16:
//   flash_causal_mask_lt     key j = q + off masked out (k0 + j < q + off)
//   flash_causal_skip_floor  the tile count rounded down (kend / BC tiles),
//                            so a partial diagonal tile is skipped
//   flash_causal_scale_twice the scale applied twice to the scores
//   flash_causal_lse_no_max  L = log l (the running max left out)
#define FLASH_CAUSAL(NAME, D, MASK_LT, SKIP_FLOOR, SCALE_TWICE, LSE,          \
                     LSE_MAX)                                                  \
  extern "C" __global__ void NAME(                                             \
      const float *__restrict__ Q, const float *__restrict__ K,                \
      const float *__restrict__ V, float *__restrict__ O,                      \
      float *__restrict__ L, int n, int off, float scale) {                    \
    __shared__ float Ks[BC][D];                                                \
    __shared__ float Vs[BC][D];                                                \
    const int t = threadIdx.x;                                                 \
    const int q = blockIdx.x * BR + t;                                         \
    const size_t head = (size_t)blockIdx.y * (size_t)n * D;                    \
    const float sc = SCALE_TWICE ? scale * scale : scale;                      \
    float qr[D], acc[D];                                                       \
    for (int c = 0; c < D; ++c) {                                              \
      qr[c] = q < n ? Q[head + (size_t)q * D + c] * sc : 0.0f;                 \
      acc[c] = 0.0f;                                                           \
    }                                                                          \
    int kend = min(n, (int)blockIdx.x * BR + BR + off);                        \
    if (SKIP_FLOOR)                                                            \
      kend = kend / BC * BC;                                                   \
    float m = -INFINITY, l = 0.0f;                                             \
    for (int k0 = 0; k0 < kend; k0 += BC) {                                    \
      for (int i = t; i < BC * D; i += BR) {                                   \
        int r = i / D, c = i % D;                                              \
        bool ok = k0 + r < n;                                                  \
        Ks[r][c] = ok ? K[head + (size_t)(k0 + r) * D + c] : 0.0f;             \
        Vs[r][c] = ok ? V[head + (size_t)(k0 + r) * D + c] : 0.0f;             \
      }                                                                        \
      __syncthreads();                                                         \
      float s[BC], mt = -INFINITY;                                             \
      for (int j = 0; j < BC; ++j) {                                           \
        float dot = 0.0f;                                                      \
        for (int c = 0; c < D; ++c)                                            \
          dot += qr[c] * Ks[j][c];                                             \
        bool in = k0 + j < n &&                                                \
                  (MASK_LT ? k0 + j < q + off : k0 + j <= q + off);            \
        s[j] = in ? dot : -INFINITY;                                           \
        mt = fmaxf(mt, s[j]);                                                  \
      }                                                                        \
      float mn = fmaxf(m, mt);                                                 \
      float alpha = __expf(m - mn);                                            \
      l *= alpha;                                                              \
      for (int c = 0; c < D; ++c)                                              \
        acc[c] *= alpha;                                                       \
      for (int j = 0; j < BC; ++j) {                                           \
        float p = __expf(s[j] - mn);                                           \
        l += p;                                                                \
        for (int c = 0; c < D; ++c)                                            \
          acc[c] += p * Vs[j][c];                                              \
      }                                                                        \
      m = mn;                                                                  \
      __syncthreads();                                                         \
    }                                                                          \
    if (q < n) {                                                               \
      for (int c = 0; c < D; ++c)                                              \
        O[head + (size_t)q * D + c] = acc[c] / l;                              \
      if (LSE)                                                                 \
        L[(size_t)blockIdx.y * n + q] = LSE_MAX ? m + __logf(l) : __logf(l);   \
    }                                                                          \
  }

FLASH_CAUSAL(flash_causal_d16, 16, 0, 0, 0, 0, 1)
FLASH_CAUSAL(flash_causal_d64, 64, 0, 0, 0, 0, 1)
FLASH_CAUSAL(flash_causal_d128, 128, 0, 0, 0, 0, 1)
FLASH_CAUSAL(flash_causal_mask_lt, 16, 1, 0, 0, 0, 1)
FLASH_CAUSAL(flash_causal_skip_floor, 16, 0, 1, 0, 0, 1)
FLASH_CAUSAL(flash_causal_scale_twice, 16, 0, 0, 1, 0, 1)
FLASH_CAUSAL(flash_causal_lse_d16, 16, 0, 0, 0, 1, 1)
FLASH_CAUSAL(flash_causal_lse_no_max, 16, 0, 0, 0, 1, 0)
