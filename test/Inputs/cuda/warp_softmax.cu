// Warp softmax: each warp computes the softmax of one 32-element row, one
// element per lane, the row max and the sum of exponentials by xor-shuffle
// butterflies (every lane ends with the whole row's max and sum, each
// combined in its own order). warp_softmax_rows: rows = blockDim.x / 32
// per CTA, any number of CTAs. warp_softmax_rows_down_bug: the sum uses
// __shfl_down_sync, so only lane 0 of each warp ends with the full sum
// (a planted bug: wrong in every other lane). Serves
// test/Verifier/warp-softmax.mlir (max and min nests are canonical chains,
// so the 32 lanes' max trees are one term and exp(x - m) cancels).
extern "C" __global__ void warp_softmax_rows(const float *x, float *y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  float m = v;
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float e = __expf(v - m);
  float s = e;
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, o);
  y[i] = e / s;
}

extern "C" __global__ void warp_softmax_rows_down_bug(const float *x,
                                                      float *y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  float m = v;
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float e = __expf(v - m);
  float s = e;
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_down_sync(0xffffffffu, s, o);
  y[i] = e / s;
}
