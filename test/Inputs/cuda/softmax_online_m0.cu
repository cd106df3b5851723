// softmax_online_m0.cu -- online softmax whose running max starts at 0.0f
// instead of -INFINITY, one thread, N = 4.
//
// Mathematically this is still softmax (the shift m cancels between numerator
// and denominator, and the rescale keeps d consistent), so in exact arithmetic
// it is correct. In floating point it is not: the shift is max(0, max x)
// instead of max x, so when every x[i] is very negative the terms
// __expf(x[i] - 0) leave the normal range. Without --use_fast_math __expf is
// ex2.approx.f32 (no .ftz), which returns subnormals:
//   * max x below about -87.3: the terms are subnormal and the result loses
//     precision (on an H200, x = {-100,-101,-102,-103} gives
//     {27,10,4,1}/42 instead of {0.644,0.237,0.087,0.032});
//   * max x below about -104: every term is 0, d == 0, and out = 0/0 = NaN.
// The -inf start (softmax_online_4) is accurate on the same inputs.
//
// Fixture for: the proof that distinguishes "correct over the reals" from
// "correct over floats / within an input precondition"; the proof should
// succeed only under a precondition such as max(x) >= -80 (or fail with an
// underflow counterexample without one).

#include <math.h>

extern "C" __global__ void softmax_online_m0_4(const float *__restrict__ x,
                                               float *__restrict__ out) {
  const int N = 4;
  float m = 0.0f; // differs from softmax_online.cu: not -INFINITY
  float d = 0.0f;
  for (int i = 0; i < N; ++i) {
    float v = x[i];
    float m_new = fmaxf(m, v);
    d = d * __expf(m - m_new) + __expf(v - m_new);
    m = m_new;
  }
  for (int i = 0; i < N; ++i)
    out[i] = __expf(x[i] - m) / d;
}
