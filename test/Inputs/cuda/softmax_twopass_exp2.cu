// softmax_twopass_exp2.cu -- two-pass softmax using exp2f with a log2(e)
// pre-scale, one thread, N = 4.
//
//   pass 1: m = max_i x[i]
//   pass 2: e[i] = exp2f((x[i] - m) * log2(e)),  s = sum_i e[i]
//           out[i] = e[i] / s
//
// with log2(e) written as the float literal 1.4426950408889634f (== 0f3FB8AA3B,
// the same constant __expf multiplies by). Without --use_fast_math exp2f
// lowers to ex2.approx.f32 (no .ftz), and __expf to mul.f32 by 0f3FB8AA3B
// followed by the same ex2.approx.f32, so at -O3 this kernel's exponentials
// look exactly like those of softmax_online.cu.
//
// Fixture for: the reference (two-pass) side of the online-softmax
// equivalence proof, and for the exp2-with-prescale == exp rewriting lemma
// used by FlashAttention-style kernels.

#include <math.h>

extern "C" __global__ void softmax_twopass_exp2_4(const float *__restrict__ x,
                                                  float *__restrict__ out) {
  const int N = 4;
  const float LOG2E = 1.4426950408889634f;
  float m = x[0];
  for (int i = 1; i < N; ++i)
    m = fmaxf(m, x[i]);
  float e[N];
  float s = 0.0f;
  for (int i = 0; i < N; ++i) {
    e[i] = exp2f((x[i] - m) * LOG2E);
    s += e[i];
  }
  for (int i = 0; i < N; ++i)
    out[i] = e[i] / s;
}
