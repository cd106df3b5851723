// grid3d.cu -- 3-D launch geometry: threadIdx/blockIdx/blockDim/gridDim in x,
// y and z.
//
// For a dense volume out[nz][ny][nx] (row-major, x fastest), each thread
// starts at (x, y, z) = blockIdx.* * blockDim.* + threadIdx.* and grid-strides
// in all three dimensions by blockDim.* * gridDim.*, writing
//
//   out[(z*ny + y)*nx + x] = in[(z*ny + y)*nx + x] * w + (float)(x + y + z)
//
// so every element is written exactly once for ANY launch geometry.
//
// Fixture for: special registers %tid/%ctaid/%ntid/%nctaid .x/.y/.z, the
// "3-D grid-stride loop covers every index exactly once" proof (coverage +
// no write-write race), and 64-bit index arithmetic (size_t linearisation).

extern "C" __global__ void grid3d_axpb(const float *__restrict__ in,
                                       float *__restrict__ out, float w, int nx,
                                       int ny, int nz) {
  const int sx = blockDim.x * gridDim.x;
  const int sy = blockDim.y * gridDim.y;
  const int sz = blockDim.z * gridDim.z;
  for (int z = blockIdx.z * blockDim.z + threadIdx.z; z < nz; z += sz)
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < ny; y += sy)
      for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < nx; x += sx) {
        size_t idx = ((size_t)z * ny + y) * nx + x;
        out[idx] = in[idx] * w + (float)(x + y + z);
      }
}
