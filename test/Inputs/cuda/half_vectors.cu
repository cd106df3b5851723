// Packed halves (f16x2 / bf16x2 in one 32-bit register, PTX ISA 5.2.1 and
// 9.7.4): vectorized loads and stores of f16 and bf16 buffers, the packing
// conversion cvt.rn.f16x2.f32 and packed arithmetic. One element group per
// thread, any grid.
//
//   scale_half4       : y[4i..4i+3] = x[4i..4i+3] * s, through one 8-byte
//                       load (uint2) and one 8-byte store, converting to f32
//                       and back with __floats2half2_rn.
//   scale_half4_swap  : the same with the halves of the second pair packed in
//                       the wrong order (y[4i+2] and y[4i+3] exchanged).
//   add_half2         : y[2i..2i+1] = a + b with one packed __hadd2.
//   fma_half2         : y = a * b + c with one packed __hfma2.
//   scale_bf16x8      : y[8i..8i+7] = x * s for bf16 through one 16-byte load
//                       (uint4) and store.
//   bf16_as_half      : reads bf16 bits as f16 (a reinterpretation bug).
//   ref_scale_half, ref_add_half, ref_fma_half, ref_scale_bf16 : one element
//                       per thread, the references.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void scale_half4(const __half *__restrict__ x,
                                       __half *__restrict__ y, float s) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  uint2 raw = reinterpret_cast<const uint2 *>(x)[i];
  __half2 a = *reinterpret_cast<__half2 *>(&raw.x);
  __half2 b = *reinterpret_cast<__half2 *>(&raw.y);
  float2 fa = __half22float2(a), fb = __half22float2(b);
  __half2 ra = __floats2half2_rn(fa.x * s, fa.y * s);
  __half2 rb = __floats2half2_rn(fb.x * s, fb.y * s);
  uint2 out;
  out.x = *reinterpret_cast<unsigned *>(&ra);
  out.y = *reinterpret_cast<unsigned *>(&rb);
  reinterpret_cast<uint2 *>(y)[i] = out;
}

extern "C" __global__ void scale_half4_swap(const __half *__restrict__ x,
                                            __half *__restrict__ y, float s) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  uint2 raw = reinterpret_cast<const uint2 *>(x)[i];
  __half2 a = *reinterpret_cast<__half2 *>(&raw.x);
  __half2 b = *reinterpret_cast<__half2 *>(&raw.y);
  float2 fa = __half22float2(a), fb = __half22float2(b);
  __half2 ra = __floats2half2_rn(fa.x * s, fa.y * s);
  __half2 rb = __floats2half2_rn(fb.y * s, fb.x * s);
  uint2 out;
  out.x = *reinterpret_cast<unsigned *>(&ra);
  out.y = *reinterpret_cast<unsigned *>(&rb);
  reinterpret_cast<uint2 *>(y)[i] = out;
}

extern "C" __global__ void add_half2(const __half2 *__restrict__ a,
                                     const __half2 *__restrict__ b,
                                     __half2 *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = __hadd2(a[i], b[i]);
}

extern "C" __global__ void fma_half2(const __half2 *__restrict__ a,
                                     const __half2 *__restrict__ b,
                                     const __half2 *__restrict__ c,
                                     __half2 *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = __hfma2(a[i], b[i], c[i]);
}

extern "C" __global__ void scale_bf16x8(const __nv_bfloat16 *__restrict__ x,
                                        __nv_bfloat16 *__restrict__ y,
                                        float s) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  uint4 raw = reinterpret_cast<const uint4 *>(x)[i];
  unsigned w[4] = {raw.x, raw.y, raw.z, raw.w};
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    __nv_bfloat162 v = *reinterpret_cast<__nv_bfloat162 *>(&w[k]);
    float2 f = __bfloat1622float2(v);
    __nv_bfloat162 r = __floats2bfloat162_rn(f.x * s, f.y * s);
    w[k] = *reinterpret_cast<unsigned *>(&r);
  }
  reinterpret_cast<uint4 *>(y)[i] = make_uint4(w[0], w[1], w[2], w[3]);
}

extern "C" __global__ void bf16_as_half(const __nv_bfloat16 *__restrict__ x,
                                        __nv_bfloat16 *__restrict__ y,
                                        float s) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned raw = reinterpret_cast<const unsigned *>(x)[i];
  __half2 v = *reinterpret_cast<__half2 *>(&raw);
  float2 f = __half22float2(v);
  __nv_bfloat162 r = __floats2bfloat162_rn(f.x * s, f.y * s);
  reinterpret_cast<unsigned *>(y)[i] = *reinterpret_cast<unsigned *>(&r);
}

extern "C" __global__ void ref_scale_half(const __half *__restrict__ x,
                                          __half *__restrict__ y, float s) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = __float2half_rn(__half2float(x[i]) * s);
}

extern "C" __global__ void ref_add_half(const __half *__restrict__ a,
                                        const __half *__restrict__ b,
                                        __half *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = __hadd(a[i], b[i]);
}

extern "C" __global__ void ref_fma_half(const __half *__restrict__ a,
                                        const __half *__restrict__ b,
                                        const __half *__restrict__ c,
                                        __half *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = __hfma(a[i], b[i], c[i]);
}

extern "C" __global__ void ref_scale_bf16(const __nv_bfloat16 *__restrict__ x,
                                          __nv_bfloat16 *__restrict__ y,
                                          float s) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = __float2bfloat16_rn(__bfloat162float(x[i]) * s);
}
