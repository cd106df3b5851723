// transpose_tiled.cu -- the textbook tiled transpose: a 32x32 tile staged
// through shared memory by a 32x8 block, each thread moving 4 elements
// (rows threadIdx.y + 8 j), out[x, y] = in[y, x] for a W x H matrix.
//
//   transpose_smem        : tile[32][32]
//   transpose_smem_padded : tile[32][33] (the bank-conflict-free padding)
//   transpose_smem_bug    : reads tile[threadIdx.y + j][threadIdx.x] back
//                           (the tile is not transposed: a copy per tile)
//   transpose_smem_nosync : no __syncthreads between the two loops (a race)
//
// Fixture for: several shared and global stores per thread, shared reads
// of other threads' writes, against the permute spec
// (test/Verifier/memory-transpose.mlir).
#define TILE 32
#define ROWS 8

template <int Pad, bool Transposed, bool Sync>
__device__ void transpose_tile(const float *__restrict__ in,
                               float *__restrict__ out, int W, int H) {
  __shared__ float tile[TILE][TILE + Pad];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
  if (Sync)
    __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * H + x] = Transposed ? tile[threadIdx.x][threadIdx.y + j]
                                      : tile[threadIdx.y + j][threadIdx.x];
}

extern "C" __global__ void transpose_smem(const float *__restrict__ in,
                                          float *__restrict__ out, int W,
                                          int H) {
  transpose_tile<0, true, true>(in, out, W, H);
}

extern "C" __global__ void transpose_smem_padded(const float *__restrict__ in,
                                                 float *__restrict__ out,
                                                 int W, int H) {
  transpose_tile<1, true, true>(in, out, W, H);
}

extern "C" __global__ void transpose_smem_bug(const float *__restrict__ in,
                                              float *__restrict__ out, int W,
                                              int H) {
  transpose_tile<0, false, true>(in, out, W, H);
}

extern "C" __global__ void transpose_smem_nosync(const float *__restrict__ in,
                                                 float *__restrict__ out,
                                                 int W, int H) {
  transpose_tile<0, true, false>(in, out, W, H);
}

// Added later (kept at the end so the line numbers above stay put): the
// padded tile's own twins.
//   transpose_smem_padded_bug    : tile[32][33], read back untransposed
//   transpose_smem_padded_nosync : tile[32][33], no __syncthreads
extern "C" __global__ void
transpose_smem_padded_bug(const float *__restrict__ in,
                          float *__restrict__ out, int W, int H) {
  transpose_tile<1, false, true>(in, out, W, H);
}

extern "C" __global__ void
transpose_smem_padded_nosync(const float *__restrict__ in,
                             float *__restrict__ out, int W, int H) {
  transpose_tile<1, true, false>(in, out, W, H);
}
