// warp_softmax_masked.cu -- a warp softmax over rows shorter than the warp,
// the masked tail as Triton writes it (`other = -inf`): one warp (CTA) per
// row, lane l < n loads x[row][l], the other lanes hold -INFINITY, so the
// butterfly max and sum run over all 32 lanes and the masked lanes add
// exp(-inf - m) = 0. Only lanes l < n store.
//
//   y[row][l] = exp(x[row][l] - max_j x[row][j]) / sum_j exp(x[row][j] - m)
//
// Fixture for: -inf values at lane-dependent positions through shuffles
// (test/Verifier/warp-softmax-masked.mlir). Twins:
// warp_softmax_masked_zero_fill fills the masked lanes with 0 instead of
// -inf (the max of a row of negative values is then 0, and the masked
// lanes add exp(-m) each to the sum); warp_softmax_masked_down_sum sums
// with shfl.down, which leaves lanes other than 0 with partial sums.

#include <math.h>

template <bool ZeroFill, bool DownSum>
__device__ __forceinline__ void warp_softmax(const float *__restrict__ x,
                                             float *__restrict__ y, int n) {
  unsigned row = blockIdx.x, lane = threadIdx.x;
  bool ok = lane < (unsigned)n;
  float v = ok ? x[row * n + lane] : (ZeroFill ? 0.0f : -INFINITY);
  float m = v;
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float e = __expf(v - m);
  float s = e;
  for (int o = 16; o > 0; o >>= 1)
    s += DownSum ? __shfl_down_sync(0xffffffffu, s, o)
                 : __shfl_xor_sync(0xffffffffu, s, o);
  if (ok)
    y[row * n + lane] = e / s;
}

extern "C" __global__ void warp_softmax_masked(const float *__restrict__ x,
                                               float *__restrict__ y, int n) {
  warp_softmax<false, false>(x, y, n);
}

extern "C" __global__ void
warp_softmax_masked_zero_fill(const float *__restrict__ x,
                              float *__restrict__ y, int n) {
  warp_softmax<true, false>(x, y, n);
}

extern "C" __global__ void
warp_softmax_masked_down_sum(const float *__restrict__ x,
                             float *__restrict__ y, int n) {
  warp_softmax<false, true>(x, y, n);
}
