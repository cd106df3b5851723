// histogram_atomics.cu -- 64-bin histogram with shared- and global-memory
// atomics.
//
// Each block zeroes a __shared__ unsigned[64] histogram, __syncthreads(), then
// grid-strides over data[0..n): bin = data[i] & 63; atomicAdd(&sh[bin], 1u).
// After a second __syncthreads(), threads 0..63 add their bin to the global
// histogram with atomicAdd(&hist[bin], sh[bin]) (skipped when zero).
//
// A second kernel, sum_atomic_f32, accumulates a float sum with
// atomicAdd(float*) on global memory (atom.global.add.f32 / red.global.add.f32).
//
// Fixture for: atom.shared.add.u32 / atom.global.add.u32 / add.f32 semantics,
// the histogram postcondition (sum over bins == n, hist[b] == #{i : data[i]&63
// == b}) which holds only because the adds are atomic, and commutativity
// reasoning for unordered atomic updates.

#define BINS 64

extern "C" __global__ void histogram64_atomics(const unsigned *__restrict__ data,
                                               unsigned *__restrict__ hist,
                                               int n) {
  __shared__ unsigned sh[BINS];
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x)
    sh[b] = 0u;
  __syncthreads();
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&sh[data[i] & (BINS - 1)], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) {
    unsigned c = sh[b];
    if (c != 0u)
      atomicAdd(&hist[b], c);
  }
}

extern "C" __global__ void sum_atomic_f32(const float *__restrict__ in,
                                          float *__restrict__ total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(total, in[i]);
}
