// branchy.cu -- kernels whose data-dependent branches nvcc keeps as branches
// (-O3 does not if-convert them), one thread each.
//
// Without merging the states of a branch where its sides meet again, a
// symbolic executor follows 2^k (3^k) paths for k branches in sequence;
// with it, one. Each kernel is also a real kernel shape:
//
//   softmax_online_branchy_N: the online softmax that skips the exp of the
//     running max's difference when the max does not move:
//       if (v > m) { d = d * __expf(m - v) + 1; m = v; }
//       else       { d = d + __expf(v - m); }
//     N = 4 and N = 32 (2^31 paths without merging).
//   softmax_online_branchy_bug_4: PLANTED BUG, the max-moves branch forgets
//     the rescale (d = d + 1): wrong exactly when the running max moves.
//   clamp01_64: y[i] = 0 if x[i] < 0, 1 if x[i] > 1, else x[i], as an
//     if/else-if chain with a store in each arm (3^64 paths without merging;
//     nvcc stores 0 and 1 as integer bit patterns, st.global.u32).
//   clamp01_bug_64: PLANTED BUG, the upper arm stores 0.1 instead of 1 (a
//     typo): wrong exactly on inputs above 1.
//
// Fixture for: state merging at control-flow joins (issue 4).
// __expf is written explicitly; compiled WITHOUT --use_fast_math.

#include <math.h>

template <int N>
__device__ __forceinline__ void softmax_online_branchy_row(
    const float *__restrict__ x, float *__restrict__ out) {
  float m = x[0];
  float d = 1.0f;
  for (int i = 1; i < N; ++i) {
    float v = x[i];
    if (v > m) {
      d = d * __expf(m - v) + 1.0f;
      m = v;
    } else {
      d = d + __expf(v - m);
    }
  }
  for (int i = 0; i < N; ++i)
    out[i] = __expf(x[i] - m) / d;
}

extern "C" __global__ void softmax_online_branchy_4(
    const float *__restrict__ x, float *__restrict__ out) {
  softmax_online_branchy_row<4>(x, out);
}

extern "C" __global__ void softmax_online_branchy_32(
    const float *__restrict__ x, float *__restrict__ out) {
  softmax_online_branchy_row<32>(x, out);
}

extern "C" __global__ void softmax_online_branchy_bug_4(
    const float *__restrict__ x, float *__restrict__ out) {
  const int N = 4;
  float m = x[0];
  float d = 1.0f;
  for (int i = 1; i < N; ++i) {
    float v = x[i];
    if (v > m) {
      d = d + 1.0f; // BUG: missing d * __expf(m - v)
      m = v;
    } else {
      d = d + __expf(v - m);
    }
  }
  for (int i = 0; i < N; ++i)
    out[i] = __expf(x[i] - m) / d;
}

extern "C" __global__ void clamp01_64(const float *__restrict__ x,
                                      float *__restrict__ y) {
  for (int i = 0; i < 64; ++i) {
    float v = x[i];
    if (v < 0.0f)
      y[i] = 0.0f;
    else if (v > 1.0f)
      y[i] = 1.0f;
    else
      y[i] = v;
  }
}

extern "C" __global__ void clamp01_bug_64(const float *__restrict__ x,
                                          float *__restrict__ y) {
  for (int i = 0; i < 64; ++i) {
    float v = x[i];
    if (v < 0.0f)
      y[i] = 0.0f;
    else if (v > 1.0f)
      y[i] = 0.1f; // BUG: should be 1.0f
    else
      y[i] = v;
  }
}
