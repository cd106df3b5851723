// dynamic_smem.cu -- dynamically sized shared memory (extern __shared__).
//
// dynamic_smem_reverse: block-local reversal. The launch must pass at least
// blockDim.x * sizeof(float) bytes of dynamic shared memory. Each block b
// handles in[b*B .. b*B + B) with B = blockDim.x: thread t stores in[b*B + t]
// (0 past n) into buf[t], __syncthreads(), then writes
//
//   out[b*B + t] = buf[B - 1 - t]          (only when b*B + t < n)
//
// i.e. each full block reverses its chunk (the last partial block reads zero
// padding for the missing tail).
//
// Fixture for: .extern .shared declarations with unknown size (the dynamic
// smem size is a launch parameter / precondition), bounds safety of shared
// accesses relative to that size, and cross-thread communication through
// shared memory with a barrier.

extern "C" __global__ void dynamic_smem_reverse(const float *__restrict__ in,
                                                float *__restrict__ out, int n) {
  extern __shared__ float buf[];
  const unsigned B = blockDim.x;
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * B + t;
  buf[t] = i < (unsigned)n ? in[i] : 0.0f;
  __syncthreads();
  if (i < (unsigned)n)
    out[i] = buf[B - 1 - t];
}
