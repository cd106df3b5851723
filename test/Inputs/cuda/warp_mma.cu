// Tensor cores at warp level (PTX ISA 9.7.14.5): ldmatrix and mma.sync
// m16n8k16 with f16 inputs and f32 accumulators, written with inline PTX
// as CUTLASS and Triton emit them. One warp per CTA multiplies one tile
// pair: C[b] (16x8, f32) = A[b] (16x16, f16, row-major) x B[b] (16x8, f16,
// row-major [k][n]); b = blockIdx.x.
//
//   mma_tile         : A and B staged through shared memory (one barrier),
//                      A by ldmatrix.x4, B by ldmatrix.x2.trans, one mma.sync.
//   mma_tile_notrans : B loaded without .trans (the fragments hold B's rows
//                      where mma reads its columns).
//   mma_tile_nosync  : the barrier between the staging stores and ldmatrix
//                      left out (a race).
//   mma_tile_k8      : the same product as two m16n8k8 steps accumulating
//                      into one fragment.
//   ref_mma_tile     : one thread per element of C, the reference.
#include <cuda_fp16.h>

__device__ __forceinline__ unsigned smem_addr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

template <bool Trans, bool Sync>
__device__ __forceinline__ void mma_tile_body(const __half *__restrict__ a,
                                              const __half *__restrict__ b,
                                              float *__restrict__ c) {
  __shared__ __align__(16) __half as[16 * 16];
  __shared__ __align__(16) __half bs[16 * 8];
  unsigned lane = threadIdx.x;
  const __half *ta = a + blockIdx.x * 256;
  const __half *tb = b + blockIdx.x * 128;
  // Staging: 8 halves of A and 4 of B per lane.
  reinterpret_cast<uint4 *>(as)[lane] =
      reinterpret_cast<const uint4 *>(ta)[lane];
  reinterpret_cast<uint2 *>(bs)[lane] =
      reinterpret_cast<const uint2 *>(tb)[lane];
  if (Sync)
    __syncthreads();
  // A: matrix i = lane / 8 holds rows (i & 1) * 8 .. +7, columns
  // (i >> 1) * 8 .. +7.
  unsigned i = lane / 8;
  unsigned arow = (i & 1) * 8 + lane % 8, acol = (i >> 1) * 8;
  unsigned a0, a1, a2, a3, b0, b1;
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
      : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
      : "r"(smem_addr(&as[arow * 16 + acol])));
  // B: matrix 0 holds rows k = 0..7, matrix 1 rows 8..15 (lanes 0-15).
  if (Trans)
    asm volatile(
        "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
        : "=r"(b0), "=r"(b1)
        : "r"(smem_addr(&bs[(lane % 16) * 8])));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(b0), "=r"(b1)
                 : "r"(smem_addr(&bs[(lane % 16) * 8])));
  float d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %11, %12, %13};"
               : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1),
                 "f"(0.0f), "f"(0.0f), "f"(0.0f), "f"(0.0f));
  unsigned g = lane / 4, t = lane % 4;
  float *tc = c + blockIdx.x * 128;
  tc[g * 8 + 2 * t] = d0;
  tc[g * 8 + 2 * t + 1] = d1;
  tc[(g + 8) * 8 + 2 * t] = d2;
  tc[(g + 8) * 8 + 2 * t + 1] = d3;
}

extern "C" __global__ void mma_tile(const __half *__restrict__ a,
                                    const __half *__restrict__ b,
                                    float *__restrict__ c) {
  mma_tile_body<true, true>(a, b, c);
}

extern "C" __global__ void mma_tile_notrans(const __half *__restrict__ a,
                                            const __half *__restrict__ b,
                                            float *__restrict__ c) {
  mma_tile_body<false, true>(a, b, c);
}

extern "C" __global__ void mma_tile_nosync(const __half *__restrict__ a,
                                           const __half *__restrict__ b,
                                           float *__restrict__ c) {
  mma_tile_body<true, false>(a, b, c);
}

extern "C" __global__ void mma_tile_k8(const __half *__restrict__ a,
                                       const __half *__restrict__ b,
                                       float *__restrict__ c) {
  __shared__ __align__(16) __half as[16 * 16];
  __shared__ __align__(16) __half bs[16 * 8];
  unsigned lane = threadIdx.x;
  const __half *ta = a + blockIdx.x * 256;
  const __half *tb = b + blockIdx.x * 128;
  reinterpret_cast<uint4 *>(as)[lane] =
      reinterpret_cast<const uint4 *>(ta)[lane];
  reinterpret_cast<uint2 *>(bs)[lane] =
      reinterpret_cast<const uint2 *>(tb)[lane];
  __syncthreads();
  unsigned i = lane / 8;
  unsigned arow = (i & 1) * 8 + lane % 8, acol = (i >> 1) * 8;
  unsigned a0, a1, a2, a3, b0, b1;
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
      : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
      : "r"(smem_addr(&as[arow * 16 + acol])));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
               : "=r"(b0), "=r"(b1)
               : "r"(smem_addr(&bs[(lane % 16) * 8])));
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
  // k = 0..7 (a0, a1; b0), then k = 8..15 (a2, a3; b1).
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "r"(a0), "r"(a1), "r"(b0));
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "r"(a2), "r"(a3), "r"(b1));
  unsigned g = lane / 4, t = lane % 4;
  float *tc = c + blockIdx.x * 128;
  tc[g * 8 + 2 * t] = d0;
  tc[g * 8 + 2 * t + 1] = d1;
  tc[(g + 8) * 8 + 2 * t] = d2;
  tc[(g + 8) * 8 + 2 * t + 1] = d3;
}

extern "C" __global__ void ref_mma_tile(const __half *__restrict__ a,
                                        const __half *__restrict__ b,
                                        float *__restrict__ c) {
  unsigned e = threadIdx.x, r = e / 8, n = e % 8;
  const __half *ta = a + blockIdx.x * 256;
  const __half *tb = b + blockIdx.x * 128;
  float s = 0.f;
  for (int k = 0; k < 16; ++k)
    s += __half2float(ta[r * 16 + k]) * __half2float(tb[k * 8 + n]);
  c[blockIdx.x * 128 + e] = s;
}

// The reference of test/Inputs/triton's matmul_tile (BM = BN = 16, BK = 32):
// c[r][n] = sum_k a[r][k] b[k][n], one thread per element.
extern "C" __global__ void ref_matmul_16x16x32(const __half *__restrict__ a,
                                               const __half *__restrict__ b,
                                               float *__restrict__ c) {
  unsigned e = threadIdx.x, r = e / 16, n = e % 16;
  float s = 0.f;
  for (int k = 0; k < 32; ++k)
    s += __half2float(a[r * 32 + k]) * __half2float(b[k * 16 + n]);
  c[e] = s;
}
