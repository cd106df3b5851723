// transpose_swizzle.cu -- the tiled transpose of transpose_tiled.cu with an
// XOR-swizzled tile instead of padding (the bank-conflict-free layout of
// CUTLASS and Triton): element (r, c) of the tile lives at tile[r][c ^ r].
// A 32x8 block moves a 32x32 tile, 4 elements per thread, out[x, y] =
// in[y, x] for a W x H matrix.
//
//   transpose_xor     : written at [r][c ^ r], read back at [c][r ^ c]
//   transpose_xor_bug : read back at [c][r] (the swizzle forgotten on the
//                       way out)
//
// Fixture for: shared writers whose address is an XOR of thread-id bits
// (test/Verifier/memory-swizzle.mlir).
#define TILE 32
#define ROWS 8

template <bool Unswizzle>
__device__ void transpose_xor_tile(const float *__restrict__ in,
                                   float *__restrict__ out, int W, int H) {
  __shared__ float tile[TILE * TILE];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx;
  int y = blockIdx.y * TILE + ty;
#pragma unroll
  for (unsigned j = 0; j < TILE; j += ROWS) {
    unsigned r = ty + j;
    tile[r * TILE + (tx ^ r)] = in[(y + j) * W + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE + tx;
  y = blockIdx.x * TILE + ty;
#pragma unroll
  for (unsigned j = 0; j < TILE; j += ROWS) {
    unsigned r = ty + j;
    out[(y + j) * H + x] = tile[tx * TILE + (Unswizzle ? (r ^ tx) : r)];
  }
}

extern "C" __global__ void transpose_xor(const float *__restrict__ in,
                                         float *__restrict__ out, int W,
                                         int H) {
  transpose_xor_tile<true>(in, out, W, H);
}

extern "C" __global__ void transpose_xor_bug(const float *__restrict__ in,
                                             float *__restrict__ out, int W,
                                             int H) {
  transpose_xor_tile<false>(in, out, W, H);
}
