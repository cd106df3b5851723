// soundness.cu -- kernels of our own for the soundness bug classes of issue 18:
// planted bugs that a verifier must REFUTE, their correct twins that it must
// PROVE, and small shapes that must not take long.
//
//   decode_skip_race        BUG: decode-attention key-tile loop; a warp whose
//                           keys are all masked (-inf in the float mask tile)
//                           `continue`s before the trailing __syncthreads(),
//                           so it refills the shared tile while the other
//                           warp still reads it (race).
//   decode_skip_ok          correct twin: the skip is decided CTA-wide with
//                           __syncthreads_or, every thread passes the same
//                           barriers.
//   decode_skip_ok_barrier  correct twin: the warp skips only the accumulation,
//                           every thread reaches the trailing barrier.
//   decode_skip_race_window BUG: the same race, the -inf entries made by the
//                           kernel for keys outside a window [lo, hi).
//   ww_same_value           BUG: every CTA writes p[tid] = tid, a write-write
//                           race across CTAs (equal values).
//   ww_overlap_equal        BUG: CTAs b and b+1 both write y[63*(b+1)] (the
//                           constant 1.0f): a write-write race with equal values.
//   oob_store               BUG: out[tid + 1] = in[tid] into 32 elements with 32
//                           threads: the last thread stores past the end.
//   oob_copy                BUG when out has fewer elements than threads:
//                           out[tid] = in[tid], no guard (contract: out of 16
//                           elements, 32 threads).
//   oob_copy_guarded        correct twin: if (tid < n) out[tid] = in[tid].
//   local_scratch           correct: a dynamically indexed per-thread array
//                           (.local under -G and -O3); no races.
//   local_scratch_loop      correct: a per-thread array indexed by loop counters
//                           (.local under -G, registers under -O3); no races.
//   atomic_counter          correct (counter == 0 at launch): each thread takes
//                           a distinct slot with atomicAdd and writes it.
//   atomic_sum_block        correct: one CTA, atomicAdd of every input into one
//                           global float.
//   atomic_hist_block       correct: one CTA, a 4-bin shared histogram of weights
//                           with shared atomics, copied out after a barrier.
//   ref_lse_branch          REFERENCE (spec) kernel: one thread per row, masked
//                           logsumexp of the first n of 4 columns, -INFINITY on
//                           the empty-row branch (n <= 0).
//   lse_row                 correct: the same with an online max + rescaled sum.
//   attn_tile_4thr          correct: one query, two keys, d = 4, 4 threads; lane
//                           partial dot products in shared memory, every thread
//                           does the online softmax over the 2 keys and writes
//                           its output column.
//   attn_tile_4thr_lane0    correct: the same, lane 0 alone does the online
//                           softmax and writes the output row.
//   softmax_2warp_scratch   correct: softmax of one row of 64 floats by 2 warps,
//                           a 2-float shared scratch reused for the max and the
//                           sum phases (barrier between).
//
// __expf/__logf are written explicitly; compiled WITHOUT --use_fast_math.

#include <math.h>

#define FULL 0xffffffffu

// decode_skip_race -- BUG (race). 64 threads (2 warps), 4 tiles of 64 keys.
// Each iteration the CTA loads the tile's float mask (0 or -INFINITY) into
// shared memory; thread t handles key 63 - t of the tile, so warp 0 handles
// the keys whose mask warp 1 loaded and vice versa. A warp whose 32 keys are
// all masked skips the rest of the iteration, including the trailing
// barrier: its next fill races with the other warp's read of the current
// tile (mask[0..31] == -inf: warp 1 skips tile 0 and refills mt[32..63]
// while warp 0 still reads them).
extern "C" __global__ void decode_skip_race(const float *__restrict__ s,
                                            const float *__restrict__ mask,
                                            float *__restrict__ out) {
  __shared__ float mt[64];
  unsigned t = threadIdx.x; // blockDim.x == 64, one CTA
  float acc = 0.0f;
  for (int k = 0; k < 4; ++k) {
    mt[t] = mask[k * 64 + t];
    __syncthreads();
    float m = mt[63 - t];
    if (__all_sync(FULL, m == -INFINITY))
      continue; // skips the trailing barrier
    acc += __expf(s[k * 64 + 63 - t] + m);
    __syncthreads();
  }
  out[t] = acc;
}

