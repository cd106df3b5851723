// QK scores pair by pair, the stress shape of published attention provers:
// one CTA per (query, key) pair of a 64 x 64 tile (4,096 CTAs), one lane
// per element of the head dimension D = 128 (1,048,576 scalar Q and K
// values in all): each lane publishes its partial product q[i][t] k[j][t]
// through shared memory, and lane 0 sums the D partials into S[i][j].
//
// Planted-bug twins:
//   qk_pairs_drop_last  lane 0 sums only the first D - 1 partials
//   qk_pairs_no_sync    no barrier between the partials and the sum
#define D 128
#define NK 64

#define QK_PAIRS(NAME, TERMS, SYNC)                                            \
  extern "C" __global__ void NAME(const float *__restrict__ Q,                 \
                                  const float *__restrict__ K,                 \
                                  float *__restrict__ S) {                     \
    __shared__ float part[D];                                                  \
    const int t = threadIdx.x;                                                 \
    const int pair = blockIdx.x;                                               \
    const int i = pair / NK, j = pair % NK;                                    \
    part[t] = Q[i * D + t] * K[j * D + t];                                     \
    if (SYNC)                                                                  \
      __syncthreads();                                                         \
    if (t == 0) {                                                              \
      float s = 0.0f;                                                          \
      for (int c = 0; c < TERMS; ++c)                                          \
        s += part[c];                                                          \
      S[pair] = s;                                                             \
    }                                                                          \
  }

QK_PAIRS(qk_pairs, D, 1)
QK_PAIRS(qk_pairs_drop_last, D - 1, 1)
QK_PAIRS(qk_pairs_no_sync, D, 0)
