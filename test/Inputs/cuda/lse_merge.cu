// lse_merge.cu -- merging two logsumexp statistics (split-KV attention's
// combine step), computed in base 2 as FlashAttention-style kernels do:
//
//   y[i] = log(exp(a[i]) + exp(b[i]))
//        = (m + log2(2^(a2 - m) + 2^(b2 - m))) * ln(2),
//   a2 = a[i] * log2(e), b2 = b[i] * log2(e), m = max(a2, b2).
//
// The f32 constants 0f3FB8AA3B (log2(e)) and 0f3F317218 (ln(2)) are not
// exact inverses (their product is 1 - 2.6e-8): read as rationals, the
// correct kernel differs from the spec by a relative 1e-8 and was REFUTED.
// Fixture for: transcendental constants read as the exact values
// (test/Verifier/transcendental-constants.mlir).
//
// lse_merge_base2      the merge above (exp2f, __log2f).
// lse_merge_base2_div  the same, converting back with / log2(e).
// lse_merge_noconv     twin: forgets the conversion back (a base-2 result).
// lse_merge_ln2_twice  twin: converts with ln(2) twice.

template <int Conv>
__device__ __forceinline__ void merge(const float *__restrict__ a,
                                      const float *__restrict__ b,
                                      float *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float a2 = a[i] * 1.4426950408889634f;
    float b2 = b[i] * 1.4426950408889634f;
    float m = fmaxf(a2, b2);
    float s = exp2f(a2 - m) + exp2f(b2 - m);
    float l2 = m + __log2f(s);
    if (Conv == 0)
      y[i] = l2 * 0.6931471805599453f;
    else if (Conv == 1)
      y[i] = l2 / 1.4426950408889634f;
    else if (Conv == 2)
      y[i] = l2;
    else
      y[i] = l2 * 0.6931471805599453f * 0.6931471805599453f;
  }
}

extern "C" __global__ void lse_merge_base2(const float *__restrict__ a,
                                           const float *__restrict__ b,
                                           float *__restrict__ y, int n) {
  merge<0>(a, b, y, n);
}

extern "C" __global__ void lse_merge_base2_div(const float *__restrict__ a,
                                               const float *__restrict__ b,
                                               float *__restrict__ y, int n) {
  merge<1>(a, b, y, n);
}

extern "C" __global__ void lse_merge_noconv(const float *__restrict__ a,
                                            const float *__restrict__ b,
                                            float *__restrict__ y, int n) {
  merge<2>(a, b, y, n);
}

extern "C" __global__ void lse_merge_ln2_twice(const float *__restrict__ a,
                                               const float *__restrict__ b,
                                               float *__restrict__ y, int n) {
  merge<3>(a, b, y, n);
}
