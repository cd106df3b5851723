// softmax_bf16_drop.cu -- online softmax (one thread, N = 4) whose running
// state silently goes through bfloat16.
//
// Same recurrence as softmax_online_4, but after every update the running max
// m and denominator d are rounded to bf16 and back:
//
//   m = __bfloat162float(__float2bfloat16(m_new));
//   d = __bfloat162float(__float2bfloat16(d * __expf(m_old - m) + __expf(x - m)));
//
// bf16 keeps 8 significand bits, so d loses ~16 bits of precision per step.
// cuda_bf16.hpp implements the conversions as inline asm, so the PTX holds
// `{ cvt.rn.bf16.f32 %rs, %f; }` blocks, and for the way back
// `{ cvt.f32.bf16 %f, %rs; }` on sm_90 but `{ mov.b32 %f, {0,%rs}; }` (a
// 16-bit shift into the high half) on sm_80, in the middle of an otherwise
// f32 computation.
//
// Fixture for: the precision-tracking proof: an error-bound check at f32
// tolerance (e.g. a few ulp of the exact softmax) must FAIL on this kernel and
// pass only with a bf16-sized tolerance (a few 2^-8 relative: on an H200 the
// worst relative error over 200 random rows in [-5, 5] was 7.3e-3 ~ 2^-7,
// against 2.3e-6 for softmax_online_4).

#include <cuda_bf16.h>
#include <math.h>

extern "C" __global__ void softmax_bf16_drop_4(const float *__restrict__ x,
                                               float *__restrict__ out) {
  const int N = 4;
  float m = -INFINITY;
  float d = 0.0f;
  for (int i = 0; i < N; ++i) {
    float v = x[i];
    float m_new = __bfloat162float(__float2bfloat16(fmaxf(m, v)));
    float d_new = d * __expf(m - m_new) + __expf(v - m_new);
    d = __bfloat162float(__float2bfloat16(d_new)); // silent precision drop
    m = m_new;
  }
  for (int i = 0; i < N; ++i)
    out[i] = __expf(x[i] - m) / d;
}
