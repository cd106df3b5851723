// elementwise_scaled_exp.cu -- elementwise out[i] = __expf(s * in[i]).
//
// One element per thread, global index i = blockIdx.x * blockDim.x +
// threadIdx.x, guarded by i < n.
//
//   elementwise_scaled_exp      : correct kernel.
//   elementwise_scaled_exp_bug  : PLANTED BUG, writes out[i + 1] instead of
//                                 out[i] (off-by-one store: out-of-bounds for
//                                 i = n - 1, and element 0 is never written).
//
// Fixture for: the multi-thread / grid indexing proofs (bounds safety of every
// global access, per-thread functional spec, no write-write race across
// threads), with the bug variant as the negative case for memory safety and
// for the functional spec.

#include <math.h>

extern "C" __global__ void elementwise_scaled_exp(const float *__restrict__ in,
                                                  float *__restrict__ out,
                                                  float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __expf(s * in[i]);
}

extern "C" __global__ void elementwise_scaled_exp_bug(const float *__restrict__ in,
                                                      float *__restrict__ out,
                                                      float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i + 1] = __expf(s * in[i]); // BUG: off-by-one store index
}
