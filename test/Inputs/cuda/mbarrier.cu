// mbarrier objects in shared memory (PTX ISA 9.7.13.15) through inline
// PTX: mbarrier.init, mbarrier.arrive, and mbarrier.try_wait.parity
// (sm_90) / mbarrier.test_wait.parity (sm_80) in a spin loop;
// mbarrier.test_wait with the state mbarrier.arrive returns. Every kernel
// runs with blockDim.x = 128 and 64 elements per CTA in `out`.
//
//   mb_handoff          : warps 0-1 write tile[t] and arrive at `full`
//                         (count 64); warps 2-3 wait for phase 0 and read
//                         their neighbour's element: race-free.
//   mb_wrong_parity     : the consumers wait with parity 1, which names
//                         the phase before phase 0: they pass at once
//                         (race).
//   mb_elected          : only thread 0 arrives (count 1) after every
//                         producer stored: the others' stores are not
//                         published (race).
//   mb_elected_syncwarp : warp 0 stores, __syncwarp, lane 0 arrives: ordered
//                         through lane 0 (an order through bar.warp.sync
//                         and an mbarrier, not followed: UNKNOWN).
//   mb_count_short      : initialized with count 128, 64 threads arrive:
//                         phase 0 never completes (deadlock).
//   mb_init_unpublished : no __syncthreads between the init and the first
//                         arrivals (use before init).
//   mb_init_each_warp   : lane 0 of every warp initializes the barrier
//                         (four inits of one object).
//   mb_pingpong         : two rounds through `full` (producers) and `empty`
//                         (consumers): the producers overwrite the tile
//                         only after the consumers released it:
//                         race-free.
//   mb_pingpong_noempty : the same without waiting on `empty` (race).
//   mb_token            : every thread stores, arrives, and waits on the
//                         state its arrival returned (a CTA-wide barrier):
//                         race-free.
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ void mb_init(uint64_t *bar, unsigned count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem(bar)), "r"(count)
               : "memory");
}
__device__ __forceinline__ uint64_t mb_arrive(uint64_t *bar) {
  uint64_t state;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];"
               : "=l"(state)
               : "r"(smem(bar))
               : "memory");
  return state;
}
__device__ __forceinline__ void mb_wait_parity(uint64_t *bar, unsigned parity) {
#if __CUDA_ARCH__ >= 900
  asm volatile("{\n"
               "  .reg .pred p;\n"
               "WAIT_%=:\n"
               "  mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n"
               "  @!p bra WAIT_%=;\n"
               "}" ::"r"(smem(bar)),
               "r"(parity)
               : "memory");
#else
  unsigned done;
  do {
    asm volatile("{\n"
                 "  .reg .pred p;\n"
                 "  mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n"
                 "  selp.u32 %0, 1, 0, p;\n"
                 "}"
                 : "=r"(done)
                 : "r"(smem(bar)), "r"(parity)
                 : "memory");
  } while (!done);
#endif
}
__device__ __forceinline__ void mb_wait_state(uint64_t *bar, uint64_t state) {
  unsigned done;
  do {
    asm volatile("{\n"
                 "  .reg .pred p;\n"
                 "  mbarrier.test_wait.shared.b64 p, [%1], %2;\n"
                 "  selp.u32 %0, 1, 0, p;\n"
                 "}"
                 : "=r"(done)
                 : "r"(smem(bar)), "l"(state)
                 : "memory");
  } while (!done);
}

#define HANDOFF(name, initCount, arriveCond, waitParity, pre, post)            \
  extern "C" __global__ void name(const float *__restrict__ in,                \
                                  float *__restrict__ out) {                   \
    __shared__ float tile[64];                                                 \
    __shared__ uint64_t full;                                                  \
    unsigned t = threadIdx.x;                                                  \
    if (t == 0)                                                                \
      mb_init(&full, initCount);                                               \
    pre;                                                                       \
    if (t < 64) {                                                              \
      tile[t] = in[blockIdx.x * 64 + t];                                       \
      post;                                                                    \
      if (arriveCond)                                                          \
        mb_arrive(&full);                                                      \
    } else {                                                                   \
      unsigned c = t - 64;                                                     \
      mb_wait_parity(&full, waitParity);                                       \
      out[blockIdx.x * 64 + c] = 2.0f * tile[(c + 1) % 64];                    \
    }                                                                          \
  }

HANDOFF(mb_handoff, 64, true, 0, __syncthreads(), (void)0)
HANDOFF(mb_wrong_parity, 64, true, 1, __syncthreads(), (void)0)
HANDOFF(mb_elected, 1, t == 0, 0, __syncthreads(), (void)0)
HANDOFF(mb_count_short, 128, true, 0, __syncthreads(), (void)0)
HANDOFF(mb_init_unpublished, 64, true, 0, (void)0, (void)0)

