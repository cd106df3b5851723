// Grouped-query attention (GQA) forward pass, fp32, FlashAttention-2 style
// (as test/Inputs/cuda/flash_fwd.cu: one thread per query row, key tiles of
// BC = 16 through shared memory, online softmax), with batch and head
// dimensions:
//
//   Q, O are [batch][hq][n][D], K, V are [batch][hk][n][D] row-major,
//   hq = G * hk query heads, query head h reading KV head h / G.
//
// Launch: blockIdx.x = block of BR = 16 query rows, blockIdx.y = query head,
// blockIdx.z = batch, blockDim.x == BR.
//
// Planted-bug twin:
//   flash_gqa_head_mod  KV head h % hk (the heads interleaved, as if the
//                       query heads of one KV head were strided)
//
// Fixture for the batch/head attention spec (test/Verifier/flash-heads.mlir).
// __expf is written explicitly; compiled WITHOUT --use_fast_math.

#include <math.h>

#define BR 16
#define BC 16

#define FLASH_GQA(NAME, D, G, HEAD_MOD)                                       \
  extern "C" __global__ void NAME(                                             \
      const float *__restrict__ Q, const float *__restrict__ K,                \
      const float *__restrict__ V, float *__restrict__ O, int n, int hk,       \
      float scale) {                                                           \
    __shared__ float Ks[BC][D];                                                \
    __shared__ float Vs[BC][D];                                                \
    const int t = threadIdx.x;                                                 \
    const int q = blockIdx.x * BR + t;                                         \
    const int h = blockIdx.y, b = blockIdx.z;                                  \
    const int kvh = HEAD_MOD ? h % hk : h / G;                                 \
    const size_t qbase = ((size_t)b * hk * G + h) * (size_t)n * D;             \
    const size_t kvbase = ((size_t)b * hk + kvh) * (size_t)n * D;              \
    float qr[D], acc[D];                                                       \
    for (int c = 0; c < D; ++c) {                                              \
      qr[c] = q < n ? Q[qbase + (size_t)q * D + c] * scale : 0.0f;             \
      acc[c] = 0.0f;                                                           \
    }                                                                          \
    float m = -INFINITY, l = 0.0f;                                             \
    for (int k0 = 0; k0 < n; k0 += BC) {                                       \
      for (int i = t; i < BC * D; i += BR) {                                   \
        int r = i / D, c = i % D;                                              \
        bool ok = k0 + r < n;                                                  \
        Ks[r][c] = ok ? K[kvbase + (size_t)(k0 + r) * D + c] : 0.0f;           \
        Vs[r][c] = ok ? V[kvbase + (size_t)(k0 + r) * D + c] : 0.0f;           \
      }                                                                        \
      __syncthreads();                                                         \
      float s[BC], mt = -INFINITY;                                             \
      for (int j = 0; j < BC; ++j) {                                           \
        float dot = 0.0f;                                                      \
        for (int c = 0; c < D; ++c)                                            \
          dot += qr[c] * Ks[j][c];                                             \
        s[j] = k0 + j < n ? dot : -INFINITY;                                   \
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
    if (q < n)                                                                 \
      for (int c = 0; c < D; ++c)                                              \
        O[qbase + (size_t)q * D + c] = acc[c] / l;                             \
  }

FLASH_GQA(flash_gqa_d16, 16, 2, 0)
FLASH_GQA(flash_gqa_head_mod, 16, 2, 1)
