// softmax_expf.cu -- softmax kernels as people write them, with CUDA's
// precise expf (no --use_fast_math, no __expf): nvcc compiles each expf to
// a range reduction on the float's bits (cvt.sat, fma.rm with the magic
// constant 1.5 * 2^23, the result's bits shifted into an exponent field,
// ex2.approx of the reduced argument), at -O3 inlined, at -G a call of a
// .func expf.
//
//   softmax_rows_expf: one thread per row of x [rows, n], three loops
//     (running max, sum of exp, normalized stores), n a kernel parameter.
//   warp_softmax_expf: one warp per 32-element row, max and sum by
//     xor-shuffle butterflies.
//   causal_softmax_expf: one thread per row i of a 16 x 16 score matrix,
//     key j visible iff j <= i, masked scores -INFINITY (expf(-inf) = 0).
//
// Fixture for: the expf idiom (test/Verifier/math-idioms.mlir). Twins:
// softmax_rows_expf_nomax forgets the max in the normalizing loop
// (expf(x) / d, where d is sum expf(x - m)); warp_softmax_expf_down_sum
// sums with shfl.down (only lane 0 ends with the row's sum);
// causal_softmax_expf_strict masks the diagonal too (row 0 then has no
// visible key: -inf - -inf is NaN).

#include <math.h>

template <bool NoMax>
__device__ __forceinline__ void softmax_rows(const float *__restrict__ x,
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
    d += expf(xr[j] - m);
#pragma unroll 1
  for (int j = 0; j < n; ++j)
    y[(size_t)row * n + j] = expf(NoMax ? xr[j] : xr[j] - m) / d;
}

extern "C" __global__ void softmax_rows_expf(const float *__restrict__ x,
                                             float *__restrict__ y, int n) {
  softmax_rows<false>(x, y, n);
}

extern "C" __global__ void
softmax_rows_expf_nomax(const float *__restrict__ x, float *__restrict__ y,
                        int n) {
  softmax_rows<true>(x, y, n);
}

template <bool DownSum>
__device__ __forceinline__ void warp_softmax(const float *__restrict__ x,
                                             float *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  float m = v;
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float e = expf(v - m);
  float s = e;
  for (int o = 16; o > 0; o >>= 1)
    s += DownSum ? __shfl_down_sync(0xffffffffu, s, o)
                 : __shfl_xor_sync(0xffffffffu, s, o);
  y[i] = e / s;
}

extern "C" __global__ void warp_softmax_expf(const float *__restrict__ x,
                                             float *__restrict__ y) {
  warp_softmax<false>(x, y);
}

extern "C" __global__ void
warp_softmax_expf_down_sum(const float *__restrict__ x,
                           float *__restrict__ y) {
  warp_softmax<true>(x, y);
}

#define N 16

template <bool Strict>
__device__ __forceinline__ void causal_softmax(const float *__restrict__ x,
                                               float *__restrict__ y) {
  int i = threadIdx.x;
  const float *xr = x + i * N;
  float s[N];
  float m = -INFINITY;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    bool visible = Strict ? j < i : j <= i;
    s[j] = visible ? xr[j] : -INFINITY;
    m = fmaxf(m, s[j]);
  }
  float l = 0.0f;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    s[j] = expf(s[j] - m);
    l += s[j];
  }
#pragma unroll
  for (int j = 0; j < N; ++j)
    y[i * N + j] = s[j] / l;
}

extern "C" __global__ void causal_softmax_expf(const float *__restrict__ x,
                                               float *__restrict__ y) {
  causal_softmax<false>(x, y);
}

extern "C" __global__ void
causal_softmax_expf_strict(const float *__restrict__ x,
                           float *__restrict__ y) {
  causal_softmax<true>(x, y);
}
