// reduce_warp_shfl.cu -- warp-shuffle sum reduction, one warp (blockDim.x ==
// 32), 32 inputs -> 1 output.
//
//   reduce_warp_shfl_down : tree reduction with __shfl_down_sync(0xffffffff,
//                           v, k) for k = 16, 8, 4, 2, 1; lane 0 holds the sum
//                           and writes out[0].
//   reduce_warp_shfl_xor  : butterfly reduction with __shfl_xor_sync(0xffffffff,
//                           v, k); every lane ends with the full sum; lane 0
//                           writes out[0] and every lane writes its copy to
//                           all[lane] (so the "all lanes agree" property is
//                           observable).
//
// Both compute sum_{l=0..31} in[l] in a fixed association order (which differs
// between the two kernels).
//
// Fixture for: shfl.sync.down / shfl.sync.bfly semantics (full membermask,
// convergent warp), the warp-reduction == sequential-sum proof modulo float
// reassociation, and the all-lanes-agree property of the butterfly.

extern "C" __global__ void reduce_warp_shfl_down(const float *__restrict__ in,
                                                 float *__restrict__ out) {
  unsigned lane = threadIdx.x; // 0..31, one warp
  float v = in[lane];
#pragma unroll
  for (int k = 16; k > 0; k >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, k);
  if (lane == 0)
    out[0] = v;
}

extern "C" __global__ void reduce_warp_shfl_xor(const float *__restrict__ in,
                                                float *__restrict__ out,
                                                float *__restrict__ all) {
  unsigned lane = threadIdx.x; // 0..31, one warp
  float v = in[lane];
#pragma unroll
  for (int k = 16; k > 0; k >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, k);
  all[lane] = v;
  if (lane == 0)
    out[0] = v;
}
