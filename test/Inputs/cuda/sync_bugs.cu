// sync_bugs.cu -- synchronization fixtures: correct kernels and planted bugs
// for the race, barrier-divergence and shared-memory value checks
// (kproof-opt --verify-sync / --verify-equiv).
//
//   rotate_smem            : s[t] = in[g]; __syncthreads(); out[g] = s[(t+1) % ntid]
//                            (g = ctaid.x*ntid.x + t). Race-free; equals the
//                            per-CTA rotate-by-one of `in`, for any block size.
//   rotate_smem_nobarrier  : the same without the barrier: a shared-memory race,
//                            and a value counterexample.
//   dot32_nobarrier        : lane l stores a[l]*b[l] to shared, lane 0 sums the
//                            32 products WITHOUT a barrier: race.
//   barrier_skip64         : every 64th thread (t % 64 == 63) skips the
//                            __syncthreads(): barrier divergence.
//   overlap_footprints     : CTA b writes out[b*(ntid-1) + t]: the footprints of
//                            CTAs b and b+1 overlap by one element (write-write
//                            race across CTAs).
//   tree_reduce_warp_tail  : block tree reduction whose last 6 steps run
//                            warp-synchronously (no barrier, no volatile, no
//                            __syncwarp): a shared-memory race.
//   tile_loop_no_trailing  : a loop that refills one shared tile per iteration
//                            with a barrier after the fill but none at the end
//                            of the body: iteration k+1's fill races with
//                            iteration k's reads (loop-carried race).
//   tile_loop              : the same with the trailing barrier (race-free).
//
// All kernels are 1-D; blockDim.x may be any value up to 1024 (also values
// that are not multiples of 32) unless stated.

extern "C" __global__ void rotate_smem(const float *__restrict__ in,
                                       float *__restrict__ out) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + t;
  s[t] = in[g];
  __syncthreads();
  out[g] = s[(t + 1) % blockDim.x];
}

extern "C" __global__ void rotate_smem_nobarrier(const float *__restrict__ in,
                                                 float *__restrict__ out) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * blockDim.x + t;
  s[t] = in[g];
  out[g] = s[(t + 1) % blockDim.x];
}

extern "C" __global__ void dot32_nobarrier(const float *__restrict__ a,
                                           const float *__restrict__ b,
                                           float *__restrict__ out) {
  __shared__ float p[32];
  unsigned l = threadIdx.x;
  p[l] = a[l] * b[l];
  if (l == 0) {
    float sum = 0.0f;
    for (int i = 0; i < 32; ++i)
      sum += p[i];
    out[0] = sum;
  }
}

extern "C" __global__ void barrier_skip64(const float *__restrict__ in,
                                          float *__restrict__ out) {
  __shared__ float s[1024];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  if (t % 64 != 63)
    __syncthreads();
  out[t] = s[t];
}

extern "C" __global__ void overlap_footprints(const float *__restrict__ in,
                                              float *__restrict__ out) {
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * (blockDim.x - 1) + t;
  out[g] = in[blockIdx.x * blockDim.x + t];
}

extern "C" __global__ void tree_reduce_warp_tail(const float *__restrict__ in,
                                                 float *__restrict__ out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x; // blockDim.x == 256
  s[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned k = 128; k > 32; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  if (t < 32) {
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

extern "C" __global__ void tile_loop_no_trailing(const float *__restrict__ in,
                                                 float *__restrict__ out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x; // blockDim.x == 128, one CTA, 4 tiles
  float acc = 0.0f;
  for (int k = 0; k < 4; ++k) {
    tile[t] = in[k * 128 + t];
    __syncthreads();
    acc += tile[(t + 1) % 128];
  }
  out[t] = acc;
}

extern "C" __global__ void tile_loop(const float *__restrict__ in,
                                     float *__restrict__ out) {
  __shared__ float tile[128];
  unsigned t = threadIdx.x; // blockDim.x == 128, one CTA, 4 tiles
  float acc = 0.0f;
  for (int k = 0; k < 4; ++k) {
    tile[t] = in[k * 128 + t];
    __syncthreads();
    acc += tile[(t + 1) % 128];
    __syncthreads();
  }
  out[t] = acc;
}

// warp_sum_bfly          : butterfly warp sum with __shfl_xor_sync over the
//                          full warp; lane 0 writes the sum of the 32 inputs.
// warp_sum_bfly_missing  : the same with the xor-2 step missing (lane 0 then
//                          holds the sum of 16 inputs, missing lanes 2, 3,
//                          6, 7, ...).
// warp_sum_half_mask     : the first 16 lanes shuffle with a full membermask
//                          (the other 16 lanes do not execute the shfl).
extern "C" __global__ void warp_sum_bfly(const float *__restrict__ in,
                                         float *__restrict__ out) {
  unsigned lane = threadIdx.x; // one warp
  float v = in[lane];
  for (int k = 16; k > 0; k >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, k);
  if (lane == 0)
    out[0] = v;
}

extern "C" __global__ void warp_sum_bfly_missing(const float *__restrict__ in,
                                                 float *__restrict__ out) {
  unsigned lane = threadIdx.x; // one warp
  float v = in[lane];
  for (int k = 16; k > 0; k >>= 1)
    if (k != 2)
      v += __shfl_xor_sync(0xffffffffu, v, k);
  if (lane == 0)
    out[0] = v;
}

extern "C" __global__ void warp_sum_half_mask(const float *__restrict__ in,
                                              float *__restrict__ out) {
  unsigned lane = threadIdx.x; // one warp
  float v = in[lane];
  if (lane < 16)
    v += __shfl_xor_sync(0xffffffffu, v, 1);
  out[lane] = v;
}
