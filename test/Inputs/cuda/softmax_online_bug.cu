// softmax_online_bug.cu -- online softmax with a PLANTED BUG, one thread, N = 4.
//
// Same as softmax_online_4 in softmax_online.cu, except that the running
// denominator is NOT rescaled when the running max grows:
//
//   correct:  d = d * __expf(m_old - m_new) + __expf(x[i] - m_new)
//   planted:  d = d                         + __expf(x[i] - m_new)   <-- bug
//
// The result equals the true softmax only when the maximum is x[0] (the max
// never moves), so e.g. x = {0, 1, 2, 3} is a counterexample.
//
// Fixture for: the negative case of the online-softmax equivalence proof; the
// verifier must refuse the proof and ideally produce a counterexample.

#include <math.h>

extern "C" __global__ void softmax_online_bug_4(const float *__restrict__ x,
                                                float *__restrict__ out) {
  const int N = 4;
  float m = -INFINITY;
  float d = 0.0f;
  for (int i = 0; i < N; ++i) {
    float v = x[i];
    float m_new = fmaxf(m, v);
    d = d + __expf(v - m_new); // BUG: missing d * __expf(m - m_new)
    m = m_new;
  }
  for (int i = 0; i < N; ++i)
    out[i] = __expf(x[i] - m) / d;
}
