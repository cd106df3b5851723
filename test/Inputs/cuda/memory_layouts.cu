// memory_layouts.cu -- threads that write several elements, vector
// accesses, loads interleaved with stores to other buffers, and integer
// index tables (gathers).
//
//   copy_vec4          : y4[i] = x4[i] with float4 loads and stores
//   copy_vec4_bug      : the same, with the last two lanes swapped
//   copy_4per_thread   : each thread copies 4 elements, stride blockDim.x
//                        (y[base + k * blockDim.x] for k < 4)
//   copy_4per_thread_bug : the last element goes one block too far left
//                        (k = 3 writes where k = 2 wrote: element missed)
//   rmsnorm_warp4      : RMSnorm of a 128-wide row per warp, 4 elements
//                        per lane: y = x * rsqrt(mean(x^2) + eps) * w,
//                        sum of squares by xor shuffles, w loaded
//                        interleaved with the stores to y
//   rmsnorm_warp4_bug  : the same, with the weight of lane l + 32k taken
//                        from w[l + 32(k+1) mod 128] (a wrong weight index)
//   gather_idx         : y[i] = x[idx[i]] (idx an int32 index table)
//   gather_idx_clamped : y[i] = x[min(idx[i], n_x - 1)] (never out of
//                        bounds for idx >= 0)
//   paged_kv_gather    : k_out[b, j, :] = k_cache[block_table[b, j / PAGE],
//                        j % PAGE, :] (a paged KV cache, PAGE = 4 tokens of
//                        2 floats; one thread per (b, j, c))
//   paged_kv_gather_bug: the page offset uses j / PAGE instead of j % PAGE
//   layernorm_warp4, layernorm_warp8 : layer norm of a 32 E-wide row per
//                        warp, E = 4 or 8 elements per lane: mean and
//                        variance by xor shuffles, y = (x - mean) *
//                        rsqrt(var + eps) * w + b
//   layernorm_warp4_bug : adds the bias of the next column block
//   scale_grid_stride  : y[i] = 2 x[i] by a grid-stride loop
//   scale_grid_stride_bug : the loop starts one element late (i + 1)
//
// Fixture for: symbolic memory and many stores per thread
// (test/Verifier/memory-*.mlir).
#include <cuda_runtime.h>

extern "C" __global__ void copy_vec4(const float4 *__restrict__ x,
                                     float4 *__restrict__ y, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4)
    y[i] = x[i];
}

extern "C" __global__ void copy_vec4_bug(const float4 *__restrict__ x,
                                         float4 *__restrict__ y, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = x[i];
    float t = v.z;
    v.z = v.w;
    v.w = t;
    y[i] = v;
  }
}

extern "C" __global__ void copy_4per_thread(const float *__restrict__ x,
                                            float *__restrict__ y) {
  int base = blockIdx.x * blockDim.x * 4 + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    y[base + k * blockDim.x] = x[base + k * blockDim.x];
}

extern "C" __global__ void copy_4per_thread_bug(const float *__restrict__ x,
                                                float *__restrict__ y) {
  int base = blockIdx.x * blockDim.x * 4 + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    int j = k == 3 ? 2 : k;
    y[base + j * blockDim.x] = x[base + k * blockDim.x];
  }
}

template <bool Bug>
__device__ void rmsnorm_row(const float *__restrict__ x,
                            const float *__restrict__ w,
                            float *__restrict__ y, float eps) {
  const int N = 128;
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const float *xr = x + row * N;
  float v[4];
  float ss = 0.f;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    v[k] = xr[lane + 32 * k];
    ss += v[k] * v[k];
  }
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    ss += __shfl_xor_sync(0xffffffffu, ss, o);
  float r = rsqrtf(ss / N + eps);
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    int wi = Bug ? (lane + 32 * (k + 1)) % N : lane + 32 * k;
    y[row * N + lane + 32 * k] = v[k] * r * w[wi];
  }
}

extern "C" __global__ void rmsnorm_warp4(const float *__restrict__ x,
                                         const float *__restrict__ w,
                                         float *__restrict__ y, float eps) {
  rmsnorm_row<false>(x, w, y, eps);
}

extern "C" __global__ void rmsnorm_warp4_bug(const float *__restrict__ x,
                                             const float *__restrict__ w,
                                             float *__restrict__ y,
                                             float eps) {
  rmsnorm_row<true>(x, w, y, eps);
}

extern "C" __global__ void gather_idx(const float *__restrict__ x,
                                      const int *__restrict__ idx,
                                      float *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[idx[i]];
}

extern "C" __global__ void gather_idx_clamped(const float *__restrict__ x,
                                              const int *__restrict__ idx,
                                              float *__restrict__ y, int n,
                                              int n_x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[min(idx[i], n_x - 1)];
}

#define PAGE 4
#define HD 2

template <bool Bug>
__device__ void paged_kv(const float *__restrict__ k_cache,
                         const int *__restrict__ block_table,
                         float *__restrict__ k_out, int max_pages, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x; // ((b * n + j) * HD + c)
  int c = t % HD;
  int j = (t / HD) % n;
  int b = t / (HD * n);
  int page = block_table[b * max_pages + j / PAGE];
  int slot = Bug ? j / PAGE : j % PAGE;
  k_out[t] = k_cache[(page * PAGE + slot) * HD + c];
}

extern "C" __global__ void paged_kv_gather(const float *__restrict__ k_cache,
                                           const int *__restrict__ block_table,
                                           float *__restrict__ k_out,
                                           int max_pages, int n) {
  paged_kv<false>(k_cache, block_table, k_out, max_pages, n);
}