// decode_skip_ok -- correct twin: the skip is CTA-uniform (__syncthreads_or is
// a barrier and returns the same value to every thread), so all threads pass
// the same barriers in every iteration.
extern "C" __global__ void decode_skip_ok(const float *__restrict__ s,
                                          const float *__restrict__ mask,
                                          float *__restrict__ out) {
  __shared__ float mt[64];
  unsigned t = threadIdx.x; // blockDim.x == 64, one CTA
  float acc = 0.0f;
  for (int k = 0; k < 4; ++k) {
    mt[t] = mask[k * 64 + t];
    __syncthreads();
    float m = mt[63 - t];
    if (!__syncthreads_or(m != -INFINITY))
      continue; // every thread skips, after the same barriers
    acc += __expf(s[k * 64 + 63 - t] + m);
    __syncthreads();
  }
  out[t] = acc;
}

// decode_skip_ok_barrier -- correct twin: the warp-level skip only bypasses
// the accumulation; every thread reaches the trailing barrier.
extern "C" __global__ void decode_skip_ok_barrier(const float *__restrict__ s,
                                                  const float *__restrict__ mask,
                                                  float *__restrict__ out) {
  __shared__ float mt[64];
  unsigned t = threadIdx.x; // blockDim.x == 64, one CTA
  float acc = 0.0f;
  for (int k = 0; k < 4; ++k) {
    mt[t] = mask[k * 64 + t];
    __syncthreads();
    float m = mt[63 - t];
    if (!__all_sync(FULL, m == -INFINITY))
      acc += __expf(s[k * 64 + 63 - t] + m);
    __syncthreads();
  }
  out[t] = acc;
}

// decode_skip_race_window -- BUG (race), the same loop with the -INFINITY
// made by the kernel: keys outside the window [lo, hi) are masked (their
// tile entry is -INFINITY), so the skip is reachable for finite inputs
// (lo = 32: warp 1 skips tile 0).
extern "C" __global__ void decode_skip_race_window(const float *__restrict__ s,
                                                   const float *__restrict__ mask,
                                                   float *__restrict__ out,
                                                   int lo, int hi) {
  __shared__ float tile[64];
  unsigned t = threadIdx.x; // blockDim.x == 64, one CTA
  float acc = 0.0f;
  for (int k = 0; k < 4; ++k) {
    int j = k * 64 + (int)t;
    tile[t] = (j >= lo && j < hi) ? s[j] + mask[j] : -INFINITY;
    __syncthreads();
    float v = tile[63 - t];
    if (__all_sync(FULL, v == -INFINITY))
      continue; // skips the trailing barrier
    acc += __expf(v);
    __syncthreads();
  }
  out[t] = acc;
}

// ww_same_value -- BUG: every thread of every CTA writes p[tid] = tid; CTAs
// write the same elements (equal values, still a race).
extern "C" __global__ void ww_same_value(float *__restrict__ p) {
  p[threadIdx.x] = (float)threadIdx.x;
}

// ww_overlap_equal -- BUG: 64 threads per CTA, CTA b writes y[63*b + t]; the
// element 63*(b+1) is written by thread 63 of CTA b and thread 0 of CTA b+1,
// both with 1.0f.
extern "C" __global__ void ww_overlap_equal(const float *__restrict__ x,
                                            float *__restrict__ y) {
  unsigned t = threadIdx.x; // blockDim.x == 64
  unsigned g = blockIdx.x * 63u + t;
  y[g] = (t == 0u || t == 63u) ? 1.0f : x[g];
}

// oob_store -- BUG: 32 threads, out has 32 elements; thread 31 writes out[32].
extern "C" __global__ void oob_store(const float *__restrict__ in,
                                     float *__restrict__ out) {
  out[threadIdx.x + 1] = in[threadIdx.x];
}