extern "C" __global__ void mb_elected_syncwarp(const float *__restrict__ in,
                                               float *__restrict__ out) {
  __shared__ float tile[32];
  __shared__ uint64_t full;
  unsigned t = threadIdx.x;
  if (t == 0)
    mb_init(&full, 1);
  __syncthreads();
  if (t < 32) {
    tile[t] = in[blockIdx.x * 32 + t];
    __syncwarp();
    if (t == 0)
      mb_arrive(&full);
  } else if (t < 64) {
    unsigned c = t - 32;
    mb_wait_parity(&full, 0);
    out[blockIdx.x * 32 + c] = 2.0f * tile[(c + 1) % 32];
  }
}

extern "C" __global__ void mb_init_each_warp(const float *__restrict__ in,
                                             float *__restrict__ out) {
  __shared__ float tile[64];
  __shared__ uint64_t full;
  unsigned t = threadIdx.x;
  if (t % 32 == 0)
    mb_init(&full, 64);
  __syncthreads();
  if (t < 64) {
    tile[t] = in[blockIdx.x * 64 + t];
    mb_arrive(&full);
  } else {
    unsigned c = t - 64;
    mb_wait_parity(&full, 0);
    out[blockIdx.x * 64 + c] = 2.0f * tile[(c + 1) % 64];
  }
}

// Two rounds: out[c] = 2 * in[(c + 1) % 64] + in[64 + (c + 1) % 64] of the
// CTA's 128 inputs.
template <bool WaitEmpty>
__device__ void pingpong(const float *__restrict__ in,
                         float *__restrict__ out) {
  __shared__ float tile[64];
  __shared__ uint64_t full, empty;
  unsigned t = threadIdx.x;
  if (t == 0) {
    mb_init(&full, 64);
    mb_init(&empty, 64);
  }
  __syncthreads();
  if (t < 64) {
    tile[t] = in[blockIdx.x * 128 + t];
    mb_arrive(&full);
    if (WaitEmpty)
      mb_wait_parity(&empty, 0);
    tile[t] = in[blockIdx.x * 128 + 64 + t];
    mb_arrive(&full);
  } else {
    unsigned c = t - 64;
    mb_wait_parity(&full, 0);
    float a = tile[(c + 1) % 64];
    mb_arrive(&empty);
    mb_wait_parity(&full, 1);
    float b = tile[(c + 1) % 64];
    out[blockIdx.x * 64 + c] = 2.0f * a + b;
  }
}
extern "C" __global__ void mb_pingpong(const float *__restrict__ in,
                                       float *__restrict__ out) {
  pingpong<true>(in, out);
}
extern "C" __global__ void mb_pingpong_noempty(const float *__restrict__ in,
                                               float *__restrict__ out) {
  pingpong<false>(in, out);
}

extern "C" __global__ void mb_token(const float *__restrict__ in,
                                    float *__restrict__ out) {
  __shared__ float tile[128];
  __shared__ uint64_t bar;
  unsigned t = threadIdx.x;
  if (t == 0)
    mb_init(&bar, 128);
  __syncthreads();
  tile[t] = in[blockIdx.x * 128 + t];
  uint64_t state = mb_arrive(&bar);
  mb_wait_state(&bar, state);
  if (t < 64)
    out[blockIdx.x * 64 + t] = tile[(t + 1) % 128] + tile[64 + t];
}

// References (one thread) of mb_handoff and mb_pingpong over two CTAs,
// for kproof-run (test/Interpreter/mbarrier.mlir).
extern "C" __global__ void ref_handoff(const float *__restrict__ in,
                                       float *__restrict__ out) {
  for (unsigned b = 0; b < 2; ++b)
    for (unsigned c = 0; c < 64; ++c)
      out[b * 64 + c] = 2.0f * in[b * 64 + (c + 1) % 64];
}
extern "C" __global__ void ref_pingpong(const float *__restrict__ in,
                                        float *__restrict__ out) {
  for (unsigned b = 0; b < 2; ++b)
    for (unsigned c = 0; c < 64; ++c)
      out[b * 64 + c] =
          2.0f * in[b * 128 + (c + 1) % 64] + in[b * 128 + 64 + (c + 1) % 64];
}

