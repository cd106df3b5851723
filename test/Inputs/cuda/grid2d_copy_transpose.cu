// grid2d_copy_transpose.cu -- 2-D launches: each thread handles one element
// (row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x *
// blockDim.x + threadIdx.x) of an M x N matrix, guarded by row < M, col < N.
//
//   grid2d_copy      : y[row * N + col] = x[row * N + col]
//   grid2d_transpose : y[col * M + row] = x[row * N + col]   (y is N x M)
//
// Fixture for: coverage of 2-D launches (the witness thread of each element
// is found by inverting the layout), against the copy and permute specs.
extern "C" __global__ void grid2d_copy(const float *__restrict__ x,
                                       float *__restrict__ y, int M, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N)
    y[row * N + col] = x[row * N + col];
}

extern "C" __global__ void grid2d_transpose(const float *__restrict__ x,
                                            float *__restrict__ y, int M,
                                            int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N)
    y[col * M + row] = x[row * N + col];
}