// oob_copy -- BUG for a 32-thread launch with a 16-element out: no guard.
extern "C" __global__ void oob_copy(const float *__restrict__ in,
                                    float *__restrict__ out) {
  out[threadIdx.x] = in[threadIdx.x];
}

// oob_copy_guarded -- correct twin: only the first n threads store.
extern "C" __global__ void oob_copy_guarded(const float *__restrict__ in,
                                            float *__restrict__ out, int n) {
  int i = (int)threadIdx.x;
  if (i < n)
    out[i] = in[i];
}

// local_scratch -- correct: thread t rotates its row of 8 through a per-thread
// array with a thread-dependent index (spilled to .local):
// out[t*8 + j] = 2 * in[t*8 + ((j - t) & 7)].
extern "C" __global__ void local_scratch(const float *__restrict__ in,
                                         float *__restrict__ out) {
  float buf[8];
  unsigned t = threadIdx.x;
  for (unsigned k = 0; k < 8; ++k)
    buf[(t + k) & 7u] = in[t * 8u + k];
  for (unsigned j = 0; j < 8; ++j)
    out[t * 8u + j] = buf[j] + buf[j];
}

// local_scratch_loop -- correct: a per-thread array filled and read in loops
// with constant bounds; -G keeps it in .local (generic stores through
// cvta.local), -O3 in registers. out[g] = sum_k (k + 1) * in[g*4 + k].
extern "C" __global__ void local_scratch_loop(const float *__restrict__ in,
                                              float *__restrict__ out) {
  float buf[4];
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4; ++k)
    buf[k] = in[g * 4u + k];
  float s = 0.0f;
  for (int k = 0; k < 4; ++k)
    s += buf[k] * (float)(k + 1);
  out[g] = s;
}

// atomic_counter -- correct, assuming *counter == 0 at launch (the host
// zeroes it): atomicAdd hands every thread of the grid a distinct slot in
// [0, total threads), each thread writes its slot once.
extern "C" __global__ void atomic_counter(const float *__restrict__ in,
                                          int *__restrict__ counter,
                                          float *__restrict__ out) {
  int slot = atomicAdd(counter, 1);
  out[slot] = in[blockIdx.x * blockDim.x + threadIdx.x];
}

// atomic_sum_block -- correct: one CTA, *sum += in[t] atomically (the host
// zeroes *sum).
extern "C" __global__ void atomic_sum_block(const float *__restrict__ in,
                                            float *__restrict__ sum) {
  atomicAdd(sum, in[threadIdx.x]);
}

// atomic_hist_block -- correct: one CTA of 32 threads; bins[key[t] & 3] +=
// w[t] with shared atomics between two barriers, threads 0..3 copy a bin out.
extern "C" __global__ void atomic_hist_block(const int *__restrict__ key,
                                             const float *__restrict__ w,
                                             float *__restrict__ hist) {
  __shared__ float bins[4];
  unsigned t = threadIdx.x;
  if (t < 4u)
    bins[t] = 0.0f;
  __syncthreads();
  atomicAdd(&bins[key[t] & 3], w[t]);
  __syncthreads();
  if (t < 4u)
    hist[t] = bins[t];
}

// ref_lse_branch -- REFERENCE kernel (a spec): thread r computes the
// logsumexp of the first n of the 4 entries of row r, plainly: max, then the
// sum of exponentials. An empty row (n <= 0) is -INFINITY.
extern "C" __global__ void ref_lse_branch(const float *__restrict__ x,
                                          float *__restrict__ y, int n) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  const float *row = x + r * 4u;
  if (n <= 0) {
    y[r] = -INFINITY;
    return;
  }
  float m = row[0];
  for (int i = 1; i < 4; ++i)
    if (i < n)
      m = fmaxf(m, row[i]);
  float sum = 0.0f;
  for (int i = 0; i < 4; ++i)
    if (i < n)
      sum += __expf(row[i] - m);
  y[r] = m + __logf(sum);
}

