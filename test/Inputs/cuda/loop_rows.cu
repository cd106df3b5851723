// loop_rows.cu -- row reductions whose length n is a kernel parameter.
//
// One thread per row of x [rows, n] (row-major): y[row] = sum or max of the
// row. The loops keep `#pragma unroll 1`, so that nvcc -O3 emits one
// counted loop (bottom-tested) and -G one top-tested loop; both are
// summarized by kproof for every n in the contract's range at once.
//
// Fixture for: loop summaries over a symbolic trip count
// (test/Verifier/loop-symbolic-rows.mlir). The *_bug kernels are the
// planted-bug twins: row_sum_skip_last stops one element early,
// row_max_from_zero starts the running max at 0 instead of -inf (wrong for
// rows of negative values). row_prefix_sum stores in its loop (a store family).

#include <math.h>

extern "C" __global__ void row_sum(const float *__restrict__ x,
                                   float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#pragma unroll 1
  for (int j = 0; j < n; ++j)
    acc += x[row * n + j];
  y[row] = acc;
}

extern "C" __global__ void row_sum_skip_last(const float *__restrict__ x,
                                             float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#pragma unroll 1
  for (int j = 0; j < n - 1; ++j)
    acc += x[row * n + j];
  y[row] = acc;
}

extern "C" __global__ void row_max(const float *__restrict__ x,
                                   float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float m = -INFINITY;
#pragma unroll 1
  for (int j = 0; j < n; ++j)
    m = fmaxf(m, x[row * n + j]);
  y[row] = m;
}

extern "C" __global__ void row_max_from_zero(const float *__restrict__ x,
                                             float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float m = 0.0f;
#pragma unroll 1
  for (int j = 0; j < n; ++j)
    m = fmaxf(m, x[row * n + j]);
  y[row] = m;
}

// nvcc's default: the loop unrolled by 4 with a remainder loop.
extern "C" __global__ void row_sum_unrolled(const float *__restrict__ x,
                                            float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int j = 0; j < n; ++j)
    acc += x[row * n + j];
  y[row] = acc;
}

// A store in the loop body (a running sum, one output per element): not
// summarized yet, so it forks once per iteration and ends UNKNOWN at the
// path limit, naming the loop.
extern "C" __global__ void row_prefix_sum(const float *__restrict__ x,
                                          float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#pragma unroll 1
  for (int j = 0; j < n; ++j) {
    acc += x[row * n + j];
    y[row * n + j] = acc;
  }
}

// Two loops over the two halves of the row: two sums that tile [0, n)
// (not proved yet: bench/loop-rows.sh records it).
extern "C" __global__ void row_sum_halves(const float *__restrict__ x,
                                          float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int h = n / 2;
  float acc = 0.0f;
#pragma unroll 1
  for (int j = 0; j < h; ++j)
    acc += x[row * n + j];
#pragma unroll 1
  for (int j = h; j < n; ++j)
    acc += x[row * n + j];
  y[row] = acc;
}
