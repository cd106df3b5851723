// device_calls.cu -- kernels that call non-inlined device functions, printf
// and assert.
//
//   scale_add, clamp01   : __noinline__ __device__ float functions, so nvcc
//                          emits them as .func and calls them with call.uni
//                          (scalar .param arguments, .param func_retval0).
//   minmax2              : __noinline__ returning a float2 (an aggregate
//                          return slot: .param .align 4 .b8 func_retval0[8]
//                          at -O3, .align 8 at -G; -G also emits the inline
//                          helper make_float2 as an internal .func whose
//                          mangled name carries a path-derived hash,
//                          _ZN46_INTERNAL_<hash>_15_device_calls_cu_...).
//   device_calls_kernel  : C++ linkage (NOT extern "C"), so its PTX name is
//                          mangled (_Z19device_calls_kernelPKfS0_Pffi).
//                          out[i] = clamp01(scale_add(a[i], b[i], s)); asserts
//                          0 <= out[i] <= 1 (-> __assertfail, plus a .global
//                          string table for the message/file/function), and
//                          thread 0 printf's the value (-> vprintf with a
//                          .local depot for the argument buffer).
//   device_calls_minmax  : extern "C" kernel using minmax2.
//
// Fixture for: the importer's handling of .func, call.uni with parameter
// blocks, mangled names, .global initialised data, the .local depot, and
// opaque/aborting external calls (vprintf treated as no-op-on-memory,
// __assertfail as an abort whose unreachability is a proof obligation; here
// the assertion provably holds since clamp01 clamps to [0, 1]).
// NDEBUG is not defined, so assert() is kept.

#include <cassert>
#include <cstdio>

__device__ __noinline__ float scale_add(float a, float b, float s) {
  return a * s + b;
}

__device__ __noinline__ float clamp01(float v) {
  return fminf(fmaxf(v, 0.0f), 1.0f);
}

__device__ __noinline__ float2 minmax2(float a, float b) {
  return make_float2(fminf(a, b), fmaxf(a, b));
}

__global__ void device_calls_kernel(const float *__restrict__ a,
                                    const float *__restrict__ b,
                                    float *__restrict__ out, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = clamp01(scale_add(a[i], b[i], s));
  assert(v >= 0.0f && v <= 1.0f);
  if (i == 0)
    printf("device_calls: i=%d v=%f\n", i, v);
  out[i] = v;
}

extern "C" __global__ void device_calls_minmax(const float *__restrict__ a,
                                               const float *__restrict__ b,
                                               float *__restrict__ lo,
                                               float *__restrict__ hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 r = minmax2(a[i], b[i]);
    lo[i] = r.x;
    hi[i] = r.y;
  }
}
