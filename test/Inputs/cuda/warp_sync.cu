// __syncwarp (bar.warp.sync, PTX ISA 9.7.13.3): warp-synchronous shared
// memory without __syncthreads. Launched with blockDim.x = 64 (two warps);
// y has one element per CTA.
//
//   warp_tail_sum        : the 64 inputs of a CTA summed in shared memory;
//                          after one __syncthreads the first warp folds the
//                          upper half in, then halves the range five times,
//                          each step ordered by __syncwarp().
//   warp_tail_sum_nosync : the same without the __syncwarp() calls: lanes
//                          read what other lanes write in the same step (a
//                          race).
//   half_warp_sum        : lanes 0-15 sum their 16 values with
//                          __syncwarp(0xffff) (a sub-warp mask).
//   half_warp_bad_mask   : the same with __syncwarp(0xffff0000): the
//                          executing lanes are not in the mask.
//   diverged_syncwarp    : __syncwarp() (full mask) inside `if (lane < 16)`,
//                          then __syncthreads(): lanes 16-31 wait at the
//                          barrier while lanes 0-15 wait for them at the
//                          __syncwarp (a deadlock).
//   exited_syncwarp      : __syncwarp() (full mask) inside `if (lane < 16)`,
//                          lanes 16-31 exit: the PTX ISA waits only for the
//                          lanes that have not exited.

extern "C" __global__ void warp_tail_sum(const float *__restrict__ x,
                                         float *__restrict__ y) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * 64 + t];
  __syncthreads();
  if (t < 32) {
    s[t] += s[t + 32];
    __syncwarp();
    for (unsigned off = 16; off > 0; off >>= 1) {
      if (t < off)
        s[t] += s[t + off];
      __syncwarp();
    }
    if (t == 0)
      y[blockIdx.x] = s[0];
  }
}

extern "C" __global__ void warp_tail_sum_nosync(const float *__restrict__ x,
                                                float *__restrict__ y) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * 64 + t];
  __syncthreads();
  if (t < 32) {
    s[t] += s[t + 32];
    for (unsigned off = 16; off > 0; off >>= 1) {
      if (t < off)
        s[t] += s[t + off];
    }
    if (t == 0)
      y[blockIdx.x] = s[0];
  }
}

extern "C" __global__ void half_warp_sum(const float *__restrict__ x,
                                         float *__restrict__ y) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  if (t < 16) {
    s[t] = x[blockIdx.x * 16 + t];
    __syncwarp(0xffffu);
    for (unsigned off = 8; off > 0; off >>= 1) {
      if (t < off)
        s[t] += s[t + off];
      __syncwarp(0xffffu);
    }
    if (t == 0)
      y[blockIdx.x] = s[0];
  }
}

extern "C" __global__ void half_warp_bad_mask(const float *__restrict__ x,
                                              float *__restrict__ y) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  if (t < 16) {
    s[t] = x[blockIdx.x * 16 + t];
    __syncwarp(0xffff0000u);
    if (t == 0)
      y[blockIdx.x] = s[1];
  }
}

extern "C" __global__ void diverged_syncwarp(const float *__restrict__ x,
                                             float *__restrict__ y) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * 64 + t];
  if ((t & 31) < 16)
    __syncwarp();
  __syncthreads();
  if (t == 0)
    y[blockIdx.x] = s[1];
}

extern "C" __global__ void exited_syncwarp(const float *__restrict__ x,
                                           float *__restrict__ y) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * 64 + t];
  if ((t & 31) >= 16)
    return;
  __syncwarp();
  if (t == 0)
    y[blockIdx.x] = s[1];
}
