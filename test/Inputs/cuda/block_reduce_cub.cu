// block_reduce_cub.cu -- the CUB-style block sum: each warp reduces with
// shfl.sync.down, lane 0 of each warp stores its partial in shared memory
// (warp_sums[tid >> 5]), and after a barrier warp 0 reduces the 8 partials
// (v = lane < 8 ? warp_sums[lane] : 0) and lane 0 writes the block's sum.
//
//   block_sum_cub     : y[b] = sum_i x[b, i] over 256 threads per block
//   block_sum_cub_bug : warp 0 takes only 7 of the 8 partials (lane < 7)
//
// Fixture for: shared-memory writers that are not linear forms of the
// thread ids (a per-warp slot written by an elected lane), states merged
// around a one-sided shared write, thread ids pinned by lane and warp
// conditions (test/Verifier/memory-block-reduce.mlir).

template <int Partials>
__device__ void block_sum(const float *__restrict__ x, float *__restrict__ y) {
  __shared__ float warp_sums[8];
  int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  float v = x[blockIdx.x * 256 + tid];
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (lane == 0)
    warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < Partials ? warp_sums[lane] : 0.0f;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      y[blockIdx.x] = v;
  }
}

extern "C" __global__ void block_sum_cub(const float *__restrict__ x,
                                         float *__restrict__ y) {
  block_sum<8>(x, y);
}

extern "C" __global__ void block_sum_cub_bug(const float *__restrict__ x,
                                             float *__restrict__ y) {
  block_sum<7>(x, y);
}