// lse_row -- correct: the same logsumexp in one pass (online max with the
// running sum rescaled when the max grows).
extern "C" __global__ void lse_row(const float *__restrict__ x,
                                   float *__restrict__ y, int n) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  const float *row = x + r * 4u;
  float m = -INFINITY, sum = 0.0f;
  for (int i = 0; i < 4; ++i) {
    if (i < n) {
      float v = row[i];
      if (v > m) {
        sum = sum * __expf(m - v) + 1.0f;
        m = v;
      } else {
        sum += __expf(v - m);
      }
    }
  }
  y[r] = (n > 0) ? m + __logf(sum) : -INFINITY;
}

// attn_tile_4thr -- correct: attention of one query q[4] over two keys k[2][4]
// with values v[2][4], scale `scale`; thread t puts q[t]*k[j][t] in shared
// memory, then every thread sums the 4 partials of each key, runs the online
// softmax over the 2 keys and writes its output column out[t].
extern "C" __global__ void attn_tile_4thr(const float *__restrict__ q,
                                          const float *__restrict__ k,
                                          const float *__restrict__ v,
                                          float *__restrict__ out,
                                          float scale) {
  __shared__ float part[2][4];
  unsigned t = threadIdx.x; // blockDim.x == 4
  part[0][t] = q[t] * k[t];
  part[1][t] = q[t] * k[4 + t];
  __syncthreads();
  float m = -INFINITY, l = 0.0f, acc = 0.0f;
  for (int j = 0; j < 2; ++j) {
    float sc = (part[j][0] + part[j][1] + part[j][2] + part[j][3]) * scale;
    float mn = fmaxf(m, sc);
    float a = __expf(m - mn), p = __expf(sc - mn);
    l = l * a + p;
    acc = acc * a + p * v[j * 4 + t];
    m = mn;
  }
  out[t] = acc / l;
}

// attn_tile_4thr_lane0 -- correct: the same, lane 0 alone reduces the
// partials, runs the online softmax and writes the output row out[0..3].
extern "C" __global__ void attn_tile_4thr_lane0(const float *__restrict__ q,
                                                const float *__restrict__ k,
                                                const float *__restrict__ v,
                                                float *__restrict__ out,
                                                float scale) {
  __shared__ float part[2][4];
  unsigned t = threadIdx.x; // blockDim.x == 4
  part[0][t] = q[t] * k[t];
  part[1][t] = q[t] * k[4 + t];
  __syncthreads();
  if (t == 0) {
    float m = -INFINITY, l = 0.0f, acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int j = 0; j < 2; ++j) {
      float sc = (part[j][0] + part[j][1] + part[j][2] + part[j][3]) * scale;
      float mn = fmaxf(m, sc);
      float a = __expf(m - mn), p = __expf(sc - mn);
      l = l * a + p;
      for (int c = 0; c < 4; ++c)
        acc[c] = acc[c] * a + p * v[j * 4 + c];
      m = mn;
    }
    for (int c = 0; c < 4; ++c)
      out[c] = acc[c] / l;
  }
}

// softmax_2warp_scratch -- correct: 64 threads, one row of 64 floats. Warp max
// by shuffles, per-warp max in scratch[2], barrier, combine, barrier, then the
// same scratch holds the per-warp sums.
extern "C" __global__ void softmax_2warp_scratch(const float *__restrict__ x,
                                                 float *__restrict__ y) {
  __shared__ float scratch[2];
  unsigned t = threadIdx.x; // blockDim.x == 64
  unsigned lane = t & 31u, w = t >> 5;
  float v = x[t];
  float m = v;
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(FULL, m, o));
  if (lane == 0u)
    scratch[w] = m;
  __syncthreads();
  m = fmaxf(scratch[0], scratch[1]);
  __syncthreads(); // scratch is rewritten below
  float e = __expf(v - m);
  float s = e;
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(FULL, s, o);
  if (lane == 0u)
    scratch[w] = s;
  __syncthreads();
  y[t] = e / (scratch[0] + scratch[1]);
}
