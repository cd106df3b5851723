// ref_softmax_naive.cu -- naive REFERENCE kernels for contracts whose spec is
// a second kernel (docs/contracts.md, spec form `reference`).
//
// The textbook three-pass softmax of one row of N floats,
//
//   m = max_j x[j];  s = sum_j __expf(x[j] - m);  out[i] = __expf(x[i] - m) / s
//
// written as plainly as possible, so that it can serve as the spec of the
// optimized kernels (softmax_online.cu, softmax_online_bug.cu):
//   ref_softmax_naive_4          one thread writes the whole row;
//   ref_softmax_naive_threads_4  thread i (block of 4) recomputes m and s and
//                                writes out[i] (a multi-thread reference: its
//                                layout out[tid.x] is inverted per element);
//   ref_scaled_exp               out[i] = __expf(in[i] * s), i = the linear
//                                thread id, no bound check (a multi-thread
//                                reference for elementwise_scaled_exp.cu,
//                                launched with its own geometry);
//   ref_scaled_exp_loop          the same, one thread looping over n elements
//                                (a one-thread reference of a multi-thread
//                                kernel: its element at the kernel's
//                                symbolic index);
//   ref_softmax_writes_input     a broken reference that overwrites its input
//                                (a contract error).
// __expf is written explicitly (ex2.approx of x * log2 e, the idiom kproof
// reads as exp); compiled WITHOUT --use_fast_math.

#include <math.h>

template <int N>
__device__ __forceinline__ void softmax_naive_row(const float *x, float *out) {
  float m = x[0];
  for (int j = 1; j < N; ++j)
    m = fmaxf(m, x[j]);
  float s = 0.0f;
  for (int j = 0; j < N; ++j)
    s += __expf(x[j] - m);
  for (int i = 0; i < N; ++i)
    out[i] = __expf(x[i] - m) / s;
}

extern "C" __global__ void ref_softmax_naive_4(const float *x, float *out) {
  softmax_naive_row<4>(x, out);
}

extern "C" __global__ void ref_softmax_naive_threads_4(const float *x,
                                                       float *out) {
  const int N = 4;
  int i = threadIdx.x;
  float m = x[0];
  for (int j = 1; j < N; ++j)
    m = fmaxf(m, x[j]);
  float s = 0.0f;
  for (int j = 0; j < N; ++j)
    s += __expf(x[j] - m);
  out[i] = __expf(x[i] - m) / s;
}

extern "C" __global__ void ref_scaled_exp(const float *in, float *out,
                                          float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __expf(in[i] * s);
}

extern "C" __global__ void ref_scaled_exp_loop(const float *in, float *out,
                                               float s, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = __expf(in[i] * s);
}

extern "C" __global__ void ref_softmax_writes_input(float *x, float *out) {
  softmax_naive_row<4>(x, out);
  x[0] = 0.0f; // BUG (on purpose): a reference must not write its inputs
}