// Misuse found in review (test/Verifier/sync-mbarrier.mlir):
//   mb_no_arrivals : the consumers wait for a phase no thread arrives in
//                    (deadlock).
//   mb_clobber     : a consumer zeroes the live barrier word with an
//                    ordinary store (only mbarrier instructions may touch
//                    it).
//   mb_second_life : thread 64 invalidates and re-initializes the barrier
//                    for a second round (not modeled: UNKNOWN).
extern "C" __global__ void mb_no_arrivals(const float *__restrict__ in,
                                          float *__restrict__ out) {
  __shared__ uint64_t full;
  unsigned t = threadIdx.x;
  if (t == 0)
    mb_init(&full, 64);
  __syncthreads();
  if (t >= 64) {
    mb_wait_parity(&full, 0);
    out[blockIdx.x * 64 + t - 64] = in[blockIdx.x * 64 + t - 64];
  }
}
extern "C" __global__ void mb_clobber(const float *__restrict__ in,
                                      float *__restrict__ out) {
  __shared__ float tile[64];
  __shared__ uint64_t full;
  unsigned t = threadIdx.x;
  if (t == 0)
    mb_init(&full, 64);
  __syncthreads();
  if (t < 64) {
    tile[t] = in[blockIdx.x * 64 + t];
    mb_arrive(&full);
  } else {
    unsigned c = t - 64;
    if (c == 0)
      *(volatile uint64_t *)&full = 0;
    mb_wait_parity(&full, 0);
    out[blockIdx.x * 64 + c] = 2.0f * tile[(c + 1) % 64];
  }
}
extern "C" __global__ void mb_second_life(const float *__restrict__ in,
                                          float *__restrict__ out) {
  __shared__ float tile[64];
  __shared__ uint64_t full;
  unsigned t = threadIdx.x;
  if (t == 64)
    mb_init(&full, 64);
  __syncthreads();
  if (t < 64) {
    tile[t] = in[blockIdx.x * 64 + t];
    mb_arrive(&full);
  } else {
    mb_wait_parity(&full, 0);
  }
  __syncthreads();
  if (t == 64) {
    asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(smem(&full))
                 : "memory");
    mb_init(&full, 64);
  }
  __syncthreads();
  if (t < 64) {
    mb_arrive(&full);
  } else {
    mb_wait_parity(&full, 0);
    out[blockIdx.x * 64 + t - 64] = 2.0f * tile[(t - 63) % 64];
  }
}

// A 4-stage ring over 8 tiles (bench/mbarrier.sh; blockDim.x = 64): warp 0
// produces tile i into stage i % 4 after the consumers released the
// stage's previous tile (a wait on empty[s] for round i / 4 - 1), warp 1
// consumes it after full[s] completes round i / 4 and releases the stage.
// out[c] = sum over i of in[i * 32 + (c + 1) % 32] of the CTA's 256 inputs.
// mb_ring4_parity waits on empty[s] with the parity of the current round
// (passes at once: the producer overwrites a stage being read).
template <bool RightParity>
__device__ void ring4(const float *__restrict__ in, float *__restrict__ out) {
  constexpr unsigned Stages = 4, Tiles = 8;
  __shared__ float tile[Stages][32];
  __shared__ uint64_t full[Stages], empty[Stages];
  unsigned t = threadIdx.x;
  if (t == 0)
    for (unsigned s = 0; s < Stages; ++s) {
      mb_init(&full[s], 32);
      mb_init(&empty[s], 32);
    }
  __syncthreads();
  if (t < 32) {
#pragma unroll
    for (unsigned i = 0; i < Tiles; ++i) {
      unsigned s = i % Stages, round = i / Stages;
      if (round > 0)
        mb_wait_parity(&empty[s], RightParity ? (round - 1) & 1 : round & 1);
      tile[s][t] = in[blockIdx.x * 256 + i * 32 + t];
      mb_arrive(&full[s]);
    }
  } else {
    unsigned c = t - 32;
    float acc = 0.0f;
#pragma unroll
    for (unsigned i = 0; i < Tiles; ++i) {
      unsigned s = i % Stages, round = i / Stages;
      mb_wait_parity(&full[s], round & 1);
      acc += tile[s][(c + 1) % 32];
      mb_arrive(&empty[s]);
    }
    out[blockIdx.x * 32 + c] = acc;
  }
}
extern "C" __global__ void mb_ring4(const float *__restrict__ in,
                                    float *__restrict__ out) {
  ring4<true>(in, out);
}
extern "C" __global__ void mb_ring4_parity(const float *__restrict__ in,
                                           float *__restrict__ out) {
  ring4<false>(in, out);
}

// mb_pingpong_early_release: the consumers release the tile (arrive at
// `empty`) before reading it, so the producers' second round may
// overwrite it first (a race ordered by nothing: the chain full -> empty
// the model sees starts at a barrier the consumers never arrive at).
extern "C" __global__ void
mb_pingpong_early_release(const float *__restrict__ in,
                          float *__restrict__ out) {
  __shared__ float tile[64];
  __shared__ uint64_t full, empty;
  unsigned t = threadIdx.x;
  if (t == 0) {
    mb_init(&full, 64);
    mb_init(&empty, 64);
  }
  __syncthreads();
  if (t < 64) {
    tile[t] = in[blockIdx.x * 128 + t];
    mb_arrive(&full);
    mb_wait_parity(&empty, 0);
    tile[t] = in[blockIdx.x * 128 + 64 + t];
    mb_arrive(&full);
  } else {
    unsigned c = t - 64;
    mb_wait_parity(&full, 0);
    mb_arrive(&empty);
    float a = tile[(c + 1) % 64];
    mb_wait_parity(&full, 1);
    float b = tile[(c + 1) % 64];
    out[blockIdx.x * 64 + c] = 2.0f * a + b;
  }
}
