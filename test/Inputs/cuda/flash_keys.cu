// FlashAttention-2-style forward pass over any number of keys: the same
// tile loop as flash_fwd.cu (one thread per query row, key tiles of BC = 16
// staged through shared memory, online softmax), with the query count m
// and the key count n separate, so one launch over the query rows covers
// every key count n. Q, O are [m][D]; K, V are [n][D], row-major; the grid
// covers the query rows (blockIdx.x = block of BR = 16 rows). The last key
// tile is padded (keys past n masked with -inf).
//
// Planted-bug twins (FLASH_KEYS flags), each at D = 16:
//   flash_keys_no_l_rescale   the denominator is not rescaled by exp(m - m')
//   flash_keys_mask_le        key j = n admitted (k0 + j <= n)
//   flash_keys_no_trailing_sync no barrier before the next tile overwrites
//                             the one being read
//
// Fixture for the proof over every key count (test/Verifier/flash-keys.mlir,
// bench/flash-fwd.sh). __expf is written explicitly; compiled WITHOUT
// --use_fast_math.

#include <math.h>

#define BR 16
#define BC 16

#define FLASH_KEYS(NAME, D, RESCALE_L, MASK_LE, TRAILING_SYNC)                 \
  extern "C" __global__ void NAME(const float *__restrict__ Q,                 \
                                  const float *__restrict__ K,                 \
                                  const float *__restrict__ V,                 \
                                  float *__restrict__ O, int m_rows, int n,    \
                                  float scale) {                               \
    __shared__ float Ks[BC][D];                                                \
    __shared__ float Vs[BC][D];                                                \
    const int t = threadIdx.x;                                                 \
    const int q = blockIdx.x * BR + t;                                         \
    float qr[D], acc[D];                                                       \
    for (int c = 0; c < D; ++c) {                                              \
      qr[c] = q < m_rows ? Q[(size_t)q * D + c] * scale : 0.0f;                \
      acc[c] = 0.0f;                                                           \
    }                                                                          \
    float m = -INFINITY, l = 0.0f;                                             \
    for (int k0 = 0; k0 < n; k0 += BC) {                                       \
      for (int i = t; i < BC * D; i += BR) {                                   \
        int r = i / D, c = i % D;                                              \
        bool ok = k0 + r < n;                                                  \
        Ks[r][c] = ok ? K[(size_t)(k0 + r) * D + c] : 0.0f;                    \
        Vs[r][c] = ok ? V[(size_t)(k0 + r) * D + c] : 0.0f;                    \
      }                                                                        \
      __syncthreads();                                                         \
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
      for (int c = 0; c < D; ++c)                                              \
        acc[c] *= alpha;                                                       \
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
    if (q < m_rows)                                                            \
      for (int c = 0; c < D; ++c)                                              \
        O[(size_t)q * D + c] = acc[c] / l;                                     \
  }

FLASH_KEYS(flash_keys_d16, 16, 1, 0, 1)
FLASH_KEYS(flash_keys_d64, 64, 1, 0, 1)
FLASH_KEYS(flash_keys_d128, 128, 1, 0, 1)
FLASH_KEYS(flash_keys_no_l_rescale, 16, 0, 0, 1)
FLASH_KEYS(flash_keys_mask_le, 16, 1, 1, 1)
FLASH_KEYS(flash_keys_no_trailing_sync, 16, 1, 0, 0)

// The same online softmax over key tiles of BC = 16 without shared memory:
// each thread reads its keys and values from global memory directly (no
// barrier in the tile loop). The last tile is padded as above.
extern "C" __global__ void flash_keys_direct_d16(const float *__restrict__ Q,
                                                 const float *__restrict__ K,
                                                 const float *__restrict__ V,
                                                 float *__restrict__ O,
                                                 int m_rows, int n,
                                                 float scale) {
  const int D = 16;
  const int q = blockIdx.x * BR + threadIdx.x;
  float qr[D], acc[D];
  for (int c = 0; c < D; ++c) {
    qr[c] = q < m_rows ? Q[(size_t)q * D + c] * scale : 0.0f;
    acc[c] = 0.0f;
  }
  float m = -INFINITY, l = 0.0f;
  for (int k0 = 0; k0 < n; k0 += BC) {
    float s[BC], mt = -INFINITY;
    for (int j = 0; j < BC; ++j) {
      bool in = k0 + j < n;
      float dot = 0.0f;
      for (int c = 0; c < D; ++c)
        dot += qr[c] * (in ? K[(size_t)(k0 + j) * D + c] : 0.0f);
      s[j] = in ? dot : -INFINITY;
      mt = fmaxf(mt, s[j]);
    }
    float mn = fmaxf(m, mt);
    float alpha = __expf(m - mn);
    l *= alpha;
    for (int c = 0; c < D; ++c)
      acc[c] *= alpha;
    for (int j = 0; j < BC; ++j) {
      bool in = k0 + j < n;
      float p = __expf(s[j] - mn);
      l += p;
      for (int c = 0; c < D; ++c)
        acc[c] += p * (in ? V[(size_t)(k0 + j) * D + c] : 0.0f);
    }
    m = mn;
  }
  if (q < m_rows)
    for (int c = 0; c < D; ++c)
      O[(size_t)q * D + c] = acc[c] / l;
}

// A loop that stages data through shared memory between barriers, over a
// symbolic length: thread t of a CTA of 32 owns row r = 32 * blockIdx.x + t
// of x [rows][n]; in iteration k it publishes x[r'][k] of its mirror row
// r' = 32 * blockIdx.x + 31 - t in slot t, and after the barrier adds slot
// 31 - t (its own row's element, published by thread 31 - t), so it stores
// its row's sum (the loop is kept rolled). The twin without the trailing
// barrier lets iteration k + 1 overwrite a slot the neighbour still reads.
#define STAGED_ROWSUM(NAME, TRAILING_SYNC)                                    \
  extern "C" __global__ void NAME(const float *__restrict__ x,                 \
                                  float *__restrict__ y, int n) {              \
    __shared__ float s[32];                                                    \
    const int t = threadIdx.x;                                                 \
    const int nb = 31 - t;                                                     \
    const size_t r = (size_t)blockIdx.x * 32 + nb;                             \
    float acc = 0.0f;                                                          \
    _Pragma("unroll 1") for (int k = 0; k < n; ++k) {                          \
      s[t] = x[r * n + k];                                                     \
      __syncthreads();                                                         \
      acc += s[nb];                                                            \
      if (TRAILING_SYNC)                                                       \
        __syncthreads();                                                       \
    }                                                                          \
    y[(size_t)blockIdx.x * 32 + t] = acc;                                      \
  }

STAGED_ROWSUM(staged_rowsum, 1)
STAGED_ROWSUM(staged_rowsum_no_trailing_sync, 0)

// A row sum over tiles of 4 elements, the last tile padded (elements past
// n read as 0): one thread per row of x [rows][n], the tile loop kept
// rolled. Its reduction steps by 4 elements and ends past n; the spec's
// sums over j < n. The twin tiled_rowsum_skip adds 3 elements per tile.
#define TILED_ROWSUM(NAME, PER_TILE)                                           \
  extern "C" __global__ void NAME(const float *__restrict__ x,                 \
                                  float *__restrict__ y, int n) {              \
    const size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x;            \
    float acc = 0.0f;                                                          \
    _Pragma("unroll 1") for (int k0 = 0; k0 < n; k0 += 4) {                    \
      _Pragma("unroll") for (int j = 0; j < PER_TILE; ++j) acc +=              \
          k0 + j < n ? x[r * n + k0 + j] : 0.0f;                               \
    }                                                                          \
    y[r] = acc;                                                                \
  }

TILED_ROWSUM(tiled_rowsum, 4)
TILED_ROWSUM(tiled_rowsum_skip, 3)
