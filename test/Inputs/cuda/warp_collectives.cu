// Warp collectives beyond shfl/vote: redux.sync (PTX ISA 9.7.13.12, sm_80),
// match.sync (9.7.13.10, sm_70) and elect.sync (9.7.13.14, sm_90), one warp
// per 32 consecutive threads; blockDim.x a multiple of 32.
//
//   redux_sum       : y[i] = the sum of x over i's warp (__reduce_add_sync).
//   redux_min       : y[i] = the signed minimum of x over i's warp.
//   redux_min_bug   : the minimum taken unsigned (__reduce_min_sync on the
//                     unsigned bits): wrong when a lane holds a negative x.
//   match_count     : y[i] = the number of lanes of i's warp whose x equals
//                     x[i] (__popc(__match_any_sync)).
//   warp_total      : the lane elect.sync elects writes its warp's sum to
//                     y[i / 32] (elect.sync inline, sm_90; lane 0 before).
//   warp_total_bug  : the elected lane writes its own x[i], as if it were
//                     lane 0 (PTX ISA: the elected lane is not specified).
//   ref_warp_sum, ref_warp_min, ref_match_count, ref_warp_total: the
//                     references without warp collectives.

__device__ __forceinline__ bool elect_one() {
#if __CUDA_ARCH__ >= 900
  unsigned pred;
  asm volatile("{\n\t.reg .pred p;\n\t"
               "elect.sync _|p, 0xffffffff;\n\t"
               "selp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(pred));
  return pred != 0;
#else
  return (threadIdx.x & 31) == 0;
#endif
}

extern "C" __global__ void redux_sum(const int *__restrict__ x,
                                     int *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = __reduce_add_sync(0xffffffffu, x[i]);
}

extern "C" __global__ void redux_min(const int *__restrict__ x,
                                     int *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = __reduce_min_sync(0xffffffffu, x[i]);
}

extern "C" __global__ void redux_min_bug(const int *__restrict__ x,
                                         int *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = (int)__reduce_min_sync(0xffffffffu, (unsigned)x[i]);
}

extern "C" __global__ void match_count(const int *__restrict__ x,
                                       int *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = __popc(__match_any_sync(0xffffffffu, x[i]));
}

extern "C" __global__ void warp_total(const int *__restrict__ x,
                                      int *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = __reduce_add_sync(0xffffffffu, x[i]);
  if (elect_one())
    y[i / 32] = s;
}

extern "C" __global__ void warp_total_bug(const int *__restrict__ x,
                                          int *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (elect_one())
    y[i / 32] = x[i];
}

extern "C" __global__ void ref_warp_sum(const int *__restrict__ x,
                                        int *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned w = i & ~31u;
  int s = 0;
  for (unsigned j = 0; j < 32; ++j)
    s += x[w + j];
  y[i] = s;
}

extern "C" __global__ void ref_warp_min(const int *__restrict__ x,
                                        int *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned w = i & ~31u;
  int m = x[w];
  for (unsigned j = 1; j < 32; ++j)
    m = min(m, x[w + j]);
  y[i] = m;
}

extern "C" __global__ void ref_match_count(const int *__restrict__ x,
                                           int *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned w = i & ~31u;
  int n = 0;
  for (unsigned j = 0; j < 32; ++j)
    n += x[w + j] == x[i] ? 1 : 0;
  y[i] = n;
}

extern "C" __global__ void ref_warp_total(const int *__restrict__ x,
                                          int *__restrict__ y) {
  // One thread per 32 inputs (launched with 1/32 of the threads).
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  for (unsigned j = 0; j < 32; ++j)
    s += x[32 * t + j];
  y[t] = s;
}
