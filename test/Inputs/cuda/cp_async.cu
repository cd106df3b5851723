// Asynchronous copies global -> shared (cp.async, sm_80) through the
// cuda_pipeline.h primitives: __pipeline_memcpy_async is cp.async,
// __pipeline_commit cp.async.commit_group, __pipeline_wait_prior(N)
// cp.async.wait_group N. blockDim.x is 128.
//
//   copy_rotate        : each thread copies in[base + t] into tile[t],
//                        commits, waits for it, then __syncthreads; it
//                        reads its neighbour's element: race-free, and
//                        out = 2 * rotate(in).
//   copy_rotate_nowait : the same without the wait: the barrier does not
//                        order a copy still in flight (race).
//   copy_rotate_early  : each thread reads its own tile[t] before its wait
//                        (a race with its own copy).
//   copy_masked        : src-size zero-fill: threads past n copy nothing
//                        and their slots are zeros; out = 2 * rotate of
//                        (in padded with zeros to the grid).
//   double_buffer      : a two-stage pipeline over `tiles` tiles: tile k+1
//                        is copied while tile k is read; every iteration
//                        commits a group (empty in the last), so
//                        wait_prior(1) leaves only the newest pending:
//                        race-free, out[i] = sum over k of the neighbour's
//                        element of tile k.
//   double_buffer_last : commits only when it copies, so in the last
//                        iteration wait_prior(1) leaves the last tile in
//                        flight (it needs wait_prior(0)): a race.
#include <cuda_pipeline.h>

extern "C" __global__ void copy_rotate(const float *__restrict__ in,
                                       float *__restrict__ out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x, base = blockIdx.x * 128;
  __pipeline_memcpy_async(&tile[t], &in[base + t], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[base + t] = 2.0f * tile[(t + 1) % 128];
}

extern "C" __global__ void copy_rotate_nowait(const float *__restrict__ in,
                                              float *__restrict__ out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x, base = blockIdx.x * 128;
  __pipeline_memcpy_async(&tile[t], &in[base + t], sizeof(float));
  __pipeline_commit();
  __syncthreads();
  out[base + t] = 2.0f * tile[(t + 1) % 128];
  __pipeline_wait_prior(0);
}

extern "C" __global__ void copy_rotate_early(const float *__restrict__ in,
                                             float *__restrict__ out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x, base = blockIdx.x * 128;
  __pipeline_memcpy_async(&tile[t], &in[base + t], sizeof(float));
  __pipeline_commit();
  float mine = tile[t];
  __pipeline_wait_prior(0);
  __syncthreads();
  out[base + t] = mine + tile[(t + 1) % 128];
}

extern "C" __global__ void copy_masked(const float *__restrict__ in,
                                       float *__restrict__ out, unsigned n) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x, base = blockIdx.x * 128;
  unsigned i = base + t;
  // Past n: copy 0 bytes, zero-fill 4 (the source address is not read).
  __pipeline_memcpy_async(&tile[t], &in[i < n ? i : 0], sizeof(float),
                          i < n ? 0 : sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = 2.0f * tile[(t + 1) % 128];
}

extern "C" __global__ void double_buffer(const float *__restrict__ in,
                                         float *__restrict__ out, int tiles) {
  __shared__ float buf[2][128];
  unsigned t = threadIdx.x;
  unsigned stride = gridDim.x * 128, i = blockIdx.x * 128 + t;
  __pipeline_memcpy_async(&buf[0][t], &in[i], sizeof(float));
  __pipeline_commit();
  float acc = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles)
      __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &in[(k + 1) * stride + i],
                              sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    acc += buf[k & 1][(t + 1) % 128];
    __syncthreads();
  }
  out[i] = acc;
}

extern "C" __global__ void double_buffer_last(const float *__restrict__ in,
                                              float *__restrict__ out,
                                              int tiles) {
  __shared__ float buf[2][128];
  unsigned t = threadIdx.x;
  unsigned stride = gridDim.x * 128, i = blockIdx.x * 128 + t;
  __pipeline_memcpy_async(&buf[0][t], &in[i], sizeof(float));
  __pipeline_commit();
  float acc = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles) {
      __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &in[(k + 1) * stride + i],
                              sizeof(float));
      __pipeline_commit();
    }
    __pipeline_wait_prior(1);
    __syncthreads();
    acc += buf[k & 1][(t + 1) % 128];
    __syncthreads();
  }
  out[i] = acc;
}
