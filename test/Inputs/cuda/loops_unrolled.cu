// loops_unrolled.cu -- loops over a length n written plainly, with no
// `#pragma unroll 1`: at -O3 nvcc unrolls each by 4 and adds a remainder
// loop, `if (n - 1 < 3u)` skipping the unrolled loop, which runs
// (n - n % 4) / 4 times over four elements each, then up to 3 more
// iterations from 4 * that trip count (at -G the loop stays one loop).
//
//   row_sum_plain: y[row] = sum_{j < n} x[row, j], one thread per row.
//   row_max_plain: y[row] = max_{j < n} x[row, j].
//   row_scale_plain: y[row, j] = 2 x[row, j], stores in both loops (at -O3
//     their race obligations, row * n + 4 k + c from two threads, close
//     with the row lemma; coverage is decided row by row).
//
// Fixture for: reductions of an unrolled loop and its remainder that tile
// the spec's range (test/Verifier/loop-unrolled.mlir). Twins:
// row_sum_plain_short stops one element early (j + 1 < n);
// row_sum_plain_skip1 starts at j = 1; row_scale_plain_short never writes
// the last element of a row.

#include <math.h>

extern "C" __global__ void row_sum_plain(const float *__restrict__ x,
                                         float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float d = 0.0f;
  for (int j = 0; j < n; ++j)
    d += x[(size_t)row * n + j];
  y[row] = d;
}

extern "C" __global__ void row_max_plain(const float *__restrict__ x,
                                         float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float m = -INFINITY;
  for (int j = 0; j < n; ++j)
    m = fmaxf(m, x[(size_t)row * n + j]);
  y[row] = m;
}

extern "C" __global__ void row_sum_plain_short(const float *__restrict__ x,
                                               float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float d = 0.0f;
  for (int j = 0; j + 1 < n; ++j) // bug: the last element is not summed
    d += x[(size_t)row * n + j];
  y[row] = d;
}

extern "C" __global__ void row_sum_plain_skip1(const float *__restrict__ x,
                                               float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float d = 0.0f;
  for (int j = 1; j < n; ++j) // bug: the first element is not summed
    d += x[(size_t)row * n + j];
  y[row] = d;
}

extern "C" __global__ void row_scale_plain(const float *__restrict__ x,
                                           float *__restrict__ y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n; ++j)
    y[(size_t)row * n + j] = 2.0f * x[(size_t)row * n + j];
}

// Twin of row_scale_plain: the last element of each row is never written.
extern "C" __global__ void row_scale_plain_short(const float *__restrict__ x,
                                                 float *__restrict__ y,
                                                 int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < n - 1; ++j)
    y[(size_t)row * n + j] = 2.0f * x[(size_t)row * n + j];
}