extern "C" __global__ void
paged_kv_gather_bug(const float *__restrict__ k_cache,
                    const int *__restrict__ block_table,
                    float *__restrict__ k_out, int max_pages, int n) {
  paged_kv<true>(k_cache, block_table, k_out, max_pages, n);
}

template <bool Bug>
__device__ void grid_stride(const float *__restrict__ x, float *__restrict__ y,
                            int n) {
  int start = blockIdx.x * blockDim.x + threadIdx.x + (Bug ? 1 : 0);
  for (int i = start; i < n; i += gridDim.x * blockDim.x)
    y[i] = 2.0f * x[i];
}

extern "C" __global__ void scale_grid_stride(const float *__restrict__ x,
                                             float *__restrict__ y, int n) {
  grid_stride<false>(x, y, n);
}

extern "C" __global__ void scale_grid_stride_bug(const float *__restrict__ x,
                                                 float *__restrict__ y, int n) {
  grid_stride<true>(x, y, n);
}

template <int E, bool Bug>
__device__ void layernorm_row(const float *__restrict__ x,
                              const float *__restrict__ w,
                              const float *__restrict__ b,
                              float *__restrict__ y, float eps) {
  const int N = 32 * E;
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const float *xr = x + row * N;
  float v[E];
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < E; ++k) {
    v[k] = xr[lane + 32 * k];
    s += v[k];
  }
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, o);
  float mean = s / N;
  float q = 0.f;
#pragma unroll
  for (int k = 0; k < E; ++k)
    q += (v[k] - mean) * (v[k] - mean);
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    q += __shfl_xor_sync(0xffffffffu, q, o);
  float r = rsqrtf(q / N + eps);
#pragma unroll
  for (int k = 0; k < E; ++k) {
    int c = lane + 32 * k;
    y[row * N + c] = (v[k] - mean) * r * w[c] + b[Bug ? (c + 32) % N : c];
  }
}

extern "C" __global__ void layernorm_warp4(const float *__restrict__ x,
                                           const float *__restrict__ w,
                                           const float *__restrict__ b,
                                           float *__restrict__ y, float eps) {
  layernorm_row<4, false>(x, w, b, y, eps);
}

extern "C" __global__ void layernorm_warp8(const float *__restrict__ x,
                                           const float *__restrict__ w,
                                           const float *__restrict__ b,
                                           float *__restrict__ y, float eps) {
  layernorm_row<8, false>(x, w, b, y, eps);
}

extern "C" __global__ void layernorm_warp4_bug(const float *__restrict__ x,
                                               const float *__restrict__ w,
                                               const float *__restrict__ b,
                                               float *__restrict__ y,
                                               float eps) {
  layernorm_row<4, true>(x, w, b, y, eps);
}

// Added later (kept at the end so the line numbers above stay put):
//   rmsnorm_warp8      : RMSnorm of a 256-wide row per warp, 8 elements per
//                        lane (rmsnorm_warp4 with E = 8)
//   rmsnorm_warp8_bug  : the weight of lane l + 32k taken from
//                        w[l + 32(k+1) mod 256]
//   layernorm_warp8_bug : layernorm_warp8 adding the bias of the next
//                        column block
//   group16_sum        : each group of 16 consecutive threads sums its 16
//                        elements by xor shuffles (8, 4, 2, 1) and the
//                        group's first thread writes y[t >> 4] under
//                        t % 16 == 0: a writer not determined by the address
//                        alone (the guard picks one of 16 candidates)
//   group16_sum_bug    : the guard is t % 8 == 0: two threads of each group
//                        write the same y[t >> 4]
template <int E, bool Bug>
__device__ void rmsnorm_row_e(const float *__restrict__ x,
                              const float *__restrict__ w,
                              float *__restrict__ y, float eps) {
  const int N = 32 * E;
  int lane = threadIdx.x & 31;
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const float *xr = x + row * N;
  float v[E];
  float ss = 0.f;
#pragma unroll
  for (int k = 0; k < E; ++k) {
    v[k] = xr[lane + 32 * k];
    ss += v[k] * v[k];
  }
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    ss += __shfl_xor_sync(0xffffffffu, ss, o);
  float r = rsqrtf(ss / N + eps);
#pragma unroll
  for (int k = 0; k < E; ++k) {
    int wi = Bug ? (lane + 32 * (k + 1)) % N : lane + 32 * k;
    y[row * N + lane + 32 * k] = v[k] * r * w[wi];
  }
}

extern "C" __global__ void rmsnorm_warp8(const float *__restrict__ x,
                                         const float *__restrict__ w,
                                         float *__restrict__ y, float eps) {
  rmsnorm_row_e<8, false>(x, w, y, eps);
}

extern "C" __global__ void rmsnorm_warp8_bug(const float *__restrict__ x,
                                             const float *__restrict__ w,
                                             float *__restrict__ y,
                                             float eps) {
  rmsnorm_row_e<8, true>(x, w, y, eps);
}

extern "C" __global__ void layernorm_warp8_bug(const float *__restrict__ x,
                                               const float *__restrict__ w,
                                               const float *__restrict__ b,
                                               float *__restrict__ y,
                                               float eps) {
  layernorm_row<8, true>(x, w, b, y, eps);
}

template <int Leader>
__device__ void group16_sum_impl(const float *__restrict__ x,
                                 float *__restrict__ y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[t];
#pragma unroll
  for (int o = 8; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  if (t % Leader == 0)
    y[t >> 4] = v;
}

extern "C" __global__ void group16_sum(const float *__restrict__ x,
                                       float *__restrict__ y) {
  group16_sum_impl<16>(x, y);
}

extern "C" __global__ void group16_sum_bug(const float *__restrict__ x,
                                           float *__restrict__ y) {
  group16_sum_impl<8>(x, y);
}
