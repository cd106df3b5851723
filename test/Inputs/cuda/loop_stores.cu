// loop_stores.cu -- loops that store an element per iteration, over a
// length n that is a kernel parameter.
//
// row_copy: one thread per row of x [rows, n], y[row, j] = x[row, j].
// softmax_rows_3pass: one thread per row, three loops (running max, sum of
// exp, normalized stores). grid_stride_copy: y[i] = x[i] for i < n with the
// grid-stride loop `i += blockDim.x * gridDim.x`. The loops keep
// `#pragma unroll 1`.
//
// Fixture for: loops that store at counter-indexed addresses
// (test/Verifier/loop-symbolic-stores.mlir): each store of a summarized
// loop is a store family over its iterations, so these prove for every n
// in the contract's range, and the planted-bug twins are REFUTED.
// Twins: softmax_rows_3pass_short sums one element fewer than it
// normalizes; grid_stride_copy_block strides by blockDim.x only, so a
// grid of several CTAs writes elements twice (a race) and leaves the tail
// unwritten when n exceeds the number of threads times the trip count.

#include <math.h>

extern "C" __global__ void row_copy(const float *__restrict__ x,
                                    float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll 1
  for (int j = 0; j < n; ++j)
    y[row * n + j] = x[row * n + j];
}

extern "C" __global__ void softmax_rows_3pass(const float *__restrict__ x,
                                              float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const float *xr = x + (size_t)row * n;
  float m = -INFINITY;
#pragma unroll 1
  for (int j = 0; j < n; ++j)
    m = fmaxf(m, xr[j]);
  float d = 0.0f;
#pragma unroll 1
  for (int j = 0; j < n; ++j)
    d += __expf(xr[j] - m);
#pragma unroll 1
  for (int j = 0; j < n; ++j)
    y[(size_t)row * n + j] = __expf(xr[j] - m) / d;
}

extern "C" __global__ void softmax_rows_3pass_short(
    const float *__restrict__ x, float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const float *xr = x + (size_t)row * n;
  float m = -INFINITY;
#pragma unroll 1
  for (int j = 0; j < n; ++j)
    m = fmaxf(m, xr[j]);
  float d = 0.0f;
#pragma unroll 1
  for (int j = 0; j + 1 < n; ++j) // bug: the last element is not summed
    d += __expf(xr[j] - m);
#pragma unroll 1
  for (int j = 0; j < n; ++j)
    y[(size_t)row * n + j] = __expf(xr[j] - m) / d;
}

extern "C" __global__ void grid_stride_copy(const float *__restrict__ x,
                                            float *__restrict__ y, int n) {
#pragma unroll 1
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = x[i];
}

extern "C" __global__ void grid_stride_copy_block(const float *__restrict__ x,
                                                  float *__restrict__ y,
                                                  int n) {
#pragma unroll 1
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x) // bug: the stride leaves out gridDim.x
    y[i] = x[i];
}

// grid_stride_scaled_exp: y[i] = exp(s * x[i]) for i < n, grid-stride.
extern "C" __global__ void grid_stride_scaled_exp(const float *__restrict__ x,
                                                  float *__restrict__ y,
                                                  float s, int n) {
#pragma unroll 1
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = __expf(s * x[i]);
}

// Added later (kept at the end so the line numbers above stay put):
// grid_stride_scaled_exp_short: the loop's bound is n - 1 (the last
// element is never written).
extern "C" __global__ void
grid_stride_scaled_exp_short(const float *__restrict__ x,
                             float *__restrict__ y, float s, int n) {
#pragma unroll 1
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n - 1;
       i += blockDim.x * gridDim.x)
    y[i] = __expf(s * x[i]);
}
