// memory_rmw.cu -- loads after stores: read-modify-write of an output,
// and per-thread scratch arrays indexed by data (spilled to .local).
//
//   axpy_inplace       : y[i] = a * x[i] + y[i] (y is read and written)
//   axpy_inplace_bug   : y[i] = a * y[i] + x[i] (operands swapped)
//   accum4_inplace     : y[i + k n] += x[i + k n] * w[k] for k < 4, each
//                        thread updating 4 elements of y in place
//   accum4_inplace_bug : the weight of k = 3 is w[2]
//   select_local8      : buf[k] = 2 x[8 i + k] for k < 8 in a per-thread
//                        array, y[i] = buf[sel[i] & 7] (a dynamic index:
//                        the array lives in local memory)
//   select_local8_bug  : reads buf[(sel[i] + 1) & 7]
//   scatter_local4     : buf[k] = 0; buf[perm[4 i + k] & 3] = x[4 i + k]
//                        for k < 4 in order (a later k overwrites an
//                        earlier one), then y[4 i + k] = buf[k]
//   scatter_local4_bug : the stores run in reverse order (k = 3 first), so
//                        the earlier k wins where two collide
//   scale_add_inplace  : y[i] = y[i] * a, then y[i] = y[i] + x[i] (two
//                        updates of one element; -G reloads y[i])
//   shift_inplace_bug  : y[i] = y[i + 1] in place (a read-write race)
//   neighbor_after_barrier : y[i] = x[i]; barrier; z[i] = y[i ^ 1] (data
//                        from another thread, which kproof does not model)
//
// Fixture for: symbolic memory, loads after stores
// (test/Verifier/memory-rmw.mlir, memory-local-scratch.mlir).
#include <cuda_runtime.h>

extern "C" __global__ void axpy_inplace(const float *__restrict__ x,
                                        float *__restrict__ y, float a,
                                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

extern "C" __global__ void axpy_inplace_bug(const float *__restrict__ x,
                                            float *__restrict__ y, float a,
                                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * y[i] + x[i];
}

extern "C" __global__ void accum4_inplace(const float *__restrict__ x,
                                          const float *__restrict__ w,
                                          float *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      y[i + k * n] += x[i + k * n] * w[k];
  }
}

extern "C" __global__ void accum4_inplace_bug(const float *__restrict__ x,
                                              const float *__restrict__ w,
                                              float *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      y[i + k * n] += x[i + k * n] * w[k < 3 ? k : 2];
  }
}

extern "C" __global__ void select_local8(const float *__restrict__ x,
                                         const int *__restrict__ sel,
                                         float *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float buf[8];
#pragma unroll
  for (int k = 0; k < 8; ++k)
    buf[k] = 2.0f * x[8 * i + k];
  y[i] = buf[sel[i] & 7];
}

extern "C" __global__ void select_local8_bug(const float *__restrict__ x,
                                             const int *__restrict__ sel,
                                             float *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float buf[8];
#pragma unroll
  for (int k = 0; k < 8; ++k)
    buf[k] = 2.0f * x[8 * i + k];
  y[i] = buf[(sel[i] + 1) & 7];
}

extern "C" __global__ void scatter_local4(const float *__restrict__ x,
                                          const int *__restrict__ perm,
                                          float *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float buf[4];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    buf[k] = 0.0f;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    buf[perm[4 * i + k] & 3] = x[4 * i + k];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    y[4 * i + k] = buf[k];
}

extern "C" __global__ void scatter_local4_bug(const float *__restrict__ x,
                                              const int *__restrict__ perm,
                                              float *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float buf[4];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    buf[k] = 0.0f;
#pragma unroll
  for (int k = 3; k >= 0; --k)
    buf[perm[4 * i + k] & 3] = x[4 * i + k];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    y[4 * i + k] = buf[k];
}

// Two in-place updates of one element: -G reloads y[i] after storing it.
extern "C" __global__ void scale_add_inplace(const float *__restrict__ x,
                                             float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = y[i] * a;
    y[i] = y[i] + x[i];
  }
}

// An in-place shift: thread i reads y[i + 1], which thread i + 1 writes
// (a read-write race; which value thread i sees depends on the schedule).
extern "C" __global__ void shift_inplace_bug(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    y[i] = y[i + 1];
}

// Data from another thread through global memory, ordered by a CTA
// barrier: z[i] = y[i ^ 1] reads what the neighbouring thread stored.
extern "C" __global__ void neighbor_after_barrier(const float *__restrict__ x,
                                                  float *y, float *z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i];
  __syncthreads();
  z[i] = y[i ^ 1];
}
