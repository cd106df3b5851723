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
//   handoff_nowait     : (blockDim.x = 256) warps 0-3 copy a tile and
//                        bar.arrive 1, 256 without waiting; warps 4-7
//                        bar.sync 1, 256 and read it: the copy may land
//                        after the hand-off (race).
//   handoff_wait       : the same with the wait before bar.arrive:
//                        race-free.
//   src_size_param     : src-size taken from a parameter (inline PTX):
//                        above cp-size it is undefined behaviour.
//   no_commit          : the copy is never committed, so wait_group 0
//                        does not wait for it (race).
//   source_overwrite   : the thread stores to the copy's source (an inout
//                        buffer) before its wait: the copy may still read
//                        it (a race kproof-run reports; the prover answers
//                        UNKNOWN for a source other threads may write).
//   block_stride_rotate: a 256-element tile copied by 128 threads in a
//                        block-stride loop with a 64-bit counter (its
//                        shared offset a truncation, cvt.u32.u64), two
//                        outputs per thread.
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

extern "C" __global__ void handoff_nowait(const float *__restrict__ in,
                                          float *__restrict__ out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x, base = blockIdx.x * 128;
  if (t < 128) {
    __pipeline_memcpy_async(&tile[t], &in[base + t], sizeof(float));
    __pipeline_commit();
    asm volatile("bar.arrive 1, 256;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 256;" ::: "memory");
    unsigned c = t - 128;
    out[base + c] = 2.0f * tile[(c + 1) % 128];
  }
}

extern "C" __global__ void handoff_wait(const float *__restrict__ in,
                                        float *__restrict__ out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x, base = blockIdx.x * 128;
  if (t < 128) {
    __pipeline_memcpy_async(&tile[t], &in[base + t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    asm volatile("bar.arrive 1, 256;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 256;" ::: "memory");
    unsigned c = t - 128;
    out[base + c] = 2.0f * tile[(c + 1) % 128];
  }
}

extern "C" __global__ void src_size_param(const float *__restrict__ in,
                                          float *__restrict__ out,
                                          unsigned bytes) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x, base = blockIdx.x * 128;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(
                   (unsigned)__cvta_generic_to_shared(&tile[t])),
               "l"(&in[base + t]), "r"(bytes)
               : "memory");
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[base + t] = 2.0f * tile[(t + 1) % 128];
}

extern "C" __global__ void no_commit(const float *__restrict__ in,
                                     float *__restrict__ out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x, base = blockIdx.x * 128;
  __pipeline_memcpy_async(&tile[t], &in[base + t], sizeof(float));
  __pipeline_wait_prior(0);
  __syncthreads();
  out[base + t] = 2.0f * tile[(t + 1) % 128];
}

extern "C" __global__ void source_overwrite(float *buf,
                                            float *__restrict__ out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x;
  __pipeline_memcpy_async(&tile[t], &buf[t], sizeof(float));
  buf[t] = 7.0f;
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[t] = tile[t];
}

extern "C" __global__ void block_stride_rotate(const float *__restrict__ in,
                                               float *__restrict__ out) {
  __shared__ float tile[256];
  unsigned base = blockIdx.x * 256;
  for (size_t i = threadIdx.x; i < 256; i += blockDim.x)
    __pipeline_memcpy_async(&tile[i], &in[base + i], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  unsigned t = threadIdx.x;
  out[base + t] = tile[(t + 1) % 256] + tile[(t + 129) % 256];
  out[base + t + 128] = tile[(t + 129) % 256] + tile[(t + 1) % 256];
}
