// Every lane of a warp writes one shared slot per warp, with no guard
// (Triton's reductions store the warp's partial this way). warp_max_slot:
// each lane writes its warp max (xor butterfly, so every lane holds the
// same value, each combined in its own order); y[i] = the max of i's warp.
// warp_x_slot: each lane writes its own x[i] (different values; the slot
// holds whichever write lands last). Serves
// test/Verifier/sync-tolerated-writes.mlir: under tolerate_equal_writes the
// first must never be REFUTED, the second is REFUTED with two different
// values.
extern "C" __global__ void warp_max_slot(const float *x, float *y) {
  __shared__ float slot[4];
  unsigned i = threadIdx.x;
  float m = x[i];
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  slot[i / 32] = m;
  __syncthreads();
  y[i] = slot[i / 32];
}

extern "C" __global__ void warp_x_slot(const float *x, float *y) {
  __shared__ float slot[4];
  unsigned i = threadIdx.x;
  slot[i / 32] = x[i];
  __syncthreads();
  y[i] = slot[i / 32];
}
