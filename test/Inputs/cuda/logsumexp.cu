// logsumexp.cu -- the row logsumexp (the normalizer of a log-softmax, the
// statistic attention kernels store beside their output): one thread per
// row of x [rows, n], n a kernel parameter,
//
//   y[row] = m + log(sum_j exp(x[row, j] - m)),  m = max_j x[row, j].
//
// logsumexp_rows_fast uses __expf and __logf (lg2.approx times the f32
// constant ln 2); logsumexp_rows_precise uses expf and logf (nvcc's range
// reductions). Fixture for: the natural log in specs and kernels
// (test/Verifier/math-log.mlir). Twin: logsumexp_rows_fast_nomax forgets
// to add the max back (y = log(sum exp(x - m))).

#include <math.h>

template <bool Fast, bool AddMax>
__device__ __forceinline__ void logsumexp(const float *__restrict__ x,
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
    d += Fast ? __expf(xr[j] - m) : expf(xr[j] - m);
  float l = Fast ? __logf(d) : logf(d);
  y[row] = AddMax ? m + l : l;
}

extern "C" __global__ void logsumexp_rows_fast(const float *__restrict__ x,
                                               float *__restrict__ y, int n) {
  logsumexp<true, true>(x, y, n);
}

extern "C" __global__ void
logsumexp_rows_fast_nomax(const float *__restrict__ x, float *__restrict__ y,
                          int n) {
  logsumexp<true, false>(x, y, n);
}

extern "C" __global__ void
logsumexp_rows_precise(const float *__restrict__ x, float *__restrict__ y,
                       int n) {
  logsumexp<false, true>(x, y, n);
}
