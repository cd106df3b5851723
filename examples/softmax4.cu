// softmax4.cu -- kproof's quick-start example: online softmax over one row of
// four floats, computed by one thread.
//
//   m = -inf, d = 0
//   for i: m' = max(m, x[i]);  d = d * exp(m - m') + exp(x[i] - m');  m = m'
//   for i: out[i] = exp(x[i] - m) / d
//
// softmax4.ptx is generated from this file by
//   nvcc -ptx -arch=sm_80 -O3 -lineinfo examples/softmax4.cu -o examples/softmax4.ptx
// (the `.file` line is then made repository-relative).

extern "C" __global__ void softmax4(const float *__restrict__ x,
                                    float *__restrict__ out) {
  float m = -INFINITY;
  float d = 0.0f;
  for (int i = 0; i < 4; ++i) {
    float v = x[i];
    float m_new = fmaxf(m, v);
    d = d * __expf(m - m_new) + __expf(v - m_new);
    m = m_new;
  }
  for (int i = 0; i < 4; ++i)
    out[i] = __expf(x[i] - m) / d;
}
