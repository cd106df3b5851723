// Activation functions through CUDA's precise math library (no
// --use_fast_math): tanhf compiles at -O3 to 1 - 2 / (exp(2|x|) + 1) with
// the sign of x above 0.6, saturated at 9.01, and an odd polynomial below
// 0.6. One thread per element; blockDim.x * gridDim.x elements.
//
//   tanh_rows      : y = tanhf(x).
//   gelu_tanh      : the tanh approximation of GELU,
//                    y = 0.5 x (1 + tanhf(0.7978845608 (x + 0.044715 x^3))).
//   gelu_tanh_bug  : the cubic coefficient 0.04715 (a digit dropped).

extern "C" __global__ void tanh_rows(const float *__restrict__ x,
                                     float *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = tanhf(x[i]);
}

extern "C" __global__ void gelu_tanh(const float *__restrict__ x,
                                     float *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  float inner = 0.7978845608f * (v + 0.044715f * v * v * v);
  y[i] = 0.5f * v * (1.0f + tanhf(inner));
}

extern "C" __global__ void gelu_tanh_bug(const float *__restrict__ x,
                                         float *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  float inner = 0.7978845608f * (v + 0.04715f * v * v * v);
  y[i] = 0.5f * v * (1.0f + tanhf(inner));
}
