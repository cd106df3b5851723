// Warp votes (PTX ISA 9.7.13.10: vote.sync all/any/uni/ballot), one warp
// per 32 consecutive threads; blockDim.x a multiple of 32 unless stated.
//
//   vote_any_mask      : y[i] = x[i] if some lane of i's warp has x > 0,
//                        else 0 (__any_sync over the full warp).
//   vote_all_mask      : y[i] = x[i] if every lane of i's warp has x > 0,
//                        else 0 (__all_sync).
//   vote_ballot_count  : y[i] = the number of lanes of i's warp with x > 0
//                        (__popc(__ballot_sync)), as a float.
//   vote_any_half      : __any_sync over the low half of the warp only
//                        (membermask 0x0000ffff) executed by every lane:
//                        lanes 16-31 are not in the mask (a membermask
//                        violation).
//   ref_vote_any       : the reference of vote_any_mask without votes: each
//                        thread scans its warp's 32 inputs.
//   ref_vote_ballot    : the reference of vote_ballot_count.

extern "C" __global__ void vote_any_mask(const float *__restrict__ x,
                                         float *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  y[i] = __any_sync(0xffffffffu, v > 0.0f) ? v : 0.0f;
}

extern "C" __global__ void vote_all_mask(const float *__restrict__ x,
                                         float *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  y[i] = __all_sync(0xffffffffu, v > 0.0f) ? v : 0.0f;
}

extern "C" __global__ void vote_ballot_count(const float *__restrict__ x,
                                             float *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = __ballot_sync(0xffffffffu, x[i] > 0.0f);
  y[i] = (float)__popc(b);
}

extern "C" __global__ void vote_any_half(const float *__restrict__ x,
                                         float *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  y[i] = __any_sync(0x0000ffffu, v > 0.0f) ? v : 0.0f;
}

extern "C" __global__ void ref_vote_any(const float *__restrict__ x,
                                        float *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned w = i & ~31u;
  bool any = false;
  for (unsigned j = 0; j < 32; ++j)
    any = any || x[w + j] > 0.0f;
  y[i] = any ? x[i] : 0.0f;
}

extern "C" __global__ void ref_vote_ballot(const float *__restrict__ x,
                                           float *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned w = i & ~31u;
  unsigned n = 0;
  for (unsigned j = 0; j < 32; ++j)
    n += x[w + j] > 0.0f ? 1u : 0u;
  y[i] = (float)n;
}
