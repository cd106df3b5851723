// reduce_block_smem.cu -- shared-memory reductions with __syncthreads.
//
//   reduce_block_smem_256 : block tree reduction, blockDim.x == 256, one block
//       per 256-element chunk. Each thread loads in[blockIdx.x*256 + tid] (0 if
//       past n) into a __shared__ float[256]; then for s = 128, 64, ..., 1:
//       if (tid < s) buf[tid] += buf[tid + s]; __syncthreads();
//       thread 0 writes out[blockIdx.x] = buf[0].
//
//   dot32_smem_lane0 : dot product of two 32-vectors with 32 threads (one
//       warp): lane l stores a[l]*b[l] to a __shared__ float[32], one
//       __syncthreads(), then lane 0 alone sums the 32 products sequentially
//       and writes out[0].
//
// Fixture for: barrier semantics (bar.sync 0) and data-race freedom of
// shared-memory accesses between barriers, the tree-reduction == sum proof
// (modulo reassociation), and the "one thread reads what all others wrote"
// pattern (dot32: reading without the barrier would be a race).

#define BLOCK 256

extern "C" __global__ void reduce_block_smem_256(const float *__restrict__ in,
                                                 float *__restrict__ out,
                                                 int n) {
  __shared__ float buf[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + tid;
  buf[tid] = (i < (unsigned)n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s)
      buf[tid] += buf[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = buf[0];
}

extern "C" __global__ void dot32_smem_lane0(const float *__restrict__ a,
                                            const float *__restrict__ b,
                                            float *__restrict__ out) {
  __shared__ float prod[32];
  unsigned lane = threadIdx.x; // 0..31
  prod[lane] = a[lane] * b[lane];
  __syncthreads();
  if (lane == 0) {
    float acc = 0.0f;
    for (int l = 0; l < 32; ++l)
      acc += prod[l];
    out[0] = acc;
  }
}
