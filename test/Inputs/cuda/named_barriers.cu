// Named barriers with thread counts (PTX ISA 9.7.13.4: bar.sync id, n and
// bar.arrive id, n), written as inline PTX the way warp-specialized kernels
// use them. blockDim.x is 256 unless stated.
//
//   producer_consumer        : warps 0-3 (threads 0-127) fill a shared tile
//                              and bar.arrive 1, 256; warps 4-7 bar.sync 1,
//                              256 and read it: race-free.
//   producer_consumer_early  : the producers arrive BEFORE writing: a race
//                              between a producer's write and a consumer's
//                              read.
//   producer_consumer_count  : the count says 128 while 256 threads arrive:
//                              wrong participant count.
//   two_groups               : (blockDim.x = 128) warps 0-1 synchronize on
//                              barrier 1, warps 2-3 on barrier 2, 64 threads
//                              each; each group rotates its own 64 values
//                              through shared memory: race-free.
//   two_groups_cross         : the same, but each thread reads the other
//                              group's slot, which no barrier orders: race.
//   two_groups_half_warp     : (blockDim.x = 128) groups of 48 threads with
//                              barriers of count 64: barrier 1 is reached by
//                              part of warp 1 only (divergence).
//   cross_deadlock           : (blockDim.x = 256) warps 0-1 pass barrier 1
//                              then barrier 2, warps 2-3 barrier 2 then
//                              barrier 1 (count 128 each): each group waits
//                              for the other (deadlock).
//   cta_order_deadlock       : (blockDim.x = 128) warp 0 passes barrier 1
//                              (count 64) before __syncthreads, warp 1
//                              after it: deadlock.
//   split_warp               : (blockDim.x = 128) half of each of warps 0-1
//                              reaches barrier 1 at one bar.sync, the other
//                              half at another (.aligned divergence).
//   via_third_warp           : (blockDim.x = 96) warp 0 writes and passes
//                              barrier 1 with warp 1, warp 1 then passes
//                              barrier 2 with warp 2, which reads: ordered
//                              through warp 1 (race-free).
//   too_few                  : (blockDim.x = 128) warps 0-1 wait at
//                              barrier 1 with count 96: a generation never
//                              completes.
//   named_full               : rotate-by-one with `bar.sync 1;` (no count:
//                              every thread of the CTA): a CTA-wide barrier,
//                              race-free and equal to its spec, any block
//                              size.

extern "C" __global__ void producer_consumer(const float *__restrict__ in,
                                             float *__restrict__ out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * 128;
  if (t < 128) {
    tile[t] = in[base + t];
    asm volatile("bar.arrive 1, 256;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 256;" ::: "memory");
    unsigned c = t - 128;
    out[base + c] = 2.0f * tile[(c + 1) % 128];
  }
}

extern "C" __global__ void producer_consumer_early(const float *__restrict__ in,
                                                   float *__restrict__ out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * 128;
  if (t < 128) {
    asm volatile("bar.arrive 1, 256;" ::: "memory");
    tile[t] = in[base + t];
  } else {
    asm volatile("bar.sync 1, 256;" ::: "memory");
    unsigned c = t - 128;
    out[base + c] = 2.0f * tile[(c + 1) % 128];
  }
}

extern "C" __global__ void producer_consumer_count(const float *__restrict__ in,
                                                   float *__restrict__ out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * 128;
  if (t < 128) {
    tile[t] = in[base + t];
    asm volatile("bar.arrive 1, 128;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    unsigned c = t - 128;
    out[base + c] = 2.0f * tile[(c + 1) % 128];
  }
}

extern "C" __global__ void two_groups(const float *__restrict__ in,
                                      float *__restrict__ out) {
  __shared__ float s[128];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * 128 + t;
  s[t] = in[g];
  if (t < 64)
    asm volatile("bar.sync 1, 64;" ::: "memory");
  else
    asm volatile("bar.sync 2, 64;" ::: "memory");
  out[g] = s[(t & ~63u) | ((t + 1) & 63u)];
}

extern "C" __global__ void two_groups_cross(const float *__restrict__ in,
                                            float *__restrict__ out) {
  __shared__ float s[128];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * 128 + t;
  s[t] = in[g];
  if (t < 64)
    asm volatile("bar.sync 1, 64;" ::: "memory");
  else
    asm volatile("bar.sync 2, 64;" ::: "memory");
  out[g] = s[(t + 64) % 128];
}

extern "C" __global__ void two_groups_half_warp(const float *__restrict__ in,
                                                float *__restrict__ out) {
  __shared__ float s[128];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * 128 + t;
  s[t] = in[g];
  if (t < 48)
    asm volatile("bar.sync 1, 64;" ::: "memory");
  else
    asm volatile("bar.sync 2, 64;" ::: "memory");
  out[g] = s[t < 48 ? (t + 1) % 48 : 48 + (t - 47) % 80];
}

extern "C" __global__ void named_full(const float *__restrict__ in,
                                      float *__restrict__ out) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + t;
  s[t] = in[g];
  asm volatile("bar.sync 1;" ::: "memory");
  out[g] = s[(t + 1) % blockDim.x];
}

extern "C" __global__ void cross_deadlock(const float *__restrict__ in,
                                          float *__restrict__ out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * 256 + t;
  if (t < 64) {
    s[t] = in[g];
    asm volatile("bar.sync 1, 128;" ::: "memory");
    asm volatile("bar.sync 2, 128;" ::: "memory");
  } else if (t < 128) {
    asm volatile("bar.sync 2, 128;" ::: "memory");
    asm volatile("bar.sync 1, 128;" ::: "memory");
    out[g] = s[t - 64];
  }
}

extern "C" __global__ void cta_order_deadlock(const float *__restrict__ in,
                                              float *__restrict__ out) {
  __shared__ float s[32];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * 128 + t;
  if (t < 32) {
    s[t] = in[g];
    asm volatile("bar.sync 1, 64;" ::: "memory");
  }
  __syncthreads();
  if (t >= 32 && t < 64) {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[g] = s[t - 32];
  }
}

extern "C" __global__ void split_warp(const float *__restrict__ in,
                                      float *__restrict__ out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * 128 + t;
  if (t < 64) {
    s[t] = in[g];
    if (t & 16) {
      asm volatile("bar.sync 1, 64;" ::: "memory");
      out[g] = s[(t + 1) & 63];
    } else {
      asm volatile("bar.sync 1, 64;" ::: "memory");
      out[g] = -s[(t + 1) & 63];
    }
  }
}

extern "C" __global__ void via_third_warp(const float *__restrict__ in,
                                          float *__restrict__ out) {
  __shared__ float s[32];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * 96 + t;
  if (t < 32) {
    s[t] = in[g];
    asm volatile("bar.sync 1, 64;" ::: "memory");
  } else if (t < 64) {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    asm volatile("bar.sync 2, 64;" ::: "memory");
  } else {
    asm volatile("bar.sync 2, 64;" ::: "memory");
    out[g] = s[t - 64];
  }
}

extern "C" __global__ void too_few(const float *__restrict__ in,
                                   float *__restrict__ out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * 128 + t;
  if (t < 64) {
    s[t] = in[g];
    asm volatile("bar.sync 1, 96;" ::: "memory");
    out[g] = s[63 - t];
  }
}
